"""Reading the opponent: the worlds the search samples, weighted by the opponent's recorded choices.

A determinization (:func:`view.determinize`) fills the cards a seat cannot see uniformly at
random.  But the opponent's own decisions tell something about its hidden cards: a player who
plays a 9 while holding a hand of low cards is not the same as one who had nothing better.  This
module weights each sampled world by how likely that world's hidden hand makes the opponent's
recorded plays under models of its play (Bayes' rule with a uniform prior):

* **The models.**  Under a model *(T, u)* the opponent plays card *c* with probability
  ``(1 - u) · softmax + u · uniform``, where the softmax is over :func:`greedy.scored_plays`'
  values of every play its hand allowed, at temperature *T* (in greedy's cubes), summed over the
  plays of one card (its reward and Flex shift do not matter here), and the uniform share *u* is
  over the hand's cards: a player who is not greedy (a human, another bot) never makes a world
  impossible.  :data:`MODELS` holds two: one that plays like greedy and one that plays like a
  search level.  The opponent is taken to be one of them, at even odds, for the whole window read
  back, so a world's weight is the average of the two models' likelihoods of the plays read: the
  plays themselves tell which model fits (against greedy the sharp one carries the weight, against
  a searching or a human player the soft one).
* **The opponent's hand then.**  Walking back from now over the opponent's recorded decisions,
  the hand it held at each is the world's hidden cards now, plus every card it has played face up
  since that was hidden then, plus the cards the watcher knew.  The walk stops at the first
  decision that hid a card from the watcher (a face-down play, put-back or discard, R18, R22, R31)
  or where the count of hidden cards does not match (a card drawn unseen, R18): before that, the
  world does not say which of its cards were held.
* **Only the seat's own view (R39).**  What is recorded of each decision (:func:`observe`) is read
  from :func:`view.seat_view` of the watcher and :func:`view.move_view` of the move: the known
  cards, the count of hidden ones, the card played face up.  The scoring state is a
  determinization of that view with a fixed stream, so the weights depend on the view and the
  world only.

:class:`Tracker` collects what each seat has seen, decision by decision; :class:`Belief` weights
the worlds of one search.  The search draws its worlds from a pool of determinizations with
these weights (:func:`search.analyse`); with nothing to read (no hidden card in the opponent's
hand, or no history), every world weighs the same and the search samples as before.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine import rules
from ..engine.moves import Discard, Move, Play, PutBack
from ..engine.rng import Rng
from ..engine.state import HIDDEN, State
from ..engine.view import determinize, move_view, seat_view
from ..record import gamefile
from .greedy import Greedy, scored_plays

#: The models of the opponent's play, as (softmax temperature in greedy's cubes, uniform share):
#: one that plays like greedy, one that plays like a search level.  Fitted by likelihood to each
#: player's own face-up plays with their true hands (docs/performance.md): the first is the best
#: fit to greedy's, the second within 0.01 nats a play of the best fit to ``strong``'s.  The
#: uniform share means that no model makes a world impossible.
MODELS: tuple[tuple[float, float], ...] = ((0.05, 0.03), (0.5, 0.15))
DEPTH = 16  # at most this many of the opponent's latest decisions are read back
SCORING_STREAM = "belief"  # the fixed stream of the scoring states' determinizations


@dataclass(frozen=True)
class Seen:
    """One decision of the opponent's, as the watcher saw it (R39)."""

    known: tuple[str, ...]  # the cards of the opponent's hand the watcher knew, before it
    hidden: int  # how many cards of that hand it did not know
    card: str | None  # the card played face up from the hand (the play phase), else None
    opaque: bool  # the decision hid a card from the watcher: nothing before it is read
    view: State | None  # the watcher's view before a play (to score the plays its hand allowed)


def observe(before: State, move: Move, watcher: int) -> Seen:
    """What ``watcher`` saw of the opponent's decision ``move`` made in ``before`` (R39)."""
    actor = 1 - watcher
    view = seat_view(before, watcher)
    seen = move_view(before, move, watcher)
    hand = view.players[actor].hand
    known = tuple(c for c in hand if c != HIDDEN)
    opaque = isinstance(seen, (PutBack, Discard, Play)) and getattr(seen, "card", None) == HIDDEN
    plays = isinstance(seen, Play) and not opaque and before.phase == "play" and not before.in_mini
    card = seen.card if plays and isinstance(seen, Play) else None
    return Seen(known, len(hand) - len(known), card, opaque, view if card is not None else None)


