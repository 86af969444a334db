"""The sealed deck's cryptographic core (R42): vectors, a whole deal, and the attacks each check stops.

Attacks tried here, and what catches each (docs/sealed-deck.md):

| attack | caught by |
| --- | --- |
| a shuffle pass that drops or repeats a card | the repeated point, or the sum proof |
| a sum-preserving substitution (a card twice, a made-up point to balance) | the opening of the made-up point: no card |
| a pass or proof replayed from another game or another pass | the proof's context |
| a re-key pass that swaps or replaces a position | the position's proof |
| a published key that is not the one committed to | the commitment check at the opening |
| an opening to a card already seen | the opening's "not seen before" check |
| a face-down claim for a card the slot does not hold, a forged or re-ordered claim | the OR proof |
| a point that is the identity, of small order or not on the curve; a zero or unreduced scalar | the decoding checks |
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agility_cli.engine.components import standard_components
from agility_cli.record.sealed import crypto as sc
from agility_cli.record.sealed.vectors import markdown

ROOT = Path(__file__).resolve().parents[1]
GAME = "ab" * 32
CARDS = [c.id for c in standard_components().cards]
CTX = bytes.fromhex(GAME) + b"cards"


def deal(seed: int = 1) -> dict:
    """The four setup passes of a 39-card deck between alice and bob (section 4), with the secrets."""
    src = sc.SeededSource(seed)
    table = sc.card_points(GAME, "cards", CARDS)
    points = list(table)
    p1, a, perm1 = sc.shuffle_pass(CTX + b"deal-1", points, src)
    p2, b, perm2 = sc.shuffle_pass(CTX + b"deal-2", p1.points, src)
    r3, akeys = sc.rekey_pass(CTX + b"deal-3", p2.points, a, src)
    r4, bkeys = sc.rekey_pass(CTX + b"deal-4", r3.points, b, src)
    order = [CARDS[perm1[perm2[i]]] for i in range(len(CARDS))]
    return dict(src=src, table=table, points=points, p1=p1, p2=p2, r3=r3, r4=r4, a=a, b=b, akeys=akeys, bkeys=bkeys, order=order)


def check_deal(d: dict) -> None:
    sc.check_shuffle(CTX + b"deal-1", d["points"], d["p1"])
    sc.check_shuffle(CTX + b"deal-2", d["p1"].points, d["p2"])
    sc.check_rekey(CTX + b"deal-3", d["p2"].points, d["p1"].key, d["r3"])
    sc.check_rekey(CTX + b"deal-4", d["r3"].points, d["p2"].key, d["r4"])


def test_the_documented_vectors_are_what_the_code_makes() -> None:
    """docs/sealed-deck.md section 10 holds the vectors byte for byte: a second implementation checks
    against them, so an encoding change cannot slip by."""
    doc = (ROOT / "docs" / "sealed-deck.md").read_text(encoding="utf-8")
    assert markdown() in doc


def test_a_whole_deal_opens_to_a_permutation_of_the_cards() -> None:
    """R42: after the four passes, every position opens with both keys to the card the two
    permutations put there, and the deck is the component set's 39 cards, each once."""
    d = deal()
    check_deal(d)
    seen: set[str] = set()
    for i, x in enumerate(d["r4"].points):
        a = sc.check_key(d["akeys"][i], d["r3"].commits[i], "alice's key")
        b = sc.check_key(d["bkeys"][i], d["r4"].commits[i], "bob's key")
        card = sc.open_card(x, [a, b], d["table"], seen, f"position {i}")
        assert card == d["order"][i]
        seen.add(card)
    assert seen == set(CARDS)


def test_one_key_alone_opens_nothing() -> None:
    """R42: a position with one player's key published (a window, a dealt card of the opponent's)
    is no card point to the other: it takes both keys."""
    d = deal()
    for i in range(5):
        assert sc.unlock(d["r4"].points[i], d["bkeys"][i]) not in d["table"]
        assert sc.unlock(d["r4"].points[i], d["akeys"][i]) not in d["table"]


def test_two_deals_are_two_orders() -> None:
    """The order comes from the players' secrets, not from the game: two sources, two decks."""
    assert deal(1)["order"] != deal(2)["order"]


