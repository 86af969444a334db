"""The decision loop that ``move``, ``play``, ``bot`` and ``apply`` share, and who is looking.

* **Automatic decisions** (:func:`automatic`): after a person's decision, the decisions that need
  no person follow at once — a single legal option (forced by the rules) and every decision of a
  bot seat (a seat named ``bot:greedy``, ``bot:random``, ``bot:greedy:2`` …), until a person must
  choose or the game ends.
* **Appending** (:func:`append`): the decisions are checked and appended under the file's lock
  (``gamefile.append_moves``) and come back as :class:`Step`\\ s: line number, raw line, the move and
  the complete states before and after it.
* **Narration** (:func:`narration`): every step told in the replay's sentences, as one seat sees it
  (R39): the move through ``view.move_view`` and both states through ``view.seat_view``, so that the
  opponent "discards a card face down" or "plays a card face down in a mini-turn (a 5)".
* **The viewer** (:func:`resolve_viewer`, R39): ``--as NAME`` / ``AGILITY_PLAYER``; else the seat whose
  signing key this machine holds (:func:`held_seats`); else the human seat in a game against a bot;
  else the player who must act now (two people at one screen pass the hand across the table).
  ``--reveal``, and the end of the game, give the complete view.
* **What is new** (:func:`since_last`): the lines made since the viewer's last decision — what
  ``show`` and ``play`` tell first, and (:func:`outbox`) what a player mails to the opponent.

Numbering: everything a person reads counts **lines of the file** (line 1 is the header, the
decision with ``"n": k`` is line k + 1), as the error messages, ``show --at``, ``replay --to``,
``log``, ``undo`` and the narration do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import msgspec

from . import gamefile, narrate, rules
from .gamefile import Game, Start, line_hash
from .moves import Move
from .state import State
from .view import move_view, seat_view

BOT_PREFIX = "bot:"
MAX_AUTOMATIC = 10_000


def is_bot(name: str) -> bool:
    """A bot seat: its decisions are made by the tool (``bot:greedy``, ``bot:random:2``)."""
    return name.startswith(BOT_PREFIX)


# ----------------------------------------------------------------------------------------------
# Who is looking (R39)


def held_seats(game: Game) -> list[str]:
    """The names of the seats of ``game`` whose signing key this machine holds (R41).

    Only a signed game has keys; an unsigned one (``--seed``, or recorded before signatures) is
    found by the next rules of :func:`resolve_viewer` without looking at the key store.
    """
    if not game.trust.signed:
        return []
    from . import keys

    return keys.held_seats(game)


class ViewerError(Exception):
    """``--as`` / ``AGILITY_PLAYER`` names nobody in this game (a usage error)."""


@dataclass(frozen=True)
class Viewer:
    """The seat whose view is shown.  ``complete``: every card shown (``--reveal``, game over)."""

    name: str
    seat: int
    complete: bool
    reason: str  # "--as", "key", "human seat", "to act"
    revealed: bool = False  # --reveal was given

    @property
    def view_seat(self) -> int | None:
        """The seat to blank the state for; ``None`` for the complete view."""
        return None if self.complete else self.seat

    def label(self) -> str:
        """``alice's view``; ``complete view (--reveal), alice`` …"""
        if self.revealed:
            return f"complete view (--reveal; {self.name} viewing)"
        if self.complete:
            return f"{self.name}'s view (complete: the game is over)"
        return f"{self.name}'s view"


def resolve_viewer(game: Game, as_name: str | None = None, *, reveal: bool = False, state: State | None = None) -> Viewer:
    """Who is looking at ``game`` (R39): see the module docstring for the order of the rules."""
    s = game.state if state is None else state
    names = [p.name for p in s.players]
    if as_name is not None:
        if as_name not in names:
            raise ViewerError(
                f"--as / AGILITY_PLAYER names {as_name!r}, who does not play in this game; "
                f"the players are {names[0]} and {names[1]}"
            )
        seat, reason = names.index(as_name), "--as"
    else:
        held = [n for n in held_seats(game) if n in names]
        bots = [is_bot(n) for n in names]
        if len(held) == 1:
            seat, reason = names.index(held[0]), "key"
        elif bots.count(True) == 1:
            seat, reason = bots.index(False), "human seat"
        else:
            acting = s.to_act if s.to_act is not None else s.active
            seat, reason = acting, "to act"
    return Viewer(names[seat], seat, reveal or s.winner is not None, reason, reveal)


