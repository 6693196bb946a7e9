"""Typical user code: mypy must accept it as written (tests/project/test_typing.py checks it)."""

from __future__ import annotations

import uuid

import kafkawire
from kafkawire.protocol import primitives, records
from kafkawire.protocol.messages import (
    ApiVersionsResponse,
    FetchResponse,
    MetadataRequest,
    MetadataResponse,
    ProduceRequest,
    request_class,
    response_class,
)

request = MetadataRequest(topics=[MetadataRequest.MetadataRequestTopic(name="t")])
request.allow_auto_topic_creation = False
frame: bytes = kafkawire.encode_request(request, 12, correlation_id=1, client_id="me")
size: int = request.size(12)
again: MetadataRequest = MetadataRequest.decode(request.encode(12), 12)
decoded, end = MetadataRequest.decode_from(request.encode(12), 12)
assert isinstance(end, int) and decoded == again
key: int = MetadataRequest.api_key
as_dict = MetadataResponse(cluster_id="c").to_dict()
response = MetadataResponse.from_dict(as_dict)

names: list[str] = [t.name for t in response.topics if t.name is not None]
for topic in response.topics:
    topic_id: uuid.UUID = topic.topic_id
    partitions: list[int] = [p.partition_index for p in topic.partitions]
    leader: int = topic.partitions[0].leader_id if topic.partitions else -1

produce = ProduceRequest(
    acks=-1,
    timeout_ms=1000,
    topic_data=[{"name": "t", "partition_data": [{"index": 0, "records": b"..."}]}],
)
fetched = FetchResponse.decode(FetchResponse().encode(16), 16)
for fetched_topic in fetched.responses:
    for fetched_partition in fetched_topic.partitions:
        if fetched_partition.records is not None:
            batches = list(records.iter_batches(fetched_partition.records))

versions = ApiVersionsResponse(api_keys=[ApiVersionsResponse.ApiVersion(api_key=3)])
metadata_cls: type[MetadataRequest] = request_class(3)
any_cls = response_class(1000)

batch: bytes = records.encode_batch([{"key": b"k", "value": b"v"}], compression="none")
for b in records.iter_batches(batch):
    first_offset: int = b.base_offset
    for r in b:
        value: bytes | None = r.value
every: list[records.Record] = records.decode(batch)
marker = records.parse_control_record(every[0])
builder = records.BatchBuilder(max_bytes=1 << 20)
builder.append(key=b"k", value=b"v")
built: bytes = builder.build()

encoded: bytes = primitives.encode_varint(300)
number, offset = primitives.decode_varint(encoded, 0)
checksum: int = kafkawire.crc32c(b"abc")
header, body = kafkawire.decode_response(b"", api_key=3, version=12)
correlation: int = header.correlation_id
