"""The search's evaluation: the chance that seat 0 wins, from features of a complete state.

The search (:mod:`search`) scores the positions where its rollouts stop with
:func:`evaluate`, a logistic model ``P(seat 0 wins) = 1 / (1 + exp(-w · x))`` over the features
:func:`features` reads from the state.  It is only ever given *determinized* states — a sample of
the cards the deciding seat cannot see, never the real ones (R39) — so reading both hands here
reads a guess, not a secret.

Every feature is seat 0's figure less seat 1's (or +1 / −1 for a fact that favours one seat), so
the model is antisymmetric: swapping the seats turns ``p`` into ``1 − p``, and there is no bias
term.  Amounts of cubes are divided by :attr:`Scales.cubes`, the mean number of cubes one training
card's reward gives in the component set, and obstacle counts by :attr:`Scales.obstacles`, the mean
length of a course: a components file with dearer obstacles or longer courses gives features on
the same scale, so the shipped weights fit it without re-fitting (DECISIONS, "The bot").

The features (:data:`NAMES`):

``short``
    the cubes still to earn for three dogs on three finished courses — the remaining obstacles
    of one's dogs with their features and +1 markers (R20, R26), and for each dog still to adopt
    the cheapest displayed dog on its best free course (R25) — less the cubes held that cover it;
``steps``
    obstacles still to clear (each takes a move, R27), a dog still to adopt counting as a course;
``dogs``, ``finished``
    dogs adopted, courses finished;
``flex``, ``exchange``
    tokens held (R14, R15);
``surplus``
    cubes held beyond what the remaining work needs (Exchange may still use them);
``hand``
    the cubes the cards in hand would bring that the remaining work needs (each card's better
    reward), and ``display`` the same for the best card of the training display (R13);
``hand_size``
    the size a hand is refilled to (R22);
``reach``
    for the player to act only: the cubes of obstacle cost that the best Clear tile reachable
    with one card of the hand would clear for free (R17; the marker moves for both players, so
    the other player's reach is not yet known);
``tempo``
    +1 when seat 0 is to act, −1 when seat 1 is;
``tiebreak``, ``start``
    who holds the Tiebreak marker (R33) and who is the start player (the final turn of R34);
``short_late``
    ``short`` weighted by how little is left to do: the same shortfall matters more near the end.

The weights are fitted to self-play positions labelled with the final result by
:mod:`train` (``python -m agility_cli.players.train``) and ship as ``data/weights.json``, read
once and evaluated in plain Python.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

from ..engine import rules
from ..engine.components import CLEAR_TILES
from ..engine.state import Catalog, State
from .plans import cat_info, course_plan, effective_cost

NAMES = (
    "short",
    "steps",
    "dogs",
    "finished",
    "flex",
    "exchange",
    "surplus",
    "hand",
    "display",
    "hand_size",
    "reach",
    "tempo",
    "tiebreak",
    "start",
    "short_late",
)

#: cubes assumed for a dog still to adopt when the display offers too few (in units of cubes/card)
OPEN_DOG_CARDS = 8.0


@dataclass(frozen=True)
class Scales:
    """What the features of one component set are divided by (see the module docstring)."""

    cubes: float  # mean cubes of one reward of a training card
    obstacles: float  # mean obstacles of a course


_SCALES: dict[int, tuple[Catalog, Scales]] = {}


def scales(cat: Catalog) -> Scales:
    hit = _SCALES.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    comp = cat.components
    counts = [r.count for card in comp.cards for r in card.rewards]
    lengths = [len(side.obstacles) for board in comp.boards for side in board.sides]
    sc = Scales(cubes=sum(counts) / max(1, len(counts)), obstacles=sum(lengths) / max(1, len(lengths)))
    if len(_SCALES) > 32:
        _SCALES.clear()
    _SCALES[id(cat)] = (cat, sc)
    return sc


def _seat_figures(s: State, seat: int, sc: Scales) -> tuple[list[float], list[int]]:
    """``seat``'s figures for the seat-wise features (in :data:`NAMES` order up to ``hand_size``),
    and the cubes its remaining work needs by colour."""
    info = cat_info(s.cat)
    feats = info.features
    need = [0, 0, 0, 0, 0]
    steps = 0
    finished = 0
    for c in s.courses:
        if c.owner != seat or c.dog is None:
            continue
        if c.position >= len(c.obstacles):
            finished += 1
            continue
        f = feats[c.dog]
        for k in range(c.position, len(c.obstacles)):
            ob = c.obstacles[k]
            eff = effective_cost(ob.cost, ob.plus, None if ob.type == "pause_box" else f.get(ob.type))
            for i in range(5):
                need[i] += eff[i]
            steps += 1
    p = s.players[seat]
    missing = rules.MAX_DOGS - len(p.dogs)
    extra = 0.0
    if missing:
        free = [c for c in s.courses if c.owner is None]
        plans: list[tuple[int, tuple[int, ...]]] = []
        for dog in s.dog_display:
            cost = info.dog_cost[dog]
            best: tuple[int, tuple[int, ...]] | None = None
            for c in free:
                _, vec = course_plan(info, c, dog)
                total = tuple(a + b for a, b in zip(cost, vec))
                if best is None or sum(total) < best[0]:
                    best = (sum(total), total)
            if best is not None:
                plans.append(best)
        plans.sort()
        for _, vec in plans[:missing]:
            for i in range(5):
                need[i] += vec[i]
        extra = OPEN_DOG_CARDS * sc.cubes * max(0, missing - len(plans))
        steps += round(missing * (sc.obstacles + 1))
    cubes = p.cubes
    unmet = [n - h if n > h else 0 for n, h in zip(need, cubes)]
    short = sum(unmet) + extra
    surplus = sum(h - n for n, h in zip(need, cubes) if h > n)
    hand = sum(_card_use(info.rewards[c], unmet) for c in p.hand)
    display = max((_card_use(info.rewards[c], unmet) for c in s.display), default=0)
    u = sc.cubes
    figures = [
        short / u,
        steps / sc.obstacles,
        float(len(p.dogs)),
        float(finished),
        float(p.flex),
        float(p.exchange),
        surplus / u,
        hand / u,
        display / u,
        float(p.hand_size),
    ]
    return figures, unmet


def _card_use(rewards: tuple[tuple[int, int, str], ...], unmet: list[int]) -> int:
    """The needed cubes a card's better reward brings."""
    return max(min(n, unmet[i]) for i, n, _ in rewards)