def test_a_pass_that_drops_or_repeats_a_card_is_refused() -> None:
    d = deal()
    p = d["p1"]
    dup = sc.ShufflePass(p.key, [p.points[0], *p.points[:-1]], p.proof)
    with pytest.raises(sc.SealError, match="repeats a point"):
        sc.check_shuffle(CTX + b"deal-1", d["points"], dup)
    short = sc.ShufflePass(p.key, p.points[:-1], p.proof)
    with pytest.raises(sc.SealError, match="38 points for 39"):
        sc.check_shuffle(CTX + b"deal-1", d["points"], short)
    swapped = sc.ShufflePass(p.key, [d["points"][0], *p.points[1:]], p.proof)  # one card left unlocked
    with pytest.raises(sc.SealError, match="proof does not check"):
        sc.check_shuffle(CTX + b"deal-1", d["points"], swapped)


def test_a_sum_preserving_substitution_is_caught_at_its_opening() -> None:
    """Under one key a duplicated card is a repeated point, so the only cheat the sum proof lets
    through is a made-up point that balances the sum: its position opens to no card (caught at
    that opening or at the audit)."""
    src = sc.SeededSource(7)
    table = sc.card_points(GAME, "cards", CARDS)
    points = list(table)
    k = src.scalar()
    out = [sc.mul(k, p) for p in points]
    duplicated = [out[0], out[0], *out[2:]]  # card t02 replaced by t01 ...
    balance = sc.sub(sc.add(out[1], out[2]), sc.mul(k, sc.card_point(GAME, "cards", "t40")))
    made_up = [out[0], balance, sc.mul(k, sc.card_point(GAME, "cards", "t40")), *out[3:]]
    for forged in (duplicated, made_up):
        st = sc.Statement(sc.BASE, sc.mul_base(k), sc.point_sum(points), sc.point_sum(forged))
        proof = sc.prove_equal(CTX + b"deal-1", st, k, src)
        bad = sc.ShufflePass(st.a, forged, proof)
        if forged is duplicated:  # ... shows at once; its sum does not check either
            with pytest.raises(sc.SealError, match="repeats a point"):
                sc.check_shuffle(CTX + b"deal-1", points, bad)
            assert not sc.verify_equal(CTX + b"deal-1", sc.Statement(sc.BASE, st.a, sc.point_sum(points), st.b), proof)
        else:  # the sum checks (the cheat is well made) ...
            sc.check_shuffle(CTX + b"deal-1", points, bad)
    # ... and both of its points open to no card of the set.
    for i in (1, 2):
        with pytest.raises(sc.SealError, match="opens to no card"):
            sc.open_card(made_up[i], [k], table, set(), f"position {i}")
    with pytest.raises(sc.SealError, match="already seen"):
        sc.open_card(out[0], [k], table, {"t01"}, "position 1")


def test_a_pass_from_another_game_or_another_pass_does_not_check() -> None:
    """A replayed pass: its proof's context names the game id, the pile and the pass."""
    d = deal()
    other_game = bytes.fromhex("cd" * 32) + b"cards"
    with pytest.raises(sc.SealError, match="proof does not check"):
        sc.check_shuffle(other_game + b"deal-1", d["points"], d["p1"])
    with pytest.raises(sc.SealError, match="proof does not check"):
        sc.check_shuffle(CTX + b"reshuffle-1", d["points"], d["p1"])
    with pytest.raises(sc.SealError, match="position 0"):
        sc.check_rekey(other_game + b"deal-3", d["p2"].points, d["p1"].key, d["r3"])


def test_a_rekey_pass_that_moves_or_replaces_a_position_is_refused() -> None:
    d = deal()
    r = d["r3"]
    moved = sc.RekeyPass([r.points[1], r.points[0], *r.points[2:]], r.commits, r.proofs)
    with pytest.raises(sc.SealError, match="position 0"):
        sc.check_rekey(CTX + b"deal-3", d["p2"].points, d["p1"].key, moved)
    replaced = sc.RekeyPass([*r.points[:5], d["points"][5], *r.points[6:]], r.commits, r.proofs)
    with pytest.raises(sc.SealError, match="position 5"):
        sc.check_rekey(CTX + b"deal-3", d["p2"].points, d["p1"].key, replaced)
    wrong_key = sc.RekeyPass(r.points, r.commits, r.proofs)
    with pytest.raises(sc.SealError, match="position 0"):  # checked against bob's global key
        sc.check_rekey(CTX + b"deal-3", d["p2"].points, d["p2"].key, wrong_key)


def test_a_key_that_is_not_the_committed_one_is_refused() -> None:
    d = deal()
    with pytest.raises(sc.SealError, match="not the key committed"):
        sc.check_key(d["akeys"][1], d["r3"].commits[0], "alice's key for position 0")
    with pytest.raises(sc.SealError, match="canonical non-zero"):
        sc.check_key(sc.ZERO, d["r3"].commits[0], "alice's key for position 0")


