"""The review's false marks (``python -m agility_cli.cli.bench review-marks``): is each mark beyond
the search's noise?  A long benchmark, never a test.

Self-play games between the search levels (those of :mod:`benchcal`, on a seed of their own: the
calibration map was fitted on seed 1) are reviewed as ``agility analyse`` reviews them.  Every
marked decision is judged again by a search of ``LONG`` times the review's simulations and worlds,
from the same view (the decider's, with what it had seen), on worlds of its own.  A mark is
**false** when that long search puts the played decision within the mark's threshold of the best.
Printed: the marks, the false ones with their share and its 95 % (Wilson) interval, and the marks
given to a decision the hint (the strong level, as ``agility hint`` at that line) called the best
or about equal to the best, with how many of those the long search confirms.  ``--rule loss``
measures the rule before issue 53 (a mark by the loss alone, no longer look), the figure the
docs quote beside today's.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

LONG = 10  # the re-judging search: this many times the review's simulations and worlds


def marks_of_game(task: tuple[int, int, int, int, bool]) -> list[dict[str, Any]]:
    """Game ``index`` of the run of ``seed``: each mark of its review, judged again (a batch task)."""
    from ..engine.rng import Rng
    from ..players import paired
    from ..record import gamefile
    from ..table import review
    from .benchcal import selfplay_game

    index, seed, sims, worlds, strict = task
    game = selfplay_game(index, seed)
    if game is None:
        return []
    data, path = game
    judge = review._Judge(sims, worlds, seed, strict=strict)
    out = []
    for item in gamefile.verify(data, path, keep_before=True):
        if isinstance(item, gamefile.Start):
            judge.start(item)
            continue
        if item.move is None or item.before is None:
            continue
        seat = item.before.to_act
        assert seat is not None
        seen = judge.seen.seen(seat)  # what the decider had seen, before the judge takes the step in
        v = judge.step(item, True)
        if v is None or v.mark is None:
            continue
        hint = v.hint if strict else judge._hint(v.line, item.before, item.move)
        rng = Rng.for_purpose(seed, f"review-marks:{index}:{v.line}")
        long_worlds = paired.draw(item.before, seat, seen, rng, LONG * worlds)
        found = paired.judge(item.before, item.move, long_worlds, LONG * sims, rng)
        chance, played, _, _ = judge._mapped(found, False)
        long_loss = max(0.0, chance - played)
        out.append({"game": index, "line": v.line, "mark": v.mark, "loss": v.loss, "low": v.low,
                    "looked": v.looked, "hint": hint, "long_loss": round(long_loss, 4),
                    "false": long_loss < review.THRESHOLDS[v.mark]})
    return out


def summarise(rows: list[dict[str, Any]], games: int) -> dict[str, Any]:
    from ..players.selfplay import wilson

    false = sum(r["false"] for r in rows)
    hinted = [r for r in rows if r["hint"] is not None]
    lo, hi = wilson(false, len(rows)) if rows else (0.0, 1.0)
    return {"games": games, "marks": len(rows), "false_marks": false,
            "false_share": round(false / len(rows), 4) if rows else None,
            "false_share_95": [round(lo, 4), round(hi, 4)],
            "by_mark": {m: sum(r["mark"] == m for r in rows) for m in ("inaccuracy", "mistake", "blunder")},
            "marked_though_the_hint_agreed": len(hinted),
            "of_those_confirmed_by_the_long_search": sum(not r["false"] for r in hinted)}


def main(argv: list[str]) -> None:
    from ..players import batch
    from ..table import review

    parser = argparse.ArgumentParser(
        prog="python -m agility_cli.cli.bench review-marks",
        description="The share of the review's marks a search of 10x its budget calls false.",
        epilog="Example: python -m agility_cli.cli.bench review-marks --games 60 --seed 9 --jobs 2")
    parser.add_argument("--games", type=int, default=60, help="self-play games (default 60)")
    parser.add_argument("--first", type=int, default=0, help="the first game's index (default 0)")
    parser.add_argument("--seed", type=int, default=9, help="master seed (default 9; the map was fitted on 1)")
    parser.add_argument("--simulations", type=int, default=review.DEFAULT_SIMULATIONS, help="the review's tree search")
    parser.add_argument("--worlds", type=int, default=review.DEFAULT_WORLDS, help="the review's common worlds")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result is the same)")
    parser.add_argument("--rule", choices=("noise", "loss"), default="noise",
                        help="noise: today's marks; loss: the rule before, a mark by the loss alone")
    parser.add_argument("--data", help="keep the figures and the marks here (JSON)")
    args = parser.parse_args(argv)
    if not (1 <= args.games <= 100_000 and 0 <= args.first <= 100_000 and 1 <= args.simulations <= 100_000 and 1 <= args.worlds <= 10_000
            and 1 <= args.jobs <= 64):
        raise SystemExit("--games, --simulations, --worlds and --jobs count from 1")
    tasks = [(i, (i, args.seed, args.simulations, args.worlds, args.rule == "noise")) for i in range(args.first, args.first + args.games)]
    done: dict[int, list[dict[str, Any]]] = {}
    for index, found in batch.run_batch(marks_of_game, tasks, batch.Where(jobs=args.jobs)):
        done[index] = found
        sys.stderr.write(json.dumps({"game": index, "marks": found}) + "\n")  # a stopped run keeps what it found
        sys.stderr.write(f"review-marks: {len(done)} of {args.games} games, {sum(map(len, done.values()))} marks\n")
        sys.stderr.flush()
    rows = [r for i in sorted(done) for r in done[i]]
    summary = summarise(rows, args.games)
    summary.update({"seed": args.seed, "simulations": args.simulations, "worlds": args.worlds, "rule": args.rule,
                    "long_search": {"simulations": LONG * args.simulations, "worlds": LONG * args.worlds}})
    if args.data:
        from pathlib import Path

        Path(args.data).write_text(json.dumps({"summary": summary, "marks": rows}, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2))
