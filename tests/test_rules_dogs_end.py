"""Scenario tests for adopting and moving dogs, the pause box, prizes and the end (R25–R34).

Each test builds a hand-made state (tests/builders.py), drives the engine only through
``rules.legal_moves`` / ``rules.apply`` / ``rules.apply_in_place`` and asserts exact results:

* R25 adopt — once per turn, at most three dogs, full cost, an unclaimed course, features mark the
  course's obstacles, the dog display refills to five, the dog may move the same turn, no adoption
  once a dog has moved (R12 step order).
* R26 costs — pass, minus one (payer's choice of colour), featured, +1 markers.
* R27–R28 movement limit — one paid non-feature clear per dog per turn, any number of feature clears
  in any order, the pause box never a feature, the first paid clear never blocked.
* R29–R31 pause box — 4 red, a mini-turn after ``done`` and before the refill, mini-turns are
  play/resolve/reward only (Clear tiles still move dogs, Flex allowed), an empty hand plays the top
  of the deck, no refill between mini-turns.
* R32–R33 prizes — first to three dogs, first to finish (with the Tiebreak marker either way).
* R34 end — immediate win; the start player without the Tiebreak marker gives the opponent a final
  turn (mini-turns included), won by the opponent only if they finish all three.
"""

from __future__ import annotations

import msgspec
import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import COLOURS
from agility_cli.engine.moves import Adopt, Advance, Done, Play, Prize, Take
from agility_cli.engine.state import State, public_state, vec
from builders import AFRAME, HURDLE, PAUSE, TUNNEL, WEAVE, advances, cid, course, cubes, deal, dogs_phase, new_game, refused

A, B = 0, 1
NAMES = ("alice", "bob")
COURSE5 = [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME]
FLEX, CLEAR_TUNNELS, EXCHANGE = 2, 3, 4  # R8: spaces of the recommended board


# --- helpers -----------------------------------------------------------------------------------


def aim(s: State, card_id: str, space: int, flex: int = 0) -> Play:
    """A Play of ``card_id`` by the active player, the marker set so that it lands on ``space``."""
    card = s.cat.cards[card_id]
    s.marker = (space - flex - card.number) % 10
    return Play(player=NAMES[s.active], card=card_id, reward=card.rewards[0].color, flex=flex)


def adv(seat: int, s: State, slot: int, spare: str | None = None) -> Advance:
    return Advance(player=NAMES[seat], course=cid(s, slot), spare=spare)  # type: ignore[arg-type]


def adoptions(s: State) -> set[tuple[str, str]]:
    return {(m.dog, m.course) for m in rules.legal_moves(s) if isinstance(m, Adopt)}


def v(**counts: int) -> list[int]:
    return list(vec(counts))


# --- R25 adopt ---------------------------------------------------------------------------------


def adopt_game() -> State:
    """Seed 1: the dog display is Golden Retriever, Border Collie, Shetland, Dutch Shepherd, Aussie."""
    s = new_game(seed=1)
    assert s.dog_display[0] == "golden-retriever"
    return dogs_phase(s, A)


def test_r25_adopt_pays_full_cost_claims_the_course_and_refills_the_display() -> None:
    s = adopt_game()
    cubes(s, A, blue=5, black=2, red=1)  # Golden Retriever: 4 blue + 1 black
    assert adoptions(s) == {("golden-retriever", c.id) for c in s.courses}  # only one dog affordable
    display, deck = s.dog_display[:], s.dog_deck[:]
    rules.apply_in_place(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 2)))
    assert s.players[A].cubes == v(blue=1, black=1, red=1)
    c2 = s.courses[2]
    assert (c2.owner, c2.dog, c2.position) == (A, "golden-retriever", 0)
    assert s.players[A].dogs == ["golden-retriever"]
    assert s.dog_display == display[1:] + [deck[0]]
    assert s.dog_deck == deck[1:]
    assert len(s.dog_display) == 5
    assert s.phase == "dogs"


