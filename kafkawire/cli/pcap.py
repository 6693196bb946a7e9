"""TCP byte streams out of a classic pcap capture (what ``tcpdump -w`` writes).

:func:`tcp_streams` yields, in capture order, the bytes each TCP connection carried in
each direction, reassembled by sequence number: retransmitted bytes are dropped,
segments that arrive early wait for the gap before them.  Link types: Ethernet (with
802.1Q tags), Linux cooked v1 and v2, BSD loopback, raw IPv4/IPv6.  pcapng files and
IP fragments are not read.  Every problem with the file raises
:class:`~kafkawire.errors.InvalidCaptureError`.
"""

from __future__ import annotations

import ipaddress
import struct
from typing import BinaryIO, Dict, Iterable, Iterator, NamedTuple, Optional, Tuple, Union

from kafkawire.errors import InvalidCaptureError

_MAX_RECORD = 1 << 18  # larger than any snapshot length tcpdump writes
_MAX_EARLY_BYTES = 64 << 20  # out-of-order bytes held per direction before giving up
_FIN, _SYN, _RST, _ACK = 0x01, 0x02, 0x04, 0x10

Endpoint = Tuple[str, int]


class StreamData(NamedTuple):
    """Bytes that one direction of a TCP connection carried, in order."""

    client: Endpoint  # the side that sent the SYN (or, without one, not on a server port)
    server: Endpoint
    from_client: bool
    data: bytes


class StreamEnd(NamedTuple):
    """A connection closed (FIN or RST) or the capture ended with it open."""

    client: Endpoint
    server: Endpoint
    why: str


class _Direction:
    __slots__ = ("next_seq", "early", "finished")

    def __init__(self) -> None:
        self.next_seq: Optional[int] = None
        self.early: Dict[int, bytes] = {}
        self.finished = False

    def take(self, seq: int, payload: bytes) -> bytes:
        """The in-order bytes this segment makes available."""
        if self.next_seq is None:  # no SYN seen: the stream starts here
            self.next_seq = seq
        offset = (seq - self.next_seq) & 0xFFFFFFFF
        if offset >= 1 << 31:  # starts before what was delivered: a retransmission
            behind = (1 << 32) - offset
            if behind >= len(payload):
                return b""
            payload, offset = payload[behind:], 0
        if offset:
            self.early[seq] = payload
            if sum(len(p) for p in self.early.values()) > _MAX_EARLY_BYTES:
                raise InvalidCaptureError(
                    f"more than {_MAX_EARLY_BYTES} bytes wait for a gap that is never filled"
                )
            return b""
        out = [payload]
        self.next_seq = (self.next_seq + len(payload)) & 0xFFFFFFFF
        while self.early:  # segments that were waiting for this one
            for early_seq, early in list(self.early.items()):
                offset = (early_seq - self.next_seq) & 0xFFFFFFFF
                if offset >= 1 << 31:
                    del self.early[early_seq]
                    behind = (1 << 32) - offset
                    if behind < len(early):
                        out.append(early[behind:])
                        self.next_seq = (self.next_seq + len(early) - behind) & 0xFFFFFFFF
                    break
                if offset == 0:
                    del self.early[early_seq]
                    out.append(early)
                    self.next_seq = (self.next_seq + len(early)) & 0xFFFFFFFF
                    break
            else:
                break
        return b"".join(out)


