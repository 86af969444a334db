"""Scenario tests for the action tiles of rulings R16–R19.

* R16 Sweep (space 0): both of the card's rewards, whichever was chosen; only on that turn.
* R17 Clear Hurdles / Tunnels / A-Frames / Weave Poles: every own dog facing that obstacle type
  clears it once (of two in a row only the first), free whatever +1 markers lie there, never an
  opponent's dog, not a dog adopted later in the turn; it is not the dog's paid move (R27).
* R18 Break: only with at least one cube (counted before the reward, R12); declare 1 or 2 (at most
  the cubes held); return cubes of one's choice; put cards back on the *bottom* of the discard pile;
  draw as many, each from the deck or the display; a cube is lost even with no card to put back
  (a mini-turn with an empty hand, R31); the refusals of bad declarations, returns and put-backs.
* R19 Boost: the deck's top card goes onto the discard pile; option A resolves the tile at its
  number (the marker stays, no Flex), option B gives one cube of a colour on it; the reward follows.

States are built by hand (``tests/builders.py``) from seed 1 on the recommended board
(0 Sweep, 1 Clear Hurdles, 2 Flex, 3 Clear Tunnels, 4 Exchange, 5 Break, 6 Boost, 7 Clear A-Frames,
8 Distraction, 9 Clear Weave Poles); the engine is driven only through ``legal_moves``/``apply``.
"""

from __future__ import annotations

import pytest

from agility_cli.engine import rules
from agility_cli.engine.moves import (
    Adopt,
    Advance,
    BoostAction,
    BoostCube,
    Break,
    Done,
    Draw,
    Play,
    PutBack,
    Return,
    Take,
)
from agility_cli.engine.state import State

from builders import (
    A,
    AFRAME,
    B,
    HURDLE,
    OPEN,
    PAUSE,
    TUNNEL,
    WEAVE,
    all_cards,
    arrange,
    course,
    cube_dict,
    cubes,
    give,
    new_game,
    play,
    refused,
)

ALICE, BOB = "alice", "bob"


def game(hand_a: list[str], marker: int = 0, **piles: list[str]) -> State:
    """Seed 1, recommended board, alice to play from ``marker``; bob holds t08–t10."""
    s = new_game(1)
    piles.setdefault("hand_b", ["t08", "t09", "t10"])
    piles.setdefault("display", ["t12", "t13", "t14"])
    arrange(s, hand_a=hand_a, **piles)
    s.marker = marker
    return s


# --- R16 Sweep ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("reward", ["blue", "red"])
def test_r16_sweep_gives_both_rewards_whichever_was_chosen(reward: str) -> None:
    s = game(["t11", "t01", "t06"], marker=7)
    cubes(s, A, green=1)
    play(s, Play(player=ALICE, card="t11", reward=reward))  # type: ignore[arg-type]  # 7 + 3 → 0
    assert s.marker == 0 and s.last_tile == "sweep"
    assert cube_dict(s, A) == {"blue": 3, "red": 2, "green": 1}
    assert s.phase == "dogs"


def test_r16_sweep_is_for_that_turn_only() -> None:
    s = game(["t11", "t01", "t06"], marker=7, hand_b=["t07", "t09", "t10"])
    play(s, Play(player=ALICE, card="t11", reward="blue"))
    play(s, Done(player=ALICE))
    play(s, Take(player=ALICE, card="t12"))
    assert s.active == B
    play(s, Play(player=BOB, card="t07", reward="green"))  # 0 + 2 → Flex
    assert cube_dict(s, B) == {"green": 3}  # one reward only
    assert cube_dict(s, A) == {"blue": 3, "red": 2}


def test_r16_only_the_chosen_reward_away_from_sweep() -> None:
    s = game(["t11", "t01", "t06"], marker=0)
    play(s, Play(player=ALICE, card="t11", reward="red"))  # 0 + 3 → Clear Tunnels
    assert cube_dict(s, A) == {"red": 2}


