"""A griffe extension for the documentation site: kafkawire's docstrings are written in
reStructuredText's inline style (``code``, :func:`name`, ``Example::``), which
mkdocstrings renders as Markdown.  Double backquotes are already Markdown code; this
turns the roles into code spans and ``::`` into ``:`` so neither shows as markup."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):`~?([^`]+)`")
_LITERAL_INTRO = re.compile(r"(?<=\S)::$", re.M)  # "Read::" before an indented block


def markdown_of(text: str) -> str:
    """``text`` with the reStructuredText roles and literal-block markers made Markdown."""
    return _LITERAL_INTRO.sub(":", _ROLE.sub(r"``\1``", text))


class RestructuredTextRoles(griffe.Extension):
    """Rewrites each docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
