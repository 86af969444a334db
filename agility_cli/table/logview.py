"""The decision log as each seat sees it (``agility log``), and the one-line status of a game."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..record import gamefile
from ..engine import rules
from ..record.gamefile import GameFileError, line_hash
from ..engine.moves import Header, Move
from ..engine.state import State
from ..engine.view import PUBLIC


# ----------------------------------------------------------------------------------------------
# log


def log_row(line: int, move: Move, width: int = 8) -> str:
    """One decision as ``line  player  decision``: the file's line number (the header is line 1,
    as in ``show --at``, ``replay --to``, ``undo`` and the narration) and the short form of
    ``narrate.short`` (obstacles counted from 1, a face-down card shown as such)."""
    from .narrate import short, told_short

    return f"{line:>4}  {move.player:<{width}}  {told_short(short(move))}".rstrip()


@dataclass
class LogViews:
    """``agility log`` before the viewer is known: the rows as each seat sees them (R39) and
    completely, the last verified state, and the error that stopped the replay, if any."""

    header: Header | None = None
    state: State | None = None
    rows: dict[int | None, list[str]] = field(default_factory=lambda: {0: [], 1: [], PUBLIC: [], None: []})
    error: GameFileError | None = None
    lines: int = 0
    tip: str = ""
    trust: gamefile.Trust = field(default_factory=gamefile.Trust)


def log_views(data: bytes, path: str) -> LogViews:
    """Every decision row for seat 0, seat 1 and the complete view, verified as they go; a bad
    line stops the rows there and is kept in ``error`` (the rows before it stay printable)."""
    from ..engine.view import move_view

    out = LogViews()
    width = 8
    last = b""
    try:
        held = gamefile.whole_game_secrets(data, path)  # R39/R42: a finished sealed game's cards all open
        for item in gamefile.verify(data, path, keep_before=True, held=held):
            if isinstance(item, gamefile.Start):
                out.header, out.state, out.lines, out.trust = item.header, item.state, item.line, item.trust
                last = item.raw
                width = max(len(name) for name in item.header.players)
                continue
            assert item.before is not None
            out.state, out.lines, last = item.after, item.line, item.raw
            if item.move is None:  # a sealed game's keys line (R44)
                continue
            out.rows[None].append(log_row(item.line, item.move, width))
            for seat in (0, 1, PUBLIC):
                out.rows[seat].append(log_row(item.line, move_view(item.before, item.move, seat), width))
    except GameFileError as exc:
        out.error = exc
    out.tip = line_hash(last) if last else ""
    return out