def test_a_face_down_claim_proves_number_and_reward_without_naming_the_card() -> None:
    """R31/R42: the OR proof holds for the candidates that include the slot's card, fails for
    candidates that do not, and fails when copied to another context or re-ordered."""
    d = deal()
    slot = 0
    holder = sc.unlock(d["r4"].points[slot], d["bkeys"][slot])  # alice's slot, bob's key published
    card = d["order"][slot]
    others = [c for c in CARDS if c != card][:3]
    candidates = [sc.card_point(GAME, "cards", c) for c in [others[0], card, others[1]]]
    sts = sc.face_down_statements(d["r3"].commits[slot], holder, candidates)
    proof = sc.prove_one_of(CTX + b"claim", sts, 1, d["akeys"][slot], d["src"])
    assert sc.verify_one_of(CTX + b"claim", sts, proof)
    assert not sc.verify_one_of(CTX + b"claim-other", sts, proof)
    assert not sc.verify_one_of(CTX + b"claim", list(reversed(sts)), proof)
    # A claim over cards the slot does not hold: the prover's "true" branch is false, so it fails.
    lying = sc.face_down_statements(d["r3"].commits[slot], holder, [sc.card_point(GAME, "cards", c) for c in others])
    fake = sc.prove_one_of(CTX + b"claim", lying, 0, d["akeys"][slot], d["src"])
    assert not sc.verify_one_of(CTX + b"claim", lying, fake)
    assert not sc.verify_one_of(CTX + b"claim", sts, bytes(len(proof)))
    assert not sc.verify_one_of(CTX + b"claim", sts, proof[:-1])


def test_bad_points_and_scalars_are_refused_when_read() -> None:
    identity = (1).to_bytes(32, "little")
    small_order = bytes(32)  # the point (0, -1)... encoded as 0: of small order
    not_on_curve = bytes([2] + [0] * 30 + [0x80])
    for bad in (identity, small_order, not_on_curve, b"\x01" * 31):
        with pytest.raises(sc.SealError, match="not a valid point"):
            sc.check_point(bad, "a point")
    unreduced = (2**255 - 20).to_bytes(32, "little")
    for bad in (sc.ZERO, unreduced, b"\x01" * 31):
        with pytest.raises(sc.SealError, match="canonical non-zero"):
            sc.check_scalar(bad, "a key")
    good = [sc.card_point(GAME, "cards", "t01"), sc.card_point(GAME, "cards", "t02")]
    text = sc.pack(good)
    assert sc.unpack_points(text, "pass", 2) == good
    for bad_text, message in [
        (text + "A", "whole number"),
        (text[:-1] + "!", "base64url"),
        (text + "==", "base64url|whole"),
        (text.replace("A", "+", 1) if "A" in text else text + "+", "base64url|whole"),
        ("é", "base64url"),
    ]:
        with pytest.raises(sc.SealError, match=message):
            sc.unpack_points(bad_text, "pass", 2)
    with pytest.raises(sc.SealError, match="holds 2 items, not 3"):
        sc.unpack_points(text, "pass", 3)
    with pytest.raises(sc.SealError, match=r"pass\[0\] is not a valid point"):
        sc.unpack_points(sc.pack([identity, good[0]]), "pass")


def test_card_points_refuse_repeated_ids_and_depend_on_the_game() -> None:
    with pytest.raises(sc.SealError, match="same point"):
        sc.card_points(GAME, "cards", ["t01", "t01"])
    assert sc.card_point(GAME, "cards", "t01") != sc.card_point("cd" * 32, "cards", "t01")
    assert sc.card_point(GAME, "cards", "t01") != sc.card_point(GAME, "dogs", "t01")


def test_the_system_source_gives_fresh_keys() -> None:
    """Real games draw from the operating system: two draws differ, and each is a valid key."""
    src = sc.SystemSource()
    a, b = src.scalar(), src.scalar()
    assert a != b
    assert sc.check_scalar(a, "key") == a
    assert sorted(src.permutation(10)) == list(range(10))


def test_R42_the_generator_is_libsodiums_base_point_and_libsodium_loads_at_the_first_operation() -> None:
    """``BASE`` is written out (no group operation at import: a read from the checkpoint needs none)
    and must be libsodium's Ed25519 base point, 1·G."""
    import subprocess
    import sys

    from nacl import bindings

    assert sc.BASE == bindings.crypto_scalarmult_ed25519_base_noclamp(sc.ONE)
    probe = ("import sys; from agility_cli.record.sealed import crypto as sc; a = 'nacl.bindings' in sys.modules; "
             "sc.mul_base(sc.ONE); print(a, 'nacl.bindings' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
