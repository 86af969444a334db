"""The benchmark: ``python -m agility_cli.cli.bench [--runs N] [--json]``.

Prints medians over several runs (the machines are noisy: compare ratios, not single numbers):

* replay throughput — decisions per second with every line fully verified (JSON, schema, ``n``,
  hash chain, owner, legality, digest), on the fair golden games in ``games/`` and on a long game;
  against its floor (the same lines parsed and hashed); the sealed golden game verified;
* legal-move generation rate over states met in real games;
* wall time of ``agility show`` and ``agility move`` on a finished game, and on a finished sealed
  game (played through the CLI between two data directories first, a minute or two), against a
  bare ``python -c "import typer, rich, msgspec"`` measured in the same run, as ratios;
* peak memory replaying a 10,000-decision file (peak RSS of a child process, and the Python heap
  peak measured by tracemalloc, which is what grows with the file if anything does);
* greedy-vs-greedy self-play games per second on one core;
* the search bot's path (CPU time, so less sensitive to a loaded machine): decisions per second of
  whole random playouts (``legal_moves`` + ``apply``), ``State.copy`` per second, and search
  simulations per second from a mid-game state, with the resulting time of one ``strong`` decision;
* ``strength`` (a subcommand, ``python -m agility_cli.cli.bench strength [--games N]``, long:
  minutes a game at the top level): the search levels' matches — ``strong`` against ``greedy``,
  the cheating search (``players.cheat``, every card in view: a bound, never a player) against
  ``greedy`` at the same budget, and each level against the one below — with wins, the 95 %
  Wilson interval and the CPU thinking time per decision (mean, 95th percentile);
* ``cluster`` (a subcommand, ``python -m agility_cli.cli.bench cluster [--games N]``, issue 36):
  self-play games a second through :mod:`players.batch` with ``--jobs 1``, ``--jobs 2`` and
  ``--cluster local:2``, and the overhead per task of the pool and of the cluster;
* ``sealed`` (a subcommand, ``python -m agility_cli.cli.bench sealed [--games N] [--window K]
  [--format 3|4]``, :mod:`cli.benchsealed`): sealed self-play games — round trips a game, keys
  lines, bytes a game and its largest line, CPU per decision of the writer and of each reader,
  format 4 beside format 3 — and the bytes and CPU of one shuffle pass of each pile size;
* hostile input that once took quadratic time (a mail of 320,000 short lines after an unfinished
  game line, a 1 MB line typed into ``agility play``): seconds, to show they stay small.

Targets (issue 6): replay ≥ 50,000 decisions/s; show and move ≤ 1.5× the bare import; replay
memory ≤ 100 MB at 10,000 decisions and flat in the number of lines; greedy self-play ≥ 20 games/s.
Issue 35: replay ≤ 5× the parse+hash floor.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from ..i18n import N_, _
from ..record import gamefile
from ..said import Said, said, tell
from ..engine import rules
from ..engine.components import standard_components
from ..engine.moves import Adopt, Advance, Header, Move
from ..engine.rng import Rng
from ..engine.state import State
from .benchinput import HOSTILE_SHAPES, bench_hostile_input, bench_mailbox, median_time as _median_time

ROOT = Path(__file__).resolve().parents[2]




def _write_game(path: Path, seed: int, choose: Callable[[State, Rng], Move], limit: int) -> int:
    """Write a game file whose decisions ``choose`` makes; returns the number of decisions."""
    from ..players.selfplay import write_game

    if path.exists():
        path.unlink()
    header = gamefile.make_header(
        seed=seed, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD, components=None
    )
    state = rules.setup(header, standard_components())
    rng = Rng.for_purpose(seed, "bench")
    moves: list[Move] = []
    while state.winner is None and len(moves) < limit:
        m = choose(state, rng)
        moves.append(m)
        rules.apply_in_place(state, m)
    write_game(path, header, moves)
    return len(moves)


def _stalling(state: State, rng: Rng) -> Move:
    """Random decisions that never adopt or advance: a legal game that goes on for ever."""
    legal = [m for m in rules.legal_moves(state) if not isinstance(m, (Adopt, Advance))]
    return legal[rng.below(len(legal))]


def _greedy(state: State, rng: Rng) -> Move:
    from ..players import bots

    return bots.choose("greedy", state, rng)


def bench_replay(files: list[Path], runs: int) -> dict[str, Any]:
    datas = [(p, p.read_bytes()) for p in files]
    decisions = sum(d.count(b"\n") - 1 for _, d in datas)

    def replay_all() -> None:
        for p, d in datas:
            gamefile.load_bytes(d, str(p))

    t = _median_time(replay_all, runs)
    return {"files": len(files), "decisions": decisions, "seconds": t, "decisions_per_s": decisions / t}


def fair_games(files: list[Path]) -> list[Path]:
    """The files of ``files`` that are not sealed games (R42)."""
    from ..record.lines import sealed_header

    return [p for p in files if not sealed_header(p.read_bytes())]


def bench_floor(files: list[Path], rounds: int) -> dict[str, Any]:
    """Replay of ``files`` against its floor: every line of them parsed (``json.loads``; for
    ``ratio_msgspec`` the line decoder, in C) and hashed (SHA-256), nothing checked.  Timed in turn,
    round after round in this process (the same load on each); a ratio is the median of the rounds'."""
    import hashlib

    from ..engine.moves import LINE_DECODER

    datas = [(p, p.read_bytes()) for p in files]
    rows = [raw for _, d in datas for raw in d.split(b"\n") if raw]

    def floor(parse: Callable[[bytes], Any]) -> None:
        for raw in rows:
            parse(raw)
            hashlib.sha256(raw).hexdigest()

    measures: dict[str, Callable[[], Any]] = {
        "replay": lambda: [gamefile.load_bytes(d, str(p)) for p, d in datas],
        "floor": lambda: floor(json.loads), "floor_msgspec": lambda: floor(LINE_DECODER.decode)}
    measures["replay"]()  # warm: the component set, the decoders
    times: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, fn in measures.items():
            times[name].append(_median_time(fn, 1))
    decisions, t = sum(d.count(b"\n") - 1 for _, d in datas), statistics.median(times["replay"])
    return {"files": len(files), "decisions": decisions, "lines": len(rows), "replay_decisions_per_s": decisions / t,
            "floor_decisions_per_s": decisions / statistics.median(times["floor"]),
            **{name.replace("floor", "ratio"): statistics.median(r / f for r, f in zip(times["replay"], times[name]))
               for name in ("floor", "floor_msgspec")}}


