"""Re-sealing cards already dealt (R42): a hand re-keyed before a face-down card leaves it, and a
reshuffle's joint passes (docs/sealed-deck.md sections 6 and 7).

Both are made of three passes over *elements* — a point with, for the writing seat, the
commitment of that seat's own lock on it (``G`` when it has none):

* **mix** (normalise): every element brought under one fresh key ``u``, in place; an element the
  writer had locked loses that lock on the way (factor ``u/h``), each with a Chaum–Pedersen proof
  ``log_C U = log_E Out``;
* **shuffle**: a shuffle pass (one key ``t``, a permutation, the sum proof);
* **rekey**: a re-key pass that replaces the global key ``u·t`` by one key per position; its
  commitment ``K = t·U`` comes with a proof ``log_G T = log_U K``.

A hand re-keying is one seat's mix, shuffle and rekey in one line.  A reshuffle is four steps by
the two seats X (whose line made it) and Y: X mixes; Y mixes and shuffles; X shuffles and
re-keys; Y re-keys.
"""

from __future__ import annotations

import msgspec

from ...engine.moves import MixText, PassesText, RekeyText
from . import crypto as sc
from . import shuffle
from .crypto import SealError
from ...i18n import N_
from ...said import said
from .deck import decode_rekey, decode_shuffle, encode_shuffle


class Element(msgspec.Struct, frozen=True):
    """A point to re-seal and the writer's lock on it: its commitment (``G``: none) and, on the
    writer's own machine, the key (``None`` when the writer has no lock on it)."""

    point: bytes
    commit: bytes
    key: bytes | None = None


class Mix(msgspec.Struct, frozen=True):
    key: bytes  # U = u·G
    points: list[bytes]
    proofs: list[bytes]


def mix(ctx: bytes, elements: list[Element], source: sc.Source) -> tuple[Mix, bytes]:
    """The normalising pass and its key ``u``."""
    u = source.scalar()
    big_u = sc.mul_base(u)
    points, proofs = [], []
    for i, e in enumerate(elements):
        factor = u if e.key is None else sc.smul(u, sc.inverse(e.key))
        out = sc.mul(factor, e.point)
        st = sc.Statement(e.commit, big_u, e.point, out)
        points.append(out)
        proofs.append(sc.prove_equal(ctx + i.to_bytes(2, "big"), st, factor, source))
    return Mix(big_u, points, proofs), u


def check_mix(ctx: bytes, elements: list[Element], m: Mix) -> None:
    if not (len(m.points) == len(m.proofs) == len(elements)):
        raise SealError("mix", said(N_("the normalising pass does not hold {n} points and proofs"), n=len(elements)))
    for i, e in enumerate(elements):
        st = sc.Statement(e.commit, m.key, e.point, m.points[i])
        if not sc.verify_equal(ctx + i.to_bytes(2, "big"), st, m.proofs[i]):
            raise SealError("mix", said(N_("the normalising pass's proof for element {i} does not check"), i=i))


def global_commit(ctx: bytes, big_u: bytes, t: bytes, source: sc.Source) -> bytes:
    """``K = t·U`` and a proof of ``log_G T = log_U K``: the commitment of the global key ``u·t``."""
    k = sc.mul(t, big_u)
    st = sc.Statement(sc.BASE, sc.mul_base(t), big_u, k)
    return k + sc.prove_equal(ctx + b"global", st, t, source)


def check_global(ctx: bytes, big_u: bytes, big_t: bytes, blob: bytes) -> bytes:
    """The global key's commitment, checked; raises if its proof does not hold."""
    if len(blob) != 96:
        raise SealError("rekey", said(N_("the re-key pass's global key is not a point and a proof")))
    k = sc.check_point(blob[:32], "the global key")
    if not sc.verify_equal(ctx + b"global", sc.Statement(sc.BASE, big_t, big_u, k), blob[32:]):
        raise SealError("rekey", said(N_("the re-key pass's global key does not match its normalising and shuffle keys")))
    return k


def encode_mix(m: Mix) -> MixText:
    return MixText(sc.pack_bytes(m.key), sc.pack(m.points), sc.pack(m.proofs))


def decode_mix(t: MixText, what: str, count: int) -> Mix:
    key = sc.unpack_points(t.key, said(N_("{what} key"), what=what), 1)[0]
    return Mix(key, sc.unpack_points(t.points, said(N_("{what} points"), what=what), count),
               sc.unpack(t.proofs, 64, said(N_("{what} proofs"), what=what), count))


