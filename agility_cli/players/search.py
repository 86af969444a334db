"""The search bot: information-set Monte Carlo tree search over what one seat may know (R39).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012; OpenSpiel's ``ISMCTSBot`` in spirit),
built so that every extra simulation buys something new:

* **Determinization.**  Every simulation plays in a fresh sample of the hidden cards,
  :func:`view.determinize` of the acting seat's view (:func:`view.seat_view`), drawn with the
  bot's own PRNG stream: the more simulations, the more of the possible hands and deck orders the
  search has seen.  The search never sees the real state, so it cannot use what its seat may not
  know: the opponent's hand, the deck order, the face-down discards, the PRNG.
* **Reading the opponent.**  When the opponent holds cards the seat has not seen and has played
  face up since, the worlds are drawn from a pool of ``POOL`` determinizations a simulation, each
  with the weight :mod:`belief` gives it: the likelihood of the opponent's recorded plays under
  two models of its play (greedy's values made sharp or soft, even odds), read from the seat's own
  view of them only (R39).  With nothing to read, the worlds are drawn uniformly, as before.
* **One tree for the information set.**  A node is reached by a sequence of decisions and holds
  one child per decision met there in some determinization (both players' decisions, including
  prize choices and the opponent's Intimidation discard, R32/R33/R36).  A decision that is only
  possible in some determinizations (the opponent's cards differ) is counted with an
  *availability* count, and UCB1 uses it instead of the parent's visits (ISMCTS's fix for
  subset-armed bandits).  A mini-turn's play of the unknown top card (R31) is keyed by its reward
  and Flex shift, not by the card.
* **Selection / expansion.**  UCB1 with ``C_UCB`` over the available children, plus a
  progressive bias ``PRIOR / visits`` for greedy's own choice at that node: a quarter of a win at
  its first visit, fading as the visits grow — a prior that guides the search without deciding
  it.  An untried decision is expanded first, greedy's choice first, then the others in a random
  order.  A forced decision (one candidate) is walked through without using up the simulation's
  one expansion.
* **Rollout.**  Both seats play :func:`greedy.noisy_greedy_strategy` — greedy, except that the
  card played is drawn from a softmax over greedy's values of the plays at
  ``ROLLOUT_TEMPERATURE``, with the search's own PRNG — until ``HORIZON`` more turns have begun
  or the game ends.  The diversity makes the values estimate play against a range of
  opponents, not greedy's one line.
* **Result.**  A finished game scores 1 (win) or 0, any other position :func:`evaluate.evaluate`:
  a logistic model over normalised features of the whole position (shortfall of cubes, obstacles
  left, dogs, tokens, the cards in hand and on display, the Clear tiles the player to act can
  reach, tempo, the Tiebreak marker, the start player), fitted to self-play positions by
  :mod:`train`.  Every node on the path adds the result from the point of view of the seat that
  made the decision leading to it.
* **Choice.**  The root decision with the most visits (ties: the higher win rate, then the
  first legal one).

Pruning, in the tree only (the rollout and the root keep every legal decision available):
Exchange (R15) is considered only in steps 4–5 and only when greedy sees it enabling an adoption
or an advance; under rules version 2 a card is played with its reward left for later (the
decision that names it early is the same play with less information, R12).

No tree is kept from one decision to the next, even within a turn: each decision's search depends
only on its own view, what the seat has seen of the opponent's decisions, its stream and budget, so
decision *n* of a game is the same whether a bot plays the whole game in one process
(``selfplay``) or one decision per command (``agility bot --moves 1``, ``hint``: the file is read
again for what was seen), as :func:`bots.choose_for_seat` promises.  (The review, not played
against a clock, keeps its worlds within a turn: :mod:`paired`.)

Determinism: the result depends only on the view, the PRNG stream and the budget when the budget
is counted in simulations (``Budget(sims=N)``), which every level is.  A time budget
(``Budget(seconds=T)``) is offered for interactive hints and is not reproducible.  The levels'
strength and thinking times are measured by ``python -m agility_cli.cli.bench strength``
(docs/bots.md), against the cheating bound of :mod:`cheat`.
"""

