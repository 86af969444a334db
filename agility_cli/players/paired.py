"""Paired values for the review: the played and the best decision judged on the same worlds.

A review compares two decisions.  Judged by one search each, or by the visits of one tree, the
two values come from different samples of the hidden cards and different rollouts, and their
difference is mostly noise.  Here both are valued on **common random numbers**:

* **The worlds.**  ``n`` determinizations of the decider's view (R39), drawn by the search's own
  sampler, so weighted by what the opponent's recorded plays say of its hidden cards
  (:mod:`belief`), each with the seed of its rollouts.
* **One tree for the ranking.**  The search (:func:`search.search_worlds`) runs over those worlds,
  in turn, and names its candidates, most visited first.
* **The values.**  Each of the top ``CANDIDATES`` candidates and the played decision is made in
  every world and played on by :func:`search.rollout` with that world's seed; a decision's value
  is the mean result for the decider.  The best is the candidate of the highest value, so a
  decision's loss is never below zero, and two decisions that differ little get values that differ
  little: a world that is lucky for one is lucky for the other.
* **The noise.**  The differences of the best's and the played decision's results, world by
  world, give the loss a one-sided 99 % interval (:func:`near_end`): the review marks a decision
  only when the interval's near end is beyond the mark's threshold, or a longer look confirms it.
* **Within a turn.**  The worlds of one decision are carried to the next decision of the same
  seat when nothing hidden or random happened between (:func:`carry`: the decision made in every
  world leaves each one consistent with the seat's next view): the chance after a decision and the
  chance before the next are then read on the same worlds with the same seeds.

Deterministic for (state, seat, what it has seen, stream, sizes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import rules
from ..engine.moves import Move
from ..engine.rng import Rng
from ..engine.state import State, canonical
from ..engine.view import seat_view
from . import search
from .belief import Seen
from .strategy import same_decision

CANDIDATES = 2  # the tree's most visited decisions valued on the worlds, beside the played one
#: The one-sided 99 % normal quantile: the loss's near end is its mean less this many standard errors.
#: (90 % until 2026-12-06: 9.6 % of the marks were false; docs/bots.md has both measures.)
Z_MARK = 2.3263


@dataclass
class Worlds:
    """The sampled worlds of one seat's decision, with their rollout seeds."""

    seat: int
    states: list[State]
    seeds: list[int]


def draw(state: State, seat: int, seen: Sequence[Seen], rng: Rng, n: int) -> Worlds:
    """``n`` worlds for ``seat``'s decision in ``state``, from its view only (R39)."""
    view = seat_view(state, seat)
    sample = search.sampler(view, seat, seen, rng, search.Budget(sims=n))
    states = [sample(rng) for _ in range(n)]
    return Worlds(seat, states, [rng.next_u64() for _ in range(n)])


def carry(worlds: Worlds, move: Move, after: State) -> Worlds | None:
    """The worlds after ``move``, when each stays consistent with ``worlds.seat``'s view of
    ``after`` (nothing hidden or random happened: the same worlds go on); else ``None``."""
    if after.winner is not None or after.to_act != worlds.seat:
        return None
    target = canonical(seat_view(after, worlds.seat))
    out = []
    for w in worlds.states:
        t = w.copy()
        legal = rules.legal_moves(t)
        m = same_decision(move, legal)
        if m not in legal:
            return None
        rules.apply_legal(t, m)
        if canonical(seat_view(t, worlds.seat)) != target:
            return None
        out.append(t)
    return Worlds(worlds.seat, out, worlds.seeds)


def results(worlds: Worlds, move: Move, horizon: int = search.HORIZON) -> list[float]:
    """The seat's result of ``move`` made in each world, played on with that world's seed for
    ``horizon`` turns (0: the evaluation of the position it leaves)."""
    out = []
    for w, seed in zip(worlds.states, worlds.seeds):
        t = w.copy()
        rules.apply_legal(t, same_decision(move, rules.legal_moves(t)))  # R31: the world's top card
        r = search.rollout(t, Rng(seed), horizon)
        out.append(r if worlds.seat == 0 else 1.0 - r)
    return out


def value(worlds: Worlds, move: Move) -> float:
    """The mean result for the seat of ``move`` made in every world, played on with its seed."""
    found = results(worlds, move)
    return sum(found) / len(found)


def cross_fitted(found: dict[Move, list[float]], pick: Callable[[dict[Move, float]], Move]) -> float:
    """The best decision's value without the winner's curse: chosen on the even worlds and valued
    on the odd ones, and the other way round, the two averaged (one world: its own value)."""
    if len(next(iter(found.values()))) < 2:
        return max(sum(r) / len(r) for r in found.values())
    halves = []
    for chosen, valued in ((0, 1), (1, 0)):
        m = pick({k: sum(r[chosen::2]) / len(r[chosen::2]) for k, r in found.items()})
        rest = found[m][valued::2]
        halves.append(sum(rest) / len(rest))
    return sum(halves) / 2


@dataclass(frozen=True)
class Judged:
    """The paired values of one decision: the best one found, and the played one."""

    best: Move
    chance: float  # the best's value: the decider's chance before the decision
    chance_played: float
    chance_cross: float  # the best's value chosen and valued on separate halves (:func:`cross_fitted`)
    chance_tree: float  # the tree's own value of its most visited decision
    low: float = 0.0  # the near end of the loss's one-sided 99 % interval (:func:`near_end`)


def near_end(best: Sequence[float], played: Sequence[float]) -> float:
    """The near end of the one-sided 99 % interval of the loss ``mean(best − played)``: the paired
    differences world by world, their mean less :data:`Z_MARK` standard errors.  One world gives no
    spread to judge by: its near end is −1 (nothing is beyond the noise)."""
    diffs = [b - p for b, p in zip(best, played)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return -1.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean - Z_MARK * math.sqrt(var / n)


def judge(state: State, played: Move, worlds: Worlds, sims: int, rng: Rng) -> Judged:
    """The best decision of ``state`` and the values of it and of ``played`` on ``worlds``."""
    legal = rules.legal_moves(state)
    if len(legal) == 1:
        v = value(worlds, played)
        return Judged(played, v, v, v, v)
    ranked = search.search_worlds(worlds.states, rng, search.Budget(sims=sims), legal)
    found = {played: results(worlds, played)}
    for st in ranked[:CANDIDATES]:
        if st.move not in found:
            found[st.move] = results(worlds, st.move)
    order = {m: i for i, m in enumerate(legal)}

    def pick(values: dict[Move, float]) -> Move:
        return max(values, key=lambda m: (values[m], m == played, -order.get(m, len(order))))

    values = {m: sum(r) / len(r) for m, r in found.items()}
    best = pick(values)
    return Judged(best, values[best], values[played], cross_fitted(found, pick), ranked[0].win_rate,
                  near_end(found[best], found[played]))