# --- R17 Clear tiles ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "tile", "obstacle"),
    [
        ("t01", "clear_hurdles", HURDLE),
        ("t11", "clear_tunnels", TUNNEL),
        ("t28", "clear_a_frames", AFRAME),
        ("t36", "clear_weave_poles", WEAVE),
    ],
)
def test_r17_clear_tile_advances_every_own_dog_facing_that_type(card: str, tile: str, obstacle: tuple) -> None:  # type: ignore[type-arg]
    s = game([card, "t06", "t16"])
    other = OPEN
    course(s, 0, [obstacle, other, PAUSE, other, other], owner=A, dog="standard-poodle")
    course(s, 1, [other, obstacle, PAUSE, other, other], owner=A, dog="labrador-retriever", position=1)
    course(s, 2, [other, PAUSE, obstacle, other, other], owner=A, dog="whippet")  # faces open ground
    course(s, 3, [obstacle, other, PAUSE, other, other], owner=B, dog="mighty-mutt")  # bob's
    course(s, 4, [PAUSE, obstacle, other, other, other], owner=B, dog="papillon", position=1)  # bob's
    colour = s.cat.cards[card].rewards[0].color
    play(s, Play(player=ALICE, card=card, reward=colour))
    assert s.last_tile == tile
    assert [c.position for c in s.courses[:5]] == [1, 2, 0, 0, 1]
    assert s.courses[5].owner is None and s.courses[5].position == 0
    assert cube_dict(s, A) == {colour: s.cat.cards[card].rewards[0].count}  # free: only the reward
    assert cube_dict(s, B) == {}


def test_r17_clear_hurdles_moves_only_first_of_two() -> None:
    s = game(["t01", "t06", "t16"])
    course(s, 0, [HURDLE, HURDLE, PAUSE, TUNNEL, AFRAME], owner=A, dog="labrador-retriever")
    course(s, 1, [TUNNEL, HURDLE, HURDLE, PAUSE, AFRAME], owner=A, dog="whippet", position=1)
    play(s, Play(player=ALICE, card="t01", reward="blue"))
    assert s.courses[0].position == 1
    assert s.courses[1].position == 2


def test_r17_clear_is_free_even_with_plus_markers() -> None:
    s = game(["t01", "t06", "t16"])
    c = course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="labrador-retriever")
    c.obstacles[0].plus = [0, 0, 2, 0, 1]  # +2 black, +1 blue (R20)
    play(s, Play(player=ALICE, card="t01", reward="yellow"))  # no cubes at all before the reward
    assert c.position == 1
    assert cube_dict(s, A) == {"yellow": 3}


def test_r17_clear_is_free_for_a_dog_with_a_pass_feature_and_markers() -> None:
    s = game(["t01", "t06", "t16"])
    cubes(s, A, red=1)
    c = course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="papillon")  # pass on hurdles
    c.obstacles[0].plus = [0, 0, 1, 0, 0]
    play(s, Play(player=ALICE, card="t01", reward="blue"))
    assert c.position == 1
    assert cube_dict(s, A) == {"red": 1, "blue": 3}


def test_r17_clear_is_not_the_dogs_paid_move() -> None:
    # R27: the dog cleared by the action may still make its one paid clear in step 5.
    s = game(["t01", "t06", "t16"])
    c = course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="whippet")
    cubes(s, A, green=2, red=1)
    play(s, Play(player=ALICE, card="t01", reward="yellow"))
    assert c.position == 1
    assert s.paid == [0] * 6
    adv = Advance(player=ALICE, course=c.id)
    assert adv in rules.legal_moves(s)
    play(s, adv)  # the tunnel: 2 green + 1 red — whippet has no tunnel feature
    assert c.position == 2
    assert cube_dict(s, A) == {"yellow": 3}


def test_r17_clear_never_moves_the_opponents_dogs() -> None:
    s = game(["t01", "t06", "t16"])
    theirs = course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="whippet")
    play(s, Play(player=ALICE, card="t01", reward="blue"))
    assert theirs.position == 0