def test_r25_at_most_one_adoption_per_turn() -> None:
    s = adopt_game()
    cubes(s, A, red=9, green=9, black=9, yellow=9, blue=9)
    rules.apply_in_place(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)))
    assert adoptions(s) == set()
    refused(s, Adopt(player="alice", dog=s.dog_display[0], course=cid(s, 1)), "adopt/once", "R25")


def test_r25_at_most_three_dogs() -> None:
    s = adopt_game()
    for slot, dog in ((1, "whippet"), (3, "mighty-mutt"), (4, "labrador-retriever")):
        course(s, slot, COURSE5, owner=A, dog=dog)
    cubes(s, A, red=9, green=9, black=9, yellow=9, blue=9)
    assert adoptions(s) == set()
    refused(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)), "adopt/three", "R25")


def test_r25_only_an_unclaimed_course() -> None:
    s = adopt_game()
    course(s, 0, COURSE5, owner=B, dog="whippet")
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt", position=5)  # finished, still claimed
    cubes(s, A, blue=4, black=1)
    assert {c for _, c in adoptions(s)} == {cid(s, k) for k in (2, 3, 4, 5)}
    refused(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)), "adopt/claimed", "R25")
    refused(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 1)), "adopt/claimed", "R25")
    refused(s, Adopt(player="alice", dog="golden-retriever", course="9Z"), "adopt/course", "R25")


def test_r25_full_cost_and_displayed_dog_only() -> None:
    s = adopt_game()
    cubes(s, A, blue=3, black=1, red=9, green=9, yellow=9)  # one blue short of the Golden Retriever
    refused(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)), "adopt/cost", "R25")
    cubes(s, A, red=9, green=9, black=9, yellow=9, blue=9)
    hidden = s.dog_deck[0]
    refused(s, Adopt(player="alice", dog=hidden, course=cid(s, 0)), "adopt/not_displayed", "R25")


def test_r25_features_mark_the_matching_obstacles() -> None:
    s = adopt_game()
    course(s, 3, [HURDLE, AFRAME, PAUSE, HURDLE, TUNNEL])
    cubes(s, A, black=2, yellow=2, blue=1)
    rules.apply_in_place(s, Adopt(player="alice", dog="dutch-shepherd", course=cid(s, 3)))
    marks = [o["feature"] for o in public_state(s)["courses"][3]["obstacles"]]
    assert marks == ["minus_one", "pass", None, "minus_one", None]


def test_r25_adopted_dog_may_move_the_same_turn() -> None:
    s = adopt_game()
    course(s, 0, [HURDLE, HURDLE, TUNNEL, PAUSE, WEAVE])
    cubes(s, A, blue=4, black=1, green=2, red=1)
    rules.apply_in_place(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)))
    assert advances(s) == {(cid(s, 0), None)}
    for _ in range(3):  # two passed hurdles and the paid tunnel
        rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].position == 3
    assert s.players[A].cubes == [0] * 5


def test_r25_no_adoption_once_a_dog_has_moved() -> None:
    s = adopt_game()
    course(s, 1, COURSE5, owner=A, dog="mighty-mutt")
    cubes(s, A, blue=6, black=2)
    assert adoptions(s)
    rules.apply_in_place(s, adv(A, s, 1))
    assert adoptions(s) == set()
    refused(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)), "adopt/after_move", "R12")


# --- R26 costs ---------------------------------------------------------------------------------


def cost_game(dog: str, obstacles: list[tuple[str, dict[str, int]]], **have: int) -> State:
    s = dogs_phase(new_game(seed=2), A)
    course(s, 0, obstacles, owner=A, dog=dog)
    cubes(s, A, **have)
    return s


def test_r26_pass_clears_the_printed_cost_free() -> None:
    s = cost_game("golden-retriever", COURSE5)
    assert rules.clear_cost(s, s.courses[0]) == (0, 0, 0, 0, 0)
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].position == 1
    assert s.paid[0] == 0


