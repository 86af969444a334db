"""A fuzz of the records a machine keeps or is given (issue 50): the history record in the data
directory, the calibration journal (``bench calibration --journal``) and an analysis file
(``export --html --analysis``), each mutated byte by byte (a byte changed, removed, inserted or
repeated, a bit flipped, the file cut short: ``test_mutation_fuzz.mutations``) and read by the
commands that read it, each run in a new Python under a timeout.

What must hold for every case:

* the exit code is 0, 1, 2 or 3 (never 4, an internal error) and no traceback is printed;
* no hang: each run has a timeout (a hang fails the case, it never stalls the suite);
* a refused run (exit 1–3) names the file in full — the mutated record, or the game file it is the
  record of — however long its path (the folders here are given long names on purpose), and
  leaves every file as it was (the game file, the data directory, the journal, no page written).

The calibration journal is read by the benchmark's own entry point with its games replaced by a
stand-in (a game of the benchmark takes seconds; the journal's reading is the code under test):
the journal's results then cover every game, or a torn line's game is played again by the stand-in.

The default run takes a few cases of each (about a minute); ``-m slow`` runs 100 of each.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_mutation_fuzz import mutations

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60  # seconds: a guard against a hang, not a timing (a case takes well under a second)
LONG = "a-folder-whose-name-is-long-on-purpose-" * 3  # paths past 200 characters, clipped before

#: ``bench calibration`` with a stand-in for its games (one judged position each, at once).
CALIBRATION = """
import sys
from agility_cli.cli import benchcal
def game(task):
    return [{"game": task[0], "line": 10, "chance": 0.5, "baseline": 0.5, "won": task[0] % 2, "steady_gap": None}]
benchcal.calibration_game = game
benchcal.main(sys.argv[1:])
"""
CAL_ARGS = ["--games", "3", "--simulations", "5", "--worlds", "4"]


def python(args: list[str], home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with this checkout's package, ``home`` as the data directory, under the timeout."""
    env = {k: v for k, v in os.environ.items() if k not in ("AGILITY_PLAYER", "AGILITY_HOME")}
    env.update(PYTHONPATH=str(ROOT), AGILITY_HOME=str(home), COLUMNS="80")
    try:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=TIMEOUT, env=env,
                              cwd=cwd, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"python {' '.join(args)}: no answer in {TIMEOUT} s (a hang)")


def agility(args: list[Any], home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return python(["-m", "agility_cli", *map(str, args)], home, cwd)


class Tree:
    """Every file under some folders (or a file itself), as bytes: taken, compared, put back."""

    def __init__(self, *roots: Path) -> None:
        self.roots = roots
        self.files = self.take()

    def take(self) -> dict[Path, bytes]:
        paths = [p for root in self.roots for p in ([root] if not root.is_dir() else sorted(root.rglob("*")))]
        return {p: p.read_bytes() for p in paths if p.is_file()}

    def restore(self) -> None:
        for path in set(self.take()) - set(self.files):
            path.unlink()
        for path, data in self.files.items():
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)


