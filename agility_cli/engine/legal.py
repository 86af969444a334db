"""The one source of legal decisions (:func:`legal_moves`), with the costs of clearing obstacles (R12-R31)."""

from __future__ import annotations

from collections.abc import Iterable

from .components import COLOURS
from .moves import (
    Adopt,
    Advance,
    Break,
    BoostAction,
    BoostCube,
    ChooseReward,
    Discard,
    Distract,
    Done,
    Draw,
    Exchange,
    Inspire,
    Move,
    Play,
    Prize,
    PutBack,
    Return,
    Rush,
    Slip,
    Take,
)
from .state import CourseState, PlayerState, State
from .ruleset import CI, MAX_DOGS, MAX_FLEX_SHIFT


# --------------------------------------------------------------------------------------------
# Costs (R26)


def clear_cost(s: State, course: CourseState, spare: str | None = None) -> tuple[int, ...]:
    """R26/R20: what the dog on ``course`` pays to clear the obstacle it faces.

    Printed cost (nothing if the dog has *pass* on it), plus every +1 marker, minus one cube of the
    ``spare`` colour if the dog has *minus one* on it (the colour must be in that total).
    """
    ob = course.obstacles[course.position]
    feature = s.feature(course, ob)
    total = [0, 0, 0, 0, 0] if feature == "pass" else list(ob.cost)
    for i, n in enumerate(ob.plus):
        total[i] += n
    if feature == "minus_one" and spare is not None:
        total[CI[spare]] -= 1
    return tuple(total)


def affordable(cubes: list[int], cost: tuple[int, ...]) -> bool:
    for have, need in zip(cubes, cost):  # a loop, not all(…): this runs in every search simulation
        if have < need:
            return False
    return True


def pay(cubes: list[int], cost: tuple[int, ...]) -> None:
    for i, n in enumerate(cost):
        cubes[i] -= n


def spare_options(s: State, course: CourseState) -> list[str | None]:
    """R26: the colours a minus-one feature may spare (any colour in the total); else [None]."""
    ob = course.obstacles[course.position]
    if s.feature(course, ob) != "minus_one":
        return [None]
    total = clear_cost(s, course)
    return [c for c, n in zip(COLOURS, total) if n > 0] or [None]


def rushed_slots(s: State, seat: int) -> list[int]:
    """R21: the player's courses with an uncleared Rush marker ahead of the dog.

    Normally the marker is on the obstacle the dog faces; a Slip tile may since have been put in
    front of it, and the marker holds until its own obstacle is cleared.
    """
    return [
        i
        for i, c in enumerate(s.courses)
        if c.owner == seat and any(o.rush for o in c.obstacles[c.position :])
    ]


def opponent_courses(s: State) -> list[CourseState]:
    """Courses holding an unfinished dog of the active player's opponent (R20, R21, R24)."""
    opp = 1 - s.active
    return [c for c in s.courses if c.owner == opp and c.position < len(c.obstacles)]


# --------------------------------------------------------------------------------------------
# Legal moves


