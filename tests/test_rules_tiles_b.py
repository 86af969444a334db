"""Scenario tests for the action tiles R20–R24: Distraction, Rush, Intimidation, Inspiration, Slip.

Each test builds a hand-made state (tests/builders.py), drives the engine only through
``rules.legal_moves`` / ``rules.apply`` / ``rules.apply_in_place`` and asserts exact results:

* R20 Distraction — the +1 marker's targets (uncleared, non-pause obstacles of a course holding an
  opponent's dog, colours of the printed cost), stacking, minus one on the raised cost (001 Q&A),
  pass no longer free yet still a feature (R27), Clear tiles still free, no opponent dog → no effect.
* R21 Rush — the marker on the obstacle an opponent's dog faces; its owner may not adopt or move other
  dogs until it is cleared; a Clear action moving several dogs is allowed; several rushes in any order.
* R22 Intimidation — the three hand-size cases, the deferred discard as the opponent's first decision
  (R36), the refill to the new hand size.
* R23 Inspiration — five cubes, the player's choice, nothing once empty.
* R24 Slip — the gaps (ahead of an opponent's dog, never before the first or after the last
  obstacle), once per course, the components' open ground cost, the dog's open ground feature.
"""

from __future__ import annotations

import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import COLOURS
from agility_cli.engine.moves import Adopt, Advance, Discard, Distract, Done, Inspire, Play, Rush, Slip, Take
from agility_cli.engine.state import State, public_state, vec
from builders import AFRAME, HURDLE, OPEN, PAUSE, TUNNEL, WEAVE, advances, board_with, cid, course, cubes, deal, dogs_phase, new_game, refused

A, B = 0, 1
NAMES = ("alice", "bob")
COURSE5 = [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME]


# --- helpers -----------------------------------------------------------------------------------


def land(s: State, seat: int, space: int, number: int = 5, rest: tuple[int, ...] = ()) -> tuple[Play, str, int]:
    """A Play by ``seat`` of a ``number`` card that lands the marker on ``space``.

    Returns the move and the reward (colour, count) it will bring after the action (R12).
    """
    s.active = seat
    s.phase = "play"
    cid = deal(s, seat, number, *rest)[0]
    s.marker = (space - number) % 10
    reward = s.cat.cards[cid].rewards[0]
    return Play(player=NAMES[seat], card=cid, reward=reward.color), reward.color, reward.count


def with_reward(before: dict[str, int], colour: str, count: int) -> list[int]:
    v = [before.get(c, 0) for c in COLOURS]
    v[COLOURS.index(colour)] += count
    return v


# --- R20 Distraction ---------------------------------------------------------------------------

DISTRACTION = 8  # R8: space 8 of the recommended board


def distraction_game() -> State:
    """Bob: a dog past the hurdle of slot 0, one facing only a pause box, one finished; Alice: one dog."""
    s = new_game(seed=1)
    course(s, 0, COURSE5, owner=B, dog="golden-retriever", position=1)
    course(s, 2, [TUNNEL, HURDLE, WEAVE, AFRAME, PAUSE], owner=B, dog="labrador-retriever", position=4)
    course(s, 3, COURSE5, owner=B, dog="whippet", position=5)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt", position=0)
    return s


def test_r20_distraction_targets_uncleared_non_pause_obstacles_of_opponent_in_printed_colours() -> None:
    s = distraction_game()
    play, _, _ = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    assert s.phase == "distract"
    targets = {(m.course, m.obstacle, m.color) for m in rules.legal_moves(s)}
    c0 = cid(s, 0)
    # tunnel (2 green 1 red), weave poles (2 yellow 1 green), A-frame (2 black 1 yellow); not the
    # cleared hurdle, not the pause box, not the course whose dog faces only its pause box, not the
    # finished course, not Alice's own course.
    assert targets == {
        (c0, 1, "green"),
        (c0, 1, "red"),
        (c0, 3, "yellow"),
        (c0, 3, "green"),
        (c0, 4, "black"),
        (c0, 4, "yellow"),
    }