def _decode_rekey(t: RekeyText, what: str, count: int) -> tuple[sc.RekeyPass, bytes]:
    blob = sc.unpack(t.key, 96, said(N_("{what} global key"), what=what), 1)[0]
    return decode_rekey(t, what, count), blob


class Made(msgspec.Struct):
    """What a writer's step made: the text to write, and the secrets it used."""

    text: PassesText
    mix_key: bytes | None = None  # u
    shuffle_key: bytes | None = None  # t
    perm: list[int] | None = None
    keys: list[bytes] | None = None  # per position, after a rekey


def write_step(
    ctx: bytes,
    elements: list[Element] | None,
    points: list[bytes] | None,
    source: sc.Source,
    *,
    do_mix: bool,
    do_shuffle: bool,
    do_rekey: bool,
    earlier: tuple[bytes | None, bytes | None] = (None, None),
    binding: bool = False,
) -> Made:
    """One writer's step.  ``elements`` feed the mix; ``points`` feed a step that begins with the
    shuffle or the rekey.  ``earlier`` is this writer's ``(u, t)`` from an earlier step (a
    reshuffle's X re-keys what it mixed two steps before).  ``binding``: the shuffle carries the
    proof that binds every output (format 4, R42)."""
    made = Made(PassesText())
    mix_text = shuffle_text = rekey_text = None
    if do_mix:
        assert elements is not None
        m, mix_key = mix(ctx + b"mix", elements, source)
        made.mix_key, points, mix_text = mix_key, m.points, encode_mix(m)
    assert points is not None
    u = made.mix_key if made.mix_key is not None else earlier[0]
    if do_shuffle:
        p, shuffle_key, perm = shuffle.shuffle_pass(ctx + b"shuffle", points, source, binding=binding)
        made.shuffle_key, made.perm, points, shuffle_text = shuffle_key, perm, p.points, encode_shuffle(p)
    t = made.shuffle_key if made.shuffle_key is not None else earlier[1]
    if do_rekey:
        assert u is not None and t is not None
        blob = global_commit(ctx + b"rekey", sc.mul_base(u), t, source)
        r, keys = sc.rekey_pass(ctx + b"rekey", points, sc.smul(u, t), source)
        made.keys = keys
        rekey_text = RekeyText(sc.pack(r.points), sc.pack(r.commits), sc.pack(r.proofs), sc.pack_bytes(blob))
    made.text = PassesText(mix=mix_text, shuffle=shuffle_text, rekey=rekey_text)
    return made


class Checked(msgspec.Struct):
    """A step as checked: the points it ends with, and the commitments a later step needs."""

    points: list[bytes]
    mix_key: bytes | None = None  # U
    shuffle_key: bytes | None = None  # T
    commits: list[bytes] | None = None  # per position, after a rekey


def check_step(
    ctx: bytes,
    text: PassesText,
    elements: list[Element] | None,
    points: list[bytes] | None,
    *,
    want: tuple[bool, bool, bool],
    earlier: tuple[bytes | None, bytes | None] = (None, None),
    binding: bool = False,
    writer: str = "",
) -> Checked:
    """Check one step against what it must hold (``want``: mix, shuffle, rekey); ``binding``: its
    shuffle must carry the proof that binds every output (format 4, R42)."""
    has = (text.mix is not None, text.shuffle is not None, text.rekey is not None)
    if has != want:
        names = [n for n, w in zip(("normalising", "shuffle", "re-key"), want) if w]
        raise SealError("passes", said(N_("this step holds the wrong passes (it needs: {names})"), names=", ".join(names)))
    n = len(elements) if elements is not None else len(points or [])
    out = Checked(points or [])
    big_u, big_t = earlier
    if text.mix is not None:
        assert elements is not None
        m = decode_mix(text.mix, "the normalising pass", n)
        check_mix(ctx + b"mix", elements, m)
        out.points, out.mix_key, big_u = m.points, m.key, m.key
    if text.shuffle is not None:
        p = decode_shuffle(text.shuffle, "the shuffle pass", n, binding=binding)
        shuffle.check_shuffle(ctx + b"shuffle", out.points, p, binding=binding, writer=writer)
        out.points, out.shuffle_key, big_t = p.points, p.key, p.key
    if text.rekey is not None:
        r, blob = _decode_rekey(text.rekey, "the re-key pass", n)
        if big_u is None or big_t is None:
            raise SealError("passes", said(N_("a re-key pass with no normalising and shuffle pass before it")))
        k = check_global(ctx + b"rekey", big_u, big_t, blob)
        sc.check_rekey(ctx + b"rekey", out.points, k, r)
        out.points, out.commits = r.points, r.commits
    return out
