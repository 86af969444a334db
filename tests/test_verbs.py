"""Typed verbs (``agility move FILE VERB ARGS``): every legal decision's argv parses back to it.

INTERFACE.md: ``legal --json`` gives argv such that ``agility move FILE <argv...>`` makes exactly that
decision.  This checks it for every legal move of every state met in seeded random games over boards
with all fourteen tiles, and checks the friendly references (numbers, slots, prefixes).
"""

from __future__ import annotations

import random

import pytest

from agility_cli.engine import rules, notation
from agility_cli.engine.moves import Adopt, Advance, Play
from builders import new_game


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_moves_argv_parses_back_to_that_move(seed: int) -> None:
    board = rules.RECOMMENDED_BOARD if seed % 3 == 0 else rules.random_board(seed, "ab"[seed % 2])
    s = new_game(seed, board)
    r = random.Random(seed)
    while s.winner is None:
        legal = rules.legal_moves(s)
        for m in legal:
            assert notation.parse(s, notation.argv(s, m)) == m, (m, notation.argv(s, m))
            assert notation.describe(s, m)
        rules.apply_in_place(s, r.choice(legal))


def test_friendly_references_numbers_slots_prefixes() -> None:
    s = new_game(42)
    p = s.players[0]
    card = p.hand[0]
    number = s.cat.cards[card].number
    reward = s.cat.cards[card].rewards[1].color
    if sum(s.cat.cards[c].number == number for c in p.hand) == 1:
        assert notation.parse(s, ["pl", str(number), "--rew", reward[:3]]) == Play(player="alice", card=card, reward=reward)
    assert notation.parse(s, ["play", card.upper(), f"--reward={reward}"]) == Play(player="alice", card=card, reward=reward)
    # Adopt by a name prefix onto a course slot (1–6) or id, once it is legal.
    s.phase = "dogs"
    s.players[0].cubes = [9, 9, 9, 9, 9]
    dog = s.dog_display[0]
    name_prefix = s.cat.dogs[dog].name.split()[0].lower()
    slot3 = s.courses[2].id
    try:
        chosen = notation.parse(s, ["adopt", name_prefix, "--course", "3"])
    except notation.UsageError:
        chosen = notation.parse(s, ["adopt", dog, "--course", "3"])  # the first word is shared by two breeds
    assert chosen == Adopt(player="alice", dog=dog, course=slot3)
    assert notation.parse(s, ["adopt", dog, slot3.lower()]) == chosen


def test_ambiguous_and_unknown_words_are_usage_errors() -> None:
    s = new_game(42)
    with pytest.raises(notation.UsageError, match="ambiguous"):
        notation.colour("b")
    with pytest.raises(notation.UsageError, match="unknown verb"):
        notation.parse(s, ["jump"])
    with pytest.raises(notation.UsageError, match="no course"):
        notation.course_ref(s, "9")
    with pytest.raises(notation.Refused) as info:
        notation.parse(s, ["advance", "1"])
    assert info.value.legal == rules.legal_moves(s)
    assert not any(isinstance(m, Advance) for m in info.value.legal)


def test_R39_a_play_refused_with_an_empty_hand_never_names_the_decks_top_card() -> None:
    """A player whose hand is empty outside a mini-turn (refilling it after mini-turns, R31) who
    types ``play 4`` is refused without the deck's top card: only a mini-turn plays it (R39).  Found
    by the leak test of two machines (tests/test_secrets.py), which met it in one deal of many."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        s = new_game(seed)
        while s.winner is None and checked < 3:
            p = s.players[s.to_act] if s.to_act is not None else None
            if p is not None and not p.hand and not (s.in_mini and s.phase == "play") and s.deck:
                top = s.deck[0]
                with pytest.raises(notation.Refused) as refused:
                    notation.parse(s, ["play", str(s.cat.cards[top].number)])
                assert top not in str(refused.value) and "in your hand" in str(refused.value), str(refused.value)
                checked += 1
                break
            rules.apply_in_place(s, rng.choice(rules.legal_moves(s)))
    assert checked >= 3, "random games reach an empty hand outside a mini-turn"