@pytest.mark.parametrize(
    ("slot", "obstacle", "colour"),
    [
        (0, 2, "red"),  # the pause box
        (0, 1, "blue"),  # blue is not in the tunnel's printed cost
        (0, 0, "blue"),  # the hurdle is already cleared
        (1, 0, "blue"),  # Alice's own course
        (3, 4, "black"),  # a finished course
        (2, 4, "red"),  # only a pause box is left there
    ],
)
def test_r20_distraction_refuses_bad_targets(slot: int, obstacle: int, colour: str) -> None:
    s = distraction_game()
    play, _, _ = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    refused(s, Distract(player="alice", course=cid(s, slot), obstacle=obstacle, color=colour), "distract/target", "R20")  # type: ignore[arg-type]


def test_r20_plus_one_raises_the_owners_cost_and_the_reward_follows() -> None:
    s = distraction_game()
    cubes(s, A)
    play, colour, count = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Distract(player="alice", course=cid(s, 0), obstacle=1, color="green"))
    tunnel = s.courses[0].obstacles[1]
    assert tunnel.plus == [0, 1, 0, 0, 0]
    assert [o.plus for k, o in enumerate(s.courses[0].obstacles) if k != 1] == [[0] * 5] * 4
    assert s.phase == "dogs"
    assert s.players[A].cubes == with_reward({}, colour, count)
    # Bob's Golden Retriever has no tunnel feature: 2 green 1 red printed + 1 green.
    assert rules.clear_cost(s, s.courses[0]) == vec({"green": 3, "red": 1})
    assert public_state(s)["courses"][0]["obstacles"][1]["plus"] == {"green": 1}


def test_r20_plus_one_markers_stack() -> None:
    s = distraction_game()
    s.courses[0].obstacles[1].plus = [1, 1, 0, 0, 0]  # earlier Distractions: +1 red, +1 green
    play, _, _ = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Distract(player="alice", course=cid(s, 0), obstacle=1, color="green"))
    assert s.courses[0].obstacles[1].plus == [1, 2, 0, 0, 0]
    assert rules.clear_cost(s, s.courses[0]) == vec({"green": 4, "red": 2})


def whippet_distracted() -> State:
    """Bob's Whippet (minus one on weave poles) faces weave poles 2 yellow 1 green with Alice's +1 yellow."""
    s = new_game(seed=2)
    course(s, 0, [WEAVE, HURDLE, PAUSE, TUNNEL, AFRAME], owner=B, dog="whippet")
    play, _, _ = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Distract(player="alice", course=cid(s, 0), obstacle=0, color="yellow"))
    return dogs_phase(s, B)


def test_r20_minus_one_applies_to_the_raised_cost_001_qa() -> None:
    s = whippet_distracted()
    c0 = s.courses[0]
    # 001 Q&A: weave poles 2Y+1G with +1 yellow and minus one: 3Y+0G or 2Y+1G.
    assert rules.clear_cost(s, c0, "green") == vec({"yellow": 3})
    assert rules.clear_cost(s, c0, "yellow") == vec({"yellow": 2, "green": 1})
    cubes(s, B, yellow=3, green=1)
    assert advances(s) == {(c0.id, "green"), (c0.id, "yellow")}


@pytest.mark.parametrize(
    ("have", "spare"),
    [({"yellow": 3}, "green"), ({"yellow": 2, "green": 1}, "yellow")],
)
def test_r20_minus_one_payer_chooses_the_spared_colour(have: dict[str, int], spare: str) -> None:
    s = whippet_distracted()
    c0 = s.courses[0]
    cubes(s, B, **have)
    assert advances(s) == {(c0.id, spare)}
    other = "yellow" if spare == "green" else "green"
    refused(s, Advance(player="bob", course=c0.id, spare=other), "advance/cost", "R26")  # type: ignore[arg-type]
    rules.apply_in_place(s, Advance(player="bob", course=c0.id, spare=spare))  # type: ignore[arg-type]
    assert s.players[B].cubes == [0, 0, 0, 0, 0]
    assert c0.position == 1


