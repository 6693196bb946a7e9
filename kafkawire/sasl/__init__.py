"""SASL for Kafka connections, as state machines that do no I/O.

Mechanisms, each with a client and a server side:

* PLAIN (RFC 4616): ``authzid NUL authcid NUL password``.
* SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677), with Kafka's ``tokenauth=true``
  extension for delegation tokens.  Passwords are used as UTF-8 without SASLprep, as
  Kafka does.  SCRAM-SHA-1 is here only to check RFC 5802's worked example; Kafka does
  not offer it.
* OAUTHBEARER (RFC 7628): the client's initial response (with SASL extensions) and the
  server's JSON error reply, answered by the client with a lone ``\\x01``.
* Where OAUTHBEARER's tokens come from: an OAuth 2 / OpenID Connect server's
  client-credentials grant, refreshed as Kafka's clients refresh them
  (:mod:`kafkawire.sasl.oauth`), or Amazon MSK's IAM signature, which also has a
  mechanism of its own, ``AWS_MSK_IAM`` (:mod:`kafkawire.sasl.msk_iam`).
* GSSAPI (Kerberos V5, RFC 4752) through MIT Kerberos and the optional ``gssapi``
  package (:mod:`kafkawire.sasl.gssapi`): tokens until the security context is
  established, then the security-layer offer and choice (Kafka uses no layer).

A client object turns server challenges into responses (``start()``, then
``receive(challenge)`` until ``complete``); a server object turns client responses into
challenges (``receive(response)``, then ``principal``).  Every malformed message raises a
specific :mod:`kafkawire.errors` exception; secrets are compared with
:func:`hmac.compare_digest`.

Kafka carries the tokens in one of two ways: SaslHandshake v1 followed by
SaslAuthenticate requests whose ``auth_bytes`` are the tokens, or the legacy SaslHandshake
v0, after which the tokens travel as bare size-prefixed frames with no Kafka header.  A
client frames them through :class:`kafkawire.connection.ClientConnection`
(``authenticate()``, the same object that then carries its requests; :class:`ClientSession`
is that connection doing the exchange alone); a broker answers them with
:class:`ServerSession` from its request handlers.
"""

from kafkawire.sasl.mechanisms import *  # noqa: F403 - the mechanisms, their parsers and limits
from kafkawire.sasl.mechanisms import __all__ as _mechanisms
from kafkawire.sasl.gssapi import GssapiClient, GssapiServer, kerberos_short_name
from kafkawire.sasl.sessions import ClientSession, ServerSession

__all__ = [
    *_mechanisms,
    "GssapiClient",
    "GssapiServer",
    "kerberos_short_name",
    "ClientSession",
    "ServerSession",
]
