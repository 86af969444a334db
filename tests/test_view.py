"""R39: each seat sees only what it may know; bots decide from their seat's view only.

* A property over random games under both rules versions (R38): at every state, for each seat, the
  seat's view (and its STATE JSON, as ``show --json`` prints it) holds none of the opponent's
  private cards, no face-down card of the opponent, no deck order and no PRNG state — and it does
  hold everything public: own hand, display, the opponent's publicly known cards, sizes.
* The bot-information test: for every strategy, two states that differ only in what the acting
  seat cannot know (deck order, the opponent's unknown cards, face-down discards, the PRNG) give
  the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec
import pytest

from agility_cli.players import bots, search
from agility_cli.engine import rules
from agility_cli.engine.moves import Play, PutBack
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import State, canonical, public_state
from agility_cli.engine.view import HIDDEN, determinize, hidden_cards, move_view, seat_view
import builders
from builders import board_with, new_game

BOARDS = (rules.RECOMMENDED_BOARD, board_with(s5="intimidation"), board_with(s1="intimidation", s9="slip"))


def private_to(s: State, seat: int) -> set[str]:
    """The card ids ``seat`` may not know (R39), computed from the full state independently."""
    opp = 1 - seat
    secret = set(s.players[opp].hand) - set(s.known[opp])
    secret |= set(s.deck)
    secret |= set(s.unseen[seat])
    if s.card is not None and not (s.in_mini and s.active == opp):
        # played face up, so known to all, even if a reshuffle at once (R13) took it into the deck
        secret.discard(s.card)
    return secret


def card_ids_in(obj: object, ids: set[str]) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            found |= card_ids_in(v, ids)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_ids_in(v, ids)
    elif isinstance(obj, str) and obj in ids:
        found.add(obj)
    return found


def random_states(version: int, games: int, seed0: int = 0) -> Iterator[tuple[int, State]]:
    return builders.random_states(version, games, BOARDS, seed0=seed0)


@pytest.mark.parametrize("version", [1, 2])
def test_r39_a_seat_view_holds_no_private_card_of_the_opponent_and_no_deck_order(version: int) -> None:
    all_ids = set(new_game().cat.cards)
    checked = 0
    for seed, s in random_states(version, 25):
        for seat in (0, 1):
            v = seat_view(s, seat)
            secret = private_to(s, seat)
            shown = {c for c in v.deck + v.discard + v.display + v.players[0].hand + v.players[1].hand if c != HIDDEN}
            assert not shown & secret, f"seed {seed}: seat {seat} sees {shown & secret}"
            assert v.players[seat].hand == s.players[seat].hand  # own hand, complete
            assert v.display == s.display and len(v.deck) == len(s.deck) and v.rng == 0
            assert len(v.players[1 - seat].hand) == len(s.players[1 - seat].hand)
            state_json = msgspec.json.decode(msgspec.json.encode(public_state(v)))
            assert not state_json.get("deck"), "no deck order in a seat's view"
            assert not card_ids_in(state_json, all_ids) & secret, f"seed {seed}: JSON shows a private card"
            assert state_json["players"][1 - seat]["hand_count"] == len(s.players[1 - seat].hand)
            # the cards the opponent was seen to take stay visible while they are held
            assert {c["id"] for c in state_json["players"][1 - seat]["hand"]} == set(s.known[1 - seat]) & set(
                s.players[1 - seat].hand
            )
            checked += 1
    assert checked > 1000


def test_r39_a_card_taken_face_up_is_known_until_a_card_leaves_that_hand_face_down() -> None:
    s = new_game(3, version=2)
    s.phase = "refill"
    card = s.display[0]
    s.players[0].hand.pop()
    rules.apply_in_place(s, rules.legal_moves(s)[[m.card for m in rules.legal_moves(s)].index(card)])  # type: ignore[attr-defined]
    assert card in seat_view(s, 1).players[0].hand  # bob saw alice take it
    # alice later puts a card back face down (Break): bob no longer knows which cards remain
    s.active, s.phase, s.pending, s.put_back = 0, "put_back", 1, 1
    rules.apply_in_place(s, PutBack(player="alice", card=s.players[0].hand[0]))
    assert seat_view(s, 1).players[0].hand.count(HIDDEN) == len(s.players[0].hand)


def test_r39_after_the_end_every_view_is_complete() -> None:
    *_, (seed, s) = random_states(2, 1)
    s = s.copy()
    while s.winner is None:
        rules.apply_in_place(s, rules.legal_moves(s)[0])
    for seat in (0, 1):
        assert canonical(seat_view(s, seat)) == canonical(s)
        assert "deck" in public_state(seat_view(s, seat))


def test_r39_face_down_moves_of_the_opponent_are_shown_without_their_card() -> None:
    s = new_game(5, version=2)
    put_back = PutBack(player="bob", card=s.players[1].hand[0])
    assert move_view(s, put_back, 0) == PutBack(player="bob", card=HIDDEN)
    assert move_view(s, put_back, 1) == put_back  # one's own decision, complete
    s.in_mini = True
    play = Play(player="bob", card=s.players[1].hand[0], reward=None)
    assert move_view(s, play, 0).card == HIDDEN  # type: ignore[attr-defined]


def shuffled_secrets(s: State, seat: int, rng: random.Random) -> State:
    """``s`` with everything ``seat`` cannot know rearranged: the same view, another truth."""
    t = s.copy()
    opp = 1 - seat
    known = [c for c in s.known[opp] if c in s.players[opp].hand]
    slots_hand = [i for i, c in enumerate(s.players[opp].hand) if c not in known]
    slots_discard = [i for i, c in enumerate(s.discard) if c in set(s.unseen[seat])]
    pool = [s.players[opp].hand[i] for i in slots_hand] + s.deck + [s.discard[i] for i in slots_discard]
    rng.shuffle(pool)
    it = iter(pool)
    for i in slots_hand:
        t.players[opp].hand[i] = next(it)
    t.deck = [next(it) for _ in s.deck]
    mapping = {}
    for i in slots_discard:
        mapping[s.discard[i]] = t.discard[i] = next(it)
    t.unseen[seat] = [mapping.get(c, c) for c in s.unseen[seat]]
    if t.card in mapping:
        t.card = mapping[t.card]
    t.dog_deck = s.dog_deck[::-1]
    t.rng = s.rng ^ 0x5DEECE66D
    return t


# The search levels differ only in budget: ``strong`` stands for them all, at a small budget.
@pytest.mark.parametrize("strategy", sorted(s for s in bots.STRATEGIES if s == "strong" or s not in search.LEVELS))
@pytest.mark.parametrize("version", [1, 2])
def test_r39_bots_decide_the_same_on_states_that_differ_only_in_what_their_seat_cannot_know(
    strategy: str, version: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(search.LEVELS, "strong", search.Budget(sims=2))
    monkeypatch.setattr(search, "SETTINGS", search.Settings(horizon=1))
    shuffler = random.Random(7)
    compared = differing_truths = 0
    for n, (seed, s) in enumerate(random_states(version, 12, seed0=100)):
        if n % 3:
            continue
        seat = s.to_act
        assert seat is not None
        t = shuffled_secrets(s, seat, shuffler)
        assert canonical(seat_view(t, seat)) == canonical(seat_view(s, seat))
        differing_truths += canonical(t) != canonical(s)
        a = bots.choose(strategy, s, Rng.for_purpose(seed, f"bot:{n}"))
        b = bots.choose(strategy, t, Rng.for_purpose(seed, f"bot:{n}"))
        if isinstance(a, Play) and a.card not in s.players[seat].hand:  # R31: the unknown deck-top card
            assert (a.reward, a.flex) == (b.reward, b.flex)  # type: ignore[attr-defined]
        else:
            assert a == b, f"seed {seed}, decision {n}: {a} vs {b}"
        compared += 1
    assert compared > 300 and differing_truths > compared // 2


def test_r39_determinize_fills_every_blank_with_an_unseen_card_and_keeps_what_is_known() -> None:
    for seed, s in random_states(2, 3):
        seat = s.to_act
        assert seat is not None
        v = seat_view(s, seat)
        d = determinize(v, Rng(seed))
        assert sorted(d.deck + d.discard + d.display + d.players[0].hand + d.players[1].hand) == sorted(s.cat.cards)
        assert d.players[seat].hand == s.players[seat].hand and d.display == s.display
        assert len(hidden_cards(v)) == sum(c == HIDDEN for c in v.deck + v.discard + v.players[1 - seat].hand)
        assert [type(m) for m in rules.legal_moves(d)] == [type(m) for m in rules.legal_moves(s)]
