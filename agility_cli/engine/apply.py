"""Applying a legal decision to a state: the turn's state machine and every tile's effect (R12-R34)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .components import CLEAR_TILES
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
from .state import ObstacleState, State
from .explain import explain_illegal
from .legal import clear_cost, course_by_id, is_legal, opponent_courses, pay
from .piles import deck_ran_out, draw, face_down, fill_display, fill_dogs, reshuffle
from .ruleset import CI, MAX_DOGS


# --------------------------------------------------------------------------------------------
# Applying a move


def apply(s: State, move: Move) -> State:
    """The state after ``move``; ``s`` is left as it was.  Raises :class:`IllegalMove`."""
    new = s.copy()
    apply_in_place(new, move)
    return new


def apply_in_place(s: State, move: Move) -> None:
    """Check ``move`` against the rules (:func:`is_legal`: exactly ``move in legal_moves(s)``,
    without generating them all) and carry it out on ``s`` itself (for replay)."""
    if not is_legal(s, move):
        raise explain_illegal(s, move)
    _DISPATCH[type(move)](s, move)


def apply_legal(s: State, move: Move) -> None:
    """Carry out ``move`` on ``s`` without checking it: only for a move just taken from
    :func:`legal_moves` of this very state (the search's simulations); else use apply_in_place."""
    _DISPATCH[type(move)](s, move)


def _do_prize(s: State, m: Prize) -> None:  # R32, R33
    seat, _ = s.prizes.pop(0)
    p = s.players[seat]
    if m.token == "flex":
        p.flex += 1
    else:
        p.exchange += 1


def _do_exchange(s: State, m: Exchange) -> None:  # R15
    p = s.players[s.active]
    i, j = CI[m.from_], CI[m.to]
    p.exchange -= 1
    p.cubes[j] += p.cubes[i]
    p.cubes[i] = 0


def _do_discard(s: State, m: Discard) -> None:  # R22, R36
    own_turn = s.players[s.active].must_discard  # version 1: first thing in one's own turn
    p = s.players[s.active if own_turn else 1 - s.active]
    p.hand.remove(m.card)
    s.discard.append(m.card)
    face_down(s, s.players.index(p), m.card)
    p.must_discard = False
    if own_turn:
        s.phase = "play"
    else:  # version 2: the discard was part of the tile; the active player goes on
        _action_done(s)


def _do_play(s: State, m: Play) -> None:  # R12, R14, R31
    p = s.players[s.active]
    if m.card in p.hand:
        p.hand.remove(m.card)
    else:  # R31: a mini-turn with no card in hand plays the top of the deck
        s.deck.pop(0)
        s.reveals += 1
        deck_ran_out(s)  # R13: the played card is not part of the new deck
    s.discard.append(m.card)
    if s.in_mini:  # R31/R39: a mini-turn's card is played face down
        face_down(s, s.active, m.card)
    elif m.card in s.known[s.active]:
        s.known[s.active].remove(m.card)
    p.flex -= abs(m.flex)
    number = s.card_data(m.card).number  # R42: a sealed face-down play's proven number
    s.marker = (s.marker + number) % 10
    s.card = m.card
    s.reward = m.reward
    s.sweep = False
    _resolve(s, s.board[(s.marker + m.flex) % 10])


def _resolve(s: State, tile: str) -> None:
    """R12 step 2: resolve ``tile``; if it can be carried out it must be."""
    s.last_tile = tile
    p = s.players[s.active]
    if tile == "sweep":  # R16
        s.sweep = True
    elif tile in CLEAR_TILES:  # R17
        _clear(s, CLEAR_TILES[tile])
        if s.winner is not None:
            return
    elif tile == "flex":
        p.flex += 1
    elif tile == "exchange":
        p.exchange += 1
    elif tile == "break":  # R18: only with at least one cube
        if sum(p.cubes):
            s.phase = "break"
            return
    elif tile == "boost":  # R19
        card = draw(s)
        if card is not None:
            s.discard.append(card)
            s.boost_card = card
            s.phase = "boost"
            return
    elif tile == "distraction":  # R20: no opponent dog on a course, no effect
        if any(
            o.type != "pause_box" for c in opponent_courses(s) for o in c.obstacles[c.position :]
        ):
            s.phase = "distract"
            return
    elif tile == "rush":  # R21
        if any(not c.obstacles[c.position].rush for c in opponent_courses(s)):
            s.phase = "rush"
            return
    elif tile == "intimidation":  # R22
        if _intimidate(s):
            s.phase = "discard"  # R36 (version 2): the opponent's discard comes at once
            return
    elif tile == "inspiration":  # R23
        if s.inspiration:
            s.phase = "inspire"
            return
    elif tile == "slip":  # R24
        if any(not c.slipped and len(c.obstacles) - max(1, c.position) > 0 for c in opponent_courses(s)):
            s.phase = "slip"
            return
    else:  # pragma: no cover - validate_board admits only known tiles
        raise AssertionError(tile)
    _action_done(s)


def _clear(s: State, obstacle_type: str) -> None:
    """R17: every dog of the active player facing ``obstacle_type`` clears it, free, once."""
    finished = []
    for c in s.courses:
        if c.owner == s.active and c.position < len(c.obstacles) and c.obstacles[c.position].type == obstacle_type:
            c.position += 1
            if c.position == len(c.obstacles):
                finished.append(c)
    for _ in finished:
        _on_finish(s, s.active)
        if s.winner is not None:
            return


def _intimidate(s: State) -> bool:
    """R22, by hand sizes: both 3 → the opponent takes Flex, discards one (R36) and keeps 2.

    Returns whether the opponent's discard is awaited now (rules version 2, with a card to
    discard); under version 1 it waits for the start of their next turn.
    """
    me, opp = s.players[s.active], s.players[1 - s.active]
    if me.hand_size == 3 and opp.hand_size == 3:
        opp.flex += 1
        opp.hand_size = 2
        if not s.rules.discard_at_once:
            opp.must_discard = True
            return False
        opp.must_discard = bool(opp.hand)
        return opp.must_discard
    if me.hand_size == 2:
        me.hand_size = 3
    else:
        opp.flex += 1
    return False


def _action_done(s: State) -> None:
    """R12 step 3: the reward (both with Sweep, R16); then steps 4–5, or the next mini-turn.

    Rules version 2: a play that named no reward waits for the ``reward`` decision first.
    """
    if s.reward is None and not s.sweep and s.card is not None and s.rules.reward_after_action:
        s.phase = "reward"
        return
    _take_reward(s)


def _do_reward(s: State, m: ChooseReward) -> None:  # R12 step 3, rules version 2
    s.reward = m.color
    _take_reward(s)


def _take_reward(s: State) -> None:
    s.phase = "resolved"
    p = s.players[s.active]
    card = s.card_data(s.card) if s.card else None
    if card is not None:
        for r in card.rewards:
            if s.sweep or r.color == s.reward:
                p.cubes[CI[r.color]] += r.count
    s.sweep = False
    s.boost_card = None
    if s.in_mini:
        _next_mini(s)
    else:
        s.phase = "dogs"


def _do_break(s: State, m: Break) -> None:  # R18
    s.pending = m.count
    s.put_back = min(m.count, len(s.players[s.active].hand))
    s.phase = "return"


def _do_return(s: State, m: Return) -> None:  # R18: a cube is lost even with no card to put back
    s.players[s.active].cubes[CI[m.color]] -= 1
    s.pending -= 1
    if s.pending == 0:
        if s.put_back:
            s.pending = s.put_back
            s.phase = "put_back"
        else:
            _action_done(s)


def _do_put_back(s: State, m: PutBack) -> None:  # R18: bottom of the discard pile, face down
    s.players[s.active].hand.remove(m.card)
    s.discard.insert(0, m.card)
    face_down(s, s.active, m.card)
    s.pending -= 1
    if s.pending == 0:
        s.pending = s.put_back
        s.phase = "draw"


def _do_draw(s: State, m: Draw) -> None:  # R18: the only draw from the deck into a hand
    card = draw(s)
    assert card is not None
    s.players[s.active].hand.append(card)
    _break_drawn(s)


def _break_drawn(s: State) -> None:
    s.pending -= 1
    if s.pending == 0 or not (s.deck or s.discard or s.display):
        s.pending = s.put_back = 0
        _action_done(s)


def _do_take(s: State, m: Take) -> None:  # R12 step 6, R13, R18
    p = s.players[s.active]
    s.display.remove(m.card)
    p.hand.append(m.card)
    s.known[s.active].append(m.card)  # R39: taken face up, so known to be in that hand
    fill_display(s)
    if s.phase == "draw":
        _break_drawn(s)
    elif len(p.hand) >= p.hand_size or not s.display:
        _end_turn(s)


def _do_boost_action(s: State, m: BoostAction) -> None:  # R19 A: the marker does not move
    assert s.boost_card is not None
    number = s.card_data(s.boost_card).number
    s.boost_card = None
    _resolve(s, s.board[number % 10])


def _do_boost_cube(s: State, m: BoostCube) -> None:  # R19 B
    s.players[s.active].cubes[CI[m.color]] += 1
    _action_done(s)


def _do_distract(s: State, m: Distract) -> None:  # R20
    course = course_by_id(s, m.course)
    course.obstacles[m.obstacle].plus[CI[m.color]] += 1
    _action_done(s)


def _do_rush(s: State, m: Rush) -> None:  # R21
    course = course_by_id(s, m.course)
    course.obstacles[course.position].rush = True
    _action_done(s)


def _do_slip(s: State, m: Slip) -> None:  # R24
    course = course_by_id(s, m.course)
    course.obstacles.insert(m.gap, ObstacleState("open_ground", s.cat.open_ground_cost))
    course.slipped = True
    _action_done(s)


def _do_inspire(s: State, m: Inspire) -> None:  # R23
    s.inspiration.remove(m.color)
    s.players[s.active].cubes[CI[m.color]] += 1
    _action_done(s)


def _do_adopt(s: State, m: Adopt) -> None:  # R25, R32
    seat = s.active
    p = s.players[seat]
    pay(p.cubes, s.cat.dog_cost[m.dog])
    s.dog_display.remove(m.dog)
    p.dogs.append(m.dog)
    course = course_by_id(s, m.course)
    course.owner = seat
    course.dog = m.dog
    s.adopted = True
    fill_dogs(s)
    if len(p.dogs) == MAX_DOGS and s.first_three is None:
        s.first_three = seat
        s.prizes.append((seat, "three_dogs"))


def _do_advance(s: State, m: Advance) -> None:  # R26–R30
    seat = s.active
    i = next(k for k, c in enumerate(s.courses) if c.id == m.course)
    course = s.courses[i]
    ob = course.obstacles[course.position]
    pay(s.players[seat].cubes, clear_cost(s, course, m.spare))
    if s.feature(course, ob) is None:
        s.paid[i] += 1
    if ob.type == "pause_box":
        s.minis += 1  # R30
    course.position += 1
    s.moved = True
    if course.position == len(course.obstacles):
        _on_finish(s, seat)


def _do_done(s: State, m: Done) -> None:  # R12, R30
    _next_mini(s)


def _next_mini(s: State) -> None:
    """R30/R31: begin the next earned mini-turn, or go on to the refill (step 6)."""
    while s.minis:
        s.minis -= 1
        s.in_mini = True
        p = s.players[s.active]
        if not p.hand and not s.deck and s.discard:
            reshuffle(s)  # R13/R31: the deck is rebuilt so its top card can be played
        if p.hand or s.deck:
            s.card = None
            s.phase = "play"
            return
    s.in_mini = False
    s.card = s.reward = None
    p = s.players[s.active]
    if len(p.hand) < p.hand_size and s.display:
        s.phase = "refill"
    else:
        _end_turn(s)


def _on_finish(s: State, seat: int) -> None:
    """A dog of ``seat`` cleared its last obstacle: prizes (R33) and the end of the game (R34)."""
    if s.first_finish is None:
        s.first_finish = seat
        s.tiebreak = seat  # R33: the Tiebreak marker comes with the prize, whichever token
        s.prizes.append((seat, "first_finish"))
    p = s.players[seat]
    done = [c for c in s.courses if c.owner == seat and c.finished]
    if len(p.dogs) < MAX_DOGS or len(done) < MAX_DOGS:
        return
    if s.final_turn:  # R34: the opponent finished all three in the final turn: wins on tiebreak
        _win(s, seat)
    elif seat == s.start and s.tiebreak != seat:
        s.finisher = seat  # R34: the opponent plays one final turn after this one
    else:
        _win(s, seat)


def _win(s: State, seat: int) -> None:
    s.winner = seat
    s.phase = "over"
    s.prizes = []


def begin_turn(s: State) -> None:
    p = s.players[s.active]
    p.turns += 1
    s.turn += 1
    s.adopted = s.moved = s.in_mini = False
    s.minis = 0
    s.paid = [0] * len(s.courses)
    s.card = s.reward = None
    s.phase = "discard" if p.must_discard else "play"


def _end_turn(s: State) -> None:
    """End of a turn; R34: after the first finisher's turn the opponent may get a final one."""
    if s.final_turn:
        assert s.finisher is not None
        _win(s, s.finisher)
        return
    if s.finisher is not None:
        s.final_turn = True
    s.active = 1 - s.active
    begin_turn(s)


_DISPATCH: dict[type[Move], Callable[[State, Any], None]] = {
    Prize: _do_prize,
    Exchange: _do_exchange,
    Discard: _do_discard,
    Play: _do_play,
    ChooseReward: _do_reward,
    Break: _do_break,
    Return: _do_return,
    PutBack: _do_put_back,
    Draw: _do_draw,
    Take: _do_take,
    BoostAction: _do_boost_action,
    BoostCube: _do_boost_cube,
    Distract: _do_distract,
    Rush: _do_rush,
    Slip: _do_slip,
    Inspire: _do_inspire,
    Adopt: _do_adopt,
    Advance: _do_advance,
    Done: _do_done,
}