def test_r26_minus_one_spares_one_cube_of_the_payers_colour() -> None:
    s = cost_game("dutch-shepherd", COURSE5, blue=2, black=1)  # hurdle: 2 blue 1 black
    c0 = s.courses[0]
    assert rules.clear_cost(s, c0, "blue") == vec({"blue": 1, "black": 1})
    assert rules.clear_cost(s, c0, "black") == vec({"blue": 2})
    assert advances(s) == {(c0.id, "blue"), (c0.id, "black")}
    refused(s, adv(A, s, 0), "advance/spare", "R26")  # minus one needs a colour
    refused(s, adv(A, s, 0, "red"), "advance/spare", "R26")  # not a colour of the cost
    rules.apply_in_place(s, adv(A, s, 0, "black"))
    assert s.players[A].cubes == v(black=1)


def test_r26_featured_pays_the_full_printed_cost() -> None:
    s = cost_game("mighty-mutt", COURSE5, blue=2, black=1)
    assert rules.clear_cost(s, s.courses[0]) == vec({"blue": 2, "black": 1})
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.players[A].cubes == [0] * 5
    assert s.paid[0] == 0  # a feature obstacle (R27)


def test_r26_no_feature_pays_printed_cost_plus_every_plus_one() -> None:
    s = cost_game("golden-retriever", [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], red=2, green=2, blue=1)
    s.courses[0].obstacles[0].plus = [1, 0, 0, 0, 1]
    assert rules.clear_cost(s, s.courses[0]) == vec({"green": 2, "red": 2, "blue": 1})
    refused(s, adv(A, s, 0, "red"), "advance/spare", "R26")  # no minus one here
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.players[A].cubes == [0] * 5
    assert s.paid[0] == 1


def test_r26_refusals_cost_not_yours_finished() -> None:
    s = cost_game("golden-retriever", [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], green=2)  # no red
    course(s, 1, COURSE5, owner=B, dog="whippet")
    course(s, 2, COURSE5, owner=A, dog="papillon", position=5)
    refused(s, adv(A, s, 0), "advance/cost", "R26")
    refused(s, adv(A, s, 1), "advance/not_yours", "R26")
    refused(s, adv(A, s, 2), "advance/finished", "R26")


# --- R27–R28 movement limit --------------------------------------------------------------------


def test_r27_second_paid_move_refused() -> None:
    s = cost_game("golden-retriever", [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], red=2, green=4)
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.paid[0] == 1
    assert advances(s) == set()
    refused(s, adv(A, s, 0), "advance/limit", "R27")
    assert s.players[A].cubes == v(red=1, green=2)


def test_r27_feature_clears_any_number_in_any_order_with_the_paid_one() -> None:
    s = cost_game("golden-retriever", [HURDLE, TUNNEL, HURDLE, HURDLE, PAUSE], red=5, green=2)
    for _ in range(4):  # pass, paid tunnel, pass, pass
        rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].position == 4
    assert s.paid[0] == 1
    assert s.players[A].cubes == v(red=4)
    refused(s, adv(A, s, 0), "advance/limit", "R27")  # the pause box is not a feature (R27)


def test_r27_the_limit_is_per_dog() -> None:
    s = cost_game("golden-retriever", [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], red=4, green=8)
    course(s, 1, [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="papillon")
    rules.apply_in_place(s, adv(A, s, 0))
    assert advances(s) == {(cid(s, 1), None)}
    rules.apply_in_place(s, adv(A, s, 1))
    assert advances(s) == set()
    assert s.paid[:2] == [1, 1]
    assert s.players[A].cubes == v(red=2, green=4)


def test_r27_pause_box_is_never_a_feature_even_if_a_dog_card_says_so() -> None:
    s = cost_game("golden-retriever", [PAUSE, TUNNEL, HURDLE, WEAVE, AFRAME], red=5, green=2)
    gr = s.cat.dogs["golden-retriever"]
    s.cat.dogs["golden-retriever"] = msgspec.structs.replace(gr, features={**gr.features, "pause_box": "pass"})
    c0 = s.courses[0]
    assert s.feature(c0, c0.obstacles[0]) is None
    assert rules.clear_cost(s, c0) == vec({"red": 4})
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.paid[0] == 1 and s.minis == 1
    refused(s, adv(A, s, 0), "advance/limit", "R27")  # the tunnel would be a second paid move


def test_r28_feature_clears_never_use_up_the_first_paid_clear() -> None:
    s = cost_game("golden-retriever", [HURDLE, HURDLE, TUNNEL, PAUSE, WEAVE], red=1, green=2)
    rules.apply_in_place(s, adv(A, s, 0))
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.paid[0] == 0
    assert advances(s) == {(cid(s, 0), None)}
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].position == 3