def _reach(s: State, seat: int) -> float:
    """Cubes of cost the best Clear tile one card of ``seat``'s hand reaches would clear (R17)."""
    info = cat_info(s.cat)
    feats = info.features
    faced: dict[str, int] = {}
    for c in s.courses:
        if c.owner != seat or c.dog is None or c.position >= len(c.obstacles):
            continue
        ob = c.obstacles[c.position]
        if ob.type == "pause_box":
            continue
        eff = effective_cost(ob.cost, ob.plus, feats[c.dog].get(ob.type))
        faced[ob.type] = faced.get(ob.type, 0) + sum(eff)
    if not faced:
        return 0.0
    best = 0
    for card in s.players[seat].hand:
        tile = s.board[(s.marker + info.numbers[card]) % 10]
        kind = CLEAR_TILES.get(tile)
        if kind is not None:
            best = max(best, faced.get(kind, 0))
    return float(best)


def features(s: State) -> list[float]:
    """The features of :data:`NAMES`, seat 0's less seat 1's, of a complete state."""
    sc = scales(s.cat)
    a, _ = _seat_figures(s, 0, sc)
    b, _ = _seat_figures(s, 1, sc)
    x = [p - q for p, q in zip(a, b)]
    mover = s.to_act
    sign = 1.0 if mover == 0 else -1.0
    reach = sign * _reach(s, mover) / sc.cubes if mover is not None else 0.0
    tiebreak = 0.0 if s.tiebreak is None else (1.0 if s.tiebreak == 0 else -1.0)
    start = 1.0 if s.start == 0 else -1.0
    left = a[1] + b[1]  # obstacles still to clear, in courses, both seats
    x += [reach, sign, tiebreak, start, x[0] / (1.0 + left)]
    return x


_WEIGHTS: list[float] | None = None


def weights() -> list[float]:
    """The fitted weights of ``data/weights.json``, in :data:`NAMES` order (read once)."""
    global _WEIGHTS
    if _WEIGHTS is None:
        _WEIGHTS = load_weights(resources.files(__package__).joinpath("data/weights.json").read_text("utf-8"))
    return _WEIGHTS


def load_weights(text: str) -> list[float]:
    """The weights of a weights file; refused unless it names exactly :data:`NAMES`."""
    doc = json.loads(text)
    table = doc["weights"]
    if not isinstance(table, dict) or sorted(table) != sorted(NAMES):
        raise ValueError(f"a weights file must give the features {', '.join(NAMES)}")
    return [float(table[name]) for name in NAMES]


def evaluate(s: State) -> float:
    """The chance that seat 0 wins: 1 or 0 once the game is over, else the logistic model."""
    if s.winner is not None:
        return 1.0 if s.winner == 0 else 0.0
    z = sum(w * f for w, f in zip(weights(), features(s)))
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))