def bench_sealed_verify(path: Path, runs: int) -> dict[str, Any]:
    """A sealed game (R42) verified as a spectator (no seal secret, no checkpoint): every proof
    checked with libsodium; decisions per second (PyNaCl's import left out by a first run)."""
    data = path.read_bytes()
    decisions = sum(1 for item in gamefile.verify(data, str(path), held={}) if getattr(item, "move", None) is not None)
    t = _median_time(lambda: [item for item in gamefile.verify(data, str(path), held={})], runs)
    return {"lines": data.count(b"\n"), "decisions": decisions, "seconds": t, "decisions_per_s": decisions / t}


def bench_legal(files: list[Path], runs: int) -> dict[str, Any]:
    states = []
    for p in files:
        for item in gamefile.iter_game(p.read_bytes(), str(p)):
            if not isinstance(item, Header):
                states.append(item.after.copy())
    t = _median_time(lambda: [rules.legal_moves(s) for s in states], runs)
    return {"states": len(states), "calls_per_s": len(states) / t}


def _child_peak(path: Path) -> dict[str, float]:
    code = (
        "import resource, sys, tracemalloc\n"
        "from agility_cli.record import changes\n"
        "tracemalloc.start()\n"
        f"g = changes.load({str(path)!r})\n"
        "cur, peak = tracemalloc.get_traced_memory()\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, peak)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return {"peak_rss_mb": int(out[0]) / 1024, "heap_peak_mb": int(out[1]) / 2**20}


def bench_memory(tmp: Path) -> dict[str, Any]:
    small, big = tmp / "m1000.jsonl", tmp / "m10000.jsonl"
    _write_game(small, 5, _stalling, 1_000)
    n = _write_game(big, 5, _stalling, 10_000)
    a, b = _child_peak(small), _child_peak(big)
    return {
        "decisions": n,
        "file_mb": big.stat().st_size / 2**20,
        "peak_rss_mb": b["peak_rss_mb"],
        "heap_peak_mb": b["heap_peak_mb"],
        "heap_peak_mb_at_1000": a["heap_peak_mb"],
        "long_file": str(big),
    }


def _run_quiet(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


def bench_cli(finished: Path, runs: int, sealed: tuple[Path, Path] | None = None) -> dict[str, Any]:
    """Median wall times of ``show`` and ``move`` on a finished game and of the bare import; with
    ``sealed`` (a finished sealed game and its player's data directory), of those two on it too.

    The commands are timed in turn, round after round, so that the machine's drifting load
    weighs on all of them alike.  Bytecode writing is allowed (an installed package has its
    ``.pyc`` files; with PYTHONDONTWRITEBYTECODE the project's modules would be recompiled on every
    run while the libraries' stay compiled), and a warm-up round writes it (and, for the sealed
    game, the checkpoint of its verified bytes that the player's own commands keep).
    """
    exe = [sys.executable, "-m", "agility_cli"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"NO_COLOR": "1"}
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "bare": ([sys.executable, "-c", "import typer, rich, msgspec"], env),
        "show": ([*exe, "show", str(finished)], env),
        "move": ([*exe, "move", str(finished), "done"], env),
    }
    if sealed is not None:
        home = env | {"AGILITY_HOME": str(sealed[1])}
        commands["show_sealed"] = ([*exe, "show", str(sealed[0])], home)
        commands["move_sealed"] = ([*exe, "move", str(sealed[0]), "done"], home)
    for cmd, cmd_env in commands.values():
        _run_quiet(cmd, cmd_env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, cmd_env) in commands.items():
            times[name].append(_run_quiet(cmd, cmd_env))
    median = {name: statistics.median(values) for name, values in times.items()}
    out = {"bare_import_s": median["bare"], "decisions_in_file": finished.read_bytes().count(b"\n") - 1}
    for name in commands:
        if name != "bare":  # the ratio of each round (the same load on both), then their median
            out[f"{name}_s"] = median[name]
            out[f"{name}_ratio"] = statistics.median(t / b for t, b in zip(times[name], times["bare"]))
    return out


def sealed_cli_game(folder: Path) -> tuple[Path, Path]:
    """A whole sealed game (R42) played through the CLI between two data directories, as two
    people play it by mail: ``new``, ``join``, then each turn ``bot`` on the player's own machine,
    ``send`` and ``apply``; returns alice's copy of the finished game and her data directory."""
    exe = [sys.executable, "-m", "agility_cli"]
    machines = {name: (folder / name / "game.jsonl", folder / f"{name}-home") for name in ("alice", "bob")}
    for file, home in machines.values():
        file.parent.mkdir(parents=True)

    def agility(name: str, *args: str, feed: str | None = None) -> str:
        file, home = machines[name]
        env = {k: v for k, v in os.environ.items() if k != "AGILITY_PLAYER"} | {"AGILITY_HOME": str(home)}
        done = subprocess.run([*exe, *args], input=feed, capture_output=True, text=True, env=env, cwd=file.parent)
        if done.returncode != 0:
            raise RuntimeError(f"agility {' '.join(args)} on {name}'s machine: exit {done.returncode}: {done.stderr}")
        return done.stdout

    def mail(src: str, dst: str) -> None:
        sent = agility(src, "send", "game.jsonl")
        if sent.strip():
            agility(dst, "apply", "game.jsonl", "-", feed=sent)

    agility("alice", "new", "game.jsonl", "--players", "alice", "bob")
    agility("bob", "apply", "game.jsonl", "-", feed=machines["alice"][0].read_text())
    agility("alice", "apply", "game.jsonl", "-", feed=agility("bob", "join", "game.jsonl"))
    current = "alice"
    for _ in range(2000):
        state = json.loads(agility(current, "show", "game.jsonl", "--json"))
        pending = state["sealed"]["audit_pending"]
        if state["status"] == "finished" and not pending:
            break
        who = pending[0] if state["status"] == "finished" else state["to_act"]
        if who == current and state["status"] == "playing" and "awaiting_keys" not in state:
            agility(current, "bot", "game.jsonl", "--moves", "100")
            continue
        other = "bob" if current == "alice" else "alice"
        mail(current, other)
        current = other
    else:
        raise RuntimeError("the sealed benchmark game did not finish")
    mail(current, "bob" if current == "alice" else "alice")
    return machines["alice"]


def bench_selfplay(games: int) -> dict[str, Any]:
    from ..players import bots

    comps = standard_components()
    t0 = time.perf_counter()
    decisions = 0
    for i in range(games):
        header = gamefile.make_header(
            seed=i, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD, components=None
        )
        state = rules.setup(header, comps)
        rng = Rng.for_purpose(i, "bench-selfplay")
        while state.winner is None:
            rules.apply_in_place(state, bots.choose("greedy", state, rng))
            decisions += 1
    t = time.perf_counter() - t0
    return {"games": games, "games_per_s": games / t, "decisions_per_game": decisions / games}


def midgame_state(seed: int = 3, decisions: int = 60) -> State:
    """A state ``decisions`` greedy decisions into a game, at a decision with a real choice."""
    from ..players import bots

    header = gamefile.make_header(
        seed=seed, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD, components=None
    )
    state = rules.setup(header, standard_components())
    rng = Rng.for_purpose(seed, "bench-midgame")
    n = 0
    while n < decisions or len(rules.legal_moves(state)) < 3 or state.phase != "play":
        rules.apply_in_place(state, bots.choose("greedy", state, rng))
        n += 1
    return state


def bench_review(runs: int, decisions: int = 30) -> dict[str, Any]:
    """``agility analyse``: CPU time per decision reviewed at the default budget (the first
    ``decisions`` decisions of a golden game, one process)."""
    from ..table import review

    path = ROOT / "games" / "v2-intimidation-discard-at-once.jsonl"
    data = path.read_bytes()
    lines = review.decision_lines(data, str(path))[:decisions]
    times = []
    for _ in range(max(1, runs // 2)):
        t = time.process_time()
        for line in lines:
            review._verdict(data, str(path), line, review.DEFAULT_SIMULATIONS, 0)
        times.append((time.process_time() - t) / len(lines))
    return {"decision_ms": 1000 * statistics.median(times), "simulations": review.DEFAULT_SIMULATIONS,
            "worlds": review.DEFAULT_WORLDS}


def bench_search(runs: int, sims: int = 300) -> dict[str, Any]:
    """Simulations per second of the search bot from a mid-game state (CPU time, one core)."""
    from ..players import search

    state = midgame_state()
    seat = state.to_act
    assert seat is not None
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        search.analyse(state, seat, Rng(1), search.Budget(sims=sims))
        times.append(time.process_time() - t0)
    t = statistics.median(times)
    return {"sims": sims, "seconds": t, "sims_per_s": sims / t, "decision_ms_default": 1000 * t / sims * (search.LEVELS["strong"].sims or 0)}


def bench_playout(runs: int, games: int = 20) -> dict[str, Any]:
    """Decisions per second of whole random playouts: legal_moves + copy-free apply (CPU time)."""
    comps = standard_components()
    headers = [
        gamefile.make_header(seed=i, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD, components=None)
        for i in range(games)
    ]
    decisions = 0
    times = []
    for _ in range(runs):
        decisions = 0
        t0 = time.process_time()
        for i, header in enumerate(headers):
            state = rules.setup(header, comps)
            rng = Rng.for_purpose(i, "bench-playout")
            while state.winner is None:
                legal = rules.legal_moves(state)
                rules.apply_in_place(state, legal[rng.below(len(legal))])
                decisions += 1
        times.append(time.process_time() - t0)
    t = statistics.median(times)
    return {"games": games, "decisions": decisions, "decisions_per_s": decisions / t}


def bench_copy(runs: int) -> dict[str, Any]:
    """``State.copy`` calls per second on a mid-game state (CPU time)."""
    state = midgame_state()
    def copies() -> None:
        for _ in range(5000):
            state.copy()  # dropped at once, as a simulation's copy is

    t = _median_time(copies, runs)
    return {"copies_per_s": 5000 / t}


def replay_measures(golden: list[Path], runs: int) -> dict[str, Any]:
    """The fair golden games replayed, alone and against their floor, and the sealed one verified."""
    fair = fair_games(golden)
    sealed = [p for p in golden if p not in fair]
    return {"replay_golden": bench_replay(fair, runs) if fair else None,
            "replay_floor": bench_floor(fair, max(21, 3 * runs)) if fair else None,
            "sealed_verify": bench_sealed_verify(sealed[0], runs) if sealed else None}


def run(runs: int, quick: bool) -> dict[str, Any]:
    results: dict[str, Any] = {}
    golden = sorted((ROOT / "games").glob("*.jsonl"))
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        long_game = tmp / "long.jsonl"
        n_long = _write_game(long_game, 17, _greedy, 100_000)
        results |= replay_measures(golden, runs)
        results["replay_long_game"] = bench_replay([long_game], runs) | {"game_decisions": n_long}
        results["legal_moves"] = bench_legal(golden or [long_game], runs)
        results["memory"] = bench_memory(tmp)
        stall = Path(results["memory"].pop("long_file"))
        results["replay_10000"] = bench_replay([stall], max(3, runs // 2))
        results["cli"] = bench_cli(long_game, max(40, runs * 8), sealed_cli_game(tmp / "sealed"))
        results["selfplay_greedy"] = bench_selfplay(20 if quick else 100)
        results["random_playout"] = bench_playout(runs)
        results["state_copy"] = bench_copy(runs)
        results["search"] = bench_search(runs, 100 if quick else 300)
        results["hostile_input"] = bench_hostile_input(runs)
        results["mailbox"] = bench_mailbox(tmp)
        results["review"] = bench_review(runs)
        from .benchboard import bench_board

        results["board"] = bench_board(tmp)
    return results


TARGETS = [
    ("replay_golden", "decisions_per_s", ">=", 50_000, N_("replay, fair golden games (decisions/s)")),
    ("replay_floor", "ratio", "<=", 5, N_("replay ÷ parse+hash floor, fair golden games (×)")),
    ("replay_floor", "ratio_msgspec", None, None, N_("replay ÷ msgspec decode+hash, fair golden games (×)")),
    ("sealed_verify", "decisions_per_s", None, None, N_("sealed golden game verified, libsodium included (decisions/s)")),
    ("replay_long_game", "decisions_per_s", ">=", 50_000, N_("replay, long self-play game (decisions/s)")),
    ("replay_10000", "decisions_per_s", ">=", 50_000, N_("replay, 10,000-decision file (decisions/s)")),
    ("legal_moves", "calls_per_s", None, None, N_("legal_moves calls/s")),
    ("cli", "show_ratio", "<=", 1.5, N_("agility show ÷ bare import")),
    ("cli", "move_ratio", "<=", 1.5, N_("agility move ÷ bare import")),
    ("cli", "show_sealed_ratio", "<=", 1.5, N_("agility show ÷ bare import, a finished sealed game")),
    ("cli", "move_sealed_ratio", "<=", 1.5, N_("agility move ÷ bare import, a finished sealed game")),
    ("memory", "peak_rss_mb", "<=", 100, N_("peak RSS replaying 10,000 decisions (MB)")),
    ("selfplay_greedy", "games_per_s", ">=", 20, N_("greedy vs greedy (games/s, one core)")),
    ("random_playout", "decisions_per_s", None, None, N_("random playout: legal_moves + apply (decisions/s, CPU)")),
    ("state_copy", "copies_per_s", None, None, N_("State.copy of a mid-game state (copies/s)")),
    ("search", "sims_per_s", None, None, N_("search simulations/s from a mid-game state (CPU)")),
    ("search", "decision_ms_default", "<=", 1000, N_("strong: one decision at its default budget (ms, CPU)")),
    ("review", "decision_ms", None, None, N_("analyse: one decision reviewed at the default budget (ms, CPU)")),
    ("hostile_input", "mail_320000_prose_s", "<=", 2, N_("apply: unfinished line + 320,000 short lines (s)")),
    ("hostile_input", "mail_320000_braces_s", "<=", 2, N_("apply: unfinished line + 320,000 '}' lines (s)")),
    ("hostile_input", "pick_1mb_line_s", "<=", 0.1, N_("play: a 1 MB line refused (s)")),
    ("board", "redraw_ms_median", "<=", 50, N_("play's board: a redraw of every region, median of a game (ms)")),
    ("board", "redraw_ms_max", "<=", 50, N_("play's board: the slowest redraw of a game (ms)")),
    ("board", "first_board_s", "<=", 1, N_("play's board: from a new Python to the first board, 80x24 (s)")),
    ("board", "first_screen_pty_s", "<=", 1, N_("agility play on a pty of 80x24, to the first screen (s)")),
    ("mailbox", "first_scan_s", None, None, N_("play --mail: a 10,000-message mbox, first scan (s)")),
    ("mailbox", "second_scan_s", "<=", 0.2, N_("play --mail: the same mbox again, from the index (s)")),
    ("mailbox", "after_one_more_s", None, None, N_("play --mail: the mbox after one more message (s)")),
    *[("hostile_input", f"{name}_ratio", "<=", 15,
       said(N_("mail reader, {shape}: 100,000 ÷ 10,000 lines (linear: 10)"), shape=name.replace("_", " ")))
      for name in HOSTILE_SHAPES],
]


def report(results: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=_("agility benchmark (medians)"))
    table.add_column(_("measure"))
    table.add_column(_("value"), justify="right")
    table.add_column(_("target"), justify="right")
    table.add_column("", justify="center")
    for section, key, op, target, label in TARGETS:
        data = results.get(section)
        if not data:
            continue
        value = data[key]
        ok = "" if op is None else (_("ok") if (value >= target if op == ">=" else value <= target) else _("MISSED"))
        table.add_row(tell(label) if isinstance(label, Said) else _(label), f"{value:,.2f}" if value < 100 else f"{value:,.0f}", "" if op is None else f"{op} {target:,}", ok)
    console = Console()
    console.print(table)
    if "cli" not in results:
        return
    cli, mem = results["cli"], results["memory"]
    console.print(
        _("bare import {bare} ms · show {show} ms · move {move} ms (on a finished game of {n} decisions)").format(
            bare=f"{cli['bare_import_s'] * 1000:.0f}", show=f"{cli['show_s'] * 1000:.0f}",
            move=f"{cli['move_s'] * 1000:.0f}", n=cli["decisions_in_file"]) + "\n"
        + _("heap peak {peak} MB at 1,000 decisions, {most} MB at {n} (file {size} MB)").format(
            peak=f"{mem['heap_peak_mb_at_1000']:.2f}", most=f"{mem['heap_peak_mb']:.2f}", n=f"{mem['decisions']:,}",
            size=f"{mem['file_mb']:.1f}")
    )


from .benchbatch import STRENGTH_MATCHES, bench_strength, contenders as _contenders  # noqa: E402,F401


def sealed_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m agility_cli.cli.bench sealed",
                                     description="Sealed self-play: round trips, bytes and CPU per decision (R42-R44).")
    parser.add_argument("--games", type=int, default=200, help="games (default 200: about ten minutes)")
    parser.add_argument("--seed", type=int, default=1, help="master seed of the games (default 1)")
    parser.add_argument("--window", type=int, default=2, help="the window K (default 2)")
    parser.add_argument("--format", type=int, choices=(3, 4), action="append", dest="formats",
                        help="only this file format (default: 4 beside 3, on the same seeds)")
    args = parser.parse_args(argv)
    from .benchsealed import bench_sealed

    print(json.dumps(bench_sealed(args.games, args.seed, args.window, tuple(args.formats or (4, 3))), indent=2))


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["strength"], ["cluster"]):
        from . import benchbatch

        (benchbatch.strength_main if argv[0] == "strength" else benchbatch.cluster_main)(argv[1:])
        return
    if argv[:1] == ["sealed"]:
        sealed_main(argv[1:])
        return
    if argv[:1] == ["review-marks"]:
        from . import benchmarks

        benchmarks.main(argv[1:])
        return
    if argv[:1] == ["calibration"]:
        from . import benchcal

        benchcal.main(argv[1:])
        return
    parser = argparse.ArgumentParser(prog="python -m agility_cli.cli.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions for each median (default 5)")
    parser.add_argument("--quick", action="store_true", help="fewer self-play games")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--engine", action="store_true", help="only the search path: playouts, copies, simulations")
    parser.add_argument("--replay", action="store_true", help="only the replay: the golden games, the floor, the sealed one")
    args = parser.parse_args(argv)
    if args.replay:
        report(replay_measures(sorted((ROOT / "games").glob("*.jsonl")), args.runs))
        return
    if args.engine:
        results = {
            "random_playout": bench_playout(args.runs),
            "state_copy": bench_copy(args.runs),
            "search": bench_search(args.runs, 100 if args.quick else 300),
        }
        print(json.dumps(results, indent=2))
        return
    results = run(args.runs, args.quick)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        report(results)


if __name__ == "__main__":
    main()