def pass_distracted() -> State:
    """Bob's Golden Retriever (pass on hurdles): tunnel, then a hurdle carrying a +1 blue, then a tunnel."""
    s = new_game(seed=3)
    course(s, 0, [TUNNEL, HURDLE, TUNNEL, PAUSE, WEAVE], owner=B, dog="golden-retriever")
    s.courses[0].obstacles[1].plus = [0, 0, 0, 0, 1]
    return dogs_phase(s, B)


def test_r20_pass_no_longer_free_owner_pays_the_plus_ones() -> None:
    s = pass_distracted()
    c0 = s.courses[0]
    c0.position = 1
    assert rules.clear_cost(s, c0) == vec({"blue": 1})
    cubes(s, B, red=5, green=5, black=5, yellow=5)  # everything but blue
    refused(s, Advance(player="bob", course=c0.id), "advance/cost", "R26")
    cubes(s, B, blue=1)
    rules.apply_in_place(s, Advance(player="bob", course=c0.id))
    assert s.players[B].cubes == [0, 0, 0, 0, 0]
    assert c0.position == 2


def test_r20_pass_obstacle_with_plus_one_is_still_a_feature_for_r27() -> None:
    s = pass_distracted()
    c0 = s.courses[0]
    cubes(s, B, red=2, green=4, blue=1)
    rules.apply_in_place(s, Advance(player="bob", course=c0.id))  # the tunnel: the one paid move
    rules.apply_in_place(s, Advance(player="bob", course=c0.id))  # the hurdle: a feature, pays 1 blue
    assert c0.position == 2
    assert s.paid[0] == 1
    assert s.players[B].cubes == list(vec({"red": 1, "green": 2}))
    refused(s, Advance(player="bob", course=c0.id), "advance/limit", "R27")


def test_r20_clear_action_stays_free_whatever_plus_ones() -> None:
    s = new_game(seed=4)
    course(s, 1, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="golden-retriever")
    s.courses[1].obstacles[0].plus = [2, 1, 0, 0, 0]  # Bob's Distractions
    cubes(s, A)
    play, colour, count = land(s, A, 3)  # R8: space 3 is Clear Tunnels
    rules.apply_in_place(s, play)
    assert s.courses[1].position == 1
    assert s.players[A].cubes == with_reward({}, colour, count)


@pytest.mark.parametrize("bob_dogs", ["none", "only_pause_box_left", "finished"])
def test_r20_no_opponent_dog_on_a_course_no_effect(bob_dogs: str) -> None:
    s = new_game(seed=5)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    if bob_dogs == "only_pause_box_left":
        course(s, 0, [TUNNEL, HURDLE, WEAVE, AFRAME, PAUSE], owner=B, dog="whippet", position=4)
    elif bob_dogs == "finished":
        course(s, 0, COURSE5, owner=B, dog="whippet", position=5)
    cubes(s, A, red=1)
    play, colour, count = land(s, A, DISTRACTION)
    rules.apply_in_place(s, play)
    assert s.phase == "dogs"
    assert s.last_tile == "distraction"
    assert all(o.plus == [0] * 5 for c in s.courses for o in c.obstacles)
    assert s.players[A].cubes == with_reward({"red": 1}, colour, count)


# --- R21 Rush ----------------------------------------------------------------------------------

RUSH_BOARD = board_with(s5="rush")


def test_r21_rush_targets_the_obstacle_an_opponent_dog_faces() -> None:
    s = new_game(seed=6, board=RUSH_BOARD)
    course(s, 0, COURSE5, owner=B, dog="whippet", position=1)
    course(s, 2, COURSE5, owner=B, dog="papillon", position=0)
    course(s, 4, COURSE5, owner=B, dog="labrador-retriever", position=3)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "rush"
    assert set(rules.legal_moves(s)) == {Rush(player="alice", course=cid(s, k)) for k in (0, 2, 4)}
    rules.apply_in_place(s, Rush(player="alice", course=cid(s, 0)))
    assert [o.rush for o in s.courses[0].obstacles] == [False, True, False, False, False]
    assert not any(o.rush for k in (1, 2, 4) for o in s.courses[k].obstacles)
    assert s.phase == "dogs"


