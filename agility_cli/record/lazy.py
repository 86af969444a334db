"""What a sealed game's checkpoint hands out (R42: speed only): its deck, kept encoded until used,
and the last lines it read.

A command that only shows a game whose every line the checkpoint covers (``show``, a refused
``move`` on a finished game) needs neither the deck nor the modules of the sealed deck: the state
this machine's seats see was kept beside it.  :class:`Deferred` holds both snapshots
(``record.snapshot``, made and read by ``record.checkpoint``); :meth:`Deferred.get` decodes the
deck (importing those modules) the first time something reads or changes it.  :class:`Recent` is one
of the last lines a checkpoint keeps, for the news ``show`` tells.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ..engine.state import State


class Deferred:
    """A :class:`~agility_cli.record.sealed.seal.Sealed` kept as its snapshot, and the table state
    (``sealverify.table_state``) made from it when it was kept; ``read`` (the checkpoint's) decodes
    either: ``read(blob, deck=True)`` the deck, ``read(blob, deck=False)`` the table state."""

    __slots__ = ("blob", "table", "read", "_obj", "forfeits", "audited")

    def __init__(self, blob: bytes, table: bytes, read: Callable[[bytes, bool], Any],
                 forfeits: dict[int, str] | None = None, audited: list[int] | None = None) -> None:
        self.blob = blob
        self.table = table
        self.read = read
        self._obj: Any = None
        #: R42: what the verdict of a finished game needs, kept beside the deck so that ``show``
        #: says it without decoding the deck: the seats that forfeit (why) and those audited
        self.forfeits: dict[int, str] = dict(forfeits or {})
        self.audited: list[int] | None = audited

    def get(self) -> Any:
        if self._obj is None:
            self._obj = self.read(self.blob, True)  # this machine's own snapshot, authenticated (checkpoint.load)
        return self._obj

    def table_state(self) -> Any:
        """The table state kept with the deck, or None (then it is made from the deck)."""
        if self._obj is not None or not self.table:
            return None
        return self.read(self.table, False)


def resolve(sealed: Any) -> Any:
    """The deck itself, for code that reads or changes it."""
    return sealed.get() if isinstance(sealed, Deferred) else sealed


class Recent(msgspec.Struct, array_like=True):
    """A line the checkpoint's verification read: its number, bytes, decision (as this machine tells
    it; None for a keys line) and the state after it, as this machine's secrets read it."""

    line: int
    raw: bytes
    move: Any
    after: State