def test_r28_each_turn_the_dog_may_pay_again() -> None:
    s = cost_game("golden-retriever", [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], red=2, green=4)
    rules.apply_in_place(s, adv(A, s, 0))
    rules.apply_in_place(s, Done(player="alice"))  # a full hand: no refill, Bob's turn begins
    assert (s.active, s.phase, s.paid) == (B, "play", [0] * 6)
    bob_card = s.players[B].hand[0]
    rules.apply_in_place(s, aim(s, bob_card, FLEX))
    rules.apply_in_place(s, Done(player="bob"))
    rules.apply_in_place(s, Take(player="bob", card=s.display[0]))
    assert (s.active, s.phase) == (A, "play")
    rules.apply_in_place(s, aim(s, s.players[A].hand[0], FLEX))
    assert (cid(s, 0), None) in advances(s)
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].position == 2


# --- R29–R31 pause box and mini-turns ----------------------------------------------------------


def paused_game(hand: tuple[int, ...] = (5, 1, 2), dogs: int = 1) -> State:
    """Alice has played her first card (landing on Flex) and her dogs face pause boxes."""
    s = new_game(seed=3)
    for slot, dog in list(((0, "golden-retriever"), (1, "papillon")))[:dogs]:
        course(s, slot, [PAUSE, TUNNEL, HURDLE, WEAVE, AFRAME], owner=A, dog=dog)
    cards = deal(s, A, *hand)
    rules.apply_in_place(s, aim(s, cards[0], FLEX))
    assert s.phase == "dogs"
    cubes(s, A, red=4 * dogs)
    return s


def test_r29_pause_box_costs_four_red() -> None:
    s = paused_game()
    assert rules.clear_cost(s, s.courses[0]) == vec({"red": 4})
    cubes(s, A, red=3, green=9, black=9, yellow=9, blue=9)
    refused(s, adv(A, s, 0), "advance/cost", "R26")
    cubes(s, A, red=4)
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.players[A].cubes == [0] * 5
    assert s.paid[0] == 1


def test_r30_pause_box_earns_a_mini_turn_after_done_before_the_refill() -> None:
    s = paused_game()
    hand = s.players[A].hand[:]
    rules.apply_in_place(s, adv(A, s, 0))
    assert (s.minis, s.phase, s.in_mini) == (1, "dogs", False)  # step 5 goes on
    rules.apply_in_place(s, Done(player="alice"))
    assert (s.minis, s.phase, s.in_mini) == (0, "play", True)
    assert s.players[A].hand == hand  # not refilled before the mini-turn
    assert public_state(s)["mini_turn"] is True


def test_r31_mini_turn_is_play_resolve_reward_only() -> None:
    s = paused_game()
    rules.apply_in_place(s, adv(A, s, 0))
    rules.apply_in_place(s, Done(player="alice"))
    cubes(s, A, red=9, green=9, black=9, yellow=9, blue=9)
    assert {type(m) for m in rules.legal_moves(s)} == {Play}
    refused(s, adv(A, s, 0), "move/wrong_step", "R12")
    refused(s, Adopt(player="alice", dog=s.dog_display[0], course=cid(s, 5)), "move/wrong_step", "R12")
    refused(s, Done(player="alice"), "move/wrong_step", "R12")
    flex = s.players[A].flex
    card = s.players[A].hand[0]
    reward = s.cat.cards[card].rewards[1]
    before = s.players[A].cubes[:]
    aim(s, card, EXCHANGE)
    rules.apply_in_place(s, Play(player="alice", card=card, reward=reward.color))
    assert s.players[A].exchange == 1
    before[COLOURS.index(reward.color)] += reward.count
    assert s.players[A].cubes == before
    assert s.players[A].flex == flex
    assert (s.phase, s.in_mini) == ("refill", False)  # no step 4–5 after a mini-turn
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    assert len(s.players[A].hand) == 3 and s.active == B


