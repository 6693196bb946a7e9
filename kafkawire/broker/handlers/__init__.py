"""The broker's request handlers, one module per family of APIs: functions that take the
broker's :class:`~kafkawire.broker.context.BrokerContext`, the connection, the request's
header, the request and its version, registered by API key in
:data:`kafkawire.broker.dispatch.HANDLERS`."""
