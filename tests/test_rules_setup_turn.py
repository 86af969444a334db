"""Scenario tests for rulings R1–R15: components in play, the action board, setup and the turn.

* R1–R7: the five cube colours, unlimited supply, obstacle types, the components setup puts in play,
  the 13 action tiles plus Sweep;
* R8–R9: the recommended board, random boards of variants A and B, explicit layouts, and the
  refusals of ``validate_board``;
* R10: hands of 3, display of 3, dog display of 5, six courses from six different boards, all 39
  training cards accounted for, the start player;
* R12: the order of a turn — play → action → reward → dogs → refill — with the reward received
  *after* the action (a Break tile sees the cubes from before the reward), and the refusals of
  moves made out of step;
* R13: the training and dog displays refill at once, three cards numbered 7+ are discarded and
  replaced (repeatedly), an empty deck is rebuilt from the discard pile;
* R14: Flex shifts (cost, direction, wrap-around, at most 5), a token won by the very action is not
  spendable on it;
* R15: Exchange turns all cubes of one colour, needs a token, refuses zero cubes, is open at every
  step of one's own turn and never in the opponent's.

States are built by hand (``tests/builders.py``); the engine is driven through ``legal_moves`` and
``apply``/``apply_in_place`` only.  R11 (the PRNG) is in ``test_rng.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import (
    CORE_TILES,
    COLOURS,
    EXTRA_TILES,
    OBSTACLE_TYPES,
    TILES,
    standard_components,
)
from agility_cli.engine.moves import Adopt, Advance, Break, Done, Draw, Exchange, Header, Play, PutBack, Return, Take
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import State, digest

from builders import (
    A,
    AFRAME,
    B,
    HURDLE,
    PAUSE,
    SCENARIO_CARDS,
    TUNNEL,
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
CLEAR_SIX = {"clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles", "flex", "exchange"}
OTHERS_A = {"break", "boost", "distraction", "rush", "intimidation", "inspiration", "slip"}
OTHERS_B = set(TILES[1:]) - {"flex", "exchange"}


def game(
    hand_a: list[str] | None = None,
    display: list[str] | None = None,
    marker: int = 0,
    **kw: list[str],
) -> State:
    """Seed 1, recommended board, alice to play; hands and display as given (R10 sizes by default)."""
    s = new_game(1)
    arrange(
        s,
        hand_a=hand_a or ["t06", "t11", "t16"],
        hand_b=kw.pop("hand_b", ["t08", "t09", "t10"]),
        display=display or ["t02", "t03", "t04"],
        **kw,
    )
    s.marker = marker
    return s


# --- R1–R7: components ---------------------------------------------------------------------------


def test_r3_scenario_cards_as_assumed() -> None:
    cards = {c.id: c for c in standard_components().cards}
    for cid, (number, rewards) in SCENARIO_CARDS.items():
        assert cards[cid].number == number
        assert {r.color: r.count for r in cards[cid].rewards} == rewards


def test_r1_five_cube_colours_and_every_player_starts_with_none() -> None:
    assert COLOURS == ("red", "green", "black", "yellow", "blue")
    s = new_game(1)
    for p in s.players:
        assert p.cubes == [0, 0, 0, 0, 0]
        assert (p.flex, p.exchange) == (0, 0)


def test_r1_supply_is_unlimited_for_cubes_and_flex_tokens() -> None:
    s = game(hand_a=["t06", "t11", "t16"])
    cubes(s, A, red=60)
    give(s, A, flex=8)  # the box holds 8 Flex tokens; the supply in play is unlimited
    play(s, Play(player=ALICE, card="t06", reward="red"))  # 0 + 2 → Flex
    assert s.players[A].flex == 9
    assert cube_dict(s, A) == {"red": 63}


def test_r1_supply_is_unlimited_for_exchange_tokens() -> None:
    s = game(hand_a=["t16", "t11", "t06"])
    give(s, A, exchange=7)  # the box holds 7
    play(s, Play(player=ALICE, card="t16", reward="blue"))  # 0 + 4 → Exchange
    assert s.players[A].exchange == 8
    assert cube_dict(s, A) == {"blue": 2}


def test_r2_r5_courses_in_play_are_five_obstacles_with_one_four_red_pause_box() -> None:
    for seed in range(30):
        s = new_game(seed)
        for c in s.courses:
            types = [o.type for o in c.obstacles]
            assert len(types) == 5
            assert set(types) <= set(OBSTACLE_TYPES)
            assert types.count("pause_box") == 1
            (pause,) = [o for o in c.obstacles if o.type == "pause_box"]
            assert pause.cost == (4, 0, 0, 0, 0)  # R29: 4 red
            assert all(o.plus == [0, 0, 0, 0, 0] and not o.rush for o in c.obstacles)


def test_r2_six_obstacle_types() -> None:
    assert set(OBSTACLE_TYPES) == {"hurdle", "tunnel", "weave_poles", "a_frame", "open_ground", "pause_box"}


def test_r3_r4_setup_puts_all_39_cards_and_15_dogs_in_play() -> None:
    comp = standard_components()
    s = new_game(5)
    assert sorted(all_cards(s)) == sorted(c.id for c in comp.cards)
    assert len(all_cards(s)) == 39
    assert sorted(s.dog_display + s.dog_deck) == sorted(d.id for d in comp.dogs)
    assert len(s.dog_display) + len(s.dog_deck) == 15


def test_r7_thirteen_action_tiles_plus_sweep() -> None:
    assert TILES[0] == "sweep"
    assert len(CORE_TILES) == 9 and len(EXTRA_TILES) == 4
    assert set(TILES) == {"sweep"} | set(CORE_TILES) | set(EXTRA_TILES)
    assert len(set(TILES)) == 14
    assert set(EXTRA_TILES) == {"rush", "intimidation", "inspiration", "slip"}


# --- R8–R9: the action board -----------------------------------------------------------------------


def test_r8_recommended_board_is_the_default() -> None:
    assert rules.RECOMMENDED_BOARD == (
        "sweep",
        "clear_hurdles",
        "flex",
        "clear_tunnels",
        "exchange",
        "break",
        "boost",
        "clear_a_frames",
        "distraction",
        "clear_weave_poles",
    )
    assert new_game(1).board == rules.RECOMMENDED_BOARD
    assert rules.validate_board(list(rules.RECOMMENDED_BOARD)) == rules.RECOMMENDED_BOARD


def test_r9_random_board_a_has_the_six_fixed_tiles_and_three_of_the_other_seven() -> None:
    seen_others: Counter[str] = Counter()
    flex_spaces = set()
    for seed in range(200):
        board = rules.random_board(seed, "a")
        assert rules.validate_board(board) == board
        assert board[0] == "sweep"
        rest = set(board[1:])
        assert len(rest) == 9
        assert CLEAR_SIX <= rest
        assert len(rest & OTHERS_A) == 3
        assert rest <= CLEAR_SIX | OTHERS_A
        seen_others.update(rest & OTHERS_A)
        flex_spaces.add(board.index("flex"))
    assert set(seen_others) == OTHERS_A  # each of the seven is drawn some time
    assert flex_spaces == set(range(1, 10))  # the fixed tiles go on random spaces


def test_r9_random_board_b_has_flex_exchange_and_seven_of_the_other_eleven() -> None:
    seen: Counter[str] = Counter()
    lacks_a_clear_tile = 0
    for seed in range(200):
        board = rules.random_board(seed, "b")
        assert rules.validate_board(board) == board
        rest = set(board[1:])
        assert {"flex", "exchange"} <= rest
        assert len(rest & OTHERS_B) == 7
        seen.update(rest & OTHERS_B)
        lacks_a_clear_tile += not {"clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles"} <= rest
    assert set(seen) == OTHERS_B
    assert lacks_a_clear_tile > 0  # unlike variant A, Clear tiles are not guaranteed


def test_r9_random_board_depends_on_the_seed_only() -> None:
    assert rules.random_board(10, "a") == rules.random_board(10, "a")
    assert len({rules.random_board(k, "b") for k in range(20)}) > 15


def test_r9_unknown_random_variant_is_refused() -> None:
    with pytest.raises(rules.SetupError) as info:
        rules.random_board(1, "c")
    assert (info.value.code, info.value.rule) == ("setup/board", "R9")


def test_r9_explicit_layout_is_accepted_and_used() -> None:
    layout = ("sweep", "rush", "exchange", "slip", "flex", "boost", "clear_tunnels", "intimidation", "break", "inspiration")
    s = new_game(1, board=layout)
    assert s.board == layout
    assert s.inspiration == list(COLOURS)  # R23: an Inspiration tile in play starts with one of each


@pytest.mark.parametrize(
    "board",
    [
        rules.RECOMMENDED_BOARD[:9],  # 9 spaces
        rules.RECOMMENDED_BOARD + ("rush",),  # 11 spaces
        ("flex",) + rules.RECOMMENDED_BOARD[1:2] + ("sweep",) + rules.RECOMMENDED_BOARD[3:],  # 0 is not sweep
        rules.RECOMMENDED_BOARD[:5] + ("sweep",) + rules.RECOMMENDED_BOARD[6:],  # a second sweep
        rules.RECOMMENDED_BOARD[:5] + ("teleport",) + rules.RECOMMENDED_BOARD[6:],  # unknown tile
        rules.RECOMMENDED_BOARD[:5] + ("flex",) + rules.RECOMMENDED_BOARD[6:],  # flex twice
    ],
    ids=["nine", "eleven", "no-sweep-on-0", "sweep-twice", "unknown", "duplicate"],
)
def test_r7_r9_validate_board_refuses_bad_layouts(board: tuple[str, ...]) -> None:
    with pytest.raises(rules.SetupError) as info:
        rules.validate_board(board)
    assert (info.value.code, info.value.rule) == ("setup/board", "R7")
    with pytest.raises(rules.SetupError):
        new_game(1, board=board)


# --- R10: setup --------------------------------------------------------------------------------------


def test_r10_setup_sizes_and_marker() -> None:
    s = new_game(1)
    assert [len(p.hand) for p in s.players] == [3, 3]
    assert [p.hand_size for p in s.players] == [3, 3]
    assert len(s.display) == 3
    assert len(s.dog_display) == 5 and len(s.dog_deck) == 10
    assert len(s.deck) == 30 and s.discard == []
    assert s.marker == 0
    assert len(s.courses) == 6
    assert all(c.owner is None and c.dog is None and c.position == 0 for c in s.courses)
    assert all(p.dogs == [] for p in s.players)


def test_r10_deal_order_follows_the_shuffled_deck() -> None:
    # The documented order: shuffle the training deck with the "game" stream, deal 3 to each seat
    # in turn from the top, then turn up the display.
    for seed in (1, 2, 3, 99):
        s = new_game(seed)
        deck = [c.id for c in standard_components().cards]
        Rng.for_purpose(seed, "game").shuffle(deck)
        assert s.players[A].hand == deck[0:3]
        assert s.players[B].hand == deck[3:6]
        if not s.discard:  # no 7+ redraw happened (R13)
            assert s.display == deck[6:9]
            assert s.deck == deck[9:]


def test_r10_all_39_cards_accounted_for_over_many_seeds() -> None:
    ids = sorted(c.id for c in standard_components().cards)
    for seed in range(100):
        s = new_game(seed)
        assert sorted(all_cards(s)) == ids
        assert len(s.display) == 3 and not all(s.cat.cards[c].number >= 7 for c in s.display)


def test_r10_six_courses_each_from_a_different_board() -> None:
    comp = standard_components()
    board_of = {side.id: b.id for b in comp.boards for side in b.sides}
    sides_seen: set[str] = set()
    for seed in range(100):
        s = new_game(seed)
        boards = [board_of[c.id] for c in s.courses]
        assert len(boards) == 6 and len(set(boards)) == 6
        sides_seen.update(c.id for c in s.courses)
        printed = {side.id: side for b in comp.boards for side in b.sides}
        for c in s.courses:
            assert [o.type for o in c.obstacles] == [o.type for o in printed[c.id].obstacles]
    assert len(sides_seen) == 16  # every side of every board is chosen some time


def test_r10_start_player_is_the_headers_first() -> None:
    s = new_game(1, first="bob")
    assert (s.start, s.active, s.turn, s.phase) == (B, B, 1, "play")
    assert [p.turns for p in s.players] == [0, 1]
    assert {m.player for m in rules.legal_moves(s)} == {BOB}
    s = new_game(1)
    assert (s.start, s.active) == (A, A)
    assert {m.player for m in rules.legal_moves(s)} == {ALICE}


@pytest.mark.parametrize(
    ("players", "first", "seed", "code", "rule"),
    [
        (("alice", "alice"), "alice", 1, "setup/players", "R35"),
        (("alice", "bob"), "carol", 1, "setup/first", "R10"),
        (("alice", "bob"), "alice", -1, "setup/seed", "R11"),
    ],
)
def test_r10_setup_refuses_bad_headers(players: tuple[str, str], first: str, seed: int, code: str, rule: str) -> None:
    header = Header(
        format=1, rules=1, seed=seed, players=players, first=first, board=rules.RECOMMENDED_BOARD, components="standard"
    )
    with pytest.raises(rules.SetupError) as info:
        rules.setup(header, standard_components())
    assert (info.value.code, info.value.rule) == (code, rule)


# --- R12: the steps of a turn ------------------------------------------------------------------------


def test_r12_first_decision_is_to_play_a_card_with_its_reward() -> None:
    s = game(hand_a=["t06", "t11", "t16"])
    moves = rules.legal_moves(s)
    assert all(isinstance(m, Play) and m.flex == 0 for m in moves)
    assert {(m.card, m.reward) for m in moves} == {  # type: ignore[attr-defined]
        ("t06", "red"), ("t06", "black"), ("t11", "blue"), ("t11", "red"), ("t16", "red"), ("t16", "blue"),
    }  # fmt: skip


def test_r12_whole_turn_play_action_reward_dogs_refill() -> None:
    s = game(hand_a=["t06", "t11", "t16"], display=["t02", "t03", "t04"], deck_top=["t05"])
    # (1) play: the card goes to the discard pile; (2) the marker moves 2 to Flex and it resolves.
    play(s, Play(player=ALICE, card="t06", reward="black"))
    assert s.players[A].hand == ["t11", "t16"]
    assert s.discard[-1] == "t06"
    assert s.marker == 2 and s.last_tile == "flex"
    assert s.players[A].flex == 1
    # (3) the reward: 2 black.
    assert cube_dict(s, A) == {"black": 2}
    # (4–5) adopting and moving dogs (nothing affordable: only Done).
    assert s.phase == "dogs"
    assert rules.legal_moves(s) == [Done(player=ALICE)]
    play(s, Done(player=ALICE))
    # (6) refill from the display.
    assert s.phase == "refill"
    assert rules.legal_moves(s) == [Take(player=ALICE, card=c) for c in ("t02", "t03", "t04")]
    play(s, Take(player=ALICE, card="t03"))
    assert s.players[A].hand == ["t11", "t16", "t03"]
    assert s.display == ["t02", "t04", "t05"]  # R13: refilled at once from the deck top
    # The turn passes to bob.
    assert (s.active, s.turn, s.phase, s.marker) == (B, 2, "play", 2)
    assert [p.turns for p in s.players] == [1, 1]
    assert s.card is None and s.reward is None


def test_r12_refill_takes_up_to_the_hand_size() -> None:
    s = game(hand_a=["t06", "t11"], display=["t02", "t03", "t04"])
    play(s, Play(player=ALICE, card="t06", reward="red"))
    play(s, Done(player=ALICE))
    play(s, Take(player=ALICE, card="t02"))
    assert (s.active, s.phase) == (A, "refill")  # still 2 cards: take another
    play(s, Take(player=ALICE, card="t04"))
    assert s.players[A].hand == ["t11", "t02", "t04"]
    assert (s.active, s.phase) == (B, "play")


def test_r12_marker_moves_forward_mod_10() -> None:
    s = game(hand_a=["t16", "t11", "t06"], marker=8)
    play(s, Play(player=ALICE, card="t16", reward="red"))  # 8 + 4 = 12 → 2: Flex
    assert s.marker == 2 and s.last_tile == "flex" and s.players[A].flex == 1


def test_r12_reward_after_action_break_with_no_cubes_does_nothing() -> None:
    # The reward comes after the action: with no cubes yet, Break (space 5) cannot be carried out,
    # although the card's reward would have given cubes.
    s = game(hand_a=["t20", "t11", "t06"])
    play(s, Play(player=ALICE, card="t20", reward="red"))  # 0 + 5 → Break
    assert s.last_tile == "break"
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"red": 2}
    assert s.players[A].hand == ["t11", "t06"]
    assert s.discard == ["t20"]


def test_r12_reward_after_action_break_sees_only_the_cubes_held_before() -> None:
    s = game(hand_a=["t20", "t11", "t06"])
    cubes(s, A, blue=1)
    play(s, Play(player=ALICE, card="t20", reward="red"))
    assert s.phase == "break"
    assert cube_dict(s, A) == {"blue": 1}  # the 2 red are not there yet
    assert rules.legal_moves(s) == [Break(player=ALICE, count=1)]  # 2 would need 2 cubes
    assert refused(s, Break(player=ALICE, count=2)).code == "break/count"
    play(s, Break(player=ALICE, count=1))
    assert rules.legal_moves(s) == [Return(player=ALICE, color="blue")]
    play(s, Return(player=ALICE, color="blue"))
    play(s, PutBack(player=ALICE, card="t11"))
    play(s, Draw(player=ALICE))
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"red": 2}  # the reward arrives only now


def test_r12_an_action_that_can_be_carried_out_must_be() -> None:
    s = game(hand_a=["t20", "t11", "t06"])
    cubes(s, A, red=2)
    play(s, Play(player=ALICE, card="t20", reward="green"))
    moves = rules.legal_moves(s)
    assert moves == [Break(player=ALICE, count=1), Break(player=ALICE, count=2)]  # no way to skip
    assert refused(s, Done(player=ALICE)).code == "move/wrong_step"


def test_r12_refusals_out_of_step() -> None:
    s = game()
    e = refused(s, Done(player=ALICE))
    assert (e.code, e.rule) == ("move/wrong_step", "R12")
    e = refused(s, Take(player=ALICE, card="t02"))
    assert (e.code, e.rule) == ("move/wrong_step", "R12")
    play(s, Play(player=ALICE, card="t06", reward="red"))
    assert s.phase == "dogs"
    e = refused(s, Play(player=ALICE, card="t11", reward="blue"))
    assert (e.code, e.rule) == ("move/wrong_step", "R12")
    e = refused(s, Take(player=ALICE, card="t02"))  # refill (6) comes after the dogs (4–5)
    assert (e.code, e.rule) == ("move/wrong_step", "R12")
    play(s, Done(player=ALICE))
    e = refused(s, Done(player=ALICE))
    assert (e.code, e.rule) == ("move/wrong_step", "R12")


def test_r12_refusals_of_bad_plays() -> None:
    s = game(hand_a=["t06", "t11", "t16"])
    e = refused(s, Play(player=BOB, card="t08", reward="yellow"))
    assert (e.code, e.rule) == ("move/not_your_decision", "R36")
    e = refused(s, Play(player=ALICE, card="t08", reward="yellow"))  # one of bob's cards
    assert (e.code, e.rule) == ("play/not_in_hand", "R12")
    e = refused(s, Play(player=ALICE, card="t99", reward="green"))
    assert (e.code, e.rule) == ("play/unknown_card", "R3")
    e = refused(s, Play(player=ALICE, card="t06", reward="blue"))  # t06 shows red or black
    assert (e.code, e.rule) == ("play/reward", "R12")


def test_r12_adopting_comes_before_moving_dogs() -> None:
    s = game(hand_a=["t06", "t11", "t16"])
    course(s, 0, [HURDLE, TUNNEL, PAUSE, AFRAME, HURDLE], owner=A, dog="mighty-mutt")
    cubes(s, A, blue=6, black=2)
    play(s, Play(player=ALICE, card="t06", reward="red"))  # Flex
    assert Adopt(player=ALICE, dog="golden-retriever", course=s.courses[1].id) in rules.legal_moves(s)
    play(s, Advance(player=ALICE, course=s.courses[0].id))  # the hurdle: 2 blue + 1 black
    assert cube_dict(s, A) == {"red": 3, "black": 1, "blue": 4}  # golden retriever still affordable
    assert not any(isinstance(m, Adopt) for m in rules.legal_moves(s))
    e = refused(s, Adopt(player=ALICE, dog="golden-retriever", course=s.courses[1].id))
    assert (e.code, e.rule) == ("adopt/after_move", "R12")


def test_r12_apply_returns_a_new_state_and_keeps_the_old() -> None:
    s = game()
    before = digest(s)
    after = rules.apply(s, Play(player=ALICE, card="t06", reward="red"))
    assert digest(s) == before and s.phase == "play" and s.players[A].hand == ["t06", "t11", "t16"]
    assert after.phase == "dogs" and after.players[A].hand == ["t11", "t16"]


# --- R13: the displays -------------------------------------------------------------------------------


def _to_refill(s: State, card: str = "t06") -> State:
    play(s, Play(player=ALICE, card=card, reward=s.cat.cards[card].rewards[0].color))  # type: ignore[arg-type]
    play(s, Done(player=ALICE))
    assert s.phase == "refill"
    return s


def test_r13_training_display_refills_at_once_from_the_deck_top() -> None:
    s = _to_refill(game(display=["t02", "t03", "t04"], deck_top=["t05", "t01"]))
    deck_size = len(s.deck)
    play(s, Take(player=ALICE, card="t02"))
    assert s.display == ["t03", "t04", "t05"]
    assert s.deck[0] == "t01" and len(s.deck) == deck_size - 1


def test_r13_dog_display_refills_at_once_after_adoption() -> None:
    s = game()
    cubes(s, A, blue=4, black=1)
    next_dog = s.dog_deck[0]
    play(s, Play(player=ALICE, card="t06", reward="red"))
    play(s, Adopt(player=ALICE, dog="golden-retriever", course=s.courses[2].id))
    assert len(s.dog_display) == 5
    assert "golden-retriever" not in s.dog_display
    assert s.dog_display[-1] == next_dog
    assert len(s.dog_deck) == 9
    assert cube_dict(s, A) == {"red": 3}


def test_r13_three_cards_numbered_7_or_more_are_discarded_and_replaced() -> None:
    s = _to_refill(game(display=["t02", "t32", "t36"], deck_top=["t28", "t03", "t04", "t05"]))
    play(s, Take(player=ALICE, card="t02"))  # display t32 (8), t36 (9), t28 (7): all 7+
    assert s.discard == ["t06", "t32", "t36", "t28"]
    assert s.display == ["t03", "t04", "t05"]
    assert sorted(all_cards(s)) == sorted(s.cat.cards)


def test_r13_redraw_repeats_while_all_three_are_7_or_more() -> None:
    s = _to_refill(game(display=["t02", "t32", "t36"], deck_top=["t28", "t29", "t33", "t37", "t03", "t04", "t05"]))
    play(s, Take(player=ALICE, card="t02"))
    assert s.discard == ["t06", "t32", "t36", "t28", "t29", "t33", "t37"]
    assert s.display == ["t03", "t04", "t05"]


def test_r13_two_high_cards_or_a_six_do_not_trigger_the_redraw() -> None:
    s = _to_refill(game(display=["t02", "t32", "t36"], deck_top=["t24", "t03"]))
    play(s, Take(player=ALICE, card="t02"))
    assert s.display == ["t32", "t36", "t24"]  # 8, 9, 6: kept
    assert s.discard == ["t06"]


def test_r13_empty_deck_is_rebuilt_from_the_discard_pile() -> None:
    s = game(hand_a=["t06", "t11", "t16"], display=["t02", "t03", "t04"])
    rest = [c for c in s.deck]
    arrange(s, deck=[], discard=rest)
    _to_refill(s)
    assert len(s.discard) == 31 and s.deck == []
    play(s, Take(player=ALICE, card="t02"))
    assert s.discard == []
    assert len(s.deck) == 30 and len(s.display) == 3
    assert sorted(s.deck + [s.display[-1]]) == sorted(rest + ["t06"])
    assert sorted(all_cards(s)) == sorted(s.cat.cards)


# --- R14: Flex ---------------------------------------------------------------------------------------


def _shifts(s: State, card: str) -> set[int]:
    return {m.flex for m in rules.legal_moves(s) if isinstance(m, Play) and m.card == card}


def test_r14_flex_shift_resolves_another_tile_and_the_marker_stays() -> None:
    s = give(game(hand_a=["t06", "t11", "t16"]), A, flex=2)
    play(s, Play(player=ALICE, card="t06", reward="red", flex=2))  # lands on 2 (Flex), resolves 4 (Exchange)
    assert s.marker == 2
    assert s.last_tile == "exchange"
    assert (s.players[A].flex, s.players[A].exchange) == (0, 1)  # 2 spent, none gained from space 2
    assert cube_dict(s, A) == {"red": 3}


def test_r14_flex_shift_backwards() -> None:
    s = give(game(hand_a=["t16", "t11", "t06"]), A, flex=3)
    play(s, Play(player=ALICE, card="t16", reward="red", flex=-3))  # lands on 4, resolves 1
    assert s.marker == 4 and s.last_tile == "clear_hurdles"
    assert (s.players[A].flex, s.players[A].exchange) == (0, 0)


def test_r14_flex_wraps_forward_onto_sweep() -> None:
    s = give(game(hand_a=["t01", "t11", "t06"], marker=8), A, flex=3)
    play(s, Play(player=ALICE, card="t01", reward="blue", flex=1))  # lands on 9, resolves 0: Sweep
    assert s.marker == 9 and s.last_tile == "sweep"
    assert s.players[A].flex == 2
    assert cube_dict(s, A) == {"blue": 3, "yellow": 3}  # R16: both rewards


def test_r14_flex_wraps_backward_to_space_9() -> None:
    s = give(game(hand_a=["t01", "t11", "t06"]), A, flex=2)
    course(s, 0, [("weave_poles", {"yellow": 2, "green": 1}), HURDLE, PAUSE, TUNNEL, AFRAME], owner=A, dog="whippet")
    play(s, Play(player=ALICE, card="t01", reward="yellow", flex=-2))  # lands on 1, resolves 9
    assert s.marker == 1 and s.last_tile == "clear_weave_poles"
    assert s.courses[0].position == 1
    assert s.players[A].flex == 0


def test_r14_r16_shifting_away_from_sweep_gives_one_reward() -> None:
    s = give(game(hand_a=["t11", "t01", "t06"], marker=7), A, flex=1)
    play(s, Play(player=ALICE, card="t11", reward="red", flex=1))  # lands on 0, resolves 1
    assert s.marker == 0 and s.last_tile == "clear_hurdles"
    assert cube_dict(s, A) == {"red": 2}
    assert s.players[A].flex == 0


def test_r14_no_shift_spends_no_token() -> None:
    s = give(game(hand_a=["t06", "t11", "t16"]), A, flex=3)
    play(s, Play(player=ALICE, card="t06", reward="red"))
    assert s.players[A].flex == 4  # 3 kept + 1 from landing on Flex


def test_r14_shifts_offered_are_bounded_by_tokens() -> None:
    s = game(hand_a=["t06", "t11", "t16"])
    assert _shifts(s, "t06") == {0}
    give(s, A, flex=2)
    assert _shifts(s, "t06") == {-2, -1, 0, 1, 2}
    assert len(rules.legal_moves(s)) == 3 * 2 * 5
    e = refused(s, Play(player=ALICE, card="t06", reward="red", flex=3))
    assert (e.code, e.rule) == ("play/flex", "R14")
    e = refused(s, Play(player=ALICE, card="t06", reward="red", flex=-3))
    assert (e.code, e.rule) == ("play/flex", "R14")


def test_r14_shift_is_at_most_5_whatever_the_tokens() -> None:
    s = give(game(hand_a=["t06", "t11", "t16"]), A, flex=9)
    assert _shifts(s, "t06") == set(range(-5, 6))
    for f in (6, -6, 9):
        e = refused(s, Play(player=ALICE, card="t06", reward="red", flex=f))
        assert (e.code, e.rule) == ("play/flex", "R14")


def test_r14_flex_token_won_by_the_action_cannot_shift_it() -> None:
    # No token before playing: landing on Flex gives one, but the action is already resolved.
    s = game(hand_a=["t06", "t11", "t16"])
    assert _shifts(s, "t06") == {0}
    play(s, Play(player=ALICE, card="t06", reward="red"))
    assert s.players[A].flex == 1
    assert s.last_tile == "flex" and s.marker == 2
    assert s.phase == "dogs"
    assert not any(isinstance(m, Play) for m in rules.legal_moves(s))
    assert s.players[A].exchange == 0  # nothing resolved a second time or elsewhere


def test_r14_shifting_onto_flex_spends_one_and_gains_one() -> None:
    s = give(game(hand_a=["t01", "t11", "t06"]), A, flex=1)
    play(s, Play(player=ALICE, card="t01", reward="blue", flex=1))  # lands on 1, resolves 2 (Flex)
    assert s.players[A].flex == 1
    assert s.marker == 1 and s.last_tile == "flex"


# --- R15: Exchange -----------------------------------------------------------------------------------


def test_r15_exchange_turns_all_cubes_of_one_colour() -> None:
    s = give(game(), A, exchange=1)
    cubes(s, A, red=3, blue=2, green=1)
    play(s, Exchange(player=ALICE, from_="red", to="blue"))
    assert cube_dict(s, A) == {"blue": 5, "green": 1}
    assert s.players[A].exchange == 0
    assert (s.phase, s.active) == ("play", A)  # an exchange is no step of its own


def test_r15_exchange_into_a_colour_not_held() -> None:
    s = give(game(), A, exchange=2)
    cubes(s, A, red=3, blue=2)
    play(s, Exchange(player=ALICE, from_="blue", to="yellow"))
    play(s, Exchange(player=ALICE, from_="red", to="yellow"))
    assert cube_dict(s, A) == {"yellow": 5}
    assert s.players[A].exchange == 0


def test_r15_exchanges_offered_are_every_held_colour_to_every_other() -> None:
    s = give(game(), A, exchange=1)
    cubes(s, A, red=1, blue=2)
    ex = {(m.from_, m.to) for m in rules.legal_moves(s) if isinstance(m, Exchange)}
    assert ex == {(f, t) for f in ("red", "blue") for t in COLOURS if t != f}


def test_r15_exchange_needs_a_token() -> None:
    s = game()
    cubes(s, A, red=3)
    assert not any(isinstance(m, Exchange) for m in rules.legal_moves(s))
    e = refused(s, Exchange(player=ALICE, from_="red", to="blue"))
    assert (e.code, e.rule) == ("exchange/no_token", "R15")


def test_r15_no_exchange_of_zero_cubes() -> None:
    s = give(game(), A, exchange=1)
    cubes(s, A, blue=2)
    e = refused(s, Exchange(player=ALICE, from_="red", to="blue"))
    assert (e.code, e.rule) == ("exchange/no_cubes", "R15")
    e = refused(s, Exchange(player=ALICE, from_="blue", to="blue"))
    assert (e.code, e.rule) == ("exchange/same_colour", "R15")
    cubes(s, A)
    assert not any(isinstance(m, Exchange) for m in rules.legal_moves(s))


def test_r15_exchange_is_open_at_every_step_of_ones_own_turn() -> None:
    s = give(game(hand_a=["t20", "t11", "t06"]), A, exchange=4)
    cubes(s, A, green=2)
    ex = Exchange(player=ALICE, from_="green", to="red")
    assert ex in rules.legal_moves(s)  # step 1
    play(s, Play(player=ALICE, card="t20", reward="red"))  # Break
    assert s.phase == "break" and ex in rules.legal_moves(s)
    play(s, Break(player=ALICE, count=1))
    assert s.phase == "return" and ex in rules.legal_moves(s)
    play(s, ex)  # in the middle of Break: 2 green become 2 red
    play(s, Return(player=ALICE, color="red"))
    assert s.phase == "put_back"
    play(s, PutBack(player=ALICE, card="t11"))
    assert s.phase == "draw"
    play(s, Draw(player=ALICE))
    assert s.phase == "dogs"
    assert cube_dict(s, A) == {"red": 3}  # 1 left + the 2 red reward
    ex2 = Exchange(player=ALICE, from_="red", to="black")
    assert ex2 in rules.legal_moves(s)
    play(s, Done(player=ALICE))
    assert s.phase == "refill" and ex2 in rules.legal_moves(s)
    play(s, ex2)
    assert cube_dict(s, A) == {"black": 3}
    assert s.players[A].exchange == 2


def test_r15_no_exchange_in_the_opponents_turn() -> None:
    s = game()
    give(s, B, exchange=1)
    cubes(s, B, red=3)
    cubes(s, A, green=2)  # alice has cubes but no token of her own: bob's token is not hers to use
    assert not any(isinstance(m, Exchange) for m in rules.legal_moves(s))
    e = refused(s, Exchange(player=ALICE, from_="green", to="red"))
    assert (e.code, e.rule) == ("exchange/no_token", "R15")
    e = refused(s, Exchange(player=BOB, from_="red", to="blue"))
    assert (e.code, e.rule) == ("move/not_your_decision", "R36")


def test_r15_exchange_token_from_the_tile_is_usable_the_same_turn() -> None:
    s = game(hand_a=["t16", "t11", "t06"])
    play(s, Play(player=ALICE, card="t16", reward="blue"))  # Exchange tile, then 2 blue
    assert s.players[A].exchange == 1 and s.phase == "dogs"
    play(s, Exchange(player=ALICE, from_="blue", to="red"))
    assert cube_dict(s, A) == {"red": 2}
    assert s.players[A].exchange == 0
