"""Seeded solo games played in-process, and the decision screen of every decision of the person.

:func:`decisions` plays ``alice`` against a bot seat from a game file made by ``agility new``
(the person takes a seeded choice among the menu's rows; the bot plays as ``agility play`` lets
it), and yields, at each of alice's decisions, what ``agility play`` would show: alice's seat
view, the menu, and the story since her last decision (``screen.news_lines``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gamefiles import run_cli

from agility_cli.engine import rules
from agility_cli.engine.moves import Play
from agility_cli.engine.state import State
from agility_cli.engine.view import seat_view
from agility_cli.players import bots
from agility_cli.record import gamefile
from agility_cli.table import choices, screenfit
from agility_cli.table.choices import Row
from agility_cli.table.screen import news_lines
from agility_cli.table.session import Step, Viewer


@dataclass
class Decision:
    """One decision of the person: the complete state, their view, the rows and the story."""

    state: State
    view: State
    rows: list[Row]
    news: list[str]
    opponent: int  # the opponent's seat
    last_card: str | None  # the card the opponent played last (its id), if any yet
    played: screenfit.Played | None  # the same, as the play loop tells the screen


def new_game(folder: Path, bot: str, seed: int) -> Path:
    path = folder / f"{bot.replace(':', '-')}-{seed}.jsonl"
    assert run_cli("new", path, "--seed", seed, "--players", "alice", bot, "-q").exit_code == 0
    return path


def decisions(path: Path, seed: int, limit: int = 2000) -> Iterator[Decision]:
    """Every decision of alice (seat 0) in a game played to its end from ``path``."""
    game = gamefile.load(path)
    s = game.state
    me = next(k for k, p in enumerate(s.players) if p.name == "alice")
    bot = s.players[1 - me].name
    viewer = Viewer("alice", me, False, "human seat")
    pick = random.Random(seed)
    steps: list[Step] = []
    last_card: str | None = None
    played: screenfit.Played | None = None
    n = game.next_n
    for _ in range(limit):
        if s.winner is not None:
            return
        assert s.to_act is not None
        legal = rules.legal_moves(s)
        if s.to_act == me and len(legal) > 1:
            rows = choices.menu(s)
            yield Decision(s, seat_view(s, me), rows, news_lines(steps, viewer), 1 - me, last_card, played)
            row = rows[0] if pick.random() < 0.5 else pick.choice(rows)
            move = row.default
            steps = []
        elif s.to_act == me:
            move = legal[0]
        else:
            move = bots.choose_for_seat(bot, s, game.seed, n)
        after = rules.apply(s, move)
        steps.append(Step(n, b"", move, s, after))
        played = screenfit.last_played(steps[-1:], me, played)
        if s.to_act != me and isinstance(move, Play):
            last_card = move.card
        s = after
        n += 1
    raise AssertionError(f"{path.name}: no end within {limit} decisions")