from __future__ import annotations

import bisect
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable

from ..engine import rules
from ..engine.moves import Exchange, Move, Play
from ..engine.rng import Rng
from ..engine.state import State
from ..engine.view import determinize, seat_view
from .belief import Belief, Seen, resample_weights
from .evaluate import evaluate
from .greedy import Greedy, greedy_strategy, noisy_greedy_strategy
from .strategy import same_decision

C_UCB = 0.7  # exploration constant of UCB1 (results are in [0, 1])
HORIZON = 6  # rollout: stop once this many more turns have begun (or the game ends)
ROLLOUT_LIMIT = 400  # decisions; a safety bound on one rollout
ROLLOUT_TEMPERATURE = 0.5  # softmax temperature of the rollouts' card choice, in greedy's cubes
PRIOR = 0.25  # progressive bias: PRIOR / visits added to greedy's choice (a quarter win at first)
POOL = 2  # candidate worlds drawn per simulation when the belief weighs them (:mod:`belief`)
TIMED_POOL = 256  # the pool of a time budget's search


@dataclass(frozen=True)
class Settings:
    """How the tree is grown, apart from the budget: the exploration constant of UCB1, greedy's
    progressive bias and the rollouts' horizon in turns (the defaults are the module's constants)."""

    c_ucb: float = C_UCB
    prior: float = PRIOR
    horizon: int = HORIZON


#: The settings of every level, ``hint``, ``analyse`` and the benchmark's bounds (:mod:`cheat`).
SETTINGS = Settings()


@dataclass(frozen=True)
class Budget:
    """How long to think: a number of simulations (reproducible) and/or seconds (interactive)."""

    sims: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.sims is None and self.seconds is None:
            raise ValueError("a budget needs simulations or seconds")
        if self.sims is not None and self.sims < 1:
            raise ValueError("a budget needs at least one simulation")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError("a time budget must be a positive, finite number of seconds")


#: The search levels, easiest first.  Budgets in simulations, so games against any level replay.
#: Each is a step the benchmark measures (``python -m agility_cli.cli.bench strength``, docs/bots.md):
#: ``strong2`` beats ``strong1`` in 76 % of 200 games and ``strong3`` beats ``strong2`` in 67 %.
#: ``strong1``'s few simulations let single rollouts decide, so it plays about as well as
#: ``greedy``, a little below (the easy level); ``strong3`` is the default, ``strong``: the most
#: that keeps a decision within 0.3 s of CPU.  More simulations buy little more (200 won 55 %
#: against 80), so there is no deeper level; ``hint --seconds`` thinks longer on request.
LEVELS: dict[str, Budget] = {
    "strong1": Budget(sims=8),
    "strong2": Budget(sims=25),
    "strong3": Budget(sims=80),
}
DEFAULT_LEVEL = "strong3"
LEVELS["strong"] = LEVELS[DEFAULT_LEVEL]

#: The search of version 2.x, frozen as the benchmark's baseline ``LEVEL@2.x`` (:mod:`cheat`, never a
#: player's level): its budgets and settings stay these whatever the levels above become, and it
#: samples the hidden cards uniformly (no :mod:`belief`).  ``tests/test_search_levels.py`` pins its
#: decisions, so a change of the shared code that would move the yardstick is seen, not measured.
LEVELS_2X: dict[str, Budget] = {"strong1": Budget(sims=8), "strong2": Budget(sims=25), "strong3": Budget(sims=80)}
LEVELS_2X["strong"] = LEVELS_2X["strong3"]
SETTINGS_2X = Settings(c_ucb=0.7, prior=0.25, horizon=6)


@dataclass(frozen=True)
class MoveStat:
    """One root decision: how often the search tried it and how often that won."""

    move: Move
    visits: int
    win_rate: float  # the seat's estimated chance of winning after this decision, in [0, 1]