# ----------------------------------------------------------------------------------------------
# Decisions that need no person


def automatic(game: Game, first: Move | None) -> list[Move]:
    """Decisions that follow ``first`` (or the tip, when ``None``) without a person's choice:
    single legal options and bot seats, until a person must decide or the game ends."""
    s = game.state.copy() if first is None else rules.apply(game.state, first)
    out: list[Move] = []
    n = game.next_n + (0 if first is None else 1)
    while s.winner is None and len(out) < MAX_AUTOMATIC:
        legal = rules.legal_moves(s)
        seat = s.to_act
        assert seat is not None
        name = s.players[seat].name
        if len(legal) == 1:
            m = legal[0]
        elif is_bot(name):
            from . import bots

            m = bots.choose_for_seat(name, s, game.seed, n + len(out))
        else:
            break
        out.append(m)
        rules.apply_in_place(s, m)
    return out


# ----------------------------------------------------------------------------------------------
# Appending, with the states to narrate


@dataclass
class Step:
    """One line of the file: its number, bytes, the move, the complete states around it."""

    line: int
    raw: bytes
    move: Move
    before: State
    after: State


@dataclass
class Outcome:
    """What an append did: the game after it and the appended steps (maybe none)."""

    game: Game
    steps: list[Step]
    #: Lines written before the decisions without being one: the creator's seed reveal (R40).
    handshake: list[bytes] = field(default_factory=list)


def append(path: str | Path, decide: Callable[[Game], list[Move]]) -> Outcome:
    """Check and append the moves ``decide(game)`` returns (under the lock; it may raise to refuse)."""
    seen: list[Game] = []
    chosen: list[Move] = []

    def wrapped(game: Game) -> list[Move]:
        seen.append(game)
        moves = decide(game)
        chosen[:] = moves
        return moves

    game, lines = gamefile.append_moves(path, wrapped)
    head = lines[: len(lines) - len(chosen)] if seen else lines  # R40: a reveal due comes first
    start = seen[-1] if seen else None
    steps = steps_after(start, chosen, lines[len(head) :]) if start is not None else []
    return Outcome(game, steps, head)


def steps_after(start: Game, moves: list[Move], lines: list[bytes]) -> list[Step]:
    """The steps of ``moves``, written as ``lines`` after ``start``'s last line."""
    steps: list[Step] = []
    s = start.state
    for k, (raw, m) in enumerate(zip(lines, moves)):
        after = rules.apply(s, m)
        steps.append(Step(start.lines + 1 + k, raw, m, s, after))
        s = after
    return steps


# ----------------------------------------------------------------------------------------------
# Narration through a view


def sentence(step: Step, seat: int | None) -> str:
    """The replay's sentence for ``step``, as ``seat`` sees it (``None``: complete)."""
    if seat is None:
        return narrate.describe(step.before, step.move, step.after)
    return narrate.describe(
        seat_view(step.before, seat), move_view(step.before, step.move, seat), seat_view(step.after, seat)
    )


def narration(steps: list[Step], seat: int | None, turn: int | None = None) -> list[str]:
    """Steps as replay prints them: ``Turn 7 — alice`` when a turn begins, ``    12. sentence``.

    ``turn``: the turn already headed (none is repeated); ``None`` heads the first step's turn.
    """
    out: list[str] = []
    for step in steps:
        if step.before.turn != turn:
            turn = step.before.turn
            out.append(f"Turn {turn} — {step.before.players[step.before.active].name}")
        out.append(f"  {step.line:>4}. {sentence(step, seat)}")
    return out


# ----------------------------------------------------------------------------------------------
# What is new since the viewer's last decision