def test_r21_rush_refuses_own_finished_and_already_rushed() -> None:
    s = new_game(seed=6, board=RUSH_BOARD)
    course(s, 0, COURSE5, owner=B, dog="whippet", position=1)
    course(s, 2, COURSE5, owner=B, dog="papillon", position=0)
    s.courses[2].obstacles[0].rush = True
    course(s, 4, COURSE5, owner=B, dog="labrador-retriever", position=5)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert rules.legal_moves(s) == [Rush(player="alice", course=cid(s, 0))]
    for slot in (1, 2, 4):
        refused(s, Rush(player="alice", course=cid(s, slot)), "rush/target", "R21")


def test_r21_rush_without_opponent_dog_no_effect() -> None:
    s = new_game(seed=6, board=RUSH_BOARD)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    course(s, 0, COURSE5, owner=B, dog="whippet", position=1)
    s.courses[0].obstacles[1].rush = True  # Bob's only dog already faces a rushed obstacle
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "dogs"
    assert [o.rush for o in s.courses[0].obstacles] == [False, True, False, False, False]


def rushed_bob(rushed: tuple[int, ...]) -> State:
    """Bob's dogs (no tunnel feature) face two tunnels on slots 0, 2 and 4; ``rushed`` slots carry a
    Rush marker on the first.  After one paid tunnel a dog is held by R27, so moves stay countable."""
    s = new_game(seed=7)
    for slot, dog in ((0, "golden-retriever"), (2, "papillon"), (4, "shetland-sheepdog")):
        course(s, slot, [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog=dog)
        s.courses[slot].obstacles[0].rush = slot in rushed
    cubes(s, B, red=10, green=10, black=10, yellow=10, blue=10)
    return s


def test_r21_rushed_owner_may_not_adopt_or_move_another_dog() -> None:
    s = dogs_phase(rushed_bob((0,)), B)
    s.players[B].dogs = s.players[B].dogs[:2]  # two dogs, so adopting would otherwise be open
    s.courses[4].owner = s.courses[4].dog = None
    legal = rules.legal_moves(s)
    assert not any(isinstance(m, Adopt) for m in legal)
    assert advances(s) == {(cid(s, 0), None)}
    refused(s, Advance(player="bob", course=cid(s, 2)), "advance/rush", "R21")
    refused(s, Adopt(player="bob", dog=s.dog_display[0], course=cid(s, 4)), "adopt/rush", "R21")
    rules.apply_in_place(s, Advance(player="bob", course=cid(s, 0)))
    assert advances(s) == {(cid(s, 2), None)}  # slot 0 used its paid move; slot 2 is free again
    # adopting stays closed, now because a dog has moved (step 4 comes before step 5)
    refused(s, Adopt(player="bob", dog=s.dog_display[0], course=cid(s, 4)), "adopt/after_move", "R12")


def test_r21_clear_action_moves_several_dogs_and_lifts_the_rush() -> None:
    s = rushed_bob((0,))
    s.players[B].dogs = s.players[B].dogs[:2]
    s.courses[4].owner = s.courses[4].dog = None
    play, _, _ = land(s, B, 3)  # R8: Clear Tunnels
    rules.apply_in_place(s, play)
    assert [s.courses[k].position for k in (0, 2)] == [1, 1]
    assert s.phase == "dogs"
    legal = rules.legal_moves(s)
    assert any(isinstance(m, Adopt) for m in legal)  # the rushed obstacle is cleared
    assert advances(s) == {(cid(s, 0), None), (cid(s, 2), None)}  # only the first tunnel was cleared (R17)


@pytest.mark.parametrize("order", [(0, 2), (2, 0)])
def test_r21_several_rush_markers_cleared_in_any_order(order: tuple[int, int]) -> None:
    s = dogs_phase(rushed_bob((0, 2)), B)
    assert advances(s) == {(cid(s, 0), None), (cid(s, 2), None)}
    first, second = order
    rules.apply_in_place(s, Advance(player="bob", course=cid(s, first)))
    assert advances(s) == {(cid(s, second), None)}  # slot 4 still held by the other Rush
    refused(s, Advance(player="bob", course=cid(s, 4)), "advance/rush", "R21")
    rules.apply_in_place(s, Advance(player="bob", course=cid(s, second)))
    assert (cid(s, 4), None) in advances(s)
    rules.apply_in_place(s, Advance(player="bob", course=cid(s, 4)))
    assert [s.courses[k].position for k in (0, 2, 4)] == [1, 1, 1]


def test_r21_rush_holds_until_the_obstacle_is_cleared_even_after_a_slip_in_front() -> None:
    """R21 + R24: the rushed obstacle is not cleared while a Slip tile stands before it."""
    s = new_game(seed=8, board=board_with(s5="slip"))
    course(s, 0, COURSE5, owner=B, dog="whippet", position=1)
    s.courses[0].obstacles[1].rush = True
    course(s, 2, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=B, dog="papillon")
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Slip(player="alice", course=cid(s, 0), gap=1))
    assert [o.type for o in s.courses[0].obstacles][:3] == ["hurdle", "open_ground", "tunnel"]
    assert s.courses[0].obstacles[2].rush
    dogs_phase(s, B)
    cubes(s, B, red=10, green=10, black=10, yellow=10, blue=10)
    legal = rules.legal_moves(s)
    assert not any(isinstance(m, Adopt) for m in legal)
    assert advances(s) == {(cid(s, 0), None)}  # the rushed dog itself may go on (Whippet passes open ground)


