"""The sealed deck's test vectors (``docs/sealed-deck.md`` section 10), made from a seeded source.

``python -m agility_cli.record.sealed.vectors`` prints them as the page shows them; the tests check
that the code still makes them byte for byte, so a change of encoding or of a pass cannot slip by.
"""

from __future__ import annotations

from typing import Any

from . import crypto as sc
from . import shuffle
from .deck import context

GAME = "00" * 32
CARDS = ("t01", "t02", "t03")  # the first three cards of the standard set
SEED = 2026


def vectors() -> dict[str, Any]:
    """Every intermediate value of a three-card deal, hex-encoded."""
    source = sc.SeededSource(SEED)
    points = [sc.card_point(GAME, "cards", c) for c in CARDS]
    ctx = bytes.fromhex(GAME) + b"cards"
    p1, a, perm1 = sc.shuffle_pass(ctx + b"deal-1", points, source)
    p2, b, perm2 = sc.shuffle_pass(ctx + b"deal-2", p1.points, source)
    r3, akeys = sc.rekey_pass(ctx + b"deal-3", p2.points, a, source)
    r4, bkeys = sc.rekey_pass(ctx + b"deal-4", r3.points, b, source)
    order = [CARDS[perm1[perm2[i]]] for i in range(len(CARDS))]
    holder = sc.unlock(r4.points[0], bkeys[0])  # position 0 as alice holds it: bob's key off
    statements = sc.face_down_statements(r3.commits[0], holder, points)
    claim = sc.prove_one_of(ctx + b"claim", statements, CARDS.index(order[0]), akeys[0], source)
    # Section 5's re-mask: alice draws position 1 from bob's window (her key for it published).
    x = sc.unlock(r4.points[1], akeys[1])
    r = source.scalar()
    y, big_r = sc.mul(r, x), sc.mul_base(r)
    remask_proof = sc.prove_equal(context(GAME, "cards", "remask #1"), sc.Statement(sc.BASE, big_r, x, y), r, source)
    z = sc.mul(sc.inverse(bkeys[1]), y)
    unmask_proof = sc.prove_equal(context(GAME, "cards", "unmask #1"), sc.Statement(sc.BASE, r4.commits[1], z, y),
                                  bkeys[1], source)
    assert sc.unlock(z, r) == points[CARDS.index(order[1])]
    hx = bytes.hex
    return {
        "game": GAME,
        "card points": {c: hx(p) for c, p in zip(CARDS, points)},
        "deal-1 key K=a·G": hx(p1.key),
        "deal-1 points": [hx(p) for p in p1.points],
        "deal-1 proof": hx(p1.proof),
        "deal-2 key K=b·G": hx(p2.key),
        "deal-2 points": [hx(p) for p in p2.points],
        "deal-2 proof": hx(p2.proof),
        "deal-3 points": [hx(p) for p in r3.points],
        "deal-3 commitments": [hx(p) for p in r3.commits],
        "deal-3 proofs": [hx(p) for p in r3.proofs],
        "deal-4 points": [hx(p) for p in r4.points],
        "deal-4 commitments": [hx(p) for p in r4.commits],
        "deal-4 proofs": [hx(p) for p in r4.proofs],
        "alice's keys": [hx(k) for k in akeys],
        "bob's keys": [hx(k) for k in bkeys],
        "deck order (positions 0, 1, 2)": order,
        "position 0 under alice's key alone": hx(holder),
        "claim (position 0 is one of the three cards)": hx(claim),
        "re-mask of position 1 (\"remask #1\"): X = position 1 without alice's key": hx(x),
        "re-mask key r": hx(r),
        "re-mask Y = r·X, R = r·G, proof": [hx(y), hx(big_r), hx(remask_proof)],
        "unmask (\"unmask #1\") Z = Y without bob's key, proof": [hx(z), hx(unmask_proof)],
    }


def shuffle_vectors() -> dict[str, Any]:
    """R42, format 4: the three cards' ``deal-1`` pass with its binding proof (section 3), and a
    re-key pass whose Chaum–Pedersen nonces are drawn over the statement (section 2), from a
    seeded source whose proof nonces are a keyed hash of each statement."""
    source = sc.SeededSource(SEED, "sealed format 4", statement_nonces=True)
    points = [sc.card_point(GAME, "cards", c) for c in CARDS]
    p1, a, perm = shuffle.shuffle_pass(context(GAME, "cards", "deal-1"), points, source, binding=True)
    r, keys = sc.rekey_pass(context(GAME, "cards", "deal-3"), p1.points, a, source)
    hx = bytes.hex
    proof = [p1.proof[i : i + 32] for i in range(0, len(p1.proof), 32)]
    n = len(CARDS)
    return {
        "format-4 deal-1 (context: game ‖ cards ‖ deal-1) key K=a·G": hx(p1.key),
        "format-4 deal-1 order (output i is input perm[i])": [str(j) for j in perm],
        "format-4 deal-1 points": [hx(p) for p in p1.points],
        "format-4 deal-1 proof c_1..c_3": [hx(x) for x in proof[:n]],
        "format-4 deal-1 proof ĉ_1..ĉ_3": [hx(x) for x in proof[n : 2 * n]],
        "format-4 deal-1 proof e, s1, s2, s3, s4": [hx(x) for x in proof[2 * n : 2 * n + 5]],
        "format-4 deal-1 proof ŝ_1..ŝ_3": [hx(x) for x in proof[2 * n + 5 : 3 * n + 5]],
        "format-4 deal-1 proof s'_1..s'_3": [hx(x) for x in proof[3 * n + 5 :]],
        "format-4 deal-3 (with a's key, nonces over the statement) proofs": [hx(x) for x in r.proofs],
        "format-4 deal-3 keys": [hx(k) for k in keys],
    }


def markdown(table: dict[str, Any] | None = None) -> str:
    """The vectors as the block of ``docs/sealed-deck.md`` (``table``: another set, such as
    :func:`shuffle_vectors`)."""
    out = ["```text"]
    for name, value in (vectors() if table is None else table).items():
        if isinstance(value, dict):
            out.append(f"{name}:")
            out += [f"  {k}: {v}" for k, v in value.items()]
        elif isinstance(value, list):
            out.append(f"{name}:")
            out += [f"  {v}" for v in value]
        else:
            out.append(f"{name}: {value}")
    out.append("```")
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown())
    print()
    print(markdown(shuffle_vectors()))
