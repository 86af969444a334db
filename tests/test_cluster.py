"""Batch work through one seam (issue 36, ``players/batch.py``): the same results here, on a process
pool, on a ``LocalCluster`` and on a real Dask cluster of separate processes; journals that let a
stopped run go on without playing a game twice; a worker killed mid-run, a worker of another
version, a scheduler gone.

The slow tests start a real ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1 (free
ports picked at random; the fixtures stop them), as a user does on several machines.
"""

from __future__ import annotations

import json
from dataclasses import replace
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from agility_cli.cli import app
from agility_cli.players import batch, cheat
from agility_cli.players import selfplay as sp
from agility_cli.table import review

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "games" / "v2-intimidation-discard-at-once.jsonl"
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
needs_dask = pytest.mark.skipif(DASK is None, reason="dask.distributed (the cluster extra) is not installed")


def run(*args: Any) -> Any:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert "Traceback" not in (result.stderr or "")
    return result


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    """A summary less its wall-clock or CPU times (the one part that differs between any two runs)."""
    return {k: v for k, v in doc.items() if k != "thinking" and not k.startswith("think_")}


def tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ------------------------------------------------------------------------------------------------
# Fast: the seam's refusals, the version check, the journals


def test_cluster_without_dask_installed_is_a_usage_error_saying_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    r = run("selfplay", "--games", "2", "--cluster", "local:2")
    assert r.exit_code == 2
    assert "pip install 'agility-cli[cluster]'" in r.stderr
    r = run("analyse", GAME, "--cluster", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "agility-cli[cluster]" in r.stderr


@pytest.mark.parametrize("spec", ["local:0", "local:x", "http://host:8786", "tcp://a b"])
def test_a_malformed_cluster_is_a_usage_error(spec: str) -> None:
    r = run("selfplay", "--games", "2", "--cluster", spec)
    assert r.exit_code == 2 and "--cluster" in r.stderr


def test_the_help_says_cluster_is_for_machines_you_control(capsys) -> None:
    for command in ("selfplay", "analyse"):
        r = run(command, "--help")
        assert "pickles" in r.output and "control" in r.output
    from agility_cli.cli import benchbatch

    with pytest.raises(SystemExit):
        benchbatch.strength_main(["--help"])
    assert "pickles" in capsys.readouterr().out


def test_bench_strength_refuses_a_malformed_cluster_with_exit_2(capsys) -> None:
    from agility_cli.cli import benchbatch

    with pytest.raises(SystemExit) as stop:
        benchbatch.strength_main(["--games", "1", "--cluster", "local:none"])
    assert stop.value.code == 2 and "local:N" in capsys.readouterr().err


@needs_dask
def test_no_scheduler_at_the_address_is_a_clear_error_within_the_timeout() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    started = time.monotonic()
    with pytest.raises(batch.ClusterError, match="cannot reach a Dask scheduler"):
        list(batch.run_batch(abs, [(0, -1)], batch.Where(cluster=f"tcp://127.0.0.1:{port}", timeout=2)))
    assert time.monotonic() - started < 20


def test_a_worker_of_another_version_refuses_the_task(monkeypatch) -> None:
    version, fingerprint = batch.identity()
    assert batch._execute(batch.Envelope(abs, -3, version, fingerprint)) == 3
    with pytest.raises(batch.WorkerMismatch, match=r"runs agility-cli .* this run is agility-cli 0\.0\.1"):
        batch._execute(batch.Envelope(abs, -3, "0.0.1", fingerprint))
    with pytest.raises(batch.WorkerMismatch, match="rules fingerprint 0000"):
        batch._execute(batch.Envelope(abs, -3, version, "0000"))
    import agility_cli

    monkeypatch.setattr(agility_cli, "__version__", "9.9.9")  # what a worker's own package says counts
    with pytest.raises(batch.WorkerMismatch, match="runs agility-cli 9.9.9"):
        batch._execute(batch.Envelope(abs, -3, version, fingerprint))


def test_the_rules_fingerprint_covers_the_engine_and_the_players() -> None:
    fp = batch.rules_fingerprint()
    assert len(fp) == 16 and fp == batch.rules_fingerprint()
    assert batch.identity()[1] == fp


def test_run_batch_yields_every_index_once_here_and_on_a_pool() -> None:
    tasks = [(i, -i) for i in range(7)]
    assert list(batch.run_batch(abs, tasks, batch.Where(jobs=1))) == [(i, i) for i in range(7)]
    seen: list[tuple[int, int]] = []
    assert sorted(batch.run_batch(abs, tasks, batch.Where(jobs=2), lambda d, t: seen.append((d, t)))) == \
        [(i, i) for i in range(7)]
    assert seen == [(d, 7) for d in range(1, 8)]


def _counting(monkeypatch) -> list[int]:
    played: list[int] = []
    real = sp.play_game

    def play(config: sp.Config, index: int) -> sp.GameResult:
        played.append(index)
        return real(config, index)

    monkeypatch.setattr(sp, "play_game", play)
    return played


def test_a_stopped_selfplay_run_resumes_from_its_journal_without_playing_a_game_twice(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    whole = tmp_path / "whole"
    base = dict(games=6, strategy="greedy", vs="random", seed=4, board="mixed")
    reference = sp.run(sp.Config(**base, out=str(whole)))
    assert not (whole / sp.JOURNAL).exists()  # a whole run leaves only its games
    out = tmp_path / "out"
    config = sp.Config(**base, out=str(out))
    # a run of two jobs stopped after games 0, 1 and 4 finished (4 before 2 and 3)
    journal = batch.Journal(out / sp.JOURNAL, config.identity())
    out.mkdir()
    for i in (0, 1, 4):
        journal.record(i, sp.play_game(config, i).to_json())
    journal.close()
    with open(out / sp.JOURNAL, "ab") as f:
        f.write(b'{"index": 5, "resu')  # killed while writing game 5's line
    refused = run("selfplay", "--games", "6", "--vs", "random", "--seed", "4", "--board", "mixed", "--out", out)
    assert refused.exit_code == 2 and "--resume" in refused.stderr
    other = run("selfplay", "--games", "6", "--vs", "greedy", "--seed", "4", "--board", "mixed", "--out", out, "--resume")
    assert other.exit_code == 2 and "another run" in other.stderr
    played = _counting(monkeypatch)
    results = sp.run(sp.Config(**base, out=str(out), resume=True))
    assert sorted(played) == [2, 3, 5]
    assert [replace(r, path=None) for r in results] == [replace(r, path=None) for r in reference]
    assert tree(out) == tree(whole)


def test_selfplay_out_is_written_in_index_order_and_kept_when_a_run_stops(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "out"
    config = sp.Config(games=5, strategy="greedy", vs="random", seed=9, out=str(out))
    order: list[int] = []

    def stop(r: sp.GameResult) -> None:
        order.append(r.index)
        assert sorted(p.name for p in out.glob("*.jsonl") if p.name != sp.JOURNAL) == \
            [sp.game_file_name(i) for i in range(r.index + 1)]
        if r.index == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sp.run(config, stop)
    assert (out / sp.JOURNAL).exists()
    played = _counting(monkeypatch)
    sp.run(sp.Config(**{**config.__dict__, "resume": True}))
    assert played == [3, 4]
    assert len(list(out.glob("game-*.jsonl"))) == 5 and not (out / sp.JOURNAL).exists()


def test_a_strength_match_journal_lets_a_stopped_match_go_on(tmp_path: Path, monkeypatch) -> None:
    whole = cheat.play_match("greedy", "random", 5, 3)
    book = tmp_path / "match.jsonl"

    def stop(index: int, so_far: cheat.MatchResult) -> None:
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cheat.play_match("greedy", "random", 5, 3, progress=stop, journal=book)
    played: list[int] = []
    real = cheat.play_match_game
    monkeypatch.setattr(cheat, "play_match_game", lambda task: played.append(task[-1]) or real(task))
    again = cheat.play_match("greedy", "random", 5, 3, journal=book)
    assert played == [2, 3, 4]
    assert without_timing(again.summary()) == without_timing(whole.summary())
    with pytest.raises(Exception, match="another run"):
        cheat.play_match("greedy", "greedy", 5, 3, journal=book)


def test_analyse_turns_are_the_decisions_grouped_by_turn() -> None:
    data = GAME.read_bytes()
    turns = review.decision_turns(data, str(GAME))
    assert [line for t in turns for line in t] == review.decision_lines(data, str(GAME))
    assert len(turns) > 5 and any(len(t) > 1 for t in turns)
    one = review.review(data, str(GAME), sims=4, seed=2, jobs=1, worlds=3)
    assert review._turn((data, str(GAME), turns[3], 4, 2, None, 3)) == [v for v in one.verdicts if v.line in turns[3]]


# ------------------------------------------------------------------------------------------------
# Slow: real scheduler and worker processes on the loopback


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, as separate processes."""

    def __init__(self, folder: Path, workers: int = 2, preload: Path | None = None) -> None:
        assert DASK is not None
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.scheduler = self._start("scheduler", [DASK, "scheduler", "--host", "127.0.0.1", "--port",
                                                   self.address.rsplit(":", 1)[1], "--no-dashboard"])
        extra = [] if preload is None else ["--preload", str(preload)]
        self.workers = [self._start(f"worker{i}", [DASK, "worker", self.address, "--nthreads", "1", "--no-nanny",
                                                   "--no-dashboard", "--host", "127.0.0.1", *extra])
                        for i in range(workers)]
        self.wait_for(workers)

    def _start(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)

    def wait_for(self, workers: int) -> None:
        from distributed import Client

        deadline = time.monotonic() + 60
        while True:
            try:
                with Client(self.address, timeout=5) as client:
                    client.wait_for_workers(workers, timeout=max(1, deadline - time.monotonic()))
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def stop(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    folder = tmp_path / "cluster"
    folder.mkdir()
    c = Cluster(folder)
    yield c
    c.stop()


def selfplay_everywhere(tmp_path: Path, cluster: Cluster, *args: str) -> None:
    """``selfplay ARGS --json --out`` with --jobs 1, --jobs 2, --cluster local:2 and the real cluster:
    the statistics and every written file byte for byte the same."""
    docs, trees = [], []
    for name, where in (("one", ["--jobs", "1"]), ("two", ["--jobs", "2"]), ("local", ["--cluster", "local:2"]),
                        ("real", ["--cluster", cluster.address])):
        r = run("selfplay", *args, "--json", "--out", tmp_path / name, *where)
        assert r.exit_code == 0, r.stderr
        docs.append(without_timing(json.loads(r.stdout)))
        trees.append(tree(tmp_path / name))
    assert all(doc == docs[0] for doc in docs)
    assert all(t == trees[0] for t in trees) and len(trees[0]) == int(args[1])


@pytest.mark.slow
@needs_dask
def test_selfplay_greedy_is_byte_identical_wherever_it_runs(tmp_path: Path, cluster: Cluster) -> None:
    selfplay_everywhere(tmp_path, cluster, "--games", "8", "--strategy", "greedy", "--vs", "random",
                        "--board", "mixed", "--seed", "3")


@pytest.mark.slow
@needs_dask
def test_selfplay_of_a_search_level_is_byte_identical_wherever_it_runs(tmp_path: Path, cluster: Cluster) -> None:
    selfplay_everywhere(tmp_path, cluster, "--games", "3", "--strategy", "strong1", "--vs", "greedy",
                        "--board", "mixed", "--seed", "6")


@pytest.mark.slow
@needs_dask
def test_a_strength_match_is_the_same_on_the_cluster(tmp_path: Path, cluster: Cluster) -> None:
    from agility_cli.cli import benchbatch

    here = benchbatch.bench_strength(["strong1:greedy"], 3, 2)
    there = benchbatch.bench_strength(["strong1:greedy"], 3, 2, where=batch.Where(cluster=cluster.address),
                                      journal=tmp_path / "journal")
    assert [without_timing(m) for m in there] == [without_timing(m) for m in here]
    assert here[0]["games"] == 3
    assert len((tmp_path / "journal" / "strong1:greedy.jsonl").read_bytes().splitlines()) == 4


@pytest.mark.slow
@needs_dask
def test_analyse_is_byte_identical_on_the_cluster(tmp_path: Path, cluster: Cluster) -> None:
    outs = []
    for name, where in (("one", ["--jobs", "1"]), ("two", ["--jobs", "2"]), ("local", ["--cluster", "local:2"]),
                        ("real", ["--cluster", cluster.address])):
        r = run("analyse", GAME, "--simulations", "6", "--worlds", "3", "--seed", "1", "--json", "--out", tmp_path / f"{name}.json", *where)
        assert r.exit_code == 0, r.stderr
        outs.append((r.stdout, (tmp_path / f"{name}.json").read_bytes()))
    assert all(out == outs[0] for out in outs)
    assert len(json.loads(outs[0][0])["decisions"]) > 20


def _agility(*args: Any) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "agility_cli", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_games(journal: Path, proc: subprocess.Popen[str], count: int = 1) -> None:
    deadline = time.monotonic() + 180
    while not (journal.exists() and len(journal.read_bytes().splitlines()) > count):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.slow
@needs_dask
def test_a_worker_killed_mid_run_loses_only_its_game(tmp_path: Path, cluster: Cluster) -> None:
    args = ["--games", "6", "--strategy", "strong1", "--vs", "greedy", "--board", "mixed", "--seed", "8", "--json"]
    proc = _agility("selfplay", *args, "--cluster", cluster.address, "--out", tmp_path / "killed")
    _wait_for_games(tmp_path / "killed" / sp.JOURNAL, proc)
    cluster.workers[0].send_signal(signal.SIGKILL)  # busy with a game: the scheduler gives it to the other
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    reference = run("selfplay", *args, "--jobs", "1", "--out", tmp_path / "reference")
    assert without_timing(json.loads(out)) == without_timing(json.loads(reference.stdout))
    assert tree(tmp_path / "killed") == tree(tmp_path / "reference")
    assert cluster.workers[0].poll() is not None and cluster.workers[1].poll() is None


@pytest.mark.slow
@needs_dask
def test_the_scheduler_gone_is_a_clear_error_and_resume_goes_on(tmp_path: Path, cluster: Cluster) -> None:
    args = ["--games", "8", "--strategy", "strong1", "--vs", "greedy", "--seed", "5", "--out", tmp_path / "run"]
    proc = _agility("selfplay", *args, "--cluster", cluster.address)
    _wait_for_games(tmp_path / "run" / sp.JOURNAL, proc)
    cluster.scheduler.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=120)  # never a hang
    assert proc.returncode == 2, err
    assert "Traceback" not in err and "Dask scheduler" in err and "run it again" in err
    kept = len((tmp_path / "run" / sp.JOURNAL).read_bytes().splitlines()) - 1
    assert kept >= 1
    r = run("selfplay", *args, "--resume", "--jobs", "2", "--json")
    assert r.exit_code == 0, r.stderr
    reference = run("selfplay", *args[:-2], "--out", tmp_path / "reference", "--json")
    assert without_timing(json.loads(r.stdout)) == without_timing(json.loads(reference.stdout))
    assert tree(tmp_path / "run") == tree(tmp_path / "reference")


@pytest.mark.slow
@needs_dask
def test_a_worker_of_another_version_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    preload = tmp_path / "other_version.py"
    preload.write_text("import agility_cli\nagility_cli.__version__ = '0.0.0-other'\n")
    folder = tmp_path / "cluster"
    folder.mkdir()
    other = Cluster(folder, workers=1, preload=preload)
    try:
        proc = _agility("selfplay", "--games", "3", "--cluster", other.address)
        out, err = proc.communicate(timeout=120)
    finally:
        other.stop()
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    assert "0.0.0-other" in err and "install the same version on every worker" in err