#: How many standard deviations of the visit split make a lead (about 95 %, see :func:`about_equal`).
NOISE_SIGMAS = 2.0


def about_equal(best: MoveStat, other: MoveStat) -> bool:
    """Whether the search cannot tell ``best`` from ``other``: their visit counts are within
    binomial noise.

    The search ranks by visits (UCB1 sends more simulations to the decision that keeps winning), so
    the test is on visits.  Were the search indifferent between the two, each of their ``n = n1 +
    n2`` simulations would have gone to either one with chance ½: ``n1`` ~ Binomial(n, ½), and the
    lead ``n1 - n2 = 2·n1 - n`` has mean 0 and standard deviation √n.  A lead of at most
    ``NOISE_SIGMAS``·√n (two standard deviations, about a 95 % two-sided test) is what a coin toss
    gives: the two are about equal.  15 against 14 tries is (a lead of 1, noise 10.8); 30 against
    12 is not (18 against 13.0).  Without a visit to either (one legal decision), nothing is close.
    """
    n = best.visits + other.visits
    return n > 0 and abs(best.visits - other.visits) <= NOISE_SIGMAS * math.sqrt(n)


@dataclass
class Analysis:
    """What a search found for ``seat``: its decisions ranked best first."""

    seat: int
    simulations: int
    seconds: float
    moves: list[MoveStat] = field(default_factory=list)

    @property
    def close(self) -> bool:
        """The best two decisions are about equal (:func:`about_equal`): no best to name."""
        return len(self.moves) > 1 and about_equal(self.moves[0], self.moves[1])

    @property
    def best(self) -> MoveStat:
        return self.moves[0]

    @property
    def runner_up(self) -> MoveStat | None:
        return self.moves[1] if len(self.moves) > 1 else None


# --------------------------------------------------------------------------------------------
# The tree


class _Node:
    __slots__ = ("children", "visits", "wins", "avail", "seat", "move", "greedy")

    def __init__(self, seat: int, move: Move | None) -> None:
        self.children: dict[object, _Node] = {}
        self.visits = 0
        self.wins = 0.0  # sum of results from ``seat``'s point of view
        self.avail = 0
        self.seat = seat  # who made the decision leading here
        self.move = move  # that decision as made in the first determinization that met it
        self.greedy = False  # greedy's own choice there (progressive bias towards it)


def _key(s: State, m: Move) -> object:
    """The tree key of a decision: itself, except a mini-turn's unknown top card (R31)."""
    if isinstance(m, Play) and not s.players[s.active].hand:
        return ("top", m.reward, m.flex)
    return m


def candidates(s: State, legal: list[Move]) -> list[Move]:
    """The decisions the tree considers (see the module docstring); never empty."""
    out: list[Move] = []
    exchanges = False
    v2 = s.rules.reward_after_action
    for m in legal:
        if isinstance(m, Exchange):
            exchanges = True
        elif v2 and isinstance(m, Play) and m.reward is not None:
            continue  # R12 (version 2): the same play, reward chosen after the action
        else:
            out.append(m)
    if exchanges and s.phase == "dogs" and not s.prizes:
        g = Greedy(s)
        for pick in (g._exchange_for_adoption(legal), g._exchange_for_advance(legal)):
            if pick is not None and pick not in out:
                out.append(pick)
    return out or legal


def _greedy_pick(s: State, legal: list[Move], cands: list[Move], rng: Rng) -> Move | None:
    """Greedy's decision, as the candidate it stands for (a v2 play with its reward left open)."""
    pick = greedy_strategy(s, legal, rng)
    if pick in cands:
        return pick
    if isinstance(pick, Play):
        later = Play(player=pick.player, card=pick.card, reward=None, flex=pick.flex)
        if later in cands:
            return later
    return None


