"""R11: the game's own PRNG, pinned by golden vectors.

Covers :mod:`agility_cli.engine.rng` — SplitMix64 (checked against the published reference outputs for
state 0), the SHA-256 stream seeds, ``below`` (range, rejection sampling, uniformity), ``shuffle``
(a permutation, Fisher–Yates from the end) and ``sample`` — and the randomness of setup (R10):
deck order, hands, displays, dog deck, courses, random boards (R9) and the random start player for
fixed seeds.  Every literal here was computed once and is now fixed forever for rules version 1:
a change to any of them breaks every game file ever written.  Also checks that no game randomness
comes from Python's :mod:`random` module.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import random
from collections import Counter

import pytest

from agility_cli.engine import rng as rng_module
from agility_cli.engine import rules
from agility_cli.engine.moves import Done, Play, Take
from agility_cli.engine.rng import GOLDEN_GAMMA, MASK64, Rng, next_u64, stream_seed
from agility_cli.engine.state import digest

from builders import new_game

# --- the generator ---------------------------------------------------------------------------------


def test_r11_splitmix64_matches_published_reference_from_state_zero() -> None:
    # The reference SplitMix64 (Vigna's splitmix64.c) seeded with 0 outputs these three values.
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert r.state == (3 * GOLDEN_GAMMA) & MASK64


def test_r11_next_u64_function_is_pure_and_returns_new_state_and_output() -> None:
    assert next_u64(0) == (GOLDEN_GAMMA, 0xE220A8397B1DCDAF)
    assert next_u64(0) == next_u64(0)
    # The state wraps modulo 2**64.
    state, _ = next_u64(MASK64)
    assert state == (MASK64 + GOLDEN_GAMMA) & MASK64


def test_r11_rng_masks_its_initial_state_to_64_bits() -> None:
    assert Rng(1 << 64).state == 0
    assert Rng(-1).state == MASK64


@pytest.mark.parametrize(
    ("seed", "purpose", "expected"),
    [
        (1, "game", 0x13EED0E439DC7EF8),
        (0, "board", 0x6283E4F637A0DB13),
        (42, "first", 0xBE296E36F1A078AF),
        (2**40, "game", 0x60945C87C7D29073),
        (7, "game", 0x6CFDAE8F5DD188AB),
    ],
)
def test_r11_stream_seed_golden(seed: int, purpose: str, expected: int) -> None:
    assert stream_seed(seed, purpose) == expected
    # ... and it is exactly the documented derivation: SHA-256("agility:{seed}:{purpose}")[:8], big-endian.
    own = int.from_bytes(hashlib.sha256(f"agility:{seed}:{purpose}".encode()).digest()[:8], "big")
    assert own == expected
    assert Rng.for_purpose(seed, purpose).state == expected


def test_r11_streams_of_different_purposes_or_seeds_differ() -> None:
    seeds = {stream_seed(s, p) for s in range(20) for p in ("game", "board", "first")}
    assert len(seeds) == 60


@pytest.mark.parametrize(
    ("seed", "purpose", "outputs", "state_after"),
    [
        (1, "game", [0x1D568FD1F68B67DD, 0x7F60E03B29874894, 0x3E1CCB66EC1CC6F6], 0xEE953E10B7BBF337),
        (0, "board", [0x086AA29CC31B0BFF, 0x89D3CCF7CE5FEE37, 0x4682E7EA37483269], 0x3D2A5222B5804F52),
        (42, "first", [0xA12A9697C2A4CCE5, 0x5954F1AE364DDA0A, 0x39FEC7234B8FF1CE], 0x98CFDB636F7FECEE),
    ],
)
def test_r11_first_outputs_golden(seed: int, purpose: str, outputs: list[int], state_after: int) -> None:
    r = Rng.for_purpose(seed, purpose)
    assert [r.next_u64() for _ in range(3)] == outputs
    assert r.state == state_after


# --- below -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "purpose", "tens", "sixes"),
    [
        (1, "game", [1, 2, 8, 4, 4, 5, 7, 7, 5, 8], [2, 4, 2, 2, 3]),
        (0, "board", [5, 3, 7, 0, 1, 9, 0, 6, 2, 5], [0, 3, 2, 1, 3]),
        (42, "first", [5, 2, 0, 3, 1, 3, 2, 6, 6, 5], [5, 1, 5, 0, 1]),
    ],
)
def test_r11_below_golden(seed: int, purpose: str, tens: list[int], sixes: list[int]) -> None:
    r = Rng.for_purpose(seed, purpose)
    assert [r.below(10) for _ in range(10)] == tens
    assert [r.below(6) for _ in range(5)] == sixes


def test_r11_below_rejects_outputs_above_the_largest_multiple() -> None:
    # For n = 3·2**62 the limit is n itself; Rng(0)'s first output 0xE220… is ≥ n and is rejected,
    # so below() returns the second output (which is < n) and has consumed two steps.
    n = 3 << 62
    r = Rng(0)
    assert r.below(n) == 0x6E789E6AA1B965F4
    assert r.state == (2 * GOLDEN_GAMMA) & MASK64


def test_r11_below_with_no_rejection_is_output_mod_n() -> None:
    r = Rng(0)
    assert r.below(1000) == 0xE220A8397B1DCDAF % 1000
    assert r.state == GOLDEN_GAMMA


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 10, 39, 1000, 2**63 + 1])
def test_r11_below_stays_in_range(n: int) -> None:
    r = Rng.for_purpose(5, "range")
    values = [r.below(n) for _ in range(2000)]
    assert all(0 <= v < n for v in values)
    if n == 1:
        assert set(values) == {0}


@pytest.mark.parametrize("n", [0, -1])
def test_r11_below_refuses_a_non_positive_bound(n: int) -> None:
    with pytest.raises(ValueError):
        Rng(0).below(n)


@pytest.mark.parametrize(("n", "draws"), [(2, 40_000), (6, 60_000), (10, 100_000)])
def test_r11_below_is_roughly_uniform(n: int, draws: int) -> None:
    r = Rng.for_purpose(123, "uniformity")
    counts = Counter(r.below(n) for _ in range(draws))
    expected = draws / n
    assert sorted(counts) == list(range(n))
    for k in range(n):
        # Standard deviation is below 100 for every case; 5% is far outside chance but catches bias.
        assert abs(counts[k] - expected) < 0.05 * expected, (k, counts[k], expected)
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert chi2 < 40  # df ≤ 9: p < 1e-5 beyond this


# --- shuffle and sample ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "purpose", "order", "state_after"),
    [
        (1, "game", [2, 3, 4, 7, 8, 0, 9, 6, 5, 1], 0xA3E21869B37ADBB5),
        (0, "board", [7, 9, 2, 0, 6, 3, 8, 1, 4, 5], 0xF2772C7BB13F37D0),
        (42, "first", [1, 7, 2, 0, 8, 3, 4, 6, 9, 5], 0x4E1CB5BC6B3ED56C),
        (7, "game", [9, 5, 2, 6, 0, 7, 1, 4, 8, 3], 0xFCF0F614D76FE568),
    ],
)
def test_r11_shuffle_of_range_10_golden(seed: int, purpose: str, order: list[int], state_after: int) -> None:
    r = Rng.for_purpose(seed, purpose)
    items = list(range(10))
    r.shuffle(items)
    assert items == order
    assert r.state == state_after


def test_r11_shuffle_is_fisher_yates_from_the_end() -> None:
    # An independent re-implementation of the documented algorithm gives the same order.
    r1, r2 = Rng.for_purpose(9, "fy"), Rng.for_purpose(9, "fy")
    items = list("abcdefghijklmnopqrstuvwxyz")
    expected = items[:]
    for i in range(len(expected) - 1, 0, -1):
        j = r2.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    r1.shuffle(items)
    assert items == expected
    assert r1.state == r2.state


def test_r11_shuffle_is_a_permutation() -> None:
    for seed in range(200):
        r = Rng.for_purpose(seed, "perm")
        items = list(range(39))
        r.shuffle(items)
        assert sorted(items) == list(range(39))


def test_r11_shuffle_moves_items_and_every_position_is_reached() -> None:
    firsts = Counter()
    unchanged = 0
    for seed in range(500):
        items = list(range(10))
        Rng.for_purpose(seed, "spread").shuffle(items)
        firsts[items[0]] += 1
        unchanged += items == list(range(10))
    assert set(firsts) == set(range(10))
    assert unchanged == 0


@pytest.mark.parametrize("items", [[], ["only"]])
def test_r11_shuffle_of_zero_or_one_item_draws_nothing(items: list[str]) -> None:
    r = Rng(12345)
    copy = items[:]
    r.shuffle(copy)
    assert copy == items
    assert r.state == 12345


def test_r11_sample_is_the_first_k_of_a_shuffled_copy() -> None:
    items = list(range(10))
    assert Rng.for_purpose(1, "game").sample(items, 3) == [2, 3, 4]
    assert items == list(range(10))  # the original is untouched


# --- setup draws only on the seed (R10, R11) -----------------------------------------------------

GOLDEN_RESHUFFLE_TOP = ["t29", "t27", "t19", "t08"]

SEED1_DECK = [
    "t38", "t08", "t36", "t14", "t29", "t26", "t12", "t21", "t22", "t27",
    "t31", "t01", "t23", "t30", "t09", "t28", "t35", "t34", "t17", "t24",
    "t19", "t37", "t33", "t16", "t18", "t15", "t13", "t39", "t03", "t10",
]  # fmt: skip


def test_r11_setup_seed_1_golden() -> None:
    s = new_game(1)
    assert s.players[0].hand == ["t05", "t04", "t20"]
    assert s.players[1].hand == ["t25", "t32", "t07"]
    assert s.display == ["t02", "t11", "t06"]
    assert s.deck == SEED1_DECK
    assert s.discard == []
    assert s.dog_display == ["golden-retriever", "border-collie", "shetland-sheepdog", "dutch-shepherd", "australian-shepherd"]
    assert s.dog_deck == [
        "standard-poodle", "labrador-retriever", "whippet", "mighty-mutt", "pembroke-welsh-corgi",
        "siberian-husky", "jack-russell-terrier", "german-shepherd", "papillon", "belgian-malinois",
    ]  # fmt: skip
    assert [c.id for c in s.courses] == ["2A", "4B", "6A", "7B", "3A", "1A"]
    assert s.rng == 0x4004B8FD8BC6004D


def test_r11_setup_seed_7_golden() -> None:
    s = new_game(7)
    assert s.players[0].hand == ["t20", "t17", "t14"]
    assert s.players[1].hand == ["t36", "t28", "t34"]
    assert s.display == ["t33", "t07", "t30"]
    assert s.deck[:5] == ["t31", "t32", "t02", "t04", "t11"]
    assert s.dog_display == ["papillon", "labrador-retriever", "siberian-husky", "mighty-mutt", "jack-russell-terrier"]
    assert [c.id for c in s.courses] == ["2B", "5B", "3A", "1B", "7B", "6B"]
    assert s.rng == 0x991396A8AFBB0A00


def test_r11_r13_setup_seed_251_golden_redraws_the_display_twice() -> None:
    # Seed 251 turns up three cards numbered 7+ twice in a row; both sets are discarded (R13).
    s = new_game(251)
    assert s.discard == ["t39", "t38", "t30", "t32", "t28", "t36"]
    assert s.display == ["t06", "t08", "t25"]
    assert s.deck[:3] == ["t13", "t17", "t27"]


def test_r11_setup_does_not_depend_on_board_or_start_player() -> None:
    # The deck order comes from the seed alone, so a game's deck is the same whatever the layout.
    plain = new_game(1)
    other = new_game(1, board=rules.random_board(1, "b"), first="bob")
    assert other.deck == plain.deck
    assert [c.id for c in other.courses] == [c.id for c in plain.courses]


def test_r11_same_seed_same_state_different_seed_different_state() -> None:
    assert digest(new_game(3)) == digest(new_game(3))
    assert digest(new_game(3)) != digest(new_game(4))


@pytest.mark.parametrize(
    ("seed", "variant", "board"),
    [
        (1, "a", ("sweep", "exchange", "clear_hurdles", "clear_a_frames", "clear_tunnels", "rush",
                  "clear_weave_poles", "boost", "inspiration", "flex")),
        (1, "b", ("sweep", "clear_tunnels", "flex", "slip", "exchange", "clear_hurdles",
                  "clear_weave_poles", "rush", "inspiration", "boost")),
        (3, "a", ("sweep", "inspiration", "clear_hurdles", "clear_a_frames", "distraction",
                  "clear_tunnels", "clear_weave_poles", "slip", "exchange", "flex")),
        (3, "b", ("sweep", "clear_weave_poles", "flex", "clear_tunnels", "clear_hurdles", "exchange",
                  "distraction", "break", "intimidation", "slip")),
    ],
)  # fmt: skip
def test_r11_r9_random_board_golden(seed: int, variant: str, board: tuple[str, ...]) -> None:
    assert rules.random_board(seed, variant) == board


def test_r11_r10_random_first_golden() -> None:
    firsts = [rules.random_first(k, ("alice", "bob")) for k in range(10)]
    assert firsts == ["alice", "alice", "bob", "bob", "alice", "bob", "bob", "bob", "bob", "alice"]


def test_r11_r13_reshuffle_uses_the_rng_kept_in_the_state() -> None:
    # The deck runs out: the discard pile is shuffled with the state's own stream, reproducibly.
    s = new_game(1)
    s.discard, s.deck = s.deck, []
    rules.apply_in_place(s, Play(player="alice", card="t05", reward="red"))  # 1 → Clear Hurdles: no dog
    assert s.phase == "dogs"
    rules.apply_in_place(s, Done(player="alice"))
    assert s.phase == "refill"
    pile = s.discard[:]
    assert len(pile) == 31 and pile[-1] == "t05"
    before = s.rng
    rng = Rng(before)
    expected = pile[:]
    rng.shuffle(expected)
    rules.apply_in_place(s, Take(player="alice", card="t02"))
    assert s.discard == []
    assert s.display == ["t11", "t06", expected[0]]
    assert s.deck == expected[1:]
    assert s.rng == rng.state != before
    # Golden: the rebuilt deck's first cards for seed 1.
    assert expected[:4] == GOLDEN_RESHUFFLE_TOP


# --- no Python random ------------------------------------------------------------------------------


def _imported_modules(module: object) -> set[str]:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_r11_rng_module_does_not_import_random() -> None:
    imported = _imported_modules(rng_module)
    assert "random" not in imported
    assert imported <= {"__future__", "hashlib", "typing"}  # stdlib only, no hidden generator
    assert "random" not in vars(rng_module)


def test_r11_rules_module_does_not_import_random() -> None:
    assert "random" not in _imported_modules(rules)


def test_r11_setup_and_play_never_call_python_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("Python's random module was used for game randomness")

    for name in ("random", "shuffle", "randrange", "randint", "choice", "sample", "getrandbits", "seed"):
        monkeypatch.setattr(random, name, boom)
    monkeypatch.setattr(random.Random, "shuffle", boom)
    s = new_game(11, board=rules.random_board(11, "b"), first=rules.random_first(11, ("alice", "bob")))
    for _ in range(60):  # a few turns of first-legal-move play, reshuffles included
        moves = rules.legal_moves(s)
        if not moves:
            break
        rules.apply_in_place(s, moves[0])
