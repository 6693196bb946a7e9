"""kafkawire.cli.pcap on captures written byte by byte here (the classic pcap layout, the
Ethernet, 802.1Q, Linux cooked, loopback, IPv4, IPv6 and TCP headers): reassembly
against the bytes that were sent, however the segments are cut, repeated and reordered;
how connections end; which packets are skipped; and the error for each malformed file."""

from __future__ import annotations

import io
import random
import struct

import pytest

from kafkawire.cli import pcap
from kafkawire.errors import InvalidCaptureError
from kafkawire.cli.pcap import StreamData, StreamEnd

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10
CLIENT, SERVER = ("10.0.0.1", 40000), ("10.0.0.2", 9092)


def tcp(sport, dport, seq, flags, payload=b""):
    return struct.pack(">HHIIBBHHH", sport, dport, seq, 0, 5 << 4, flags, 65535, 0, 0) + payload


def ipv4(src, dst, segment, proto=6, frag=0):
    return (
        struct.pack(">BBHHHBBH", 0x45, 0, 20 + len(segment), 0, frag, 64, proto, 0)
        + bytes(int(x) for x in src.split("."))
        + bytes(int(x) for x in dst.split("."))
        + segment
    )


def ipv6(src: bytes, dst: bytes, segment, next_header=6):
    return struct.pack(">IHBB", 6 << 28, len(segment), next_header, 64) + src + dst + segment


def ethernet(ip, vlan=False, ethertype=0x0800):
    tag = struct.pack(">HH", 0x8100, 7) if vlan else b""
    return b"\x02" * 6 + b"\x04" * 6 + tag + struct.pack(">H", ethertype) + ip


def capture(packets, link_type=1, order="<", magic=0xA1B2C3D4):
    out = struct.pack(order + "IHHiIII", magic, 2, 4, 0, 0, 65535, link_type)
    for n, p in enumerate(packets):
        out += struct.pack(order + "IIII", n, 0, len(p), len(p)) + p
    return out


def segment(src, dst, seq, flags, payload=b"", **kw):
    return ethernet(ipv4(src[0], dst[0], tcp(src[1], dst[1], seq, flags, payload)), **kw)


def streams(data, **kw):
    return list(pcap.tcp_streams(io.BytesIO(data), **kw))


def joined(items, from_client):
    return b"".join(i.data for i in items if isinstance(i, StreamData) and i.from_client == from_client)


def _cut(data: bytes, isn: int, rnd: random.Random):
    """``data`` as TCP segments from sequence number ``isn``: random sizes, some sent
    twice, some swapped with the next one, some retransmitted overlapping the last."""
    pieces, pos = [], 0
    while pos < len(data):
        n = rnd.randint(1, 9)
        pieces.append(((isn + pos) & 0xFFFFFFFF, data[pos : pos + n]))
        if rnd.random() < 0.2:
            pieces.append(pieces[-1])  # sent twice
        if rnd.random() < 0.2 and pos > 3:  # a retransmission that starts before the edge
            pieces.append(((isn + pos - 3) & 0xFFFFFFFF, data[pos - 3 : pos + n]))
        pos += n
    for i in range(len(pieces) - 1):
        if rnd.random() < 0.3:
            pieces[i], pieces[i + 1] = pieces[i + 1], pieces[i]
    return pieces


@pytest.mark.parametrize("seed", range(6))
def test_both_directions_reassemble_to_the_bytes_sent(seed):
    rnd = random.Random(seed)
    request, response = rnd.randbytes(300), rnd.randbytes(200)
    c_isn, s_isn = 0xFFFFFF80, 0x7FFFFFF0  # the client's sequence numbers wrap past 2**32
    packets = [segment(CLIENT, SERVER, c_isn - 1, SYN), segment(SERVER, CLIENT, s_isn - 1, SYN | ACK)]
    for seq, data in _cut(request, c_isn, rnd):
        packets.append(segment(CLIENT, SERVER, seq, PSH | ACK, data))
    for seq, data in _cut(response, s_isn, rnd):
        packets.append(segment(SERVER, CLIENT, seq, PSH | ACK, data))
    packets += [
        segment(CLIENT, SERVER, (c_isn + 300) & 0xFFFFFFFF, FIN | ACK),
        segment(SERVER, CLIENT, s_isn + 200, FIN | ACK),
    ]
    items = streams(capture(packets))
    assert joined(items, True) == request and joined(items, False) == response
    assert {(i.client, i.server) for i in items} == {(CLIENT, SERVER)}
    assert items[-1] == StreamEnd(CLIENT, SERVER, "both sides closed")


def test_how_connections_end():
    other = ("10.0.0.3", 40001)
    packets = [
        segment(CLIENT, SERVER, 99, SYN),
        segment(CLIENT, SERVER, 100, ACK, b"one"),
        segment(other, SERVER, 499, SYN),
        segment(other, SERVER, 500, ACK, b"x"),
        segment(SERVER, other, 7, RST),
        segment(CLIENT, SERVER, 199, SYN),  # the same port pair again: a new connection
        segment(CLIENT, SERVER, 200, ACK, b"two"),
    ]
    items = streams(capture(packets))
    assert items == [
        StreamData(CLIENT, SERVER, True, b"one"),
        StreamData(other, SERVER, True, b"x"),
        StreamEnd(other, SERVER, "reset"),
        StreamEnd(CLIENT, SERVER, "the port pair was reused by a new connection"),
        StreamData(CLIENT, SERVER, True, b"two"),
        StreamEnd(CLIENT, SERVER, "the capture ended"),
    ]