def test_r17_dog_adopted_later_this_turn_is_not_moved() -> None:
    s = game(["t01", "t06", "t16"])
    c = course(s, 2, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME])
    cubes(s, A, blue=1, black=1)
    play(s, Play(player=ALICE, card="t01", reward="blue"))  # Clear Hurdles, then 3 blue
    assert c.owner is None and c.position == 0
    play(s, Adopt(player=ALICE, dog="golden-retriever", course=c.id))  # 4 blue + 1 black
    assert (c.owner, c.dog, c.position) == (A, "golden-retriever", 0)
    assert cube_dict(s, A) == {}


def test_r17_clear_of_the_last_obstacle_finishes_the_course() -> None:
    s = game(["t01", "t06", "t16"])
    c = course(s, 0, [TUNNEL, PAUSE, WEAVE, AFRAME, HURDLE], owner=A, dog="whippet", position=4)
    play(s, Play(player=ALICE, card="t01", reward="blue"))
    assert c.position == 5 and c.finished
    assert s.prizes == [(A, "first_finish")]  # R33
    assert cube_dict(s, A) == {"blue": 3}


def test_r17_clear_with_no_dog_facing_that_type_does_nothing() -> None:
    s = game(["t01", "t06", "t16"])
    c = course(s, 0, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="whippet")
    play(s, Play(player=ALICE, card="t01", reward="blue"))
    assert c.position == 0
    assert s.phase == "dogs"


# --- R18 Break -----------------------------------------------------------------------------------------


def test_r18_break_needs_at_least_one_cube() -> None:
    s = game(["t20", "t06", "t16"])
    deck = s.deck[:]
    play(s, Play(player=ALICE, card="t20", reward="red"))  # 0 + 5 → Break
    assert s.last_tile == "break" and s.phase == "dogs"
    assert s.players[A].hand == ["t06", "t16"]
    assert s.deck == deck and s.discard == ["t20"]
    assert cube_dict(s, A) == {"red": 2}


def test_r18_break_two_returns_two_puts_back_two_draws_two() -> None:
    s = game(["t20", "t06", "t16"], display=["t12", "t13", "t14"], deck_top=["t03", "t04", "t05"], discard=["t30"])
    cubes(s, A, red=1, blue=2, yellow=1)
    play(s, Play(player=ALICE, card="t20", reward="green"))
    assert s.phase == "break"
    assert rules.legal_moves(s) == [Break(player=ALICE, count=1), Break(player=ALICE, count=2)]
    play(s, Break(player=ALICE, count=2))
    # Return two cubes of alice's choice, one at a time.
    assert s.phase == "return"
    assert rules.legal_moves(s) == [Return(player=ALICE, color=c) for c in ("red", "yellow", "blue")]
    play(s, Return(player=ALICE, color="blue"))
    play(s, Return(player=ALICE, color="yellow"))
    assert cube_dict(s, A) == {"red": 1, "blue": 1}
    # Put two cards back on the bottom of the discard pile (the played card stays on top).
    assert s.phase == "put_back"
    assert rules.legal_moves(s) == [PutBack(player=ALICE, card=c) for c in ("t06", "t16")]
    play(s, PutBack(player=ALICE, card="t16"))
    assert s.discard == ["t16", "t30", "t20"]
    play(s, PutBack(player=ALICE, card="t06"))
    assert s.discard == ["t06", "t16", "t30", "t20"]
    assert s.players[A].hand == []
    # Draw two, each from the deck or the display.
    assert s.phase == "draw"
    assert rules.legal_moves(s) == [Draw(player=ALICE)] + [Take(player=ALICE, card=c) for c in ("t12", "t13", "t14")]
    play(s, Draw(player=ALICE))
    assert s.players[A].hand == ["t03"]
    assert s.phase == "draw"
    play(s, Take(player=ALICE, card="t13"))
    assert s.players[A].hand == ["t03", "t13"]
    assert s.display == ["t12", "t14", "t04"]  # R13: refilled at once
    assert s.deck[0] == "t05"
    # Then the reward (R12), and on to the dogs.
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"red": 1, "blue": 1, "green": 1}
    assert sorted(all_cards(s)) == sorted(s.cat.cards)


