"""R42 (format 4): the shuffle proof that binds every output of a permutation pass
(``record/sealed/shuffle.py``, docs/sealed-deck.md section 3 "Shuffle proof (format 4)").

An honest pass always checks; a pass whose outputs are not its inputs permuted and locked by its
key never does — one output changed, two moved by +D and −D (the sum kept, what the format-3 sum
proof let through), an output duplicated, a proof taken from another pass or another context —
whether the proof is left as it was or made again by a modified client's prover from the witness
it has.  Also: the test vectors of section 10, every received point and scalar checked, the
nonces drawn over the statement, and the time budget of a 39-card pass.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agility_cli.record.sealed import crypto as sc
from agility_cli.record.sealed import shuffle as sh
from agility_cli.record.sealed.crypto import SealError
from agility_cli.record.sealed.deck import DerivedSource
from agility_cli.record.sealed.vectors import markdown, shuffle_vectors

ROOT = Path(__file__).resolve().parent.parent
CTX = bytes(32) + b"\0cards\0deal-1"
L = 2**252 + 27742317777372353535851937790883648493  # the group order, for a non-canonical scalar only


def pile(n: int, tag: str = "t") -> list[bytes]:
    return [sc.card_point("00" * 32, "cards", f"{tag}{i:02d}") for i in range(n)]


def honest(n: int, seed: int, ctx: bytes = CTX) -> tuple[list[bytes], bytes, bytes, list[int], list[bytes], bytes]:
    """A pass over ``n`` card points: (inputs, k, K, perm, outputs, proof)."""
    src = sc.SeededSource(seed, "shuffle proof test", statement_nonces=True)
    inputs = pile(n)
    k, perm = src.scalar(), src.permutation(n)
    outputs, proof = sh.prove_shuffle(ctx, inputs, k, perm, src)
    return inputs, k, sc.mul_base(k), perm, outputs, proof


@pytest.mark.parametrize("n", [1, 2, 3, 8, 15, 39])
def test_R42_an_honest_shuffle_proof_verifies_at_every_size_the_game_meets(n: int) -> None:
    inputs, k, big_k, perm, outputs, proof = honest(n, n)
    assert outputs == [sc.mul(k, inputs[j]) for j in perm]
    assert len(proof) == sh.proof_bytes(n) == 32 * (4 * n + 5)
    assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof)
    # and the pass as the game writes and checks it
    p, key, order = sh.shuffle_pass(CTX, inputs, sc.SeededSource(n, statement_nonces=True), binding=True)
    sh.check_shuffle(CTX, inputs, p, binding=True)
    assert p.points == [sc.mul(key, inputs[j]) for j in order]


def _d() -> bytes:
    return sc.hash_point(b"a point of nobody's choosing, D")


def test_R42_the_sum_proof_of_format_3_lets_a_plus_minus_d_pass_through_and_the_binding_proof_does_not() -> None:
    """The issue's flaw, shown, then closed: two outputs moved by +D and −D keep the sum, so the
    format-3 pass still checks; the format-4 pass is refused, the proof kept or made again."""
    inputs = pile(39)
    src = sc.SeededSource(3, statement_nonces=True)
    old, _, _ = sc.shuffle_pass(CTX, inputs, src)
    moved = list(old.points)
    moved[4], moved[20] = sc.add(moved[4], _d()), sc.sub(moved[20], _d())
    sc.check_shuffle(CTX, inputs, sc.ShufflePass(old.key, moved, old.proof))  # format 3: accepted

    _, k, big_k, perm, outputs, proof = honest(39, 3)
    moved = list(outputs)
    moved[4], moved[20] = sc.add(moved[4], _d()), sc.sub(moved[20], _d())
    assert not sh.verify_shuffle(CTX, inputs, big_k, moved, proof)
    assert not sh.verify_shuffle(CTX, inputs, big_k, moved, sh._prove(CTX, inputs, moved, k, perm, src))
    with pytest.raises(SealError, match="not its input permuted"):
        sh.check_shuffle(CTX, inputs, sc.ShufflePass(big_k, moved, proof), binding=True)


def test_R42_a_tagged_pass_that_keeps_the_sum_is_refused() -> None:
    """The issue's first attack: three outputs replaced by combinations of others that keep the sum
    (Out_a + Out_b − Out_c …), so that the creator can follow them; the binding proof refuses it."""
    inputs, k, big_k, perm, outputs, proof = honest(39, 11)
    tagged = list(outputs)
    d = sc.sub(sc.add(outputs[5], outputs[6]), outputs[7])  # a tag: a combination the writer can find again
    delta = sc.sub(d, outputs[0])
    tagged[0], tagged[1] = d, sc.sub(outputs[1], delta)
    assert sc.point_sum(tagged) == sc.point_sum(outputs)
    src = sc.SeededSource(11, statement_nonces=True)
    for forged in (proof, sh._prove(CTX, inputs, tagged, k, perm, src)):
        assert not sh.verify_shuffle(CTX, inputs, big_k, tagged, forged)


def test_R42_received_points_and_scalars_are_checked() -> None:
    inputs, _, big_k, _, outputs, proof = honest(3, 5)
    n = 3
    items = [proof[i : i + 32] for i in range(0, len(proof), 32)]

    def with_item(i: int, value: bytes) -> bytes:
        return b"".join(items[:i] + [value] + items[i + 1 :])

    identity = (1).to_bytes(32, "little")  # the identity point's encoding: refused
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, with_item(0, identity))  # a commitment
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, with_item(n, bytes(32)))  # a chain point
    e = int.from_bytes(items[2 * n], "little")
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, with_item(2 * n, (e + L).to_bytes(32, "little")))
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, with_item(3 * n + 5, bytes(32)))  # a zero response
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, proof[:-32])
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, proof + bytes(32))
    assert not sh.verify_shuffle(CTX, inputs, identity, outputs, proof)
    assert not sh.verify_shuffle(CTX, inputs, big_k, outputs[:2], proof)
    assert not sh.verify_shuffle(CTX, inputs, sc.mul_base(sc.ONE), outputs, proof)  # another key
    assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof)


MUTATIONS = ("one output", "plus minus D", "duplicate", "another pass", "another context", "swapped outputs")


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10), seed=st.integers(0, 2**32), which=st.integers(0, 10**6), kind=st.sampled_from(MUTATIONS))
def test_R42_property_an_honest_pass_always_verifies_and_a_changed_one_never(n: int, seed: int, which: int,
                                                                              kind: str) -> None:
    """Over random piles and permutations: the honest pass verifies; each mutation of it never does,
    with its proof kept and (where a prover could try) made again from the witness at hand."""
    inputs, k, big_k, perm, outputs, proof = honest(n, seed)
    assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof)
    i, j = which % n, (which // n) % n
    src = sc.SeededSource(seed, "the cheat", statement_nonces=True)
    bad, ctx, bad_proof = list(outputs), CTX, proof
    if kind == "one output":
        bad[i] = sc.add(bad[i], _d())
    elif kind == "plus minus D":
        if n < 2:
            return
        j = j if j != i else (i + 1) % n
        bad[i], bad[j] = sc.add(bad[i], _d()), sc.sub(bad[j], _d())
    elif kind == "duplicate":
        if n < 2:
            return
        j = j if j != i else (i + 1) % n
        bad[j] = bad[i]
    elif kind == "another pass":  # a valid proof of another pass over the same inputs (another key and order)
        _, _, other_k, _, other_out, other_proof = honest(n, seed + 1)
        assert not sh.verify_shuffle(CTX, inputs, big_k, outputs, other_proof)
        assert not sh.verify_shuffle(CTX, inputs, other_k, outputs, other_proof)
        assert not sh.verify_shuffle(CTX, inputs, big_k, other_out, other_proof)
        bad_proof = other_proof
    elif kind == "another context":
        ctx = bytes(32) + b"\0cards\0deal-2"
    else:  # the outputs in another order than the proof's: a different statement
        if n < 2 or outputs[i] == outputs[(i + 1) % n]:
            return
        bad[i], bad[(i + 1) % n] = bad[(i + 1) % n], bad[i]
    assert not sh.verify_shuffle(ctx, inputs, big_k, bad, bad_proof)
    if kind in ("one output", "plus minus D", "duplicate"):
        assert not sh.verify_shuffle(CTX, inputs, big_k, bad, sh._prove(CTX, inputs, bad, k, perm, src))


def test_R42_a_shuffle_proof_for_one_pile_is_not_one_for_another() -> None:
    """The inputs are part of the statement: the same outputs claimed from other inputs fail."""
    inputs, _, big_k, _, outputs, proof = honest(8, 9)
    assert not sh.verify_shuffle(CTX, pile(8, "u"), big_k, outputs, proof)


def test_R42_the_format_4_vectors_are_what_the_code_makes_and_check() -> None:
    """docs/sealed-deck.md section 10 holds the format-4 vectors byte for byte, and they verify."""
    doc = (ROOT / "docs" / "sealed-deck.md").read_text(encoding="utf-8")
    assert markdown(shuffle_vectors()) in doc
    v = shuffle_vectors()
    inputs = [sc.card_point("00" * 32, "cards", c) for c in ("t01", "t02", "t03")]
    name = "format-4 deal-1"
    proof = b"".join(bytes.fromhex(x) for key in ("proof c_1..c_3", "proof ĉ_1..ĉ_3", "proof e, s1, s2, s3, s4",
                                                   "proof ŝ_1..ŝ_3", "proof s'_1..s'_3") for x in v[f"{name} {key}"])
    ctx = bytes(32) + b"\0cards\0deal-1"
    outputs = [bytes.fromhex(x) for x in v[f"{name} points"]]
    key = bytes.fromhex(v[f"{name} (context: game ‖ cards ‖ deal-1) key K=a·G"])
    assert sh.verify_shuffle(ctx, inputs, key, outputs, proof)


def test_R42_nonces_over_the_statement_never_repeat_under_one_label() -> None:
    """A line rewritten under the same label, with another statement: in format 3 its proof reused
    the nonce, and two proofs gave the key away (``x = (s − s')/(c − c')``); in format 4 the nonce is
    a keyed hash of the statement, so the same algebra gives nothing."""
    secret, x = bytes(range(32)), sc.hash_scalar(b"the witness")
    statements = [sc.Statement(sc.BASE, sc.mul_base(x), p, sc.mul(x, p)) for p in pile(2)]

    def recovered(statement_nonces: bool) -> bytes:
        proofs = [sc.prove_equal(b"ctx", st, x, DerivedSource(secret, b"hand/17", statement_nonces=statement_nonces))
                  for st in statements]
        (c1, s1), (c2, s2) = ((p[:32], p[32:]) for p in proofs)
        assert all(sc.verify_equal(b"ctx", st, p) for st, p in zip(statements, proofs))
        return sc.smul(sc.ssub(s1, s2), sc.inverse(sc.ssub(c1, c2)))

    assert recovered(False) == x  # format 3: the nonce was (secret, label)'s, and it leaks
    assert recovered(True) != x  # format 4: R42's nonces over the statement
    # deterministic: the audit recomputes them
    st0 = statements[0]
    assert (sc.prove_equal(b"ctx", st0, x, DerivedSource(secret, b"l", statement_nonces=True))
            == sc.prove_equal(b"ctx", st0, x, DerivedSource(secret, b"l", statement_nonces=True)))


def test_R42_a_39_card_pass_verifies_within_the_budget() -> None:
    """DECISIONS' budget: verifying one 39-card pass takes at most 0.3 s of CPU here (median of 5)."""
    inputs, _, big_k, _, outputs, proof = honest(39, 1)
    times = []
    for _ in range(5):
        start = time.process_time()
        assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof)
        times.append(time.process_time() - start)
    assert statistics.median(times) <= 0.3


