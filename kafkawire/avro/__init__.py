"""Avro values to typed Arrow columns: schemas compiled into decode plans once, values
decoded straight into Arrow buffers by the active backend, writer schemas resolved
against a reader schema as the Avro specification defines it.

Use :func:`kafkawire.avro.decode.decode` for bare Avro bodies and
:class:`kafkawire.registry.RegistryAvroDecoder` for values framed by Confluent's
serializers.  Needs pyarrow (the ``arrow`` extra).
"""
