"""Mistakes mypy must report: each line with an ``# E:`` comment is an error whose
message contains the comment's text, and no other line is (tests/project/test_typing.py)."""

from __future__ import annotations

from kafkawire.protocol import records
from kafkawire.protocol.messages import MetadataRequest, MetadataResponse

MetadataRequest(topics=5)  # E: Argument "topics" to "MetadataRequest" has incompatible type "int"
MetadataRequest(topic=[])  # E: Unexpected keyword argument "topic" for "MetadataRequest"
request = MetadataRequest()
request.allow_auto_topic_creation = "yes"  # E: Incompatible types in assignment
MetadataResponse().topics[0].nmae  # E: has no attribute "nmae"
size: str = request.size(12)  # E: Incompatible types in assignment
MetadataRequest.MetadataRequestTopic(name=7)  # E: Argument "name" to "MetadataRequestTopic"
records.encode_batch([], compresion="zstd")  # E: Unexpected keyword argument "compresion"
records.iter_batches(b"").nope  # E: has no attribute "nope"
