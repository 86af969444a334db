"""The benchmark's batch work (``python -m agility_cli.cli.bench strength|cluster``), run through
the executor seam (:mod:`players.batch`): the search levels' strength matches, and what running on a
process pool or a Dask cluster costs against one process (issue 36)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable


STRENGTH_MATCHES = ("strong:greedy", "cheat:strong:greedy", "strong1:greedy", "strong2:strong1", "strong3:strong2")


def contenders(spec: str) -> tuple[str, str]:
    """The two contenders of a match ``A:B``, either of them ``cheat:LEVEL`` or ``peek:LEVEL``
    (``cheat:strong3:strong2``, ``cheat:strong3:peek:strong2``)."""
    words = spec.split(":")
    names = []
    while words:
        take = 2 if words[0] in ("cheat", "peek") and len(words) > 1 else 1
        names.append(":".join(words[:take]))
        words = words[take:]
    if len(names) != 2:
        raise SystemExit(f"a match is A:B (either may be cheat:LEVEL or peek:LEVEL), not {spec!r}")
    return names[0], names[1]


def bench_strength(matches: list[str], games: int, seed: int, start: int = 0, where: Any = None,
                   journal: Path | None = None) -> list[dict[str, Any]]:
    """Each ``A:B`` of ``matches`` (A may be ``cheat:LEVEL``) over ``games`` games, through
    ``where`` (a :class:`batch.Where`: one core by default); ``journal``: a folder keeping each
    match's finished games (``A:B.jsonl``), so that the same command run again plays only the rest."""
    from ..players import batch, cheat

    where = where or batch.Where()
    if journal is not None:
        journal.mkdir(parents=True, exist_ok=True)
    out = []
    for spec in matches:
        a, b = contenders(spec)
        def tick(index: int, so_far: "cheat.MatchResult") -> None:
            print(f"{spec}: game {index + 1}/{start + games}, {so_far.wins_a} of {so_far.games} won by {a}",
                  file=sys.stderr, flush=True)

        book = None if journal is None else journal / f"{spec}.jsonl"
        out.append(cheat.play_match(a, b, games, seed, progress=tick, start=start, where=where, journal=book).summary()
                   | {"first_game": start})
        print(json.dumps(out[-1]), file=sys.stderr, flush=True)  # a long run: each match as it ends
    return out


