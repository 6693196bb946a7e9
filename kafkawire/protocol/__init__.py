"""The codec: Kafka's wire format, with no I/O.

``messages`` (every request and response class, every version), ``headers``,
``requests`` (a whole frame: header and body), ``framing`` (cutting a byte stream into
frames), ``primitives``, ``records`` and ``record_layout`` (record batches), ``compression``,
``error_codes``, ``internal_topics`` (the keys and values of Kafka's own topics) and
``schema`` (the message schemas, compiled to plans). Each module is imported on its own:
importing this package imports none of them.
"""
