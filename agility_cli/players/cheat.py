"""A bound to measure the search against: the *cheating* search, and the matches of the benchmark.

The cheating search is :mod:`search`'s tree search given the real state instead of samples of
the seat's view: it sees the opponent's hand, the deck order and the PRNG of future shuffles.
It is what the hidden cards cost the fair search: at the same budget, the fair bot's score
against ``greedy`` next to the cheater's shows how much of the gap is information rather than
search.  The *peeking* search (``peek:LEVEL``) sits between them: it sees the opponent's hand but
samples the deck order and the face-down discards as a fair seat must.  It is the most that reading
the opponent's choices (:mod:`belief`) could ever win, since those choices say nothing of the deck.  It breaks R39 on purpose, so it is **never a player**: it is not one of
:data:`bots.STRATEGIES`, no seat name selects it, and only the benchmark
(``python -m agility_cli.cli.bench strength``) calls it, through :func:`play_match`.

:func:`play_match` plays the games of ``agility selfplay --board mixed`` (the same seeds, boards,
start players, alternating seats and per-decision PRNG streams ``bot:{n}``), with contenders
named as strategies (``greedy``, ``strong2`` …), as ``cheat:LEVEL``, the cheating search at
that level's budget, or as ``peek:LEVEL``.  A fair contender decides exactly as in self-play, so a fair-vs-fair match
is the self-play run of the same seed.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..engine import rules
from ..engine.moves import Move
from ..engine.rng import Rng
from ..engine.state import State
from ..engine.view import determinize, seat_view
from ..record import gamefile
from . import batch, bots, search, selfplay
from .belief import Tracker
from .strategy import same_decision

CHEAT = "cheat:"
PEEK = "peek:"
#: The frozen baseline: today's search (version 2.x), which samples the hidden cards uniformly and
#: reads nothing from the opponent's choices (:mod:`belief`), as ``LEVEL@2.x`` (``strong@2.x``).
#: Never a player either: the benchmark's yardstick for what the belief weighting buys.
FROZEN = "@2.x"


def cheating_choice(state: State, rng: Rng, budget: search.Budget) -> Move:
    """The search's decision with every card in view (not R39: the benchmark's bound only)."""
    legal = rules.legal_moves(state)
    if len(legal) == 1:
        return legal[0]
    root, _, _ = search._run(lambda r: state.copy(), rng, budget)
    return search._ranked(root, legal)[0].move


def peeking_choice(state: State, rng: Rng, budget: search.Budget) -> Move:
    """The search's decision with the opponent's hand in view and the rest of the seat's view
    sampled (not R39: the benchmark's bound on what reading the opponent can win)."""
    legal = rules.legal_moves(state)
    if len(legal) == 1:
        return legal[0]
    seat = state.to_act
    assert seat is not None
    view = seat_view(state, seat)
    view.players[1 - seat].hand = list(state.players[1 - seat].hand)
    root, _, _ = search._run(lambda r: determinize(view, r), rng, budget)
    return search._ranked(root, legal)[0].move


def frozen_analysis(level: str, state: State, rng: Rng) -> list[search.MoveStat]:
    """The ranking of version 2.x's search at ``level`` (``LEVEL@2.x``), for the seat to act: its
    own budget and settings (:data:`search.LEVELS_2X`, :data:`search.SETTINGS_2X`), the worlds
    drawn uniformly from the seat's view (R39), as ``bots.choose`` drew them then (the same stream,
    the same draws).  The moves are those of one determinization: :func:`frozen_choice` maps the
    best onto the real legal moves."""
    seat = state.to_act
    assert seat is not None
    guess = determinize(seat_view(state, seat), rng)
    view = seat_view(guess, seat)
    root, _, _ = search._run(lambda r: determinize(view, r), rng, search.LEVELS_2X[level], search.SETTINGS_2X)
    return search._ranked(root, rules.legal_moves(guess))


def frozen_choice(level: str, state: State, rng: Rng) -> Move:
    """The decision of version 2.x's search at ``level`` (:func:`frozen_analysis`)."""
    legal = rules.legal_moves(state)
    if len(legal) == 1:
        return legal[0]
    return same_decision(frozen_analysis(level, state, rng)[0].move, legal)


def check_contender(name: str) -> None:
    """Refuse a name that is neither a strategy nor ``cheat:``/``peek:`` followed by a search
    level, nor a level followed by ``@2.x``."""
    if name.startswith((CHEAT, PEEK)) or name.endswith(FROZEN):
        levels = search.LEVELS_2X if name.endswith(FROZEN) else search.LEVELS
        if name.removeprefix(CHEAT).removeprefix(PEEK).removesuffix(FROZEN) not in levels:
            raise ValueError(f"unknown level in {name!r}; levels are {', '.join(levels)}")
    elif name not in bots.STRATEGIES:
        raise ValueError(f"unknown contender {name!r}; strategies are {', '.join(bots.STRATEGIES)}")


def decide(name: str, state: State, rng: Rng, seen: Tracker | None = None) -> Move:
    """Contender ``name``'s decision in ``state`` (the real state: fair ones see their view only,
    and what they have ``seen``; the frozen baseline reads nothing of it)."""
    if name.startswith(CHEAT):
        return cheating_choice(state, rng, search.LEVELS[name[len(CHEAT):]])
    if name.startswith(PEEK):
        return peeking_choice(state, rng, search.LEVELS[name[len(PEEK):]])
    if name.endswith(FROZEN):
        return frozen_choice(name.removesuffix(FROZEN), state, rng)
    return bots.choose(name, state, rng, seen)


@dataclass
class MatchResult:
    """``a`` against ``b`` over ``games`` games."""

    a: str
    b: str
    games: int = 0
    wins_a: int = 0
    unfinished: int = 0
    think: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds per real decision

    def summary(self) -> dict[str, object]:
        lo, hi = selfplay.wilson(self.wins_a, self.games)
        out: dict[str, object] = {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "wins_a": self.wins_a,
            "win_rate_a": self.wins_a / self.games if self.games else 0.0,
            "interval_95": [lo, hi],
            "unfinished": self.unfinished,
        }
        for who, times in self.think.items():
            if times:
                ordered = sorted(times)
                out[f"think_{who}"] = {
                    "decisions": len(times),
                    "mean_ms": 1000 * statistics.fmean(times),
                    "p95_ms": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
                    "max_ms": 1000 * ordered[-1],
                }
        return out


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: who won it (``a``, ``b`` or ``None`` unfinished) and the CPU seconds of
    each contender's decisions with more than one legal option."""

    index: int
    winner: str | None
    think_a: list[float]
    think_b: list[float]

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "winner": self.winner, "think_a": self.think_a, "think_b": self.think_b}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "MatchGame":
        return cls(int(doc["index"]), doc["winner"], list(doc["think_a"]), list(doc["think_b"]))