def _where(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The ``--jobs``/``--cluster`` of a subcommand as a :class:`batch.Where` (a usage error: exit 2)."""
    from ..engine.notation import UsageError
    from ..said import message_of, tell
    from ..players import batch

    where = batch.Where(jobs=args.jobs if args.jobs > 0 else (os.cpu_count() or 1), cluster=args.cluster)
    try:
        batch.check_where(where)
    except UsageError as exc:
        parser.exit(2, f"{parser.prog}: {tell(message_of(exc))}\n")  # in the language in use
    return where


def _add_where(parser: argparse.ArgumentParser) -> None:
    from ..players.batch import CLUSTER_HELP

    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes here (0: one per CPU; default 1)")
    parser.add_argument("--cluster", metavar="ADDRESS", help=CLUSTER_HELP.replace("%", "%%"))


def _batch_errors(parser: argparse.ArgumentParser, run: Callable[[], None]) -> None:
    """``run()``, a cluster that cannot go on said in one line with exit 2 (never a traceback)."""
    from ..engine.notation import UsageError
    from ..said import message_of, tell

    try:
        run()
    except UsageError as exc:
        parser.exit(2, f"{parser.prog}: {tell(message_of(exc))}\n")  # in the language in use
    except KeyboardInterrupt:
        from ..i18n import _

        parser.exit(130, _("{program}: interrupted").format(program=parser.prog) + "\n")


def strength_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m agility_cli.cli.bench strength",
                                     description="The search levels' matches (wins, 95 % interval, thinking time).")
    parser.add_argument("--games", type=int, default=200, help="games a match (default 200: hours)")
    parser.add_argument("--seed", type=int, default=1, help="master seed of the games (default 1)")
    parser.add_argument("--match", action="append", help="A:B, repeatable (default: the ladder and the bound)")
    parser.add_argument("--start", type=int, default=0,
                        help="the first game's index (default 0): --start 38 goes on with a run stopped after 38 games")
    parser.add_argument("--journal", type=Path, metavar="DIR",
                        help="keep each finished game in DIR/A:B.jsonl; the same command again plays only the rest")
    _add_where(parser)
    args = parser.parse_args(argv)
    if args.start < 0 or args.games < 1:
        parser.error("--start must be 0 or more and --games 1 or more")
    where = _where(parser, args)
    _batch_errors(parser, lambda: print(json.dumps(
        bench_strength(args.match or list(STRENGTH_MATCHES), args.games, args.seed, args.start, where, args.journal),
        indent=2)))


def noop(task: int) -> int:
    """A task that does nothing: what the pool or the cluster costs by itself."""
    return task


def _timed_batch(fn: Callable[[Any], Any], tasks: list[tuple[int, Any]], where: Any) -> tuple[list[Any], float, float, float]:
    """The results in index order, the seconds to the first result (the pool's or the cluster's
    start and one task), from the first result to the last, and in all."""
    from ..players import batch

    t0 = time.perf_counter()
    marks: list[float] = []
    results: dict[int, Any] = {}
    for index, result in batch.run_batch(fn, tasks, where):
        marks.append(time.perf_counter())
        results[index] = result
    return [results[i] for i in sorted(results)], marks[0] - t0, marks[-1] - marks[0], marks[-1] - t0


def bench_cluster(games: int = 40, strategy: str = "greedy", vs: str = "greedy", tasks: int = 200) -> dict[str, Any]:
    """Self-play through the executor seam with ``--jobs 1``, ``--jobs 2`` and ``--cluster local:2``:
    games a second in all (the pool's or the cluster's start included) and from the first game's
    result to the last, the statistics checked equal; and the overhead per task of the pool and of
    the cluster: ``tasks`` tasks that do nothing, from the first result to the last, a task."""
    from ..players import batch
    from ..players import selfplay as sp

    places = {"jobs 1": batch.Where(jobs=1), "jobs 2": batch.Where(jobs=2), "cluster local:2": batch.Where(cluster="local:2")}
    out: dict[str, Any] = {"games": games, "strategy": strategy, "vs": vs, "cpus": os.cpu_count()}
    summaries = []
    for name, where in places.items():
        _, _, empty, _ = _timed_batch(noop, [(i, i) for i in range(tasks)], where)
        config = sp.Config(games=games, strategy=strategy, vs=vs, seed=1, board="mixed", jobs=where.jobs,
                           cluster=where.cluster)
        sp.check(config)
        results, start, rest, wall = _timed_batch(sp._play_task, [(i, (config, i)) for i in range(games)], where)
        summary = sp.summarize(config, results)
        summary.pop("thinking")
        summaries.append(summary)
        out[name] = {"seconds": wall, "games_per_s": games / wall, "first_game_s": start,
                     "games_per_s_after_first": (games - 1) / max(rest, 1e-9),
                     "overhead_per_task_ms": 1000 * empty / (tasks - 1)}
    out["same_statistics"] = all(s == summaries[0] for s in summaries)
    return out


def cluster_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m agility_cli.cli.bench cluster",
                                     description="Self-play games a second with --jobs 1, --jobs 2 and --cluster local:2, "
                                                 "and the overhead per task (issue 36).")
    parser.add_argument("--games", type=int, default=40, help="games for each (default 40)")
    parser.add_argument("--strategy", default="greedy", help="strategy A (default greedy)")
    parser.add_argument("--vs", default="greedy", help="strategy B (default greedy)")
    parser.add_argument("--tasks", type=int, default=200, help="empty tasks for the overhead (default 200)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.tasks < 2:
        parser.error("--games must be 1 or more and --tasks 2 or more")
    _batch_errors(parser, lambda: print(json.dumps(bench_cluster(args.games, args.strategy, args.vs, args.tasks),
                                                   indent=2)))
