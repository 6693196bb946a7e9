"""Varint (zigzag varlong) encode and decode of 1000 values, against aiokafka's Cython."""

import random

import pytest

from kafkawire.protocol import primitives

VALUES = [random.Random(1).randint(-(2**40), 2**40) for _ in range(1000)]
ENCODED = b"".join(primitives.encode_varlong(v) for v in VALUES)


def _kafkawire_encode():
    enc = primitives.encode_varlong
    return [enc(v) for v in VALUES]


def _kafkawire_decode():
    dec = primitives.decode_varlong
    pos, buf = 0, ENCODED
    for _ in range(1000):
        _, pos = dec(buf, pos)
    return pos


@pytest.mark.benchmark(group="varint-encode-1000")
def test_encode_kafkawire(benchmark):
    benchmark(_kafkawire_encode)


@pytest.mark.benchmark(group="varint-encode-1000")
def test_encode_aiokafka_cython(benchmark):
    util = pytest.importorskip("aiokafka.record.util")

    def run():
        out = []
        for v in VALUES:
            b = bytearray()
            util.encode_varint_cython(v, b.append)
            out.append(b)
        return out

    benchmark(run)


@pytest.mark.benchmark(group="varint-decode-1000")
def test_decode_kafkawire(benchmark):
    assert benchmark(_kafkawire_decode) == len(ENCODED)


@pytest.mark.benchmark(group="varint-decode-1000")
def test_decode_aiokafka_cython(benchmark):
    util = pytest.importorskip("aiokafka.record.util")
    buf = bytearray(ENCODED)

    def run():
        dec, pos = util.decode_varint_cython, 0
        for _ in range(1000):
            _, pos = dec(buf, pos)
        return pos

    assert benchmark(run) == len(ENCODED)