def test_r31_clear_tile_moves_dogs_in_a_mini_turn_and_flex_is_allowed() -> None:
    s = paused_game()
    s.players[A].flex = 1
    rules.apply_in_place(s, adv(A, s, 0))  # now faces the tunnel
    rules.apply_in_place(s, Done(player="alice"))
    card = s.players[A].hand[0]
    shifted = aim(s, card, CLEAR_TUNNELS, flex=1)  # the card reaches Flex; one token shifts to +1
    assert {m.flex for m in rules.legal_moves(s) if isinstance(m, Play)} == {-1, 0, 1}
    rules.apply_in_place(s, shifted)
    assert s.courses[0].position == 2
    assert s.players[A].flex == 0
    assert s.marker == FLEX  # the marker itself does not move with Flex (R14)
    assert s.phase == "refill"


def test_r31_empty_hand_plays_the_top_card_of_the_deck() -> None:
    s = paused_game(hand=(5,))
    assert s.players[A].hand == []
    rules.apply_in_place(s, adv(A, s, 0))
    rules.apply_in_place(s, Done(player="alice"))
    assert (s.phase, s.in_mini) == ("play", True)
    top = s.deck[0]
    assert {m.card for m in rules.legal_moves(s) if isinstance(m, Play)} == {top}
    other = s.deck[1]
    refused(s, Play(player="alice", card=other, reward=s.cat.cards[other].rewards[0].color), "play/not_top", "R31")
    deck_size, discards = len(s.deck), len(s.discard)
    rules.apply_in_place(s, aim(s, top, FLEX))
    assert s.deck[:1] != [top] and len(s.deck) == deck_size - 1
    assert s.discard[-1] == top and len(s.discard) == discards + 1
    assert s.players[A].hand == []
    assert s.phase == "refill"


def test_r30_two_pause_boxes_two_mini_turns_without_refill_between() -> None:
    s = paused_game(dogs=2)
    rules.apply_in_place(s, adv(A, s, 0))
    rules.apply_in_place(s, adv(A, s, 1))
    assert s.minis == 2
    rules.apply_in_place(s, Done(player="alice"))
    first, second = s.players[A].hand
    rules.apply_in_place(s, aim(s, first, FLEX))
    assert (s.phase, s.in_mini, s.minis) == ("play", True, 0)
    assert s.players[A].hand == [second]  # no refill between mini-turns
    rules.apply_in_place(s, aim(s, second, FLEX))
    assert (s.phase, s.in_mini) == ("refill", False)
    assert s.players[A].hand == []
    for _ in range(3):
        assert s.active == A
        rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    assert len(s.players[A].hand) == 3 and s.active == B


# --- R32 first to three dogs -------------------------------------------------------------------


@pytest.mark.parametrize("token", ["flex", "exchange"])
def test_r32_first_to_three_dogs_chooses_a_prize(token: str) -> None:
    s = adopt_game()
    course(s, 1, COURSE5, owner=A, dog="whippet")
    course(s, 3, COURSE5, owner=A, dog="mighty-mutt")
    cubes(s, A, blue=4, black=1)
    rules.apply_in_place(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)))
    assert s.prizes == [(A, "three_dogs")] and s.first_three == A
    assert rules.legal_moves(s) == [Prize(player="alice", token="flex"), Prize(player="alice", token="exchange")]
    refused(s, Done(player="alice"), "move/wrong_step", "R32")
    refused(s, Prize(player="bob", token="flex"), "move/not_your_decision", "R36")
    rules.apply_in_place(s, Prize(player="alice", token=token))  # type: ignore[arg-type]
    alice = s.players[A]
    assert (alice.flex, alice.exchange) == ((1, 0) if token == "flex" else (0, 1))
    assert s.prizes == [] and s.phase == "dogs"


