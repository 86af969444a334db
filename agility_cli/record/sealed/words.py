"""Words the sealed deck's checks share (R42): a list of positions in a message, said (``said.Said``)
so that it is English where a program reads it and translated where a person does."""

from __future__ import annotations

from collections.abc import Sequence

from ...i18n import N_, _name
from ...said import Said, listing, said, said_in
from ..lines import line_kind as line_kind  # re-exported: the sealed deck's checks name a setup line


def positions(items: Sequence[str], *, none: bool = False) -> Said:
    """``#3, #4``, or, for no position, "no position" (``none``: "none")."""
    if items:
        return listing(items)
    return said(N_("none")) if none else said(N_("no position"))


#: the sealed deck's two piles, as a message names them (``the cards deal-1 pass``)
_PILES = {"cards": _name("pile", "cards"), "dogs": _name("pile", "dogs")}


def pile(name: str) -> Said | str:
    """A pile's name (``cards``, ``dogs``): English where a program reads it, the players' word where
    a person does."""
    marked = _PILES.get(name)
    return said_in(marked) if marked is not None else name