# --- R22 Intimidation --------------------------------------------------------------------------

INTIMIDATION_BOARD = board_with(s5="intimidation")


def test_r22_both_three_opponent_takes_flex_and_discards_first_thing_next_turn() -> None:
    s = new_game(seed=9, board=INTIMIDATION_BOARD)
    play, _, _ = land(s, A, 5, rest=(1, 2))
    bob_hand = s.players[B].hand[:]
    rules.apply_in_place(s, play)
    bob = s.players[B]
    assert (bob.flex, bob.hand_size, bob.must_discard) == (1, 2, True)
    assert bob.hand == bob_hand  # the discard waits for Bob's turn (R36)
    assert (s.players[A].hand_size, s.players[A].flex) == (3, 0)
    assert s.phase == "dogs" and s.active == A
    rules.apply_in_place(s, Done(player="alice"))
    assert s.phase == "refill"
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    # Bob's turn opens with his discard, his decision (R36)
    assert (s.active, s.phase, s.to_act) == (B, "discard", B)
    assert rules.legal_moves(s) == [Discard(player="bob", card=c) for c in bob_hand]
    refused(s, Play(player="bob", card=bob_hand[0], reward=s.cat.cards[bob_hand[0]].rewards[0].color), "move/wrong_step", "R12")
    refused(s, Discard(player="alice", card=s.players[A].hand[0]), "move/not_your_decision", "R36")
    refused(s, Discard(player="bob", card=s.players[A].hand[0]), "card/not_in_hand", "R22")
    rules.apply_in_place(s, Discard(player="bob", card=bob_hand[1]))
    assert s.discard[-1] == bob_hand[1]
    assert (bob.hand, bob.must_discard, bob.hand_size, s.phase) == ([bob_hand[0], bob_hand[2]], False, 2, "play")
    # Bob plays, lands on Flex (space 2), and refills to 2, not 3
    card = s.cat.cards[bob_hand[0]]
    s.marker = (2 - card.number) % 10
    rules.apply_in_place(s, Play(player="bob", card=card.id, reward=card.rewards[0].color))
    assert bob.flex == 2
    rules.apply_in_place(s, Done(player="bob"))
    assert s.phase == "refill" and len(bob.hand) == 1
    rules.apply_in_place(s, Take(player="bob", card=s.display[0]))
    assert len(bob.hand) == 2
    assert (s.active, s.phase) == (A, "play")