def legal_moves(s: State) -> list[Move]:
    """Every decision open now, to the player who must act (R36).  Empty once the game is over."""
    if s.winner is not None:
        return []
    if s.prizes:  # R32/R33: a prize choice comes before anything else
        seat = s.prizes[0][0]
        name = s.players[seat].name
        return [Prize(player=name, token="flex"), Prize(player=name, token="exchange")]
    phase = s.phase
    if phase == "discard" and not s.players[s.active].must_discard:
        # R36 (version 2): the opponent discards at once; not their turn, so no Exchange.
        opp = s.players[1 - s.active]
        return [Discard(player=opp.name, card=c) for c in _distinct(opp.hand)]
    p = s.players[s.active]
    name = p.name
    moves: list[Move]
    if phase == "play":
        moves = _play_moves(s, p)
    elif phase == "reward":  # R12 step 3, version 2: the reward after the action
        assert s.card is not None
        colours = _distinct(r.color for r in s.card_data(s.card).rewards)
        moves = [ChooseReward(player=name, color=c) for c in colours]  # type: ignore[arg-type]
    elif phase == "dogs":
        moves = _dog_moves(s, p)
    elif phase == "refill":
        moves = [Take(player=name, card=c) for c in _distinct(s.display) if c in s.cat.cards]  # R43: open cards only
    elif phase == "discard":
        moves = [Discard(player=name, card=c) for c in _distinct(p.hand)]
    elif phase == "break":
        moves = [Break(player=name, count=n) for n in range(1, min(2, sum(p.cubes)) + 1)]
    elif phase == "return":
        moves = [Return(player=name, color=c) for c, n in zip(COLOURS, p.cubes) if n]  # type: ignore[arg-type]
    elif phase == "put_back":
        moves = [PutBack(player=name, card=c) for c in _distinct(p.hand)]
    elif phase == "draw":
        moves = [Draw(player=name)] if (s.deck or s.discard) else []
        moves += [Take(player=name, card=c) for c in _distinct(s.display) if c in s.cat.cards]
    elif phase == "boost":
        assert s.boost_card is not None
        colours = _distinct(r.color for r in s.card_data(s.boost_card).rewards)
        moves = [BoostAction(player=name)]
        moves += [BoostCube(player=name, color=c) for c in colours]  # type: ignore[arg-type]
    elif phase == "distract":
        moves = [
            Distract(player=name, course=c.id, obstacle=k, color=colour)  # type: ignore[arg-type]
            for c in opponent_courses(s)
            for k in range(c.position, len(c.obstacles))
            if c.obstacles[k].type != "pause_box"
            for colour, n in zip(COLOURS, c.obstacles[k].cost)
            if n
        ]
    elif phase == "rush":
        moves = [Rush(player=name, course=c.id) for c in opponent_courses(s) if not c.obstacles[c.position].rush]
    elif phase == "slip":
        moves = [
            Slip(player=name, course=c.id, gap=g)
            for c in opponent_courses(s)
            if not c.slipped
            for g in range(max(1, c.position), len(c.obstacles))
        ]
    elif phase == "inspire":
        moves = [Inspire(player=name, color=c) for c in s.inspiration]  # type: ignore[arg-type]
    else:  # pragma: no cover - every phase is listed above
        raise AssertionError(f"unknown phase {phase}")
    if p.exchange:  # R15: at any point of one's own turn
        for i, n in enumerate(p.cubes):
            if n:
                moves += [
                    Exchange(player=name, from_=COLOURS[i], to=to)  # type: ignore[arg-type]
                    for to in COLOURS
                    if to != COLOURS[i]
                ]
    return moves


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _play_moves(s: State, p: PlayerState) -> list[Move]:
    """R12 step 1, R14 Flex, R31 (an empty hand in a mini-turn plays the deck's top card).

    Rules version 2 (R12): each card and shift is offered without a reward (chosen after the
    action) and with each reward named early.
    """
    cards = _distinct(p.hand) if p.hand else s.deck[:1]
    k = min(p.flex, MAX_FLEX_SHIFT)
    shifts = range(-k, k + 1)
    later: list[str | None] = [None] if s.rules.reward_after_action else []
    moves: list[Move] = []
    for cid in cards:
        if cid not in s.cat.cards and (s.sealing is None or cid not in s.sealing.claims):
            continue  # R42: a sealed position nobody has opened or proven is no decision yet
        for reward in later + [r.color for r in s.card_data(cid).rewards]:
            for f in shifts:
                moves.append(Play(player=p.name, card=cid, reward=reward, flex=f))  # type: ignore[arg-type]
    return moves


def _dog_moves(s: State, p: PlayerState) -> list[Move]:
    """R12 steps 4–5: adopt (R25, R21), advance (R26–R28, R21), done."""
    seat = s.active
    moves: list[Move] = []
    rushed = rushed_slots(s, seat)
    if not s.adopted and not s.moved and len(p.dogs) < MAX_DOGS and not rushed:
        free = [c.id for c in s.courses if c.owner is None]
        for dog in s.dog_display:
            if dog in s.cat.dog_cost and affordable(p.cubes, s.cat.dog_cost[dog]):
                moves += [Adopt(player=p.name, dog=dog, course=cid) for cid in free]
    for i, c in enumerate(s.courses):
        if c.owner != seat or c.position >= len(c.obstacles):
            continue
        if rushed and i not in rushed:
            continue  # R21: only a rushed dog may move
        ob = c.obstacles[c.position]
        if s.feature(c, ob) is None and s.paid[i] >= 1:
            continue  # R27: one paid non-feature clear per dog per turn
        for spare in spare_options(s, c):
            if affordable(p.cubes, clear_cost(s, c, spare)):
                moves.append(Advance(player=p.name, course=c.id, spare=spare))  # type: ignore[arg-type]
    moves.append(Done(player=p.name))
    return moves


def course_by_id(s: State, course_id: str) -> CourseState:
    for c in s.courses:
        if c.id == course_id:
            return c
    raise KeyError(course_id)