def play_match_game(task: tuple[str, str, int, str, int]) -> MatchGame:
    """Game ``index`` of the match ``a`` against ``b`` of ``seed`` (a batch task: any process)."""
    a, b, seed, board, index = task
    game_seed = selfplay.game_seed(seed, index)
    mode = selfplay.board_mode(board, index)
    by_seat = (a, b) if index % 2 == 0 else (b, a)
    plain = [who.removeprefix(CHEAT).removesuffix(FROZEN) for who in by_seat]
    names = selfplay.seat_names((plain[0], plain[1]))
    header = gamefile.make_header(
        seed=game_seed, players=names, first=rules.random_first(game_seed, names),
        board=selfplay.board_layout(mode, game_seed), components=None,
    )
    s = rules.setup(header, selfplay._components(None))
    think: tuple[list[float], list[float]] = ([], [])
    seen = Tracker()
    n = 0
    while s.winner is None and n < selfplay.MAX_DECISIONS:
        seat = s.to_act
        assert seat is not None
        n += 1
        real = len(rules.legal_moves(s)) > 1
        started = time.process_time()
        move = decide(by_seat[seat], s, Rng.for_purpose(game_seed, f"bot:{n}"), seen)
        if real:
            think[0 if (seat == 0) == (index % 2 == 0) else 1].append(time.process_time() - started)
        seen.add(s, move)
        rules.apply_in_place(s, move)
    winner = None if s.winner is None else ("a" if (s.winner == 0) == (index % 2 == 0) else "b")
    return MatchGame(index, winner, *think)


def play_match(a: str, b: str, games: int, seed: int, board: str = "mixed",
               progress: "Callable[[int, MatchResult], None] | None" = None, start: int = 0,
               where: batch.Where = batch.Where(), journal: "Path | None" = None) -> MatchResult:
    """``games`` games of ``a`` against ``b``, seats alternated, as ``agility selfplay`` plays them:
    games ``start`` … ``start + games - 1`` of the seed (a stopped run goes on where it stopped).

    The games run through :func:`batch.run_batch` (``where``: here, a pool, a Dask cluster) and are
    counted in index order whatever order they finish in.  ``journal``: a file where each finished
    game is kept as it comes (:class:`batch.Journal`); the games already in it are not played again.
    Thinking time is CPU time of the process that played, per decision with more than one legal
    option.  ``progress`` is called after each game, in index order, with its index and the result
    so far (a long run).
    """
    check_contender(a)
    check_contender(b)
    result = MatchResult(a, b, think={"a": [], "b": []})
    book = None if journal is None else batch.Journal(journal, {"a": a, "b": b, "seed": seed, "board": board})
    done = {} if book is None else {i: MatchGame.from_json(doc) for i, doc in book.load().items()}
    wanted = range(start, start + games)
    tasks = [(i, (a, b, seed, board, i)) for i in wanted if i not in done]
    counted = [start]

    def count_ready() -> None:  # the finished prefix, in index order
        while counted[0] < start + games and counted[0] in done:
            game = done[counted[0]]
            result.games += 1
            result.unfinished += game.winner is None
            result.wins_a += game.winner == "a"
            result.think["a"] += game.think_a
            result.think["b"] += game.think_b
            if progress is not None:
                progress(game.index, result)
            counted[0] += 1

    count_ready()
    try:
        for index, game in batch.run_batch(play_match_game, tasks, where):
            if book is not None:
                book.record(index, game.to_json())
            done[index] = game
            count_ready()
    finally:
        if book is not None:
            book.close()
    return result
