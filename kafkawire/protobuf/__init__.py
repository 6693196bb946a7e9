"""Protobuf values to typed Arrow columns, as ``spark-protobuf``'s ``from_protobuf``
types them: schemas (``.proto`` text or descriptor sets) compiled into decode plans
once, values decoded straight into Arrow buffers by the active backend.

Use :func:`kafkawire.protobuf.decode.decoder` for bare bodies with a descriptor set
or ``.proto`` text, and :class:`kafkawire.registry.protobuf.RegistryProtobufDecoder`
for values framed by Confluent's serializers.  Needs pyarrow (the ``arrow`` extra).
"""