class Tracker:
    """What each seat has seen of the other's decisions, fed every decision of a game in order."""

    def __init__(self) -> None:
        self._seen: tuple[list[Seen], list[Seen]] = ([], [])

    def add(self, before: State, move: Move) -> None:
        actor = before.to_act
        if actor is None or before.winner is not None:
            return
        self._seen[1 - actor].append(observe(before, move, 1 - actor))
        del self._seen[1 - actor][:-DEPTH]

    def seen(self, seat: int) -> tuple[Seen, ...]:
        """The opponent's latest decisions as ``seat`` saw them, oldest first."""
        return tuple(self._seen[seat])

    @classmethod
    def of(cls, steps: Iterable[tuple[State, Move]]) -> Tracker:
        t = cls()
        for before, move in steps:
            t.add(before, move)
        return t

    @classmethod
    def of_file(cls, data: bytes, path: str) -> Tracker:
        """What each seat saw of the decisions of a (verified, unsealed) game file's bytes."""
        t = cls()
        for item in gamefile.verify(data, path, keep_before=True):
            if not isinstance(item, gamefile.Start) and item.move is not None and item.before is not None:
                t.add(item.before, item.move)
        return t


class Belief:
    """The weights of the worlds of one search by ``seat`` in ``view``, from what it has seen."""

    def __init__(self, view: State, seat: int, seen: Sequence[Seen]) -> None:
        self.opp = 1 - seat
        hand = view.players[self.opp].hand
        self.known = frozenset(c for c in hand if c != HIDDEN)
        self.slots = [i for i, c in enumerate(hand) if c == HIDDEN]
        self.seen = list(seen)
        self._scores: dict[tuple[int, tuple[str, ...]], tuple[float, ...]] = {}
        self._states: dict[int, State] = {}

    @property
    def informative(self) -> bool:
        """Whether any world can weigh differently from another (a hidden card, a play to read)."""
        return bool(self.slots) and any(d.card is not None and d.hidden for d in self.seen)

    def log_weight(self, world: State) -> float:
        """The log-likelihood of the opponent's read-back plays in ``world`` (a determinization),
        summed over the models of :data:`MODELS` (equal prior odds: the opponent is one of them)."""
        held = [c for c in world.players[self.opp].hand if c not in self.known]
        totals = [0.0] * len(MODELS)
        for k in range(len(self.seen) - 1, -1, -1):
            d = self.seen[k]
            if d.opaque:
                break
            if d.card is not None and d.card not in d.known:
                held = held + [d.card]  # hidden then, played face up since
            if len(held) != d.hidden:
                break  # a card came in unseen between: which one is not known
            if d.card is not None and d.hidden:
                for j, x in enumerate(self._log_likelihoods(k, tuple(sorted(held)))):
                    totals[j] += x
        top = max(totals)
        return top + math.log(sum(math.exp(t - top) for t in totals) / len(totals))

    def _log_likelihoods(self, k: int, hidden: tuple[str, ...]) -> tuple[float, ...]:
        """The log-probability of decision ``k``'s play under each model, the hand's hidden part
        being ``hidden``."""
        key = (k, hidden)
        cached = self._scores.get(key)
        if cached is not None:
            return cached
        d = self.seen[k]
        assert d.view is not None and d.card is not None
        base = self._states.get(k)
        if base is None:
            base = self._states[k] = determinize(d.view, Rng.for_purpose(0, SCORING_STREAM))
        s = base.copy()
        actor = s.to_act
        assert actor is not None
        hand = list(d.known) + list(hidden)
        s.players[actor].hand = hand
        scored = scored_plays(Greedy(s), rules.legal_moves(s))
        top = max((v for v, _ in scored), default=0.0)
        out = []
        for temperature, mix in MODELS:
            z: dict[str, float] = {}
            for v, m in scored:
                z[m.card] = z.get(m.card, 0.0) + math.exp((v - top) / temperature)
            total = sum(z.values())
            soft = z.get(d.card, 0.0) / total if total > 0 else 1.0 / len(hand)
            p = (1.0 - mix) * soft + mix * hand.count(d.card) / len(hand)
            out.append(math.log(max(p, 1e-12)))
        self._scores[key] = tuple(out)
        return self._scores[key]


def resample_weights(logs: list[float]) -> list[float]:
    """Normalised weights from log-weights (the largest is 1 before normalising)."""
    top = max(logs)
    w = [math.exp(x - top) for x in logs]
    total = sum(w)
    return [x / total for x in w]


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of normalised weights (how many worlds they are worth)."""
    return 1.0 / sum(w * w for w in weights)
