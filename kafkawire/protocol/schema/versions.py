"""Kafka's version specs: ``"N+"``, ``"N-M"``, ``"N"`` and ``"none"``."""

from __future__ import annotations

# Highest version any Kafka definition can reach; "N+" is open-ended up to here.
MAX_VERSION = 32767


class VersionRange:
    """An inclusive range of versions; ``lowest > highest`` means no version at all.

    Immutable and compared by value.  (Written out rather than a frozen dataclass:
    importing dataclasses costs more than the rest of ``import kafkawire``.)
    """

    __slots__ = ("lowest", "highest")
    lowest: int
    highest: int

    def __init__(self, lowest: int, highest: int) -> None:
        object.__setattr__(self, "lowest", lowest)
        object.__setattr__(self, "highest", highest)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"VersionRange is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"VersionRange is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not VersionRange:
            return NotImplemented
        return self.lowest == other.lowest and self.highest == other.highest

    def __hash__(self) -> int:
        return hash((self.lowest, self.highest))

    def __repr__(self) -> str:
        return f"VersionRange(lowest={self.lowest!r}, highest={self.highest!r})"

    def __reduce__(self) -> tuple[type, tuple[int, int]]:
        return (VersionRange, (self.lowest, self.highest))

    @classmethod
    def parse(cls, spec: str) -> "VersionRange":
        spec = spec.strip()
        if spec == "none":
            return cls(1, 0)
        if spec.endswith("+"):
            return cls(int(spec[:-1]), MAX_VERSION)
        if "-" in spec:
            low, high = spec.split("-", 1)
            return cls(int(low), int(high))
        return cls(int(spec), int(spec))

    def __contains__(self, version: int) -> bool:
        return self.lowest <= version <= self.highest

    @property
    def empty(self) -> bool:
        return self.lowest > self.highest

    def intersect(self, other: "VersionRange") -> "VersionRange":
        return VersionRange(max(self.lowest, other.lowest), min(self.highest, other.highest))

    def __str__(self) -> str:
        if self.empty:
            return "none"
        if self.highest == MAX_VERSION:
            return f"{self.lowest}+"
        if self.lowest == self.highest:
            return str(self.lowest)
        return f"{self.lowest}-{self.highest}"
