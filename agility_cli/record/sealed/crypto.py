"""The sealed deck's cryptography (R42): card points, locks, shuffle and re-key passes, proofs.

Every group operation is libsodium's, through PyNaCl's bindings: the prime-order group of
ed25519 (``crypto_core_ed25519_*``, ``crypto_scalarmult_ed25519_*noclamp``).  There is no
arithmetic of our own here, only the protocol; ``docs/sealed-deck.md`` is its specification
(the bytes, the checks, the threat model) and ``tests/test_sealcrypto.py`` pins its test vectors.

The scheme is SRA-style commutative encryption (Shamir, Rivest & Adleman, 1979) with one key per
position and per player, in the group rather than modulo a prime:

* a card is the point ``P = from_uniform(SHA-512(domain, game id, pile, card id)[:32])``, whose
  discrete logarithm nobody knows (a card point such as ``H(id)·G`` would let one unlocked card
  unlock every card);
* a lock is a scalar multiplication ``k·P``; locks commute, ``a·(b·P) = b·(a·P)``, and a lock is
  taken off with the inverse scalar;
* a **shuffle pass** locks every point with one key ``k`` and permutes them.  It publishes
  ``K = k·G`` and a Chaum–Pedersen proof that ``log_G K = log_{ΣIn} ΣOut``: the pass's output
  sums to ``k`` times its input's sum, so a pass cannot duplicate or drop a card without putting
  a point in the deck that no card opens to (caught at that card's opening or at the audit);
* a **re-key pass** replaces the global key ``k`` by a key ``r_i`` per position, in place.  It
  publishes the commitments ``C_i = r_i·G`` and, per position, a proof that
  ``log_K C_i = log_{In_i} Out_i`` (the factor ``r_i/k``), so every key published later for that
  position is checked against ``C_i``;
* a **face-down claim** (a mini-turn's play face down, R31) is a Cramer–Damgård–Schoenmakers OR of
  Chaum–Pedersen proofs: the slot's ciphertext under the holder's key alone opens, with the key
  committed to, to *one of* the candidate cards, without saying which.

Randomness (keys, permutations, proof nonces) comes from a :class:`Source`: the operating system's
(:class:`SystemSource`, the default: R42's secrets are nobody's seed) or, for tests and vectors
only, :class:`SeededSource`, built on the project's own PRNG.
"""

from __future__ import annotations

import base64
import hashlib
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec
from nacl.exceptions import RuntimeError as NaclRuntimeError


class _Bindings:
    """PyNaCl's libsodium bindings, loaded by the first group operation: reading a sealed game from
    its checkpoint (``show`` of a finished game) needs these classes but no operation, and loading
    libsodium through cffi is a few milliseconds of every such command's start-up."""

    def __getattr__(self, name: str) -> Any:
        from nacl import bindings

        globals()["nb"] = bindings  # from now on the module itself
        return getattr(bindings, name)


if TYPE_CHECKING:
    from nacl import bindings as nb
else:
    nb = _Bindings()

from ...engine.rng import Rng
from ...i18n import N_
from ...said import said

DOMAIN = b"agility/sealed/1"
POINT_BYTES = 32
SCALAR_BYTES = 32


