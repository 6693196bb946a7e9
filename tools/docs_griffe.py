"""A griffe extension for the documentation site: kafkawire's docstrings are written in
reStructuredText's style (``code``, :func:`name`, ``Example::`` before an indented block,
indented definition bodies, ``>>>`` examples), which mkdocstrings renders as Markdown.
Double backquotes are already Markdown code; this turns the roles into code spans, a
literal block into a fenced one, a definition list into a bulleted one, other indented
text into plain paragraphs (Markdown would show it as code) and a ``>>>`` example into a
fenced Python console block."""

from __future__ import annotations

import re
import textwrap
from typing import Any, List

import griffe

_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


def _fenced(lines: List[str], language: str) -> List[str]:
    return [f"```{language}", *textwrap.dedent("\n".join(lines)).split("\n"), "```"]


def markdown_of(text: str) -> str:
    """``text``, a reStructuredText docstring, as the Markdown that renders the same."""
    lines = _ROLE.sub(r"``\1``", text).split("\n")
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        starts_block = line.startswith((" ", "\t")) and line.strip() and (not out or not out[-1].strip())
        if starts_block:
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            last = max((k for k, o in enumerate(out) if o.strip()), default=None)
            if last is not None and out[last].endswith("::"):  # a literal block
                out[last] = out[last][:-1]
                out += _fenced(block, "")
            else:  # a definition body or block quote: plain text
                out += textwrap.dedent("\n".join(block)).split("\n")
            out.append("")
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and not line[0].isspace() and following[:1].isspace() and following.strip():
            # a definition list item: the term, then its indented body
            body = []
            i += 1
            while i < len(lines) and lines[i][:1].isspace() and lines[i].strip():
                body.append(lines[i].strip())
                i += 1
            out.append(f"* {line.strip()}: " + " ".join(body))
            continue
        if line.startswith(">>>") and (not out or not out[-1].strip()):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out += _fenced(block, "pycon")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class RestructuredTextRoles(griffe.Extension):
    """Rewrites each docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
