"""Rules version 2 (R38): the three rulings that changed, each tested under both versions.

* R12 — the reward is chosen after the action (a ``reward`` decision); naming it with the play
  stays valid as an early, binding choice.  Version 1: always named with the play.
* R22/R36 — Intimidation's discard is made at once, by the opponent, before the active player goes
  on (no Exchange for them: not their turn).  Version 1: first thing in the opponent's next turn.
* R13 — the moment the deck's last card is drawn or turned up, the discard pile (without that
  card) becomes the new deck.  Version 1: only when a draw finds the deck empty.
"""

from __future__ import annotations

import pytest

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.engine.moves import (
    BoostCube,
    Break,
    ChooseReward,
    Discard,
    Done,
    Draw,
    Exchange,
    Header,
    Play,
    PutBack,
    Return,
)
from builders import board_with, cubes, hand, new_game, play

INTIMIDATION_ON_5 = board_with(s5="intimidation")


def _rewards(s, card: str) -> list[tuple[str, int]]:
    return [(r.color, r.count) for r in s.cat.cards[card].rewards]


# --------------------------------------------------------------------------------------------
# R38: the versions


def test_r38_the_rulings_that_differ_are_named_flags_of_one_ruleset() -> None:
    v1, v2 = rules.RULESETS[1], rules.RULESETS[2]
    assert (v1.reward_after_action, v1.discard_at_once, v1.reshuffle_at_once) == (False, False, False)
    assert (v2.reward_after_action, v2.discard_at_once, v2.reshuffle_at_once) == (True, True, True)
    assert new_game(version=1).rules is v1 and new_game(version=2).rules is v2


def test_r38_new_games_use_the_newest_version_and_an_unknown_version_is_refused(tmp_path) -> None:
    header = gamefile.make_header(seed=1, players=("a", "b"), first="a", board=rules.RECOMMENDED_BOARD, components=None)
    assert header.rules == max(rules.RULESETS) == 2
    bad = Header(format=1, rules=3, seed=1, players=("a", "b"), first="a", board=rules.RECOMMENDED_BOARD, components="standard")
    with pytest.raises(rules.SetupError) as exc:
        rules.setup(bad, new_game().cat.components)
    assert exc.value.rule == "R38"
    path = tmp_path / "g.jsonl"
    path.write_bytes(gamefile.encode_line(bad) + b"\n")
    with pytest.raises(gamefile.GameFileError) as err:
        gamefile.load(path)
    assert err.value.line == 1 and "rules version 3" in err.value.message


# --------------------------------------------------------------------------------------------
# R12: the reward after the action


def test_r12_version_2_a_play_without_reward_waits_for_the_reward_after_boost() -> None:
    s = new_game(4, version=2)
    six, one, two = hand(s, 0, 6, 1, 2)
    legal = rules.legal_moves(s)
    assert Play(player="alice", card=six, reward=None) in legal  # offered without a reward …
    assert all(Play(player="alice", card=six, reward=c) in legal for c, _ in _rewards(s, six))  # … and with one
    play(s, Play(player="alice", card=six, reward=None))
    assert s.phase == "boost" and s.boost_card is not None  # the Boost card is seen first
    colour = s.cat.cards[s.boost_card].rewards[0].color
    play(s, BoostCube(player="alice", color=colour))
    assert s.phase == "reward" and s.to_act == 0
    assert {m.color for m in rules.legal_moves(s) if isinstance(m, ChooseReward)} == {c for c, _ in _rewards(s, six)}
    before = list(s.players[0].cubes)
    chosen, count = _rewards(s, six)[1]
    play(s, ChooseReward(player="alice", color=chosen))
    gained = [a - b for a, b in zip(s.players[0].cubes, before)]
    assert sum(gained) == count and s.phase == "dogs"


def test_r12_version_2_the_reward_is_chosen_after_the_break_draws() -> None:
    s = new_game(6, version=2)
    five, *_ = hand(s, 0, 5, 1, 2)
    cubes(s, 0, red=2)
    play(s, Play(player="alice", card=five, reward=None))
    play(s, Break(player="alice", count=1))
    play(s, Return(player="alice", color="red"))
    play(s, PutBack(player="alice", card=s.players[0].hand[0]))
    play(s, Draw(player="alice"))
    assert s.phase == "reward"  # the drawn card is in hand before the reward is chosen
    play(s, ChooseReward(player="alice", color=_rewards(s, five)[0][0]))
    assert s.phase == "dogs"


def test_r12_version_2_a_reward_named_with_the_play_is_binding() -> None:
    s = new_game(4, version=2)
    six, *_ = hand(s, 0, 6, 1, 2)
    colour, count = _rewards(s, six)[0]
    play(s, Play(player="alice", card=six, reward=colour))
    assert s.boost_card is not None
    play(s, BoostCube(player="alice", color=s.cat.cards[s.boost_card].rewards[0].color))
    assert s.phase == "dogs"  # no reward decision: it was named early


def test_r12_r16_version_2_sweep_gives_both_rewards_with_nothing_to_choose() -> None:
    s = new_game(4, version=2)
    six, *_ = hand(s, 0, 6, 1, 2)
    s.marker = 4  # 4 + 6 = space 0, Sweep
    play(s, Play(player="alice", card=six, reward=None))
    assert s.phase == "dogs"
    assert sum(s.players[0].cubes) == sum(n for _, n in _rewards(s, six))