class _Who(msgspec.Struct):
    player: str = ""


_WHO = msgspec.json.Decoder(_Who)


def _players(data: bytes) -> list[str]:
    """The ``player`` of each decision line (line 2 on), read without verifying (a first look)."""
    out = []
    for raw in data.split(b"\n")[1:]:
        if not raw:
            continue
        try:
            out.append(_WHO.decode(raw).player)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            out.append("")  # verification reports the line
    return out


def window_start(players: list[str], name: str) -> int:
    """Index (0 = line 2) of the first decision made since ``name``'s last decision.

    That decision is ``name``'s last line before the opponent's last line: what follows it is
    the opponent's news (with any forced lines recorded for ``name`` among them).  No opponent
    line yet: nothing is new.
    """
    theirs = [i for i, p in enumerate(players) if p != name]
    if not theirs:
        return len(players)
    mine = [i for i in range(theirs[-1]) if players[i] == name]
    return mine[-1] + 1 if mine else 0


@dataclass
class News:
    """A verified game and its latest steps: each player's news is the steps from ``first[name]``."""

    game: Game
    steps: list[Step]
    first: dict[str, int]  # player name → line number of the first line new to them
    decided: frozenset[str] = frozenset()  # the players with at least one line in the file

    def heading(self, name: str) -> str:
        """``Since alice's last decision:`` (or ``So far:`` before her first)."""
        return f"Since {name}'s last decision:" if name in self.decided else "So far:"

    def since(self, name: str) -> list[Step]:
        """The steps made since ``name``'s last decision."""
        line = self.first.get(name, self.game.lines + 1)
        return [step for step in self.steps if step.line >= line]


def since_last(path: str | Path, *, upto: int | None = None) -> News:
    """The verified game (up to line ``upto``) and, for each player, the steps made since that
    player's last decision (:func:`window_start`).  One verifying pass; only the lines of the two
    windows are copied, so ``show`` stays fast."""
    data = gamefile.read_revealed(path) if upto is None else gamefile.read_bytes(path)
    if upto is not None:
        cut = 0
        for _ in range(upto):
            nl = data.find(b"\n", cut)
            if nl == -1:
                cut = len(data)
                break
            cut = nl + 1
        data = data[:cut]
    players = _players(data)
    steps: list[Step] = []
    snap: State | None = None
    start: Start | None = None
    state: State | None = None
    lines, last = 0, b""
    firsts: dict[str, int] = {}
    first = len(players)
    for item in gamefile.verify(data, str(path)):
        if isinstance(item, Start):
            start, state, lines = item, item.state, 1
            last = data[: data.find(b"\n")] if b"\n" in data else data
            firsts = {name: window_start(players, name) + 2 for name in item.header.players}
            first = min(firsts.values()) - 2
            if first == 0:
                snap = item.state.copy()
            continue
        index = item.line - 2
        state, lines, last = item.after, item.line, item.raw
        if index >= first and snap is not None:
            after = item.after.copy()
            steps.append(Step(item.line, item.raw, item.move, snap, after))
            snap = after
        elif index == first - 1:
            snap = item.after.copy()
    assert start is not None and state is not None
    game = Game(str(path), start.header, start.components, state, lines, line_hash(last))
    return News(game, steps, firsts, frozenset(players))


def outbox(path: str | Path, sender: str) -> tuple[Game, list[bytes]]:
    """The lines ``sender`` sends the opponent: every line after the opponent's last line (from
    the header on, when the opponent has made none yet), exactly as the file holds them."""
    data = gamefile.read_revealed(path)
    game = gamefile.load_bytes(data, str(path))
    names = list(game.header.players)
    if sender not in names:
        raise ViewerError(f"{sender!r} does not play in this game; the players are {names[0]} and {names[1]}")
    rows = data.split(b"\n")[:-1]
    players = _players(data)
    theirs = [i for i, p in enumerate(players) if p != sender]
    first = theirs[-1] + 2 if theirs else 0  # row index: 0 is the header, decision i is row i + 1
    return game, rows[first:]
