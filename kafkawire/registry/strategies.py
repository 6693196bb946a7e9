"""The subject name strategies of Confluent's serializers: which registry subject a
topic's key or value schema is registered under."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Type, TypeVar

if TYPE_CHECKING:
    from kafkawire.registry.client import SchemaRegistryClient

# (topic, is_key, record full name) -> subject
SubjectNameStrategy = Callable[[str, bool, Optional[str]], str]


def topic_name_strategy(topic: str, is_key: bool, record_name: Optional[str] = None) -> str:
    """``<topic>-key`` or ``<topic>-value``: one schema (and its versions) per topic."""
    return f"{topic}-{'key' if is_key else 'value'}"


def record_name_strategy(topic: str, is_key: bool, record_name: Optional[str] = None) -> str:
    """The record's full name: one subject per record type, across topics."""
    if not record_name:
        raise ValueError("the record name strategy needs the record's full name")
    return record_name


def topic_record_name_strategy(topic: str, is_key: bool, record_name: Optional[str] = None) -> str:
    """``<topic>-<record full name>``: several record types in one topic."""
    if not record_name:
        raise ValueError("the topic-record name strategy needs the record's full name")
    return f"{topic}-{record_name}"


STRATEGIES: Dict[str, SubjectNameStrategy] = {
    "topic": topic_name_strategy,
    "record": record_name_strategy,
    "topic-record": topic_record_name_strategy,
    # the names Confluent's serializer configurations use
    "TopicNameStrategy": topic_name_strategy,
    "RecordNameStrategy": record_name_strategy,
    "TopicRecordNameStrategy": topic_record_name_strategy,
}


def strategy(name: str) -> SubjectNameStrategy:
    """The strategy called ``name`` ("topic", "record", "topic-record" or Confluent's class names)."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(
            f"unknown subject name strategy {name!r}; expected one of {sorted(STRATEGIES)}"
        ) from None


_Decoder = TypeVar("_Decoder", bound="ForTopic")


class ForTopic:
    """The registry decoders' ``for_topic``: a decoder whose reader schema is the latest
    under the subject a strategy names for a topic."""

    if TYPE_CHECKING:  # what every decoder's own __init__ takes (besides its options)

        def __init__(
            self, client: SchemaRegistryClient, *, subject: Optional[str] = None, **options: Any
        ) -> None: ...

    @classmethod
    def for_topic(
        cls: Type[_Decoder],
        client: SchemaRegistryClient,
        topic: str,
        *,
        is_key: bool = False,
        subject_strategy: str = "topic",
        record_name: Optional[str] = None,
        **options: Any,
    ) -> _Decoder:
        """The decoder whose reader schema is the latest under the subject that
        ``subject_strategy`` ("topic", "record", "topic-record") names for ``topic``'s
        keys (``is_key``) or values; ``options`` go to the decoder as they are."""
        return cls(client, subject=strategy(subject_strategy)(topic, is_key, record_name), **options)
