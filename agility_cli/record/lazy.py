"""A sealed game's deck as a checkpoint keeps it (R42: speed only): unpickled on first use.

A command that only shows a game whose every line the checkpoint covers (``show``, a refused
``move`` on a finished game) needs neither the deck nor the modules of the sealed deck: the state
this machine's seats see was kept beside it.  :class:`Deferred` holds both pickles; :meth:`get`
unpickles the deck (importing those modules) the first time something reads or changes it.
"""

from __future__ import annotations

from typing import Any


class Deferred:
    """A :class:`~agility_cli.record.sealed.seal.Sealed` kept as its pickle, and the table state
    (``sealverify.table_state``) made from it when it was kept."""

    __slots__ = ("blob", "table", "_obj")

    def __init__(self, blob: bytes, table: bytes = b"") -> None:
        self.blob = blob
        self.table = table
        self._obj: Any = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deferred, (self.blob, self.table))

    def get(self) -> Any:
        if self._obj is None:
            import pickle

            self._obj = pickle.loads(self.blob)  # this machine's own pickle, authenticated (checkpoint.load)
        return self._obj

    def table_state(self) -> Any:
        """The table state kept with the deck, or None (then it is made from the deck)."""
        if self._obj is not None or not self.table:
            return None
        import pickle

        return pickle.loads(self.table)


def resolve(sealed: Any) -> Any:
    """The deck itself, for code that reads or changes it."""
    return sealed.get() if isinstance(sealed, Deferred) else sealed
