"""A click on the board's position: the card, the dog or the course under the mouse, and the
choice it stands for (issue 51: "by mouse where a choice is a card, a dog or a course on the
board").

What is under the mouse is read from the position's plain text (``regions.position``, as drawn):
a card by its id (``t27[6]``, in a hand or the display), a dog of the display by its name as drawn,
a course by its row (``2A …`` and the rows that go on under it).  The choice is the one row of the
menu whose decisions name that card or dog, or, for a course, whose decisions all go to it (a
course to advance; the course to adopt onto, in its second step).  One row: it is chosen as if its
number were typed; several: the board says which; none: nothing happens.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ...i18n import _
from ..choices import Row
from . import regions

_CARD = re.compile(r"t\d+(?=\[)")
_COURSE = re.compile(r"(\d+[A-Z]) ")


def under(view: Any, lines: list[str], x: int, y: int, wide: bool) -> Optional[tuple[str, str]]:
    """``("card", "t27")``, ``("dog", "d03")`` or ``("course", "2A")``: what the position's text
    shows at column ``x`` of row ``y``; None for anything else."""
    if not 0 <= y < len(lines):
        return None
    line = lines[y]
    for m in _CARD.finditer(line):
        if m.start() <= x < line.find("]", m.end()) + 1:
            return ("card", m.group())
    head = y
    while head > 0 and lines[head].startswith(" "):
        head -= 1
    if lines[head].startswith("Dogs "):
        for d in view.dog_display:
            dog = view.cat.dogs.get(d)
            name = regions.dog_name(dog, wide) if dog is not None else ""
            if name and any(m.start() <= x < m.end() for m in re.finditer(re.escape(name), line)):
                return ("dog", d)
        return None
    course = _COURSE.match(lines[head])
    if course and any(c.id == course.group(1) for c in view.courses):
        return ("course", course.group(1))
    return None


def rows_for(rows: list[Row], thing: tuple[str, str]) -> list[int]:
    """The numbers of the rows that ``thing`` (:func:`under`) stands for."""
    kind, name = thing
    if kind == "course":
        return [k for k, row in enumerate(rows, 1) if all(getattr(m, "course", None) == name for m in row.moves)]
    return [k for k, row in enumerate(rows, 1) if any(getattr(m, kind, None) == name for m in row.moves)]


def clicked(board: Any, x: int, y: int) -> None:
    """A click at ``(x, y)`` of the position's text: its one choice made, or the choices it could be."""
    thing = under(board.match.view, board.drawn["position"].split("\n"), x, y, board.cols >= regions.WIDE)
    if thing is None:
        return
    found = rows_for(board.rows_now(), thing)
    if len(found) == 1:
        board.words.typed(str(found[0]))
    elif found:
        board.say(_("{thing} is in choices {rows}: type the one you mean").format(thing=thing[1], rows=", ".join(map(str, found))))
