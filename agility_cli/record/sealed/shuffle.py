"""A proof of a shuffle that binds every output (R42, format 4; docs/sealed-deck.md section 3,
"Shuffle proof (format 4)").

The statement of a shuffle pass over ``In_0 … In_{n−1}``: the outputs are the inputs permuted and
locked by the key committed to as ``K = k·G`` — ``Out_i = k·In_{π(i)}`` for some permutation π.
The proof is Terelius & Wikström's proof of a shuffle (2010), in the form of Haenni, Locher,
Koenig & Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (2017,
GenShuffleProof / CheckShuffleProof), with its re-encryption relation replaced by the
exponentiation relation ``Σ u_{π(i)}·Out_i = k·Σ u_j·In_j``, in additive notation:

* a Pedersen commitment to the permutation matrix, ``c_j = r_j·G + H_{π⁻¹(j)}``, with generators
  ``H, H_1 … H_n`` whose discrete logarithms nobody knows (hashed to the curve);
* challenges ``u_j`` hashed from the statement and ``c``; a commitment chain
  ``ĉ_i = r̂_i·G + u_{π(i)}·ĉ_{i−1}`` from ``ĉ_0 = H``, which ends in ``(Π u_j)·H`` plus a
  blinding term exactly when the committed values are a permutation of the ``u_j``;
* one sigma protocol (Fiat–Shamir) for the five linear relations and the chain.

The proof is ``c (n points) ‖ ĉ (n points) ‖ e ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ ŝ (n scalars) ‖ s' (n
scalars)``: 32·(4n + 5) bytes.  Every group and scalar operation is libsodium's through
:mod:`crypto`'s wrappers; nothing here computes on points or scalars itself.  Its nonces come from
``source.nonces(statement)``: in format 4 a keyed hash over the whole statement (R42).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from . import crypto as sc
from .crypto import SealError
from ...i18n import N_
from ...said import said

#: Domain separation of the generators, the challenges and the nonces of this proof.
LABEL = b"shuffle-4"


def proof_bytes(n: int) -> int:
    """The size of a proof over ``n`` points: 32·(4n + 5)."""
    return sc.SCALAR_BYTES * (4 * n + 5)


@lru_cache(maxsize=None)
def generator(i: int) -> bytes:
    """Generator ``H_i`` (``H`` is ``i = 0``): libsodium's hash to the curve of SHA-512 of the domain,
    the label and the index, so that nobody knows its discrete logarithm to ``G`` or to another."""
    return sc.hash_point(b"\0".join([sc.DOMAIN, LABEL, b"generator", str(i).encode()]))


def _statement(context: bytes, inputs: Sequence[bytes], key: bytes, outputs: Sequence[bytes]) -> list[bytes]:
    return [sc.DOMAIN, LABEL, context, b"".join(inputs), key, b"".join(outputs)]


def _challenges(statement: list[bytes], commits: Sequence[bytes]) -> list[bytes]:
    """``u_1 … u_n``: hashed from the statement and the permutation commitment (after both are fixed)."""
    seed = hashlib.sha512()
    for part in [*statement, b"".join(commits)]:
        seed.update(len(part).to_bytes(4, "big"))
        seed.update(part)
    digest = seed.digest()
    return [sc.hash_scalar(sc.DOMAIN, LABEL, b"u", digest, j.to_bytes(2, "big")) for j in range(len(commits))]


def _challenge(statement: list[bytes], commits: Sequence[bytes], chain: Sequence[bytes], ts: Sequence[bytes]) -> bytes:
    return sc.hash_scalar(*statement, b"e", b"".join(commits), b"".join(chain), b"".join(ts))


def _lin(scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
    """``Σ scalars_i·points_i``."""
    return sc.point_sum(sc.mul(s, p) for s, p in zip(scalars, points))


def _ssum(scalars: Sequence[bytes]) -> bytes:
    total = scalars[0]
    for s in scalars[1:]:
        total = sc.sadd(total, s)
    return total


def _prove(context: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], k: bytes, perm: Sequence[int],
           source: sc.Source) -> bytes:
    """The prover's algorithm for outputs ``outputs`` claimed to be ``k·inputs[perm[i]]``.  Only
    :func:`prove_shuffle` calls it with the outputs it made; the tests call it with others (what a
    modified client could send), to see the verifier refuse them."""
    n = len(inputs)
    big_k = sc.mul_base(k)
    statement = _statement(context, inputs, big_k, outputs)
    nonces = source.nonces(*statement)  # R42: a keyed hash of the statement (format 4)
    hs = [generator(i + 1) for i in range(n)]
    r = [nonces.scalar() for _ in range(n)]
    r_hat = [nonces.scalar() for _ in range(n)]
    w1, w2, w3, w4 = (nonces.scalar() for _ in range(4))
    w_hat = [nonces.scalar() for _ in range(n)]
    w_prime = [nonces.scalar() for _ in range(n)]
    inv = [0] * n
    for i, j in enumerate(perm):
        inv[j] = i
    commits = [sc.add(sc.mul_base(r[j]), hs[inv[j]]) for j in range(n)]  # c_j = r_j·G + H_{π⁻¹(j)}
    u = _challenges(statement, commits)
    u_prime = [u[j] for j in perm]
    chain, prev = [], generator(0)
    for i in range(n):  # ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}
        prev = sc.add(sc.mul_base(r_hat[i]), sc.mul(u_prime[i], prev))
        chain.append(prev)
    # r̂ = Σ r̂_i·v_i, v_n = 1, v_{i−1} = u'_i·v_i: the blinding of ĉ_n − (Π u)·H
    v, r_bar_hat = sc.ONE, r_hat[n - 1]
    for i in range(n - 1, 0, -1):
        v = sc.smul(u_prime[i], v)
        r_bar_hat = sc.sadd(r_bar_hat, sc.smul(r_hat[i - 1], v))
    r_bar = _ssum(r)
    r_tilde = _ssum([sc.smul(r[j], u[j]) for j in range(n)])
    e_tilde = _lin(u, inputs)
    t1, t2 = sc.mul_base(w1), sc.mul_base(w2)
    t3 = sc.add(sc.mul_base(w3), _lin(w_prime, hs))
    t4 = sc.sub(_lin(w_prime, outputs), sc.mul(w4, e_tilde))
    t5 = sc.mul_base(w4)
    links = [generator(0), *chain[:-1]]
    t_hat = [sc.add(sc.mul_base(w_hat[i]), sc.mul(w_prime[i], links[i])) for i in range(n)]
    e = _challenge(statement, commits, chain, [t1, t2, t3, t4, t5, *t_hat])
    s1 = sc.ssub(w1, sc.smul(e, r_bar))
    s2 = sc.ssub(w2, sc.smul(e, r_bar_hat))
    s3 = sc.ssub(w3, sc.smul(e, r_tilde))
    s4 = sc.ssub(w4, sc.smul(e, k))
    s_hat = [sc.ssub(w_hat[i], sc.smul(e, r_hat[i])) for i in range(n)]
    s_prime = [sc.ssub(w_prime[i], sc.smul(e, u_prime[i])) for i in range(n)]
    return b"".join(commits) + b"".join(chain) + e + s1 + s2 + s3 + s4 + b"".join(s_hat) + b"".join(s_prime)


def prove_shuffle(context: bytes, inputs: Sequence[bytes], k: bytes, perm: Sequence[int],
                  source: sc.Source) -> tuple[list[bytes], bytes]:
    """R42: lock ``inputs`` with ``k`` in the order ``perm`` (output ``i`` is input ``perm[i]``) and
    prove it: ``(the outputs, the proof)``."""
    if sorted(perm) != list(range(len(inputs))) or not inputs:
        raise ValueError("a shuffle of a non-empty pile needs a permutation of its positions")
    outputs = [sc.mul(k, inputs[j]) for j in perm]
    return outputs, _prove(context, inputs, outputs, k, perm, source)


#: The statements whose proofs this process has checked and found sound (R42), by digest: a file
#: is verified again by every command (and by each step of a command), and a proof's check is a
#: deterministic function of exactly the bytes hashed here, so a proof found sound once is sound.
#: Only sound proofs are kept (a refused one is checked again, and refused again); the oldest go first.
_PROVEN: dict[bytes, None] = {}
PROVEN_KEPT = 1024


def _statement_digest(context: bytes, inputs: Sequence[bytes], key: bytes, outputs: Sequence[bytes],
                      proof: bytes) -> bytes:
    h = hashlib.sha256(LABEL + b" checked")
    for part in (context, key, proof, *inputs, b"outputs", *outputs):
        h.update(len(part).to_bytes(4, "big") + part)
    h.update(len(inputs).to_bytes(4, "big"))
    return h.digest()


def verify_shuffle(context: bytes, inputs: Sequence[bytes], key: bytes, outputs: Sequence[bytes], proof: bytes) -> bool:
    """R42: whether ``proof`` shows that ``outputs`` are ``inputs`` permuted and locked by the key
    committed to as ``key``.  Every point and scalar received is checked; ``inputs`` are the
    verifier's own (already checked).  A statement this process found sound before is not
    checked again (:data:`_PROVEN`)."""
    digest = _statement_digest(context, inputs, key, outputs, proof)
    if digest in _PROVEN:
        return True
    sound = _verify_shuffle(context, inputs, key, outputs, proof)
    if sound:
        if len(_PROVEN) >= PROVEN_KEPT:
            del _PROVEN[next(iter(_PROVEN))]
        _PROVEN[digest] = None
    return sound


def _verify_shuffle(context: bytes, inputs: Sequence[bytes], key: bytes, outputs: Sequence[bytes], proof: bytes) -> bool:
    n = len(inputs)
    if n == 0 or len(outputs) != n or len(proof) != proof_bytes(n) or len(set(outputs)) != n:
        return False
    items = [proof[i : i + 32] for i in range(0, len(proof), 32)]
    try:
        sc.check_point(key, "the shuffle key")
        for p in outputs:
            sc.check_point(p, "an output")
        commits = [sc.check_point(p, "a permutation commitment") for p in items[:n]]
        chain = [sc.check_point(p, "a chain commitment") for p in items[n : 2 * n]]
        e, s1, s2, s3, s4 = (sc.check_scalar(s, "a response") for s in items[2 * n : 2 * n + 5])
        s_hat = [sc.check_scalar(s, "a response") for s in items[2 * n + 5 : 3 * n + 5]]
        s_prime = [sc.check_scalar(s, "a response") for s in items[3 * n + 5 :]]
        statement = _statement(context, inputs, key, outputs)
        u = _challenges(statement, commits)
        hs = [generator(i + 1) for i in range(n)]
        u_prod = u[0]
        for x in u[1:]:
            u_prod = sc.smul(u_prod, x)
        c_bar = sc.sub(sc.point_sum(commits), sc.point_sum(hs))  # (Σ r_j)·G
        c_hat = sc.sub(chain[-1], sc.mul(u_prod, generator(0)))  # r̂·G
        c_tilde = _lin(u, commits)  # r̃·G + Σ u'_i·H_i
        e_tilde = _lin(u, inputs)
        t1 = sc.add(sc.mul(e, c_bar), sc.mul_base(s1))
        t2 = sc.add(sc.mul(e, c_hat), sc.mul_base(s2))
        t3 = sc.add(sc.add(sc.mul(e, c_tilde), sc.mul_base(s3)), _lin(s_prime, hs))
        t4 = sc.sub(_lin(s_prime, outputs), sc.mul(s4, e_tilde))
        t5 = sc.add(sc.mul_base(s4), sc.mul(e, key))
        links = [generator(0), *chain[:-1]]
        t_hat = [sc.add(sc.add(sc.mul(e, chain[i]), sc.mul_base(s_hat[i])), sc.mul(s_prime[i], links[i]))
                 for i in range(n)]
    except SealError:
        return False
    return _challenge(statement, commits, chain, [t1, t2, t3, t4, t5, *t_hat]) == e


def shuffle_pass(context: bytes, points: Sequence[bytes], source: sc.Source, *,
                 binding: bool) -> tuple[sc.ShufflePass, bytes, list[int]]:
    """A shuffle pass (one fresh key, a permutation): ``(the pass, the key, the permutation)``.
    R42: in format 4 (``binding``) its proof is :func:`prove_shuffle`'s, in format 3 the sum proof."""
    if not binding:
        return sc.shuffle_pass(context, points, source)
    k = source.scalar()
    perm = source.permutation(len(points))
    outputs, proof = prove_shuffle(context, points, k, perm, source)
    return sc.ShufflePass(sc.mul_base(k), outputs, proof), k, perm