def test_r12_r31_version_2_a_mini_turn_chooses_its_reward_after_the_action_too() -> None:
    s = new_game(4, version=2)
    two, *_ = hand(s, 0, 2, 1, 3)
    s.phase, s.minis = "dogs", 1
    play(s, Done(player="alice"))
    assert s.in_mini and s.phase == "play"
    play(s, Play(player="alice", card=two, reward=None))  # marker 0→2: Flex
    assert s.phase == "reward" and s.in_mini
    play(s, ChooseReward(player="alice", color=_rewards(s, two)[0][0]))
    assert not s.in_mini and s.phase == "refill"


def test_r12_version_1_the_reward_is_named_with_the_play() -> None:
    s = new_game(4, version=1)
    six, *_ = hand(s, 0, 6, 1, 2)
    assert all(m.reward is not None for m in rules.legal_moves(s) if isinstance(m, Play))
    with pytest.raises(rules.IllegalMove) as exc:
        rules.apply(s, Play(player="alice", card=six, reward=None))
    assert exc.value.code == "play/reward" and exc.value.rule == "R12"


# --------------------------------------------------------------------------------------------
# R22/R36: Intimidation's discard at once


def _intimidate(version: int):
    s = new_game(8, INTIMIDATION_ON_5, version=version)
    five, *_ = hand(s, 0, 5, 1, 2)
    s.players[1].exchange = 1
    cubes(s, 1, red=2)
    play(s, Play(player="alice", card=five, reward=_rewards(s, five)[0][0]))
    return s


def test_r22_r36_version_2_the_opponent_discards_at_once_before_the_active_player_goes_on() -> None:
    s = _intimidate(2)
    assert s.phase == "discard" and s.active == 0 and s.to_act == 1
    legal = rules.legal_moves(s)
    assert legal and all(isinstance(m, Discard) and m.player == "bob" for m in legal)  # no Exchange for bob
    assert {m.card for m in legal} == set(s.players[1].hand)  # type: ignore[attr-defined]
    with pytest.raises(rules.IllegalMove) as exc:
        rules.apply(s, Exchange(player="bob", from_="red", to="blue"))
    assert exc.value.rule == "R15"
    with pytest.raises(rules.IllegalMove) as exc:
        rules.apply(s, Done(player="alice"))
    assert exc.value.code == "move/not_your_decision"
    card = s.players[1].hand[0]
    play(s, Discard(player="bob", card=card))
    assert card in s.discard and len(s.players[1].hand) == 2 and s.players[1].hand_size == 2
    assert not s.players[1].must_discard and s.to_act == 0 and s.phase == "dogs"


def test_r22_r36_version_1_the_discard_waits_for_the_opponents_next_turn() -> None:
    s = _intimidate(1)
    assert s.phase == "dogs" and s.players[1].must_discard and len(s.players[1].hand) == 3
    play(s, Done(player="alice"))
    while s.active == 0:
        play(s, rules.legal_moves(s)[0])
    assert s.phase == "discard" and s.to_act == 1 and s.active == 1


# --------------------------------------------------------------------------------------------
# R13: reshuffle at once


def _boost_turns_up_the_last_card(version: int):
    s = new_game(9, version=version)
    six, *_ = hand(s, 0, 6, 1, 2)
    last = s.deck[-1]
    s.discard.extend(s.deck[:-1])
    s.deck = [last]
    play(s, Play(player="alice", card=six, reward=None if version == 2 else _rewards(s, six)[0][0]))
    return s, six, last


def test_r13_version_2_the_deck_is_rebuilt_the_moment_its_last_card_is_turned_up() -> None:
    s, played, last = _boost_turns_up_the_last_card(2)
    assert s.boost_card == last
    assert s.deck and last not in s.deck and s.discard == [last]  # the card just turned up is not in it
    assert played in s.deck  # the card played before it was in the discard pile, so it is in the deck


def test_r13_version_1_the_deck_stays_empty_until_a_draw_needs_it() -> None:
    s, played, last = _boost_turns_up_the_last_card(1)
    assert s.boost_card == last and s.deck == [] and s.discard[-2:] == [played, last]


def test_r13_version_2_with_no_discards_the_deck_stays_empty_until_a_draw_needs_it() -> None:
    s = new_game(9, version=2)
    six, *_ = hand(s, 0, 6, 1, 2)
    s.deck = s.deck[-1:]
    s.discard = []
    play(s, Play(player="alice", card=six, reward=None))
    # the played card went to the discard pile before Boost turned up the last card: rebuilt at once
    assert s.deck == [six] and s.discard == [s.boost_card]


def test_r13_r18_version_2_break_cannot_draw_back_the_card_it_put_back_after_the_deck_ran_out() -> None:
    for version in (1, 2):
        s = new_game(11, version=version)
        five, keep, back = hand(s, 0, 5, 1, 2)
        cubes(s, 0, red=1)
        s.discard.extend(s.deck[:-1])
        s.deck = s.deck[-1:]
        # alice takes the display's card, the display refills with the deck's last card
        s.phase = "refill"
        s.players[0].hand.remove(keep)
        play(s, rules.legal_moves(s)[0])
        assert (s.deck == []) == (version == 1)
        # next turn of alice, Break 1 puts `back` under the discard pile, then draws from the deck
        s.active, s.phase = 0, "play"
        s.players[0].hand = [five, back]
        play(s, Play(player="alice", card=five, reward="red" if "red" in dict(_rewards(s, five)) else _rewards(s, five)[0][0]))
        play(s, Break(player="alice", count=1))
        play(s, Return(player="alice", color=next(c for c, n in zip(("red", "green", "black", "yellow", "blue"), s.players[0].cubes) if n)))
        play(s, PutBack(player="alice", card=back))
        if version == 2:
            assert back not in s.deck  # the deck was rebuilt before the put-back
        else:
            assert s.deck == [] and s.discard[0] == back  # a draw now reshuffles it back in