def _rollout(s: State, rng: Rng, horizon: int = HORIZON) -> float:
    """The noisy greedy player for both seats until ``horizon`` more turns have begun; seat 0's
    result: 1 or 0 if the game ended, else the evaluation (:mod:`evaluate`)."""
    stop = s.turn + horizon
    n = 0
    while s.winner is None and s.turn < stop and n < ROLLOUT_LIMIT:
        legal = rules.legal_moves(s)
        m = legal[0] if len(legal) == 1 else noisy_greedy_strategy(s, legal, rng, ROLLOUT_TEMPERATURE)
        rules.apply_legal(s, m)
        n += 1
    return evaluate(s)


Sampler = Callable[[Rng], State]


def _run(sample: Sampler, rng: Rng, budget: Budget, settings: Settings | None = None) -> tuple[_Node, int, float]:
    """Grow one tree over the worlds ``sample`` draws; return (root, simulations, seconds).
    ``settings``: :data:`SETTINGS` unless given (the frozen baseline gives its own).

    Each simulation plays in a world of its own (a fresh determinization of the view, R39), so a
    larger budget sees more of the possible hidden cards, not the same few again.
    """
    settings = SETTINGS if settings is None else settings
    first = sample(rng)
    seat = first.to_act
    assert seat is not None
    root = _Node(1 - seat, None)
    started = time.perf_counter()
    deadline = None if budget.seconds is None else started + budget.seconds
    sims = 0
    world: State | None = first
    while True:
        if budget.sims is not None and sims >= budget.sims:
            break
        if deadline is not None and sims > 0 and time.perf_counter() >= deadline:
            break
        _simulate(root, world if world is not None else sample(rng), rng, settings)
        world = None
        sims += 1
    return root, sims, time.perf_counter() - started


def _simulate(root: _Node, s: State, rng: Rng, settings: Settings) -> None:
    c_ucb, prior = settings.c_ucb, settings.prior
    node = root
    path = [root]
    expanded = False
    while s.winner is None:
        legal = rules.legal_moves(s)
        cands = candidates(s, legal) if len(legal) > 1 else legal
        actor = s.to_act
        assert actor is not None
        if len(cands) == 1:  # forced (in the tree): walked through, never the expansion
            m = cands[0]
            k = _key(s, m)
            child = node.children.get(k)
            if child is None:
                child = node.children[k] = _Node(actor, m)
            child.avail += 1
            rules.apply_legal(s, m)
            node = child
            path.append(node)
            continue
        untried: list[tuple[object, Move]] = []
        best: _Node | None = None
        best_move: Move | None = None
        best_u = -1.0
        for m in cands:
            k = _key(s, m)
            child = node.children.get(k)
            if child is None:
                untried.append((k, m))
                continue
            child.avail += 1
            u = child.wins / child.visits + c_ucb * math.sqrt(math.log(child.avail) / child.visits)
            if child.greedy:
                u += prior / child.visits
            if u > best_u:
                best, best_move, best_u = child, m, u
        if untried:
            pick = _greedy_pick(s, legal, cands, rng) if len(untried) == len(cands) else None
            k, m = next(((k, m) for k, m in untried if m == pick), untried[rng.below(len(untried))])
            child = node.children[k] = _Node(actor, m)
            child.avail = 1
            child.greedy = m == pick
            rules.apply_legal(s, m)
            path.append(child)
            expanded = True
            break
        assert best is not None and best_move is not None
        rules.apply_legal(s, best_move)
        node = best
        path.append(node)
    result = _rollout(s, rng, settings.horizon) if expanded else evaluate(s)
    for n in path:
        n.visits += 1
        n.wins += result if n.seat == 0 else 1.0 - result


def _ranked(root: _Node, legal: list[Move]) -> list[MoveStat]:
    """The root's children as decisions of ``legal``, most visited first."""
    stats = []
    for child in root.children.values():
        assert child.move is not None
        move = same_decision(child.move, legal)  # R31: the top card as it is in ``legal``
        rate = child.wins / child.visits if child.visits else 0.5
        stats.append(MoveStat(move, child.visits, rate))
    order = {m: i for i, m in enumerate(legal)}
    stats.sort(key=lambda st: (-st.visits, -st.win_rate, order.get(st.move, len(order))))
    return stats