def test_without_a_syn_the_server_is_the_side_on_a_server_port():
    packets = [
        segment(SERVER, CLIENT, 5000, ACK, b"resp"),  # mid-connection, server first
        segment(CLIENT, SERVER, 9000, ACK, b"req"),
        segment(("10.0.0.5", 1234), ("10.0.0.6", 80), 1, ACK, b"web"),
    ]  # no server port
    items = streams(capture(packets))
    assert items[:2] == [StreamData(CLIENT, SERVER, False, b"resp"), StreamData(CLIENT, SERVER, True, b"req")]
    assert all(i.server == SERVER for i in items)
    other = streams(capture(packets), server_ports=(80,))
    assert [i.data for i in other if isinstance(i, StreamData)] == [b"web"]


@pytest.mark.parametrize(
    "link_type,frame",
    [
        (1, lambda ip: ethernet(ip, vlan=True)),
        (113, lambda ip: b"\x00" * 14 + b"\x08\x00" + ip),  # Linux cooked v1
        (276, lambda ip: b"\x08\x00" + b"\x00" * 18 + ip),  # Linux cooked v2
        (0, lambda ip: struct.pack("<I", 2) + ip),  # BSD loopback
        (101, lambda ip: ip),  # raw IP
    ],
)
def test_link_types(link_type, frame):
    ip = ipv4(CLIENT[0], SERVER[0], tcp(CLIENT[1], SERVER[1], 1, ACK, b"payload"))
    (data, end) = streams(capture([frame(ip)], link_type=link_type))
    assert data == StreamData(CLIENT, SERVER, True, b"payload")
    assert end.why == "the capture ended"


def test_ipv6_and_a_big_endian_nanosecond_file():
    a, b = bytes(15) + b"\x01", bytes(15) + b"\x02"
    ip = ipv6(a, b, tcp(40000, 9092, 1, ACK, b"six"))
    (data, _end) = streams(capture([ethernet(ip, ethertype=0x86DD)], order=">", magic=0xA1B23C4D))
    assert data == StreamData(("::1", 40000), ("::2", 9092), True, b"six")


def test_what_is_not_a_tcp_segment_is_skipped():
    udp = ipv4(CLIENT[0], SERVER[0], tcp(CLIENT[1], SERVER[1], 1, ACK, b"u"), proto=17)
    fragment = ipv4(CLIENT[0], SERVER[0], tcp(CLIENT[1], SERVER[1], 1, ACK, b"f"), frag=0x2000)
    packets = [
        ethernet(udp),
        ethernet(fragment),
        ethernet(b"\x45" + bytes(5)),  # short IPv4
        ethernet(b"\x60" + bytes(10), ethertype=0x86DD),  # short IPv6
        ethernet(b"\x70" + bytes(30)),  # IP version 7
        ethernet(ipv4(CLIENT[0], SERVER[0], b"\x00" * 8)),  # short TCP header
        ethernet(b"arp", ethertype=0x0806),
        ethernet(ipv6(bytes(16), bytes(16), b"udp", next_header=17), ethertype=0x86DD),
    ]
    assert streams(capture(packets)) == []
    assert streams(capture([b"\x00" * 14 + b"\x08\x06" + b"arp"], link_type=113)) == []


@pytest.mark.parametrize(
    "data,message",
    [
        (b"\xd4\xc3\xb2\xa1" + bytes(10), "a pcap file starts with a 24-byte header; this one has 14 bytes"),
        (
            b"\x0a\x0d\x0d\x0a" + bytes(40),
            "this is a pcapng file; write classic pcap (tcpdump -w, or editcap -F pcap)",
        ),
        (b"GIF89a" + bytes(40), "not a pcap file (magic 47494638)"),
        (capture([]) + bytes(7), "record 0: the file ends inside its 16-byte header"),
        (
            capture([]) + struct.pack("<IIII", 0, 0, 1 << 20, 1 << 20),
            "record 0 declares 1048576 bytes, over 262144",
        ),
        (capture([b"x" * 10])[:-4], "record 0: the file ends 4 bytes early"),
        (
            capture([b"x"], link_type=105),
            "link type 105 is not read (Ethernet, Linux cooked, loopback, raw IP are)",
        ),
    ],
)
def test_malformed_captures(data, message):
    with pytest.raises(InvalidCaptureError) as info:
        streams(data)
    assert str(info.value) == message


def test_bytes_waiting_for_a_gap_that_never_fills_are_bounded(monkeypatch):
    monkeypatch.setattr(pcap, "_MAX_EARLY_BYTES", 20)
    packets = [segment(CLIENT, SERVER, 99, SYN)]
    packets += [segment(CLIENT, SERVER, 200 + 10 * i, ACK, b"x" * 10) for i in range(3)]  # 100-199 missing
    with pytest.raises(InvalidCaptureError, match="^more than 20 bytes wait for a gap that is never filled$"):
        streams(capture(packets))