def cases(data: bytes, seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """The file cut at a few fixed places (empty, one byte, half, all but its last byte), then
    ``count`` seeded mutants."""
    for at in sorted({0, 1, len(data) // 2, len(data) - 1}):
        yield f"cut at {at}", data[:at]
    yield from mutations(data, seed, count)


def check(result: subprocess.CompletedProcess[str], case: str, names: list[Path], before: dict[Path, bytes],
          tree: Tree) -> None:
    said = result.stdout + result.stderr
    assert result.returncode in (0, 1, 2, 3), (case, result.returncode, said[-1500:])
    assert "Traceback" not in said, (case, said[-1500:])
    if result.returncode != 0:
        assert any(str(name) in result.stderr for name in names), (case, "names no file in full", result.stderr)
        assert tree.take() == before, (case, "a refused run changed a file", result.stderr)


def fuzz(target: Path, seed: int, count: int, command: list[Any], home: Path, cwd: Path, tree: Tree,
         names: list[Path]) -> dict[int, int]:
    """Each case of ``target`` (mutated in place) read by ``command``; the exit codes counted."""
    original = target.read_bytes()
    codes: dict[int, int] = {}
    try:
        for name, mutant in cases(original, seed, count):
            tree.restore()
            target.write_bytes(mutant)
            before = tree.take()
            result = python(command, home, cwd) if command[0] == "-c" else agility(command, home, cwd)
            check(result, f"{target.name}: {name}", names, before, tree)
            codes[result.returncode] = codes.get(result.returncode, 0) + 1
    finally:
        tree.restore()
    return codes


# ----------------------------------------------------------------------------------------------
# The records


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """alice's machine (a game against the greedy bot, its history record), an analysis of the
    game, and a calibration journal of three games, all under long folder names."""
    root = tmp_path_factory.mktemp("records") / LONG
    root.mkdir()
    home, games = root / "home", root / "games"
    games.mkdir()
    game = games / "game.jsonl"
    for args in (["new", game, "--players", "alice", "bot:greedy", "-q"], ["bot", game, "--moves", "8", "-q"],
                 ["show", game]):
        r = agility(args, home, root)
        assert r.returncode == 0, r.stderr
    review = games / "review.json"
    r = agility(["analyse", game, "--simulations", "2", "--worlds", "2", "--out", review, "--as", "alice"], home, root)
    assert r.returncode == 0, r.stderr
    journal = root / "calibration.jsonl"
    r = python(["-c", CALIBRATION, *CAL_ARGS, "--journal", str(journal)], home, root)
    assert r.returncode == 0 and journal.stat().st_size > 0, r.stderr
    (record,) = (home / "history").glob("*.json")
    return {"root": root, "home": home, "game": game, "review": review, "journal": journal, "record": record}


def _history(made: dict[str, Any], seed: int, count: int) -> dict[int, int]:
    tree = Tree(made["home"], made["game"].parent)
    codes: dict[int, int] = {}
    for i, command in enumerate((["show", made["game"]], ["bot", made["game"], "--moves", "1", "-q"])):
        found = fuzz(made["record"], seed + i, count, command, made["home"], made["root"], tree,
                     [made["record"], made["game"]])
        for code, n in found.items():
            codes[code] = codes.get(code, 0) + n
    return codes


def _journal(made: dict[str, Any], seed: int, count: int) -> dict[int, int]:
    tree = Tree(made["home"], made["game"].parent, made["journal"])
    return fuzz(made["journal"], seed, count, ["-c", CALIBRATION, *CAL_ARGS, "--journal", str(made["journal"])],
                made["home"], made["root"], tree, [made["journal"]])


def _analysis(made: dict[str, Any], seed: int, count: int) -> dict[int, int]:
    page = made["game"].parent / "page.html"
    tree = Tree(made["home"], made["game"].parent)
    return fuzz(made["review"], seed, count, ["export", made["game"], "--html", "--analysis", made["review"], "-o", page],
                made["home"], made["root"], tree, [made["review"]])


def test_the_history_record_mutated(made: dict[str, Any]) -> None:
    codes = _history(made, 50, 6)
    assert codes.get(3), codes  # a damaged record is refused (exit 3), never passed over
    assert sum(codes.values()) == 2 * 10


def test_the_calibration_journal_mutated(made: dict[str, Any]) -> None:
    codes = _journal(made, 60, 6)
    assert sum(codes.values()) == 10 and set(codes) - {0, 2, 3} == set(), codes


def test_the_analysis_file_mutated(made: dict[str, Any]) -> None:
    codes = _analysis(made, 70, 8)
    assert codes.get(2), codes
    assert sum(codes.values()) == 12 and set(codes) - {0, 2} == set(), codes


@pytest.mark.slow
@pytest.mark.soak  # 416 runs, some 2 minutes of CPU: by hand (-m soak); the fast suite runs 46
def test_the_records_mutated_at_length(made: dict[str, Any]) -> None:
    """100 mutants of each record (the history record read by two commands): 0 exit 4, 0
    tracebacks, 0 timeouts, every refusal naming its file and changing nothing."""
    runs = sum(_history(made, 1050, 100).values()) + sum(_journal(made, 1060, 100).values())
    runs += sum(_analysis(made, 1070, 100).values())
    assert runs == 2 * 104 + 104 + 104


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