def test_r32_only_the_first_player_to_three_dogs() -> None:
    s = adopt_game()
    s.first_three = B
    course(s, 1, COURSE5, owner=A, dog="whippet")
    course(s, 3, COURSE5, owner=A, dog="mighty-mutt")
    cubes(s, A, blue=4, black=1)
    rules.apply_in_place(s, Adopt(player="alice", dog="golden-retriever", course=cid(s, 0)))
    assert s.prizes == [] and s.first_three == B
    assert (s.players[A].flex, s.players[A].exchange) == (0, 0)


# --- R33 first to finish ------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["flex", "exchange"])
def test_r33_first_finisher_chooses_a_prize_and_takes_the_tiebreak_either_way(token: str) -> None:
    s = cost_game("golden-retriever", [TUNNEL, PAUSE, WEAVE, AFRAME, HURDLE])
    s.courses[0].position = 4
    rules.apply_in_place(s, adv(A, s, 0))
    assert s.courses[0].finished
    assert (s.prizes, s.first_finish, s.tiebreak) == ([(A, "first_finish")], A, A)
    assert rules.legal_moves(s) == [Prize(player="alice", token="flex"), Prize(player="alice", token="exchange")]
    rules.apply_in_place(s, Prize(player="alice", token=token))  # type: ignore[arg-type]
    assert (s.players[A].flex, s.players[A].exchange) == ((1, 0) if token == "flex" else (0, 1))
    assert s.tiebreak == A and public_state(s)["tiebreak"] == "alice"
    assert s.winner is None


def test_r33_a_later_finisher_gets_neither_prize_nor_tiebreak() -> None:
    s = cost_game("golden-retriever", [TUNNEL, PAUSE, WEAVE, AFRAME, HURDLE])
    s.first_finish = s.tiebreak = B
    s.courses[0].position = 4
    rules.apply_in_place(s, adv(A, s, 0))
    assert (s.prizes, s.tiebreak) == ([], B)


def test_r33_finishing_through_a_clear_action_also_wins_the_prize() -> None:
    s = new_game(seed=4)
    course(s, 0, [HURDLE, PAUSE, WEAVE, AFRAME, TUNNEL], owner=A, dog="golden-retriever", position=4)
    (card,) = deal(s, A, 5)
    rules.apply_in_place(s, aim(s, card, CLEAR_TUNNELS))
    assert s.courses[0].finished
    assert (s.prizes, s.tiebreak, s.to_act) == ([(A, "first_finish")], A, A)


# --- R34 the end -------------------------------------------------------------------------------


