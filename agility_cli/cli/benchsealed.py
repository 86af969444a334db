"""Benchmarks of the sealed deck (R42–R44), run by ``python -m agility_cli.cli.bench sealed``:

* per game (sealed self-play, ``players.sealedplay``): lines, keys lines, round trips, re-masks,
  reshuffle steps, the bytes of the whole file and of its largest line (the largest mail: a line is
  sent once, and ``agility send``'s armour adds about a third), and the CPU per decision of the
  writer and of each reader — for format 4 (binding shuffle proofs, what ``new`` writes) beside
  format 3 (the sum proofs of files made before it), on the same seeds;
* per pass: a shuffle pass of every size the game meets (a hand of 3, the 15 dogs, a discard pile,
  the 39 training cards) — the proof's bytes, the CPU to prove it and to verify it, format 4 beside
  format 3; the budget is a 39-card pass verified in 0.3 s.
"""

from __future__ import annotations

import statistics
from typing import Any

import msgspec

from ..engine.components import standard_components

#: The piles a permutation pass meets: a hand, a discard pile, the dogs, the training cards.
PASS_SIZES = (3, 10, 15, 39)


def bench_passes(runs: int = 5) -> dict[str, Any]:
    """For each pile size of :data:`PASS_SIZES`: bytes of the pass as written (base64), CPU to make
    and to check it (the median of ``runs``), format 4's binding proof beside format 3's sum proof."""
    from ..record.sealed import shuffle

    return {f"{n} points": shuffle.pass_cost(n, runs) for n in PASS_SIZES}


def _game_rows(games: int, seed: int, window: int, file_format: int) -> list[dict[str, Any]]:
    from ..players import sealedplay

    rows = []
    for index in range(games):
        header, game, secrets = sealedplay.seeded_game(seed, window, index=index, file_format=file_format)
        played = sealedplay.play(header, standard_components(), game, secrets, "greedy", header.seed or 0)
        lines = [len(msgspec.json.encode(line.seal)) for line in played.lines]
        header_bytes = len(msgspec.json.encode(header))
        setup = [len(msgspec.json.encode(seal)) for _, _, seal in played.setup]
        rows.append({**played.counts, "decisions": played.decisions,
                     "seal_bytes_a_game": header_bytes + sum(setup) + sum(lines),
                     "largest_seal_bytes": max([header_bytes, *setup, *lines]),
                     "write_ms": 1000 * played.cpu["write"] / played.decisions,
                     "verify_ms": 1000 * played.cpu["verify"] / played.decisions / 3})
    return rows


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in rows[0]:
        values = [row[key] for row in rows]
        out[key] = {"median": statistics.median(values), "mean": statistics.fmean(values), "max": max(values)}
    out["games_with_a_remask"] = sum(1 for row in rows if row["re-masks"])
    return out


def bench_sealed(games: int, seed: int, window: int, formats: tuple[int, ...] = (4, 3)) -> dict[str, Any]:
    """``games`` sealed self-play games (greedy, mixed boards) in each file format of ``formats``, on
    the same seeds, and the cost of one pass of each pile size.  The bytes are those of the seals
    and the header as JSON (a line's envelope — its number, hash, digest and signature — adds about
    300 bytes); the largest line is the largest mail's payload before armour."""
    out: dict[str, Any] = {"games": games, "window": window}
    for file_format in formats:
        out[f"format {file_format}"] = _summary(_game_rows(games, seed, window, file_format))
    if len(formats) == 2:
        a, b = (out[f"format {f}"] for f in formats)
        out["ratio_seal_bytes_a_game"] = a["seal_bytes_a_game"]["median"] / b["seal_bytes_a_game"]["median"]
        out["ratio_largest_seal"] = a["largest_seal_bytes"]["max"] / b["largest_seal_bytes"]["max"]
    out["passes"] = bench_passes()
    return out