def sampler(view: State, seat: int, seen: Sequence[Seen], rng: Rng, budget: Budget) -> Sampler:
    """How the search draws its worlds: determinizations of ``view`` (R39), each drawn from a pool
    by its :class:`belief.Belief` weight when the opponent's recorded plays say something about its
    hidden cards; otherwise fresh ones, uniformly, as without a history."""
    belief = Belief(view, seat, seen)
    if not belief.informative:
        return lambda r: determinize(view, r)
    pool = [determinize(view, rng) for _ in range(POOL * budget.sims if budget.sims is not None else TIMED_POOL)]
    cum = list(itertools.accumulate(resample_weights([belief.log_weight(w) for w in pool])))

    def draw(r: Rng) -> State:
        u = r.next_u64() / 2.0**64 * cum[-1]
        return pool[min(bisect.bisect_right(cum, u), len(pool) - 1)].copy()

    return draw


def analyse(state: State, seat: int, rng: Rng, budget: Budget, seen: Sequence[Seen] = ()) -> Analysis:
    """The search's ranking of the decisions open to ``seat`` now, from its view only (R39).

    ``state`` is the game's (complete) state, as replayed from its file; the search reads only
    :func:`view.seat_view` of it, and its legal moves, which are the seat's own.  The seat must be
    the one to act.  Every ranked move is one of ``rules.legal_moves(state)``.  For ``agility
    hint`` and the ``?`` of an interactive game; deterministic for (view, ``seen``, ``rng``,
    ``budget``) when the budget is counted in simulations.  ``seen``: the opponent's decisions as
    this seat saw them (:class:`belief.Tracker`), to weight the worlds by (:func:`sampler`).
    """
    if state.to_act != seat:
        raise ValueError("the analysis is for the seat that must act now")
    legal = rules.legal_moves(state)
    view = seat_view(state, seat)
    if len(legal) == 1:
        return Analysis(seat, 0, 0.0, [MoveStat(legal[0], 0, evaluate_for(view, seat, rng))])
    root, sims, seconds = _run(sampler(view, seat, seen, rng, budget), rng, budget)
    return Analysis(seat, sims, seconds, _ranked(root, legal))


def rollout(s: State, rng: Rng, horizon: int = HORIZON) -> float:
    """Seat 0's result of playing on from the complete state ``s`` (changed) as the search's
    rollouts do: 1 or 0 if the game ends within ``horizon`` turns, else the evaluation."""
    return _rollout(s, rng, horizon)


def search_worlds(worlds: Sequence[State], rng: Rng, budget: Budget, legal: list[Move]) -> list[MoveStat]:
    """The tree search over the given worlds, taken in turn (the review's common worlds,
    :mod:`paired`): the decisions of ``legal`` ranked, most visited first."""
    turn = itertools.cycle(worlds)
    root, _, _ = _run(lambda r: next(turn).copy(), rng, budget)
    return _ranked(root, legal)


def evaluate_for(view: State, seat: int, rng: Rng) -> float:
    """The static estimate of ``seat``'s chance to win in a determinization of ``view``."""
    v = evaluate(determinize(view, rng))
    return v if seat == 0 else 1.0 - v


class SearchStrategy:
    """A :data:`strategy.Strategy` that searches with the budget of a level, looked up when called."""

    def __init__(self, level: str) -> None:
        self.level = level

    def __call__(self, state: State, legal: list[Move], rng: Rng) -> Move:
        return self.decide(state, legal, rng, ())

    def decide(self, state: State, legal: list[Move], rng: Rng, seen: Sequence[Seen]) -> Move:
        """The decision, the worlds weighted by what the seat has ``seen`` (:mod:`belief`)."""
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        assert seat is not None
        view = seat_view(state, seat)  # ``state`` is already a determinized view: the same view
        budget = LEVELS[self.level]
        root, _, _ = _run(sampler(view, seat, seen, rng, budget), rng, budget)
        return _ranked(root, legal)[0].move
