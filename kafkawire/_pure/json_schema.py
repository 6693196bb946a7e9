"""JSON values to Arrow, the pure backend's way: every value read by the exact reader.

The exact reader (:mod:`kafkawire.registry.json_schema`: the standard library's JSON
parser, then one checking converter per schema node) is the one home of the rules.
The Cython twin parses and checks in one pass the values it can tell that reader would
take, and leaves it the others; here there is no such pass.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple


def read_column(
    count: int,
    array_offset: int,
    validity: Optional[Any],
    offsets: Any,
    data: Any,
    layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
    plan: Any,
    decoder: Callable[[str], Any],
    takes_id: Optional[Callable[[int], bool]],
) -> Optional[Tuple[List[Tuple[Any, Any, Any, int]], List[int]]]:
    """None: the exact reader reads all ``count`` values (the Cython twin gives the
    filled builders of ``layout`` and the rows it left to the exact reader)."""
    return None
