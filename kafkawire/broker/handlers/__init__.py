"""The broker's request handlers, one module per family of APIs; each is a mixin of
:class:`kafkawire.broker.server.Broker`, which holds the state they share."""