def check_shuffle(context: bytes, points: Sequence[bytes], p: sc.ShufflePass, *, binding: bool, writer: str = "") -> None:
    """A shuffle pass's checks: in format 4 (``binding``, R42) that every output is an input
    permuted and locked by the key committed to; in format 3 the sum proof, as those files were.
    ``writer``: the player who wrote the pass, named when it is refused."""
    if not binding:
        sc.check_shuffle(context, points, p)
        return
    if len(p.points) != len(points):
        raise SealError("pass", said(N_("the shuffle pass holds {n} points for {count} positions"), n=len(p.points),
                                     count=len(points)))
    if len(set(p.points)) != len(p.points):
        raise SealError("pass", said(N_("the shuffle pass repeats a point")))
    if not verify_shuffle(context, points, p.key, p.points, p.proof):
        if writer:
            raise SealError("pass", said(N_("the shuffle pass written by {writer}: its proof does not check (its points "
                                            "are not its input permuted and locked by its key, R42)"), writer=writer))
        raise SealError("pass", said(N_("the shuffle pass: its proof does not check (its points are not its input "
                                        "permuted and locked by its key, R42)")))


def pass_cost(n: int, runs: int = 5) -> dict[str, dict[str, float]]:
    """The benchmark's measure of one shuffle pass of ``n`` points (R42): for format 4 (binding) and
    format 3 (the sum proof), the pass's bytes as written (base64), its proof's bytes, and the median
    CPU time of ``runs`` to prove and to check it."""
    import statistics
    import time

    def cpu(fn: Any) -> float:
        times = []
        for _ in range(runs):
            started = time.process_time()
            fn()
            times.append(time.process_time() - started)
        return statistics.median(times)

    inputs = [sc.hash_point(b"bench input %d" % i) for i in range(n)]
    ctx = b"bench" + n.to_bytes(2, "big")
    row: dict[str, dict[str, float]] = {}
    for name, binding in (("format 4", True), ("format 3", False)):
        made: list[sc.ShufflePass] = []

        def prove() -> None:
            made[:] = [shuffle_pass(ctx, inputs, sc.SeededSource(n, "bench", statement_nonces=binding), binding=binding)[0]]

        prove_s = cpu(prove)
        p = made[0]
        def check() -> None:
            _PROVEN.clear()  # each run checks the proof, none is remembered
            check_shuffle(ctx, inputs, p, binding=binding)

        verify_s = cpu(check)
        written = len(sc.pack(p.points)) + len(sc.pack_bytes(p.proof)) + len(sc.pack_bytes(p.key))
        row[name] = {"bytes": written, "proof_bytes": len(p.proof), "prove_ms": 1000 * prove_s, "verify_ms": 1000 * verify_s}
    return row