def _records(fh: BinaryIO) -> Iterator[Tuple[int, bytes]]:
    """``(link type, packet bytes)`` of every record of a classic pcap file."""
    head = fh.read(24)
    if len(head) < 24:
        raise InvalidCaptureError(f"a pcap file starts with a 24-byte header; this one has {len(head)} bytes")
    magic = head[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        order = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        order = ">"
    elif magic == b"\x0a\x0d\x0d\x0a":
        raise InvalidCaptureError(
            "this is a pcapng file; write classic pcap (tcpdump -w, or editcap -F pcap)"
        )
    else:
        raise InvalidCaptureError(f"not a pcap file (magic {magic.hex()})")
    link_type = struct.unpack(order + "I", head[20:24])[0] & 0x0FFFFFFF
    record = struct.Struct(order + "IIII")
    n = 0
    while True:
        rec = fh.read(16)
        if not rec:
            return
        if len(rec) < 16:
            raise InvalidCaptureError(f"record {n}: the file ends inside its 16-byte header")
        _, _, incl_len, _ = record.unpack(rec)
        if incl_len > _MAX_RECORD:
            raise InvalidCaptureError(f"record {n} declares {incl_len} bytes, over {_MAX_RECORD}")
        packet = fh.read(incl_len)
        if len(packet) < incl_len:
            raise InvalidCaptureError(f"record {n}: the file ends {incl_len - len(packet)} bytes early")
        yield link_type, packet
        n += 1


def _ip_payload(link_type: int, packet: bytes) -> Optional[bytes]:
    """The IP packet inside a link-layer frame, or None when it holds something else."""
    if link_type == 1:  # Ethernet
        pos, ethertype = 12, None
        while pos + 2 <= len(packet):
            ethertype = struct.unpack_from(">H", packet, pos)[0]
            if ethertype in (0x8100, 0x88A8):  # VLAN tags
                pos += 4
                continue
            pos += 2
            break
        return packet[pos:] if ethertype in (0x0800, 0x86DD) else None
    if link_type == 113:  # Linux cooked v1
        return packet[16:] if packet[14:16] in (b"\x08\x00", b"\x86\xdd") else None
    if link_type == 276:  # Linux cooked v2
        return packet[20:] if packet[0:2] in (b"\x08\x00", b"\x86\xdd") else None
    if link_type == 0:  # BSD loopback: a 4-byte family in the writer's byte order
        return packet[4:]
    if link_type in (12, 14, 101, 228, 229):  # raw IP
        return packet
    raise InvalidCaptureError(
        f"link type {link_type} is not read (Ethernet, Linux cooked, loopback, raw IP are)"
    )


def _tcp_segment(ip: bytes) -> Optional[Tuple[Tuple[str, int], Tuple[str, int], int, int, bytes]]:
    """``(src, dst, flags, seq, payload)`` of a TCP segment, or None."""
    if len(ip) < 1:
        return None
    version = ip[0] >> 4
    if version == 4:
        if len(ip) < 20:
            return None
        ihl = (ip[0] & 0x0F) * 4
        total, frag, proto = struct.unpack_from(">H2xH1xB", ip, 2)
        if proto != 6 or frag & 0x3FFF:  # not TCP, or a fragment
            return None
        src, dst = str(ipaddress.IPv4Address(ip[12:16])), str(ipaddress.IPv4Address(ip[16:20]))
        tcp = ip[ihl : min(total, len(ip))] if total else ip[ihl:]
    elif version == 6:
        if len(ip) < 40 or ip[6] != 6:
            return None
        length = struct.unpack_from(">H", ip, 4)[0]
        src, dst = str(ipaddress.IPv6Address(ip[8:24])), str(ipaddress.IPv6Address(ip[24:40]))
        tcp = ip[40 : 40 + length]
    else:
        return None
    if len(tcp) < 20:
        return None
    sport, dport, seq = struct.unpack_from(">HHI", tcp, 0)
    data_offset = (tcp[12] >> 4) * 4
    flags = tcp[13]
    return (src, sport), (dst, dport), flags, seq, tcp[data_offset:]


def tcp_streams(
    fh: BinaryIO, server_ports: Iterable[int] = (9092,)
) -> Iterator[Union[StreamData, StreamEnd]]:
    """:class:`StreamData` and :class:`StreamEnd` items of every TCP connection in the
    capture ``fh`` (a binary file).  A connection's server is the side that received
    its SYN; without a SYN in the capture, the side on one of ``server_ports``
    (connections on no such port are skipped)."""
    flows: Dict[Tuple[Endpoint, Endpoint], Tuple[_Direction, _Direction]] = {}
    ports = set(server_ports)
    for link_type, packet in _records(fh):
        ip = _ip_payload(link_type, packet)
        seg = _tcp_segment(ip) if ip is not None else None
        if seg is None:
            continue
        src, dst, flags, seq, payload = seg
        if (src, dst) in flows:
            client, server, from_client = src, dst, True
        elif (dst, src) in flows:
            client, server, from_client = dst, src, False
        elif flags & _SYN and not flags & _ACK:
            client, server, from_client = src, dst, True
        elif dst[1] in ports:
            client, server, from_client = src, dst, True
        elif src[1] in ports:
            client, server, from_client = dst, src, False
        else:
            continue
        key = (client, server)
        if flags & _SYN:  # a new connection on this pair: end an old one
            if from_client and key in flows and any(d.next_seq is not None for d in flows[key]):
                yield StreamEnd(client, server, "the port pair was reused by a new connection")
                del flows[key]
            directions = flows.setdefault(key, (_Direction(), _Direction()))
            directions[0 if from_client else 1].next_seq = (seq + 1) & 0xFFFFFFFF
            continue
        directions = flows.setdefault(key, (_Direction(), _Direction()))
        if payload:
            data = directions[0 if from_client else 1].take(seq, payload)
            if data:
                yield StreamData(client, server, from_client, data)
        if flags & _FIN:  # half-close: the other side may still send
            directions[0 if from_client else 1].finished = True
        if flags & _RST or all(d.finished for d in directions):
            del flows[key]
            yield StreamEnd(client, server, "reset" if flags & _RST else "both sides closed")
    for client, server in flows:
        yield StreamEnd(client, server, "the capture ended")


__all__ = [
    "StreamData",
    "StreamEnd",
    "tcp_streams",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