def end_game(start: str, tiebreak: int, bob_last: list[tuple[str, dict[str, int]]] | None = None) -> State:
    """Alice: two dogs finished, the Golden Retriever on slot 2 faces its last obstacle, a hurdle
    (pass: free).  Bob: two dogs finished and a third far from the end (or on ``bob_last``)."""
    s = new_game(seed=5, first=start)
    course(s, 0, COURSE5, owner=A, dog="mighty-mutt", position=5)
    course(s, 1, COURSE5, owner=A, dog="whippet", position=5)
    course(s, 2, [TUNNEL, PAUSE, WEAVE, AFRAME, HURDLE], owner=A, dog="golden-retriever", position=4)
    course(s, 3, COURSE5, owner=B, dog="labrador-retriever", position=5)
    course(s, 4, COURSE5, owner=B, dog="papillon", position=5)
    if bob_last is None:
        course(s, 5, [TUNNEL, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="shetland-sheepdog")
    else:
        course(s, 5, bob_last, owner=B, dog="shetland-sheepdog", position=len(bob_last) - 2)
    s.first_finish = s.tiebreak = tiebreak
    s.first_three = tiebreak
    return s


def test_r34_non_start_player_finishing_all_three_wins_at_once() -> None:
    s = dogs_phase(end_game(start="bob", tiebreak=B), A)
    rules.apply_in_place(s, adv(A, s, 2))
    assert (s.winner, s.phase, s.to_act) == (A, "over", None)
    assert rules.legal_moves(s) == []
    refused(s, Done(player="alice"), "game/over", "R34")
    assert public_state(s)["status"] == "finished" and public_state(s)["winner"] == "alice"


def test_r34_start_player_holding_the_tiebreak_wins_at_once() -> None:
    s = dogs_phase(end_game(start="alice", tiebreak=A), A)
    rules.apply_in_place(s, adv(A, s, 2))
    assert (s.winner, s.phase) == (A, "over")


def finish_start_player_without_tiebreak(bob_last: list[tuple[str, dict[str, int]]] | None = None) -> State:
    """Alice (start player, Bob holds the Tiebreak) finishes all three; Bob's final turn begins."""
    s = end_game(start="alice", tiebreak=B, bob_last=bob_last)
    deal(s, A, 5, 1, 2)
    rules.apply_in_place(s, aim(s, s.players[A].hand[0], FLEX))
    rules.apply_in_place(s, adv(A, s, 2))
    assert s.courses[2].finished
    assert (s.winner, s.finisher, s.final_turn, s.phase) == (None, A, False, "dogs")  # her turn goes on
    rules.apply_in_place(s, Done(player="alice"))
    rules.apply_in_place(s, Take(player="alice", card=s.display[0]))
    assert (s.active, s.final_turn, s.winner, s.phase) == (B, True, None, "play")
    assert public_state(s)["final_turn"] is True
    return s


def test_r34_start_player_without_tiebreak_opponent_final_turn_then_first_finisher_wins() -> None:
    s = finish_start_player_without_tiebreak()
    bob = s.players[B]
    rules.apply_in_place(s, aim(s, bob.hand[0], FLEX))
    cubes(s, B, red=1, green=2)
    rules.apply_in_place(s, adv(B, s, 5))  # progress, but not the finish
    assert s.winner is None
    rules.apply_in_place(s, Done(player="bob"))
    assert s.phase == "refill" and s.winner is None
    rules.apply_in_place(s, Take(player="bob", card=s.display[0]))
    assert (s.winner, s.phase) == (A, "over")
    assert s.players[A].turns == s.players[B].turns


def test_r34_final_turn_includes_mini_turns() -> None:
    # Bob's last dog: a pause box (paid) then a tunnel; the mini-turn's Clear Tunnels finishes it.
    s = finish_start_player_without_tiebreak(bob_last=[HURDLE, WEAVE, AFRAME, PAUSE, TUNNEL])
    rules.apply_in_place(s, aim(s, s.players[B].hand[0], FLEX))
    cubes(s, B, red=4)
    rules.apply_in_place(s, adv(B, s, 5))
    assert s.minis == 1
    rules.apply_in_place(s, Done(player="bob"))
    assert (s.phase, s.in_mini, s.winner) == ("play", True, None)
    rules.apply_in_place(s, aim(s, s.players[B].hand[0], CLEAR_TUNNELS))
    assert s.courses[5].finished
    assert (s.winner, s.phase) == (B, "over")


def test_r34_opponent_finishing_all_three_in_the_final_turn_wins_on_tiebreak() -> None:
    s = finish_start_player_without_tiebreak(bob_last=[HURDLE, WEAVE, AFRAME, PAUSE, TUNNEL])
    s.courses[5].position = 4  # only the tunnel is left
    rules.apply_in_place(s, aim(s, s.players[B].hand[0], FLEX))
    cubes(s, B, red=1, green=2)
    rules.apply_in_place(s, adv(B, s, 5))
    assert (s.winner, s.phase) == (B, "over")
    assert s.players[A].turns == s.players[B].turns
