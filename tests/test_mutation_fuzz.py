"""The attacker's mutation fuzz (issue 37, slow suite): every kind of input file a player's machine
reads — a game file (unsigned, signed, sealed), a mailed message, a key file, the key store, a
history record, a checkpoint, a components file (JSON and TOML), an analysis file — mutated byte by
byte (a byte changed, removed, inserted or repeated, the file cut short), a few thousand cases in
all, each read by the commands a player runs on it.

What must hold for every case: an exit code of 0–3 (never 4, an internal error), no traceback,
and no hang: each case runs under an interval timer, so a hang fails the test at once instead of
stalling the suite.  The mutations come from the project's own seeded PRNG: the same cases each
run, and a failure names the case to replay.
"""

from __future__ import annotations

import json
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_fair import Machine, send
from typer.testing import CliRunner

from agility_cli.cli import app
from agility_cli.engine.rng import Rng

pytestmark = pytest.mark.slow
runner = CliRunner()
CASE_SECONDS = 20  # a guard against a hang, not a timing: a case takes milliseconds


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang("a case ran past its guard: a hang")


def mutations(data: bytes, seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` mutants of ``data``, each with a name that says what was done."""
    rng = Rng.for_purpose(seed, "mutation fuzz")
    specials = [0, 0x0A, 0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x30, 0x39, 0xFF, 0x1B, 0x80]
    for i in range(count):
        if not data:
            yield "empty", b""
            continue
        at = rng.below(len(data))
        how = rng.below(6)
        if how == 0:
            byte = specials[rng.below(len(specials))] if rng.below(2) else rng.below(256)
            yield f"byte {at} := {byte:#04x}", data[:at] + bytes([byte]) + data[at + 1:]
        elif how == 1:
            yield f"byte {at} removed", data[:at] + data[at + 1:]
        elif how == 2:
            byte = specials[rng.below(len(specials))]
            yield f"byte {byte:#04x} inserted at {at}", data[:at] + bytes([byte]) + data[at:]
        elif how == 3:
            yield f"cut at {at}", data[:at]
        elif how == 4:
            n = 1 + rng.below(64)
            yield f"bytes {at}..{at + n} repeated", data[:at + n] + data[at:at + n] + data[at + n:]
        else:
            yield f"bit {rng.below(8)} of byte {at} flipped", data[:at] + bytes([data[at] ^ (1 << rng.below(8))]) + data[at + 1:]


def run_case(args: list[str], home: Path, input: bytes | None = None) -> Any:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        return runner.invoke(app, args, input=input, env={"AGILITY_HOME": str(home), "AGILITY_PLAYER": None})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check(result: Any, case: str) -> None:
    if isinstance(result.exception, Hang):
        pytest.fail(f"{case}: hang")
    assert result.exit_code in (0, 1, 2, 3), (case, result.exit_code, result.output[-800:])
    assert "Traceback" not in result.output and "Traceback" not in (result.stderr or ""), case


def fuzz(target: Path, original: bytes, seed: int, count: int, commands: list[list[str]], home: Path,
         restore: Callable[[], None] | None = None) -> int:
    """Write each mutant to ``target`` and run ``commands`` ({} is the target); the cases run."""
    runs = 0
    for name, mutant in mutations(original, seed, count):
        target.write_bytes(mutant)
        for command in commands:
            args = [str(target) if a == "{}" else a for a in command]
            check(run_case(args, home), f"{target.name}: {name}: agility {' '.join(command)}")
            runs += 1
            if restore is not None:
                restore()
    target.write_bytes(original)
    return runs


# ----------------------------------------------------------------------------------------------
# The inputs: games as people make them


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("fuzz")
    out: dict[str, Any] = {"root": root}
    solo = Machine(root, "solo")
    assert solo.run("new", solo.file, "--seed", "3", "--players", "alice", "bot:greedy", "-q").exit_code == 0
    assert solo.run("bot", solo.file, "--moves", "30").exit_code == 0
    out["solo"] = solo
    for deck in ("seed", "sealed"):
        alice, bob = Machine(root, f"alice-{deck}"), Machine(root, f"bob-{deck}")
        assert alice.run("new", alice.file, "--players", "alice", "bob", "--deck", deck, "-q").exit_code == 0
        send(alice, bob)
        assert bob.run("join", bob.file).exit_code == 0
        send(bob, alice)
        assert alice.run("show", alice.file).exit_code == 0
        send(alice, bob)
        for _ in range(6):  # a few turns, each machine deciding for its own seat
            for me, other in ((alice, bob), (bob, alice)):
                me.run("bot", me.file, "--moves", "10")
                me.run("show", me.file)  # a sealed game's owed keys
                send(me, other)
        out[deck] = (alice, bob)
    return out


def test_game_files_mutated(games: dict[str, Any]) -> None:
    solo = games["solo"]
    alice_fair, _ = games["seed"]
    alice_sealed, _ = games["sealed"]
    runs = 0
    for machine, count, seed in ((solo, 500, 1), (alice_fair, 400, 2), (alice_sealed, 120, 3)):
        original = machine.file.read_bytes()
        target = machine.dir / "mutant.jsonl"
        runs += fuzz(target, original, seed, count, [["show", "{}"], ["replay", "{}", "--json"]], machine.home)
        # a refused move leaves the file unchanged: one decision on each mutant of the solo game
    assert runs >= 2000


def test_mails_mutated(games: dict[str, Any]) -> None:
    alice, bob = games["seed"]
    sent = alice.run("send", alice.file).stdout.encode()
    message = (b"From: alice@example.org\nTo: bob@example.org\nSubject: agility\nMIME-Version: 1.0\n"
               b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + sent)
    copy = bob.dir / "copy.jsonl"
    original = bob.file.read_bytes()
    runs = 0
    for name, mutant in mutations(message, 4, 400):
        copy.write_bytes(original)
        result = run_case(["apply", str(copy), "-"], bob.home, input=mutant)
        check(result, f"mail: {name}")
        runs += 1
    assert runs == 400


def test_key_files_and_key_stores_mutated(games: dict[str, Any]) -> None:
    alice, _ = games["seed"]
    keyfile = alice.dir / "alice.key"
    if not keyfile.exists():
        assert alice.run("key", "export", alice.file, "-o", keyfile).exit_code == 0
    elsewhere = alice.dir.parent / "elsewhere-home"
    runs = 0
    for name, mutant in mutations(keyfile.read_bytes(), 5, 300):
        mutated = alice.dir / "mutant.key"
        mutated.write_bytes(mutant)
        shutil.rmtree(elsewhere, ignore_errors=True)
        check(run_case(["key", "import", str(alice.file), str(mutated)], elsewhere), f"key file: {name}")
        runs += 1
    store = next((alice.home / "games").glob("*.json"))
    original = store.read_bytes()
    runs += fuzz(store, original, 6, 300, [["show", str(alice.file)]], alice.home)
    assert runs == 600


def test_data_directory_records_mutated(games: dict[str, Any]) -> None:
    """The history record and the checkpoint: this machine's own files, which another program (or
    user) may have changed."""
    alice, _ = games["sealed"]
    assert alice.run("show", alice.file).exit_code == 0  # writes both
    runs = 0
    records = sorted((alice.home / "history").glob("*.json")) + sorted(p for p in (alice.home / "cache").rglob("*")
                                                                       if p.is_file())
    assert records, "no history record or checkpoint was written"
    for i, record in enumerate(records[:4]):
        runs += fuzz(record, record.read_bytes(), 7 + i, 60, [["show", str(alice.file)]], alice.home)
    assert runs >= 120


def test_components_and_analysis_files_mutated(games: dict[str, Any], tmp_path: Path) -> None:
    solo = games["solo"]
    runs = 0
    standard = (Path(__file__).resolve().parents[1] / "agility_cli" / "data" / "standard.json").read_bytes()
    comp = tmp_path / "set.json"
    runs += fuzz(comp, standard, 8, 150, [["new", str(tmp_path / "g.jsonl"), "--seed", "1", "--players", "a",
                                           "bot:greedy", "--components", "{}", "-q"]], solo.home,
                 restore=lambda: (tmp_path / "g.jsonl").unlink(missing_ok=True))
    toml = tmp_path / "set.toml"
    toml_text = "\n".join(f"{k} = {json.dumps(v)}" for k, v in json.loads(standard).items()
                          if isinstance(v, (int, str))).encode() + b"\n"
    runs += fuzz(toml, toml_text, 9, 100, [["new", str(tmp_path / "h.jsonl"), "--seed", "1", "--players", "a",
                                            "bot:greedy", "--components", "{}", "-q"]], solo.home,
                 restore=lambda: (tmp_path / "h.jsonl").unlink(missing_ok=True))
    review = tmp_path / "review.json"
    assert solo.run("analyse", solo.file, "--simulations", "2", "--worlds", "2", "--out", review).exit_code == 0
    runs += fuzz(review, review.read_bytes(), 10, 200, [["export", str(solo.file), "--html", "--analysis", "{}",
                                                         "-o", str(tmp_path / "page.html")]], solo.home)
    assert runs == 450