def test_r18_break_one_returns_one_puts_back_one_draws_one() -> None:
    s = game(["t20", "t06", "t16"], deck_top=["t03", "t04"])
    cubes(s, A, black=3)
    play(s, Play(player=ALICE, card="t20", reward="red"))
    play(s, Break(player=ALICE, count=1))
    play(s, Return(player=ALICE, color="black"))
    play(s, PutBack(player=ALICE, card="t06"))
    assert s.discard == ["t06", "t20"]
    play(s, Draw(player=ALICE))
    assert s.players[A].hand == ["t16", "t03"]
    assert s.phase == "dogs"  # one card back, one drawn: no second draw
    assert s.deck[0] == "t04"
    assert cube_dict(s, A) == {"black": 2, "red": 2}


def test_r18_put_back_goes_under_every_earlier_discard() -> None:
    s = game(["t20", "t06", "t16"], discard=["t30", "t31"])
    cubes(s, A, black=1)
    play(s, Play(player=ALICE, card="t20", reward="red"))
    play(s, Break(player=ALICE, count=1))
    play(s, Return(player=ALICE, color="black"))
    play(s, PutBack(player=ALICE, card="t16"))
    assert s.discard == ["t16", "t30", "t31", "t20"]


@pytest.mark.parametrize(("held", "count"), [(1, 2), (5, 3), (5, 0)])
def test_r18_declaration_is_1_or_2_and_at_most_the_cubes(held: int, count: int) -> None:
    s = game(["t20", "t06", "t16"])
    cubes(s, A, red=held)
    play(s, Play(player=ALICE, card="t20", reward="red"))
    e = refused(s, Break(player=ALICE, count=count))
    assert (e.code, e.rule) == ("break/count", "R18")


def test_r18_refuses_returning_a_cube_not_held_and_putting_back_a_card_not_in_hand() -> None:
    s = game(["t20", "t06", "t16"])
    cubes(s, A, red=2)
    play(s, Play(player=ALICE, card="t20", reward="green"))
    play(s, Break(player=ALICE, count=1))
    e = refused(s, Return(player=ALICE, color="blue"))
    assert (e.code, e.rule) == ("break/cube", "R18")
    play(s, Return(player=ALICE, color="red"))
    e = refused(s, PutBack(player=ALICE, card="t20"))  # the played card is no longer in hand
    assert (e.code, e.rule) == ("card/not_in_hand", "R18")
    e = refused(s, Draw(player=ALICE))  # put back first, then draw
    assert (e.code, e.rule) == ("move/wrong_step", "R12")


def test_r18_break_is_the_only_draw_from_the_deck() -> None:
    s = game(["t06", "t11", "t16"])
    play(s, Play(player=ALICE, card="t06", reward="red"))
    play(s, Done(player=ALICE))
    assert s.phase == "refill"
    assert not any(isinstance(m, Draw) for m in rules.legal_moves(s))
    e = refused(s, Draw(player=ALICE))
    assert (e.code, e.rule) == ("move/wrong_step", "R12")


def test_r18_draw_rebuilds_an_empty_deck_from_the_discard_pile() -> None:
    s = game(["t20", "t06", "t16"])
    arrange(s, deck=[])  # every other card goes onto the discard pile
    assert s.deck == []
    cubes(s, A, red=1)
    play(s, Play(player=ALICE, card="t20", reward="red"))
    play(s, Break(player=ALICE, count=1))
    play(s, Return(player=ALICE, color="red"))
    play(s, PutBack(player=ALICE, card="t06"))
    pile = sorted(s.discard)
    assert Draw(player=ALICE) in rules.legal_moves(s)
    play(s, Draw(player=ALICE))
    assert s.discard == []
    assert len(s.players[A].hand) == 2
    assert sorted(s.deck + [s.players[A].hand[1]]) == pile
    assert sorted(all_cards(s)) == sorted(s.cat.cards)


