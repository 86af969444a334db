"""A new game as ``agility new`` makes it: who plays, who starts, the board, and how the seed and
the signatures are set up (R8, R11, R40, R41).

* Two people and no ``--seed``: a fair game — the seed is drawn by the handshake (R40) and the
  lines are signed (R41); the file holds the header alone until the other player joins.
* Against a bot and no ``--seed``: the seed is drawn here, and the host signs every line (the bot
  seat's too).
* ``--seed N``: the seed chosen on purpose (demos, tests, one screen); an unsigned game.

A bot seat that starts, and a first decision without a choice, are made at once, in the same write
as the header, so a game file appears whole or not at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..engine import rules
from ..engine.components import TILES, Components, load_components
from ..engine.moves import Header, Move
from ..engine.notation import UsageError, word_match
from ..record import gamefile
from ..i18n import N_
from ..record.gamefile import Game
from ..said import message_of, said
from ..text import check_players, quoted
from . import session


@dataclass
class Plan:
    """What ``new`` was asked for, checked: the header to write and how to write it."""

    header: Header
    names: tuple[str, str]
    humans: list[str]
    handshake: bool  # R40: a fair game between two people
    host_signs: bool  # R41: against a bot, the host signs
    creator: str | None  # the seat whose key is made here
    components: Components | None
    window: int | None = None  # R42: a sealed game's window K; None: the deck is drawn from the joint seed


@dataclass
class Created:
    """A game that has started: its file's lines and the decisions made at once."""

    game: Game
    header_line: bytes
    lines: list[bytes] = field(default_factory=list)
    steps: list[session.Step] = field(default_factory=list)


def plan(*, seed: int | None, players: tuple[str, str], first: str, board: str, components: Path | None,
         as_player: str | None, deck: str | None = None, window: int = 2) -> Plan:
    """Check the options of ``new`` and make the header (:class:`UsageError` says what is wrong).

    R42: a game between two people without ``--seed`` has a sealed deck unless ``deck`` is
    ``seed`` (the deck drawn from the joint seed, file format 2)."""
    if seed is not None and seed < 0:
        raise UsageError(said(N_("--seed must be a non-negative whole number")))
    if deck is not None and deck not in ("sealed", "seed"):
        raise UsageError(said(N_("--deck must be sealed or seed, not {word}"), word=quoted(deck)))
    if not 0 <= window <= 4:
        raise UsageError(said(N_("--window must be 0 to 4 (R42), not {n}"), n=window))
    names = (players[0].strip(), players[1].strip())
    if not all(names) or names[0] == names[1]:
        raise UsageError(said(N_("--players needs two different names")))
    try:
        check_players(names)
    except ValueError as exc:
        raise UsageError(said(N_("--players: {why}"), why=message_of(exc))) from None
    for name in filter(session.is_bot, names):  # issue 51: a misspelt bot is refused, never played as greedy
        from ..players import bots

        unknown = bots.unknown_bot(name)
        if unknown is not None:
            raise UsageError(said(N_("--players: {why}"), why=unknown))
    humans = [name for name in names if not session.is_bot(name)]
    handshake = seed is None and len(humans) == 2
    host_signs = seed is None and len(humans) == 1
    if deck == "sealed" and not handshake:
        raise UsageError(said(N_("--deck sealed is for a game between two people without --seed: its deck is "
                                 "shuffled by both players' tools (against a bot, or with a chosen seed, this "
                                 "machine deals every card)")))
    if seed is None:
        seed = secrets.randbelow(2**32)
    start = _start_player(first, names, seed, handshake)
    layout = _board(board, seed, handshake)
    comps = load_components(components) if components else None
    creator = as_player if as_player is not None else (humans[0] if humans else None)
    if (handshake or host_signs) and as_player is not None and as_player not in humans:
        raise UsageError(said(N_("--as {name}: you are one of the human players ({names})"), name=repr(as_player),
                              names=", ".join(humans)))
    header = gamefile.make_header(seed=seed, players=names, first=start if start != "random" else names[0],
                                  board=layout if isinstance(layout, tuple) else rules.RECOMMENDED_BOARD,
                                  components=comps)
    if handshake:  # R40: the start player and a random board are drawn from the joint seed at the reveal
        header = msgspec.structs.replace(header, first=start, board=layout)
    return Plan(header, names, humans, handshake, host_signs, creator, comps,
                window if handshake and deck != "seed" else None)


def _start_player(first: str, names: tuple[str, str], seed: int, handshake: bool) -> str:
    if first.lower() == "random":
        if handshake and "random" in names:
            raise UsageError(said(N_("a player is named 'random': choose the start player with --first A or --first B")))
        return "random" if handshake else rules.random_first(seed, names)
    if first in names:
        return first
    if first.upper() in ("A", "B"):
        return names["AB".index(first.upper())]
    raise UsageError(said(N_("--first must be {a}, {b}, A, B or random, not {word}"), a=names[0], b=names[1],
                          word=quoted(first)))


def _board(board: str, seed: int, handshake: bool) -> tuple[str, ...] | str:
    """The action board (R8): recommended, random-a/-b (drawn from the joint seed later in a fair
    game), or nine tiles for spaces 1–9."""
    if board in ("random-a", "random-b") and handshake:
        return board
    if board in ("recommended", "random-a", "random-b"):
        return rules.RECOMMENDED_BOARD if board == "recommended" else rules.random_board(seed, board[-1])
    words = [w.strip() for w in board.split(",") if w.strip()]
    if words and words[0].lower() == "sweep":
        words = words[1:]
    if len(words) != 9:
        raise UsageError(said(
            N_("--board LAYOUT names the nine tiles of spaces 1–9, comma separated; got {n}: e.g. {example}"),
            n=len(words), example="clear_hurdles,flex,clear_tunnels,exchange,break,boost,clear_a_frames,distraction,"
            "clear_weave_poles"))
    return rules.validate_board(["sweep"] + [word_match(w, list(TILES[1:]), "tile") for w in words])


def create_fair(file: Path, p: Plan) -> bytes:
    """Write the header of a fair game (R40): the creator's commitment and key; returns the line."""
    assert p.creator is not None
    _game, raw, _lines = gamefile.create_signed(file, p.header, p.creator, handshake=True, window=p.window)
    return raw


def create(file: Path, p: Plan) -> Created:
    """Write a game that starts at once (against a bot, or ``--seed``), with its first automatic lines."""
    started: list[tuple[Game, list[Move]]] = []

    def first_moves(g: Game) -> list[Move]:
        moves = session.automatic(g, None)
        started.append((g, moves))
        return moves

    if p.host_signs and p.creator is not None:  # R41: the host signs, the bot seat's lines too
        made, raw, lines = gamefile.create_signed(file, p.header, p.creator, handshake=False, decide=first_moves)
        assert made is not None
        game = made
    else:
        game, raw, lines = gamefile.create(file, p.header, first_moves)
    steps = session.steps_after(started[0][0], started[0][1], lines) if started else []
    return Created(game, raw, lines, steps)