class SealError(ValueError):
    """A point, key or proof that does not check.  ``what`` names the part (for messages)."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what


# --------------------------------------------------------------------------------------------
# Randomness


class Source(ABC):
    """Where secret scalars and permutations come from."""

    @abstractmethod
    def bytes64(self) -> bytes:
        """64 fresh random bytes."""

    def scalar(self) -> bytes:
        """A uniformly random non-zero scalar (64 random bytes reduced modulo the group order)."""
        while True:
            s = nb.crypto_core_ed25519_scalar_reduce(self.bytes64())
            if s != ZERO:
                return s

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling over 64 bits)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = int.from_bytes(self.bytes64()[:8], "big")
            if x < limit:
                return x % n

    #: R42: whether a proof's nonces are a keyed hash over its statement (format 4) or the next draws
    #: of this source (format 3, whose files must replay and audit byte for byte as they were made).
    statement_nonces = False

    def nonces(self, *statement: bytes) -> Source:
        """The source of one proof's nonces (R42, as RFC 6979 does for signatures): in format 4 a
        keyed hash (BLAKE2b, keyed by this source's secret material) of the whole statement —
        context, points, keys — and a counter, so the same label over another statement never
        reuses a nonce; in format 3 this source itself (its next draws, as before)."""
        return KeyedSource(self.nonce_key(), statement) if self.statement_nonces else self

    def nonce_key(self) -> bytes:
        """The 64-byte key of this source's nonces (a source that has a secret of its own says so)."""
        return hashlib.sha512(DOMAIN + b"\0nonce key\0" + self.bytes64()).digest()

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of ``range(n)`` (Fisher–Yates from the end)."""
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm


class KeyedSource(Source):
    """R42: a proof's nonces: BLAKE2b keyed by ``key`` (64 bytes) over the length-prefixed statement
    parts and a counter."""

    def __init__(self, key: bytes, statement: Sequence[bytes]) -> None:
        self._base = hashlib.blake2b(key=key[:64], digest_size=64, person=b"agility-nonce")
        for part in statement:
            self._base.update(len(part).to_bytes(4, "big"))
            self._base.update(part)
        self._counter = 0

    def bytes64(self) -> bytes:
        self._counter += 1
        h = self._base.copy()
        h.update(self._counter.to_bytes(8, "big"))
        return h.digest()


class SystemSource(Source):
    """The operating system's secure randomness (``os.urandom``): what every real game uses."""

    def bytes64(self) -> bytes:
        return os.urandom(64)


class SeededSource(Source):
    """A reproducible source for tests and test vectors: the project's PRNG (R11) under a purpose.

    Never used for a real game: a seed anybody can read would give the deck away.
    """

    def __init__(self, seed: int, purpose: str = "sealed", *, statement_nonces: bool = False) -> None:
        self._rng = Rng.for_purpose(seed, purpose)
        self.statement_nonces = statement_nonces

    def bytes64(self) -> bytes:
        return b"".join(self._rng.next_u64().to_bytes(8, "big") for _ in range(8))


# --------------------------------------------------------------------------------------------
# Group elements, checked


ZERO = bytes(SCALAR_BYTES)
ONE = (1).to_bytes(SCALAR_BYTES, "little")
#: The group's generator G, libsodium's Ed25519 base point (tests/test_sealcrypto.py checks it).
BASE = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")


def check_point(p: bytes, what: str) -> bytes:
    """``p`` if it is a valid point of the prime-order group (not the identity, not small order)."""
    if len(p) != POINT_BYTES or not nb.crypto_core_ed25519_is_valid_point(p):
        raise SealError(what, said(N_("{what} is not a valid point of the group"), what=what))
    return p


def check_scalar(s: bytes, what: str) -> bytes:
    """``s`` if it is a canonical, non-zero scalar (reduced, as every scalar this module writes)."""
    if len(s) != SCALAR_BYTES or s == ZERO or nb.crypto_core_ed25519_scalar_reduce(s + bytes(32)) != s:
        raise SealError(what, said(N_("{what} is not a canonical non-zero scalar"), what=what))
    return s


def mul(k: bytes, p: bytes) -> bytes:
    """``k·p``.  libsodium refuses a product that is the identity; so does this (a SealError)."""
    try:
        return nb.crypto_scalarmult_ed25519_noclamp(k, p)
    except NaclRuntimeError as exc:
        raise SealError("point", said(N_("a lock gave the identity point"))) from exc


def mul_base(k: bytes) -> bytes:
    """``k·G``: a key's public commitment."""
    return nb.crypto_scalarmult_ed25519_base_noclamp(k)


def add(p: bytes, q: bytes) -> bytes:
    return nb.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return nb.crypto_core_ed25519_sub(p, q)


def point_sum(points: Iterable[bytes]) -> bytes:
    it = iter(points)
    total = next(it)
    for p in it:
        total = add(total, p)
    return total


def inverse(k: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_invert(k)


def smul(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_mul(a, b)


def sadd(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_add(a, b)


def ssub(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_sub(a, b)


def hash_scalar(*parts: bytes) -> bytes:
    """SHA-512 of the length-prefixed parts, reduced: the Fiat–Shamir challenge."""
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return nb.crypto_core_ed25519_scalar_reduce(h.digest())


# --------------------------------------------------------------------------------------------
# Encodings: a list of points or scalars is one base64url string (no padding) of the bytes.


def pack(items: Sequence[bytes]) -> str:
    return base64.urlsafe_b64encode(b"".join(items)).rstrip(b"=").decode("ascii")


def unpack(text: str, size: int, what: str, count: int | None = None) -> list[bytes]:
    """The ``size``-byte items of a packed string; a wrong alphabet, length or count is refused."""
    if not isinstance(text, str) or not text.isascii():
        raise SealError(what, said(N_("{what} is not base64url text"), what=what))
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as exc:
        raise SealError(what, said(N_("{what} is not base64url text"), what=what)) from exc
    if pack_bytes(raw) != text or len(raw) % size:
        raise SealError(what, said(N_("{what} is not a whole number of {size}-byte items"), what=what, size=size))
    items = [raw[i : i + size] for i in range(0, len(raw), size)]
    if count is not None and len(items) != count:
        raise SealError(what, said(N_("{what} holds {n} items, not {count}"), what=what, n=len(items), count=count))
    return items


def pack_bytes(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unpack_points(text: str, what: str, count: int | None = None) -> list[bytes]:
    return [check_point(p, said(N_("{what}[{i}]"), what=what, i=i)) for i, p in enumerate(unpack(text, POINT_BYTES, what, count))]


# --------------------------------------------------------------------------------------------
# Card points


def hash_point(data: bytes) -> bytes:
    """A point nobody knows the discrete logarithm of: libsodium's ``from_uniform`` of SHA-512(data)."""
    return nb.crypto_core_ed25519_from_uniform(hashlib.sha512(data).digest()[:32])


def card_point(game: str, pile: str, card: str) -> bytes:
    """The point of ``card`` in pile ``pile`` (``"cards"`` or ``"dogs"``) of game ``game`` (its id)."""
    h = hashlib.sha512(b"\0".join([DOMAIN, b"point", game.encode(), pile.encode(), card.encode()])).digest()
    return nb.crypto_core_ed25519_from_uniform(h[:32])


def card_points(game: str, pile: str, cards: Sequence[str]) -> dict[bytes, str]:
    """Point → card id for a pile (two cards never share a point: SHA-512 collisions aside)."""
    table = {card_point(game, pile, c): c for c in cards}
    if len(table) != len(cards):
        raise SealError("cards", said(N_("two cards of the pile map to the same point (repeated card ids)")))
    return table


# --------------------------------------------------------------------------------------------
# Chaum–Pedersen proofs: knowledge of x with A = x·G1 and B = x·G2


class Statement(msgspec.Struct, frozen=True):
    """``log_{g1} a = log_{g2} b``."""

    g1: bytes
    a: bytes
    g2: bytes
    b: bytes

    def encode(self) -> bytes:
        return self.g1 + self.a + self.g2 + self.b


def _commitments(st: Statement, c: bytes, s: bytes) -> tuple[bytes, bytes]:
    """``T1 = s·g1 − c·a`` and ``T2 = s·g2 − c·b``: what a proof's nonce commitments must have been."""
    return sub(mul(s, st.g1), mul(c, st.a)), sub(mul(s, st.g2), mul(c, st.b))


def prove_equal(context: bytes, st: Statement, x: bytes, source: Source) -> bytes:
    """A Chaum–Pedersen proof ``(c, s)`` (64 bytes) that ``st`` holds with witness ``x``."""
    w = source.nonces(DOMAIN, b"cp", context, st.encode()).scalar()  # R42: over the statement (format 4)
    t1, t2 = mul(w, st.g1), mul(w, st.g2)
    c = hash_scalar(DOMAIN, b"cp", context, st.encode(), t1, t2)
    return c + sadd(w, smul(c, x))


def verify_equal(context: bytes, st: Statement, proof: bytes) -> bool:
    if len(proof) != 2 * SCALAR_BYTES:
        return False
    c, s = proof[:SCALAR_BYTES], proof[SCALAR_BYTES:]
    try:
        check_scalar(c, "c"), check_scalar(s, "s")
        t1, t2 = _commitments(st, c, s)
    except SealError:
        return False
    return hash_scalar(DOMAIN, b"cp", context, st.encode(), t1, t2) == c


def prove_one_of(context: bytes, statements: Sequence[Statement], index: int, x: bytes, source: Source) -> bytes:
    """A CDS OR proof that one of ``statements`` holds (the one at ``index``, witness ``x``),
    without saying which: ``c_1 … c_m, s_1 … s_m`` (64·m bytes) with ``Σ c_j = H(…)``."""
    m = len(statements)
    cs: list[bytes] = [b""] * m
    ss: list[bytes] = [b""] * m
    ts: list[bytes] = []
    source = source.nonces(DOMAIN, b"or", context, *(st.encode() for st in statements))  # R42 (format 4)
    w = source.scalar()
    for j, st in enumerate(statements):
        if j == index:
            t1, t2 = mul(w, st.g1), mul(w, st.g2)
        else:  # simulated: choose the challenge and response, derive the commitments
            cs[j], ss[j] = source.scalar(), source.scalar()
            t1, t2 = _commitments(st, cs[j], ss[j])
        ts += [t1, t2]
    total = hash_scalar(DOMAIN, b"or", context, *(st.encode() for st in statements), *ts)
    c_index = total
    for j in range(m):
        if j != index:
            c_index = ssub(c_index, cs[j])
    cs[index] = c_index
    ss[index] = sadd(w, smul(c_index, x))
    return b"".join(cs) + b"".join(ss)


def verify_one_of(context: bytes, statements: Sequence[Statement], proof: bytes) -> bool:
    m = len(statements)
    if m == 0 or len(proof) != 2 * SCALAR_BYTES * m:
        return False
    cs = [proof[i * 32 : i * 32 + 32] for i in range(m)]
    ss = [proof[(m + i) * 32 : (m + i) * 32 + 32] for i in range(m)]
    ts: list[bytes] = []
    try:
        for st, c, s in zip(statements, cs, ss):
            if len(c) != 32 or nb.crypto_core_ed25519_scalar_reduce(c + bytes(32)) != c:
                return False
            check_scalar(s, "s")
            if c == ZERO:  # a zero challenge would let the commitment be anything
                return False
            ts += list(_commitments(st, c, s))
    except SealError:
        return False
    total = cs[0]
    for c in cs[1:]:
        total = sadd(total, c)
    return total == hash_scalar(DOMAIN, b"or", context, *(st.encode() for st in statements), *ts)


# --------------------------------------------------------------------------------------------
# The passes


class ShufflePass(msgspec.Struct, frozen=True):
    """A shuffle pass as published: ``key`` = ``k·G``, ``points`` (permuted, locked), ``proof``."""

    key: bytes
    points: list[bytes]
    proof: bytes


class RekeyPass(msgspec.Struct, frozen=True):
    """A re-key pass as published: per position the new point, the commitment ``r_i·G``, a proof."""

    points: list[bytes]
    commits: list[bytes]
    proofs: list[bytes]


def shuffle_pass(context: bytes, points: Sequence[bytes], source: Source) -> tuple[ShufflePass, bytes, list[int]]:
    """Lock every point with one fresh key and permute: ``(the pass, the key, the permutation)``.

    Output ``i`` is input ``perm[i]`` locked.
    """
    k = source.scalar()
    perm = source.permutation(len(points))
    out = [mul(k, points[j]) for j in perm]
    st = Statement(BASE, mul_base(k), point_sum(points), point_sum(out))
    return ShufflePass(st.a, out, prove_equal(context, st, k, source)), k, perm


def check_shuffle(context: bytes, points: Sequence[bytes], p: ShufflePass) -> None:
    """A shuffle pass's checks: as many points as its input, and the sum proof."""
    if len(p.points) != len(points):
        raise SealError("pass", said(N_("the shuffle pass holds {n} points for {count} positions"), n=len(p.points),
                                     count=len(points)))
    if len(set(p.points)) != len(p.points):
        raise SealError("pass", said(N_("the shuffle pass repeats a point")))
    st = Statement(BASE, p.key, point_sum(points), point_sum(p.points))
    if not verify_equal(context, st, p.proof):
        raise SealError("pass", said(N_("the shuffle pass's proof does not check (its points are not the input, locked)")))


def rekey_pass(context: bytes, points: Sequence[bytes], k: bytes, source: Source) -> tuple[RekeyPass, list[bytes]]:
    """Replace the global key ``k`` (which locked ``points``) by a fresh key per position, in place:
    ``(the pass, the new keys)``."""
    k_commit, k_inv = mul_base(k), inverse(k)
    keys, out, commits, proofs = [], [], [], []
    for i, pt in enumerate(points):
        r = source.scalar()
        factor = smul(r, k_inv)
        new = mul(factor, pt)
        st = Statement(k_commit, mul_base(r), pt, new)
        keys.append(r)
        out.append(new)
        commits.append(st.a)
        proofs.append(prove_equal(context + i.to_bytes(2, "big"), st, factor, source))
    return RekeyPass(out, commits, proofs), keys


def check_rekey(context: bytes, points: Sequence[bytes], key: bytes, p: RekeyPass) -> None:
    """A re-key pass's checks against the input ``points`` locked by the key committed to as ``key``."""
    n = len(points)
    if not (len(p.points) == len(p.commits) == len(p.proofs) == n):
        raise SealError("pass", said(N_("the re-key pass does not hold {n} points, commitments and proofs"), n=n))
    for i in range(n):
        st = Statement(key, p.commits[i], points[i], p.points[i])
        if not verify_equal(context + i.to_bytes(2, "big"), st, p.proofs[i]):
            raise SealError("pass", said(N_("the re-key pass's proof for position {i} does not check"), i=i))


# --------------------------------------------------------------------------------------------
# Opening


def check_key(key: bytes, commit: bytes, what: str) -> bytes:
    """A published key must be the one committed to: ``key·G == commit``."""
    check_scalar(key, what)
    if mul_base(key) != commit:
        raise SealError(what, said(N_("{what} is not the key committed to for that position"), what=what))
    return key


def unlock(point: bytes, *keys: bytes) -> bytes:
    """``point`` with the locks ``keys`` taken off."""
    for k in keys:
        point = mul(inverse(k), point)
    return point


def open_card(point: bytes, keys: Sequence[bytes], table: dict[bytes, str], seen: set[str], what: str) -> str:
    """The card under ``point`` once ``keys`` are taken off: it must be a card of the pile not yet seen."""
    card = table.get(unlock(point, *keys))
    if card is None:
        raise SealError(what, said(N_("{what} opens to no card of the set (a changed deck)"), what=what))
    if card in seen:
        raise SealError(what, said(N_("{what} opens to {card}, a card already seen (a duplicated card)"), what=what, card=card))
    return card


def face_down_statements(holder_commit: bytes, holder_point: bytes, candidates: Sequence[bytes]) -> list[Statement]:
    """The statements of a face-down claim: ``log_G holder_commit = log_{P_c} holder_point`` for
    each candidate card point ``P_c`` (the slot, under the holder's key alone, locks card ``c``)."""
    return [Statement(BASE, holder_commit, pc, holder_point) for pc in candidates]