@pytest.mark.parametrize("bob_size", [3, 2])
def test_r22_intimidator_at_two_returns_to_three_and_refills_to_three(bob_size: int) -> None:
    s = new_game(seed=10, board=INTIMIDATION_BOARD)
    s.players[A].hand_size = 2
    s.players[B].hand_size = bob_size
    if bob_size == 2:
        s.deck.append(s.players[B].hand.pop())
    play, _, _ = land(s, A, 5, rest=(1,))
    rules.apply_in_place(s, play)
    alice, bob = s.players
    assert alice.hand_size == 3
    assert (bob.hand_size, bob.flex, bob.must_discard) == (bob_size, 0, False)
    rules.apply_in_place(s, Done(player="alice"))
    assert s.phase == "refill" and len(alice.hand) == 1
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    assert s.phase == "refill" and len(alice.hand) == 2 and s.active == A
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    assert len(alice.hand) == 3
    assert s.active == B


def test_r22_three_against_two_opponent_takes_a_flex_token_only() -> None:
    s = new_game(seed=11, board=INTIMIDATION_BOARD)
    s.players[B].hand_size = 2
    s.players[B].flex = 1
    s.deck.append(s.players[B].hand.pop())
    play, _, _ = land(s, A, 5, rest=(1, 2))
    rules.apply_in_place(s, play)
    alice, bob = s.players
    assert (bob.hand_size, bob.flex, bob.must_discard, len(bob.hand)) == (2, 2, False, 2)
    assert (alice.hand_size, alice.flex) == (3, 0)


# --- R23 Inspiration ---------------------------------------------------------------------------

INSPIRATION_BOARD = board_with(s5="inspiration")


def test_r23_setup_puts_one_cube_of_each_colour_on_the_tile() -> None:
    assert new_game(seed=12, board=INSPIRATION_BOARD).inspiration == list(COLOURS)
    assert new_game(seed=12).inspiration == []


def test_r23_take_one_cube_of_your_choice() -> None:
    s = new_game(seed=12, board=INSPIRATION_BOARD)
    cubes(s, A)
    play, colour, count = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "inspire"
    assert rules.legal_moves(s) == [Inspire(player="alice", color=c) for c in COLOURS]  # type: ignore[arg-type]
    rules.apply_in_place(s, Inspire(player="alice", color="black"))
    assert s.inspiration == ["red", "green", "yellow", "blue"]
    assert s.players[A].cubes == with_reward({"black": 1}, colour, count)
    assert s.phase == "dogs"


def test_r23_a_taken_colour_is_refused() -> None:
    s = new_game(seed=12, board=INSPIRATION_BOARD)
    s.inspiration = ["red", "yellow"]
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert set(rules.legal_moves(s)) == {Inspire(player="alice", color="red"), Inspire(player="alice", color="yellow")}
    refused(s, Inspire(player="alice", color="blue"), "inspire/colour", "R23")


def test_r23_empty_tile_does_nothing() -> None:
    s = new_game(seed=12, board=INSPIRATION_BOARD)
    s.inspiration = []
    cubes(s, A, green=2)
    play, colour, count = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "dogs"
    assert s.players[A].cubes == with_reward({"green": 2}, colour, count)


# --- R24 Slip ----------------------------------------------------------------------------------

SLIP_BOARD = board_with(s5="slip")


def slip_game() -> State:
    s = new_game(seed=13, board=SLIP_BOARD)
    course(s, 0, COURSE5, owner=B, dog="golden-retriever", position=0)
    course(s, 2, COURSE5, owner=B, dog="papillon", position=2)
    course(s, 4, COURSE5, owner=B, dog="labrador-retriever", position=4)
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    return s


