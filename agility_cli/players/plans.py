"""What the greedy player plans: per component set, the dogs' features and costs, and the cheapest
way for a dog through a course (what it would pay at each obstacle, R26-R30)."""

from __future__ import annotations

from ..engine.components import COLOURS
from ..engine.state import Catalog, CourseState

CI = {c: i for i, c in enumerate(COLOURS)}


class CatInfo:
    """Per component set: dog features and costs, card rewards as colour indices."""

    __slots__ = ("cat", "features", "dog_cost", "dog_cost_sum", "rewards", "numbers", "plans")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.features: dict[str, dict[str, str]] = {
            d: {str(k): str(v) for k, v in dog.features.items()} for d, dog in cat.dogs.items()
        }
        self.dog_cost = cat.dog_cost
        self.dog_cost_sum = {d: sum(v) for d, v in cat.dog_cost.items()}
        self.rewards = {c: tuple((CI[r.color], r.count, r.color) for r in card.rewards) for c, card in cat.cards.items()}
        self.numbers = {c: card.number for c, card in cat.cards.items()}
        # (course id, obstacles, dog) -> (score, work vector) for an unclaimed course
        self.plans: dict[tuple[object, ...], tuple[float, tuple[int, ...]]] = {}


_INFO: dict[int, CatInfo] = {}


def cat_info(cat: Catalog) -> CatInfo:
    info = _INFO.get(id(cat))
    if info is None or info.cat is not cat:
        if len(_INFO) > 32:
            _INFO.clear()
        info = _INFO[id(cat)] = CatInfo(cat)
    return info


def effective_cost(cost: tuple[int, ...], plus: list[int], feature: str | None) -> tuple[int, ...]:
    """R26/R20: what a dog pays for an obstacle; minus one spares the colour it has most of."""
    if feature == "pass":
        total = list(plus)
    else:
        total = [a + b for a, b in zip(cost, plus)]
    if feature == "minus_one":
        k = max(range(5), key=total.__getitem__)
        if total[k]:
            total[k] -= 1
    return tuple(total)


def layout_key(course: CourseState) -> tuple[object, ...]:
    """A course's identity and obstacles, as a cache key."""
    return (course.id, tuple([(o.type, o.cost, tuple(o.plus)) for o in course.obstacles]))


def course_plan(
    info: CatInfo, course: CourseState, dog: str, layout: tuple[object, ...] | None = None
) -> tuple[float, tuple[int, ...]]:
    """How good ``dog`` is on the unclaimed ``course``: (score, cubes to clear it all).

    Score = −(adoption cost + cubes to clear the course with its features), plus a little for each
    featured obstacle (R27: extra moves a turn) and for a free first obstacle (it moves at once).
    """
    key = (layout or layout_key(course), dog)
    hit = info.plans.get(key)
    if hit is not None:
        return hit
    feats = info.features[dog]
    work = [0, 0, 0, 0, 0]
    bonus = 0.0
    for k, ob in enumerate(course.obstacles):
        feat = None if ob.type == "pause_box" else feats.get(ob.type)
        eff = effective_cost(ob.cost, ob.plus, feat)
        for i in range(5):
            work[i] += eff[i]
        if feat == "featured":
            bonus += 0.5
        elif feat == "pass" and k == 0:
            bonus += 0.5
    vec = tuple(work)
    result = (bonus - info.dog_cost_sum[dog] - sum(vec), vec)
    info.plans[key] = result
    return result