def test_R42_a_proof_found_sound_is_remembered_by_its_every_byte_and_a_refused_one_never(monkeypatch) -> None:
    """A file is verified again by every command: a statement checked sound in this process is
    not checked again — but only that exact statement (context, inputs, key, outputs, proof), and
    a refused one is checked, and refused, every time."""
    inputs, _, big_k, _, outputs, proof = honest(5, 77)
    other_key = sc.mul_base(sc.SeededSource(78, "another key").scalar())
    flipped = proof[:-1] + bytes([proof[-1] ^ 1])
    monkeypatch.setattr(sh, "_PROVEN", {})
    checks: list[int] = []
    real = sh._verify_shuffle
    monkeypatch.setattr(sh, "_verify_shuffle", lambda *a: checks.append(1) or real(*a))
    assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof) and sh.verify_shuffle(CTX, inputs, big_k, outputs, proof)
    assert len(checks) == 1
    changed = [(CTX + b"x", inputs, big_k, outputs, proof), (CTX, inputs[::-1], big_k, outputs, proof),
               (CTX, inputs, other_key, outputs, proof), (CTX, inputs, big_k, outputs[1:] + outputs[:1], proof),
               (CTX, inputs, big_k, outputs, flipped)]
    for _ in range(2):
        for statement in changed:
            assert not sh.verify_shuffle(*statement)
    assert len(checks) == 1 + 2 * len(changed)
    monkeypatch.setattr(sh, "PROVEN_KEPT", 2)  # bounded: the oldest goes first
    for seed in (80, 81, 82):
        i, _, k2, _, o, pr = honest(3, seed)
        assert sh.verify_shuffle(CTX, i, k2, o, pr)
    assert len(sh._PROVEN) == 2
    assert sh.verify_shuffle(CTX, inputs, big_k, outputs, proof) and len(checks) == 1 + 2 * len(changed) + 4