def test_r18_declaring_two_with_one_card_loses_two_cubes_for_one_card() -> None:
    s = game(["t20", "t06"], deck_top=["t03"], display=["t12", "t13", "t14"])
    cubes(s, A, red=2, black=1)
    play(s, Play(player=ALICE, card="t20", reward="green"))
    play(s, Break(player=ALICE, count=2))
    play(s, Return(player=ALICE, color="red"))
    play(s, Return(player=ALICE, color="red"))
    assert s.phase == "put_back"
    play(s, PutBack(player=ALICE, card="t06"))
    assert s.phase == "draw"
    play(s, Draw(player=ALICE))
    assert s.players[A].hand == ["t03"]
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"black": 1, "green": 1}


def test_r18_cube_lost_with_no_card_to_put_back_in_a_mini_turn_with_an_empty_hand() -> None:
    # Alice's last card is played; a pause box earns a mini-turn (R30) which, with no card in hand,
    # plays the deck's top card (R31); it lands on Break: the cubes go, no card goes back or comes.
    s = game(["t06"], deck_top=["t11", "t03"], display=["t12", "t13", "t14"])
    c = course(s, 0, [PAUSE, HURDLE, TUNNEL, AFRAME, WEAVE], owner=A, dog="labrador-retriever")
    cubes(s, A, red=4, blue=2)
    play(s, Play(player=ALICE, card="t06", reward="red"))  # 0 + 2 → Flex; +3 red
    play(s, Advance(player=ALICE, course=c.id))  # the pause box: 4 red
    assert cube_dict(s, A) == {"red": 3, "blue": 2} and s.minis == 1
    play(s, Done(player=ALICE))
    assert s.in_mini and s.phase == "play" and s.players[A].hand == []
    assert {m.card for m in rules.legal_moves(s) if isinstance(m, Play)} == {"t11"}  # type: ignore[attr-defined]
    play(s, Play(player=ALICE, card="t11", reward="blue"))  # 2 + 3 → Break
    assert s.phase == "break" and s.marker == 5
    play(s, Break(player=ALICE, count=2))
    play(s, Return(player=ALICE, color="red"))
    assert s.phase == "return"
    play(s, Return(player=ALICE, color="blue"))
    # No put-back, no draw: the Break is over and the mini-turn's reward arrives.
    assert s.players[A].hand == []
    assert s.deck[0] == "t03"
    assert s.discard == ["t06", "t11"]
    assert cube_dict(s, A) == {"red": 2, "blue": 4}
    assert not s.in_mini and s.phase == "refill"


# --- R19 Boost ---------------------------------------------------------------------------------------


def _boost(s: State, top: str, card: str = "t24", reward: str = "blue") -> State:
    """Play ``card`` (number 6) from marker 0 onto Boost with ``top`` on top of the deck."""
    arrange(s, deck_top=[top])
    play(s, Play(player=ALICE, card=card, reward=reward))  # type: ignore[arg-type]
    assert s.marker == 6 and s.last_tile == "boost"
    return s


def test_r19_boost_turns_the_top_card_onto_the_discard_pile() -> None:
    s = game(["t24", "t06", "t16"], discard=["t30"], deck_top=["t05"])
    rest = s.deck[1:]
    play(s, Play(player=ALICE, card="t24", reward="blue"))  # 0 + 6 → Boost
    assert s.marker == 6 and s.last_tile == "boost"
    assert s.phase == "boost"
    assert s.discard == ["t30", "t24", "t05"]
    assert s.boost_card == "t05"
    assert s.deck == rest
    assert cube_dict(s, A) == {}  # the reward waits for the Boost to be resolved
    assert rules.legal_moves(s) == [
        BoostAction(player=ALICE),
        BoostCube(player=ALICE, color="red"),
        BoostCube(player=ALICE, color="blue"),
    ]


