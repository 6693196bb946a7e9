"""Reading recorded conversations back: real librdkafka traffic through a relay, as two
byte streams and as a pcap capture written by scapy (an independent pcap and TCP
writer), with segments split, reordered and retransmitted."""

from __future__ import annotations

import io
import json
import os
import random
import socket
import struct
import tempfile
import threading

import pytest

from kafkawire.cli import decode as decodecmd
from kafkawire import errors
from kafkawire.broker import Broker
from kafkawire.cli.conversation import Conversation, event_json, pcap_conversations
from kafkawire.cli.pcap import StreamData, tcp_streams

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]


class Relay:
    """A TCP relay on 127.0.0.1 that records, per connection, every chunk it forwards
    as ``(from_client, bytes)`` in the order it forwarded them."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(30)
        self.port = self.listener.getsockname()[1]
        self.connections = []
        self._lock = threading.Lock()
        self._threads = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=30)
            chunks = []
            self.connections.append(chunks)
            for src, dst, from_client in ((client, upstream, True), (upstream, client, False)):
                t = threading.Thread(target=self._pump, args=(src, dst, from_client, chunks), daemon=True)
                t.start()
                self._threads.append(t)

    def _pump(self, src, dst, from_client, chunks) -> None:
        src.settimeout(30)
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                with self._lock:  # record and forward as one step: the order is the wire's
                    chunks.append((from_client, data))
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()
        for t in self._threads:
            t.join(10)


@pytest.fixture(scope="module")
def librdkafka_connections():
    """Every connection of librdkafka creating a topic on a test broker and asking for
    its metadata, each as the chunks the relay forwarded."""
    pytest.importorskip("confluent_kafka")
    from confluent_kafka.admin import AdminClient, NewTopic

    with Broker(num_partitions=2) as broker:
        relay = Relay(broker.port)
        broker.port = relay.port  # advertise the relay: every connection passes through it
        try:
            admin = AdminClient(
                {
                    "bootstrap.servers": f"127.0.0.1:{relay.port}",
                    "client.id": "relay-test",
                    "socket.timeout.ms": 10000,
                }
            )
            for f in admin.create_topics([NewTopic("captured", 3, 1)]).values():
                f.result(timeout=20)
            # one named topic: an all-topics MetadataRequest v13 from librdkafka 2.16 carries
            # three bytes after its tagged fields, which the test broker refuses
            md = admin.list_topics(topic="captured", timeout=20)
            assert len(md.topics["captured"].partitions) == 3
            del admin
        finally:
            relay.close()
    assert len(relay.connections) >= 2  # bootstrap, then the broker by its advertised address
    return [list(chunks) for chunks in relay.connections]


def _read(chunks):
    conv = Conversation()
    events = []
    for from_client, data in chunks:
        events += conv.client_data(data) if from_client else conv.server_data(data)
    return [event_json(e) for e in events + conv.end()]


def _pairs(items):
    return [
        (i.get("connection"), i["direction"], i["correlation_id"], i.get("api_name"), "error" in i)
        for i in items
    ]


def test_conversation_of_real_librdkafka_traffic_pairs_every_request(backend, librdkafka_connections):
    names = set()
    for chunks in librdkafka_connections:
        items = _read(chunks)
        requests = [i for i in items if i["direction"] == "request"]
        responses = [i for i in items if i["direction"] == "response"]
        assert requests[0]["api_name"] == "ApiVersionsRequest"
        assert requests[0]["header"]["client_id"] == "relay-test"
        answered = [r for r in responses if "error" not in r]
        # the client may close with requests on the wire: those, and only those, are unanswered
        unanswered = [r for r in responses if "error" in r]
        assert all(r["error"].startswith("ConnectionClosedError") for r in unanswered)
        assert [r["correlation_id"] for r in requests] == [r["correlation_id"] for r in answered + unanswered]
        assert [r["api_name"][: -len("Request")] for r in requests[: len(answered)]] == [
            r["api_name"][: -len("Response")] for r in answered
        ]
        names |= {r["api_name"] for r in answered}  # an unanswered one names no API
        for r in answered:
            if r["api_name"] == "CreateTopicsResponse":
                assert r["body"]["topics"][0]["name"] == "captured"
    assert {"MetadataResponse", "CreateTopicsResponse"} <= names


CLIENT, SERVER = "10.1.0.1", ("10.1.0.2", 19092)  # a broker port that is not 9092


def _pcap_of(connections, rnd: random.Random, handshake: bool = True) -> bytes:
    """The connections as scapy writes them, one after the other: a SYN handshake, the
    data cut into segments of random sizes with some sent twice and some swapped, FINs.
    Without ``handshake`` the capture starts mid-connection: no SYN, nothing swapped."""
    from scapy.layers.inet import IP, TCP
    from scapy.layers.l2 import Ether
    from scapy.utils import wrpcap

    packets = []
    for n, chunks in enumerate(connections):
        client = (CLIENT, 51000 + n)
        seq = {True: 0xFFFFFF00 - n, False: 0x7FFFFFF0}  # the client's sequence numbers wrap

        def packet(from_client, flags, payload=b""):
            (sip, sport), (dip, dport) = (client, SERVER) if from_client else (SERVER, client)
            p = (
                Ether()
                / IP(src=sip, dst=dip)
                / TCP(
                    sport=sport,
                    dport=dport,
                    flags=flags,
                    seq=seq[from_client] & 0xFFFFFFFF,
                    ack=seq[not from_client] & 0xFFFFFFFF,
                )
            )
            return p / payload if payload else p

        if handshake:
            packets.append(packet(True, "S"))
            packets.append(packet(False, "SA"))
            packets.append(packet(True, "A"))
        seq[True] += 1
        seq[False] += 1
        for from_client, data in chunks:
            out = []
            pos = 0
            while pos < len(data):
                piece = data[pos : pos + rnd.randint(1, 1400)]
                out.append(packet(from_client, "PA", piece))
                seq[from_client] += len(piece)
                pos += len(piece)
            sent = []
            for seg in out:
                sent.append(seg)
                if rnd.random() < 0.2:
                    sent.append(seg)  # a retransmission
            if handshake and len(sent) > 2 and rnd.random() < 0.5:
                i = rnd.randrange(len(sent) - 1)
                sent[i], sent[i + 1] = sent[i + 1], sent[i]  # arrives out of order
            packets += sent
        packets.append(packet(True, "FA"))
        packets.append(packet(False, "FA"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "capture.pcap")
        wrpcap(path, packets)
        with open(path, "rb") as fh:
            return fh.read()


def _expected(connections):
    out = []
    for n, chunks in enumerate(connections):
        name = f"{CLIENT}:{51000 + n} -> {SERVER[0]}:{SERVER[1]}"
        out += [{"connection": name, **item} for item in _read(chunks)]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pcap_capture_reads_as_the_same_conversations(backend, librdkafka_connections, seed):
    pytest.importorskip("scapy")
    pcap = _pcap_of(librdkafka_connections, random.Random(seed))
    expected = _expected(librdkafka_connections)
    got = list(pcap_conversations(io.BytesIO(pcap), server_ports=()))  # the SYN says who serves
    assert _pairs(got) == _pairs(expected)
    assert [i.get("body") for i in got] == [i.get("body") for i in expected]
    # the reassembled streams are the relayed bytes exactly
    streams = {}
    for item in tcp_streams(io.BytesIO(pcap), ()):
        if isinstance(item, StreamData):
            key = (item.client[1], item.from_client)
            streams[key] = streams.get(key, b"") + item.data
    for n, chunks in enumerate(librdkafka_connections):
        for side in (True, False):
            assert streams[(51000 + n, side)] == b"".join(d for fc, d in chunks if fc == side)


def test_decode_command_reads_a_pcap_and_two_streams(backend, librdkafka_connections, tmp_path, capsys):
    pytest.importorskip("scapy")
    # captured mid-connection: without the SYNs, the broker port says who serves
    (tmp_path / "c.pcap").write_bytes(_pcap_of(librdkafka_connections, random.Random(7), handshake=False))
    assert decodecmd.main(["--pcap", str(tmp_path / "c.pcap"), "--port", "19092", "--compact"]) == 0
    from_pcap = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert _pairs(from_pcap) == _pairs(_expected(librdkafka_connections))
    chunks = librdkafka_connections[0]
    (tmp_path / "client.bin").write_bytes(b"".join(d for fc, d in chunks if fc))
    (tmp_path / "server.hex").write_text(b"".join(d for fc, d in chunks if not fc).hex())
    assert (
        decodecmd.main(["--streams", str(tmp_path / "client.bin"), str(tmp_path / "server.hex"), "--compact"])
        == 0
    )
    from_streams = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(_pairs(from_streams)) == sorted(_pairs(_read(chunks)))


def test_a_request_without_its_response_is_reported_when_the_stream_ends(backend, librdkafka_connections):
    chunks = librdkafka_connections[0]
    client = b"".join(d for fc, d in chunks if fc)
    server = b"".join(d for fc, d in chunks if not fc)
    conv = Conversation()
    requests = conv.client_data(client)
    answered = conv.server_data(server[: len(server) // 2])
    lost = conv.end()
    assert len(answered) + len(lost) == len(requests)
    assert lost and all(isinstance(e.error, errors.ConnectionClosedError) for e in lost)


@pytest.mark.parametrize(
    "data,match",
    [
        (b"\x0a\x0d\x0d\x0a" + b"\x00" * 40, "pcapng"),
        (b"not a capture at all, no", "not a pcap file"),
        (b"\xd4\xc3\xb2\xa1", "24-byte header"),
        (b"\xd4\xc3\xb2\xa1" + b"\x00" * 16 + struct.pack("<I", 1) + b"\x00" * 10, "16-byte header"),
        (
            b"\xd4\xc3\xb2\xa1"
            + b"\x00" * 16
            + struct.pack("<I", 1)
            + struct.pack("<IIII", 0, 0, 1 << 30, 60),
            "over",
        ),
        (
            b"\xd4\xc3\xb2\xa1"
            + b"\x00" * 16
            + struct.pack("<I", 1)
            + struct.pack("<IIII", 0, 0, 60, 60)
            + b"x",
            "ends 59 bytes early",
        ),
        (
            b"\xd4\xc3\xb2\xa1"
            + b"\x00" * 16
            + struct.pack("<I", 147)
            + struct.pack("<IIII", 0, 0, 1, 1)
            + b"x",
            "link type 147",
        ),
    ],
)
def test_captures_that_cannot_be_read_raise_a_specific_error(data, match):
    with pytest.raises(errors.InvalidCaptureError, match=match):
        list(tcp_streams(io.BytesIO(data)))