def test_r24_gaps_are_between_obstacles_ahead_of_the_dog() -> None:
    s = slip_game()
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "slip"
    gaps = {(m.course, m.gap) for m in rules.legal_moves(s)}
    # never gap 0 (before the first) nor gap 5 (after the last); from the dog's own gap on
    assert gaps == {(cid(s, 0), g) for g in (1, 2, 3, 4)} | {(cid(s, 2), g) for g in (2, 3, 4)} | {(cid(s, 4), 4)}


@pytest.mark.parametrize(("slot", "gap"), [(0, 0), (0, 5), (2, 1), (1, 2)])
def test_r24_slip_refuses_gaps_outside_or_behind_or_own_course(slot: int, gap: int) -> None:
    s = slip_game()
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    refused(s, Slip(player="alice", course=cid(s, slot), gap=gap), "slip/target", "R24")


def test_r24_slip_directly_in_front_is_an_open_ground_with_the_components_cost() -> None:
    s = slip_game()
    s.cat.open_ground_cost = vec({"green": 1, "yellow": 1})  # a custom component set's open ground
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Slip(player="alice", course=cid(s, 2), gap=2))
    c2 = s.courses[2]
    assert [o.type for o in c2.obstacles] == ["hurdle", "tunnel", "open_ground", "pause_box", "weave_poles", "a_frame"]
    new = c2.obstacles[2]
    assert (new.cost, new.plus, new.rush) == ((0, 1, 0, 1, 0), [0] * 5, False)
    assert c2.slipped and c2.position == 2  # the dog now faces the open ground
    assert not s.courses[0].slipped and not s.courses[4].slipped
    assert s.phase == "dogs"


def test_r24_at_most_one_slip_per_course() -> None:
    s = slip_game()
    s.courses[0].slipped = True
    s.courses[4].slipped = True
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert {m.course for m in rules.legal_moves(s)} == {cid(s, 2)}
    refused(s, Slip(player="alice", course=cid(s, 0), gap=2), "slip/target", "R24")


def test_r24_no_course_left_to_slip_no_effect() -> None:
    s = slip_game()
    for k in (0, 2, 4):
        s.courses[k].slipped = True
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    assert s.phase == "dogs"
    assert all(len(c.obstacles) == 5 for c in s.courses)


@pytest.mark.parametrize(
    ("dog", "spare", "cost", "paid"),
    [
        ("whippet", None, {}, 0),  # pass on open ground
        ("siberian-husky", "green", {"green": 1}, 0),  # minus one
        ("mighty-mutt", None, {"green": 2}, 0),  # featured: full cost, still a feature
        ("golden-retriever", None, {"green": 2}, 1),  # no feature: a paid move
    ],
)
def test_r24_the_dogs_open_ground_feature_applies_to_the_slip_tile(
    dog: str, spare: str | None, cost: dict[str, int], paid: int
) -> None:
    s = new_game(seed=14, board=SLIP_BOARD)
    course(s, 3, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=B, dog=dog, position=1)
    play, _, _ = land(s, A, 5)
    rules.apply_in_place(s, play)
    rules.apply_in_place(s, Slip(player="alice", course=cid(s, 3), gap=1))
    dogs_phase(s, B)
    c3 = s.courses[3]
    assert rules.clear_cost(s, c3, spare) == vec(cost)
    cubes(s, B, green=2)
    rules.apply_in_place(s, Advance(player="bob", course=c3.id, spare=spare))  # type: ignore[arg-type]
    assert c3.position == 2 and c3.obstacles[1].type == "open_ground"
    assert s.paid[3] == paid
    assert s.players[B].cubes == [0, 2 - sum(cost.values()), 0, 0, 0]
    assert public_state(s)["courses"][3]["obstacles"][1]["feature"] == {
        "whippet": "pass",
        "siberian-husky": "minus_one",
        "mighty-mutt": "featured",
        "golden-retriever": None,
    }[dog]


def test_r24_open_ground_builder_matches_the_standard_open_ground_cost() -> None:
    s = new_game(seed=14)
    assert s.cat.open_ground_cost == vec(OPEN[1])
