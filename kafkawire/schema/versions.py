"""Kafka's version specs: ``"N+"``, ``"N-M"``, ``"N"`` and ``"none"``."""
from __future__ import annotations

from dataclasses import dataclass

# Highest version any Kafka definition can reach; "N+" is open-ended up to here.
MAX_VERSION = 32767


@dataclass(frozen=True)
class VersionRange:
    """An inclusive range of versions; ``lowest > highest`` means no version at all."""

    lowest: int
    highest: int

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