def test_r19_option_b_takes_one_cube_of_a_colour_on_the_card() -> None:
    s = _boost(game(["t24", "t06", "t16"]), "t05")
    play(s, BoostCube(player=ALICE, color="red"))
    assert cube_dict(s, A) == {"red": 1, "blue": 2}  # 1 from Boost, then the 2 blue reward
    assert s.phase == "dogs" and s.marker == 6
    assert s.boost_card is None


def test_r19_option_b_refuses_a_colour_not_on_the_card() -> None:
    s = _boost(game(["t24", "t06", "t16"]), "t05")
    e = refused(s, BoostCube(player=ALICE, color="green"))
    assert (e.code, e.rule) == ("boost/colour", "R19")


def test_r19_option_a_resolves_the_tile_at_the_card_number_marker_unmoved() -> None:
    s = game(["t24", "t06", "t16"])
    give(s, A, flex=3)
    c = course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="whippet")
    _boost(s, "t05")  # a 1: Clear Hurdles
    play(s, BoostAction(player=ALICE))
    assert s.last_tile == "clear_hurdles"
    assert c.position == 1
    assert s.marker == 6
    assert s.players[A].flex == 3  # no Flex spent or offered
    assert cube_dict(s, A) == {"blue": 2}
    assert s.phase == "dogs"


def test_r19_option_a_offers_no_flex_shift() -> None:
    s = game(["t24", "t06", "t16"])
    give(s, A, flex=3)
    _boost(s, "t05")
    assert [m for m in rules.legal_moves(s) if isinstance(m, BoostAction)] == [BoostAction(player=ALICE)]
    assert not any(isinstance(m, Play) for m in rules.legal_moves(s))


@pytest.mark.parametrize(
    ("top", "tile", "flex", "exchange"),
    [("t07", "flex", 1, 0), ("t16", "exchange", 0, 1)],
)
def test_r19_option_a_token_tiles(top: str, tile: str, flex: int, exchange: int) -> None:
    s = _boost(game(["t24", "t06", "t11"]), top)
    play(s, BoostAction(player=ALICE))
    assert s.last_tile == tile
    assert (s.players[A].flex, s.players[A].exchange) == (flex, exchange)
    assert s.marker == 6


def test_r19_option_a_onto_break_sees_the_cubes_before_the_reward() -> None:
    s = game(["t24", "t06", "t16"])
    cubes(s, A, yellow=1)
    _boost(s, "t21")  # a 5: Break
    play(s, BoostAction(player=ALICE))
    assert s.phase == "break"
    assert rules.legal_moves(s) == [Break(player=ALICE, count=1)]
    play(s, Break(player=ALICE, count=1))
    play(s, Return(player=ALICE, color="yellow"))
    play(s, PutBack(player=ALICE, card="t06"))
    assert s.discard[0] == "t06" and s.discard[-2:] == ["t24", "t21"]
    play(s, Draw(player=ALICE))
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"blue": 2}


def test_r19_option_a_onto_boost_turns_another_card() -> None:
    s = game(["t24", "t06", "t16"])
    arrange(s, deck_top=["t25", "t03"])
    play(s, Play(player=ALICE, card="t24", reward="black"))
    assert s.boost_card == "t25"  # a 6: Boost again
    play(s, BoostAction(player=ALICE))
    assert s.phase == "boost" and s.boost_card == "t03"
    assert s.discard[-3:] == ["t24", "t25", "t03"]
    play(s, BoostCube(player=ALICE, color="red"))  # t03 shows black or red
    assert cube_dict(s, A) == {"red": 1, "black": 1}
    assert s.marker == 6 and s.phase == "dogs"


def test_r19_boost_with_an_empty_deck_rebuilds_it_first() -> None:
    s = game(["t24", "t06", "t16"])
    arrange(s, deck=[])
    play(s, Play(player=ALICE, card="t24", reward="blue"))
    assert s.phase == "boost"
    assert s.discard == [s.boost_card]  # everything else was shuffled into the new deck
    assert len(s.deck) == 30  # 39 less two hands of 2 and 3, the display, and the Boost card
    assert s.boost_card not in s.deck
    assert sorted(all_cards(s)) == sorted(s.cat.cards)
