"""Prose in terminal cells: a story's sentence wrapped where it holds wide (CJK) characters, which
take two cells each and may break between two of them (``agility show``, ``move``, ``replay``).
The units of wrapping are the rules guide's (:mod:`.guide`), so that a line of the story breaks as
a line of the guide does."""

from __future__ import annotations

from .guide import _UNIT  # a run of blanks, a word, or a CJK character with its closing marks
from .layout import cell_len


def wrap_cells(line: str, width: int, indent: int) -> list[str]:
    """A line of prose (a story's sentence) within ``width`` terminal cells, going on in lines
    indented by ``indent``: a line breaks at a blank or between two CJK characters, never inside an
    English word, and a closing mark (``，。）``) never begins a line; the line's own indent stays.
    For a line with wide characters; an ASCII one is :mod:`textwrap`'s, as it always was."""
    text = line.lstrip(" ")
    out: list[str] = []
    part, used = line[: len(line) - len(text)], len(line) - len(text)
    for unit in _UNIT.findall(text):
        if unit.isspace():  # a blank kept inside a line, never at the start of one
            if part.strip() and used < width:
                part, used = part + " ", used + 1
            continue
        cells = cell_len(unit)
        if used + cells > width and part.strip():
            out.append(part.rstrip())
            part, used = " " * indent, indent
        part, used = part + unit, used + cells
    return [*out, part.rstrip()]



def wrap_prose(text: str, width: int, indent: int) -> list[str]:
    """A paragraph ``indent`` cells in, within ``width``: in terminal cells where it holds wide
    characters (:func:`wrap_cells`), else by :mod:`textwrap`, as it always was."""
    if cell_len(text) != len(text):
        return wrap_cells(" " * indent + text, width, indent)
    import textwrap

    return textwrap.wrap(text, width, initial_indent=" " * indent, subsequent_indent=" " * indent)
