"""The one source of legal decisions (:func:`legal_moves`), with the costs of clearing obstacles (R12-R31)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

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


# --------------------------------------------------------------------------------------------
# One decision checked (replay)


def is_legal(s: State, m: Move) -> bool:
    """Whether ``m`` is in :func:`legal_moves` of ``s``, without generating them all.

    The same rules as :func:`legal_moves`, read for the one move: its kind picks the rule of the
    current step, and its fields are tested against that rule's candidates (a membership test in
    the same lists, ranges and conditions, so the same values are equal).  A replay checks every
    recorded decision this way; only a refusal is explained (``explain.explain_illegal``), and a
    step this function does not know falls back to the whole list.
    ``tests/test_legal_check.py`` holds it to ``m in legal_moves(s)`` on states of random playouts.
    """
    if s.winner is not None:
        return False
    cls = m.__class__
    if s.prizes:  # R32/R33
        return cls is Prize and m.player == s.players[s.prizes[0][0]].name and m.token in _TOKENS  # type: ignore[attr-defined]
    phase = s.phase
    check = _CHECKS.get(phase)
    if check is None:  # pragma: no cover - every phase has its check
        return m in legal_moves(s)
    if phase == "discard" and not s.players[s.active].must_discard:  # R36 (version 2): the opponent, at once
        opp = s.players[1 - s.active]
        return cls is Discard and m.player == opp.name and m.card in opp.hand  # type: ignore[attr-defined]
    p = s.players[s.active]
    if m.player != p.name:
        return False
    if cls is Exchange:  # R15: at any point of one's own turn
        if not p.exchange or m.from_ == m.to or m.to not in COLOURS:  # type: ignore[attr-defined]
            return False
        return any(n and c == m.from_ for c, n in zip(COLOURS, p.cubes))  # type: ignore[attr-defined]
    return check(s, p, m, cls)


_TOKENS = ("flex", "exchange")


def _check_play(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is not Play:
        return False
    cid = m.card
    if not (cid in p.hand if p.hand else cid in s.deck[:1]):
        return False
    if cid not in s.cat.cards and (s.sealing is None or cid not in s.sealing.claims):
        return False  # R42: a sealed position nobody has opened or proven is no decision yet
    k = min(p.flex, MAX_FLEX_SHIFT)
    if m.flex not in range(-k, k + 1):
        return False
    if m.reward is None and s.rules.reward_after_action:
        return True
    return m.reward in [r.color for r in s.card_data(cid).rewards]


def _check_reward(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    assert s.card is not None
    return cls is ChooseReward and m.color in [r.color for r in s.card_data(s.card).rewards]


def _check_dogs(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is Done:
        return True
    seat = s.active
    if cls is Adopt:
        if s.adopted or s.moved or len(p.dogs) >= MAX_DOGS or _any_rushed(s, seat):
            return False
        dog = m.dog
        if dog not in s.dog_display or dog not in s.cat.dog_cost or not affordable(p.cubes, s.cat.dog_cost[dog]):
            return False
        return any(c.owner is None and c.id == m.course for c in s.courses)
    if cls is not Advance:
        return False
    for i, c in enumerate(s.courses):
        if c.id != m.course or c.owner != seat:
            continue
        obstacles, position = c.obstacles, c.position
        if position >= len(obstacles):
            continue
        if not any(o.rush for o in obstacles[position:]) and _any_rushed(s, seat):
            continue  # R21: only a rushed dog may move (this one is not, another is)
        feature = s.feature(c, obstacles[position])
        if feature is None and s.paid[i] >= 1:
            continue  # R27: one paid non-feature clear per dog per turn
        if feature != "minus_one":  # spare_options is [None]
            if m.spare is None and affordable(p.cubes, clear_cost(s, c)):
                return True
        elif m.spare in spare_options(s, c) and affordable(p.cubes, clear_cost(s, c, m.spare)):
            return True
    return False


def _any_rushed(s: State, seat: int) -> bool:
    """``bool(rushed_slots(s, seat))``, stopping at the first."""
    for c in s.courses:
        if c.owner == seat:
            for o in c.obstacles[c.position :]:
                if o.rush:
                    return True
    return False


def _takeable(s: State, m: Any) -> bool:
    return m.card in s.display and m.card in s.cat.cards  # R43: open cards only


def _check_refill(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Take and _takeable(s, m)


def _check_discard(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Discard and m.card in p.hand


def _check_break(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Break and m.count in range(1, min(2, sum(p.cubes)) + 1)


def _check_return(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Return and any(n and c == m.color for c, n in zip(COLOURS, p.cubes))


def _check_put_back(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is PutBack and m.card in p.hand


def _check_draw(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is Draw:
        return bool(s.deck or s.discard)
    return cls is Take and _takeable(s, m)


def _check_boost(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is BoostAction:
        return True
    assert s.boost_card is not None
    return cls is BoostCube and m.color in [r.color for r in s.card_data(s.boost_card).rewards]


def _check_distract(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is not Distract:
        return False
    for c in opponent_courses(s):
        if c.id == m.course and m.obstacle in range(c.position, len(c.obstacles)):
            ob = c.obstacles[m.obstacle]
            if ob.type != "pause_box" and any(n and colour == m.color for colour, n in zip(COLOURS, ob.cost)):
                return True
    return False


def _check_rush(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Rush and any(c.id == m.course and not c.obstacles[c.position].rush for c in opponent_courses(s))


def _check_slip(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    if cls is not Slip:
        return False
    return any(
        c.id == m.course and not c.slipped and m.gap in range(max(1, c.position), len(c.obstacles))
        for c in opponent_courses(s)
    )


def _check_inspire(s: State, p: PlayerState, m: Any, cls: type) -> bool:
    return cls is Inspire and m.color in s.inspiration


_CHECKS: dict[str, Callable[[State, PlayerState, Any, type], bool]] = {
    "play": _check_play,
    "reward": _check_reward,
    "dogs": _check_dogs,
    "refill": _check_refill,
    "discard": _check_discard,
    "break": _check_break,
    "return": _check_return,
    "put_back": _check_put_back,
    "draw": _check_draw,
    "boost": _check_boost,
    "distract": _check_distract,
    "rush": _check_rush,
    "slip": _check_slip,
    "inspire": _check_inspire,
}
