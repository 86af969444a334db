"""Hardening, round 4 (issue 50): nothing written over what is not ours, no exit 4, a seat is its
machine's in unsigned games too, a damaged history record is an error.

Each attacker's case of the issue, through the CLI (or the bench's own entry point):

* every writer refuses an output path that is a device, a FIFO, a folder or a link to one (exit 2,
  nothing touched): ``export -o``, ``key export -o``, the journals, ``bench calibration --svg``, the
  data directory's whole writes (``storage.write_new``);
* ``--cluster`` addresses are checked before any connection (no ``Client`` is ever made for a bad
  one: no traceback, no 30 s stall), TLS only with its files;
* a TOML components file's integers are bounded in every base (``0x`` + 3,700 ``f``\\ s);
* ``bench calibration --journal`` reads its journal as hostile (typed rows, bounds, regular files);
* R41: a mail deciding in the seat this machine plays by mail is refused, and a machine that learnt
  its seat from the first mail says so and decides for no other seat;
* a truncated history record is exit 3 naming the file (rewrite detection never turns off unseen).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from test_fair import Machine, send
from test_hostile import game_file, run

from agility_cli.engine.notation import UsageError
from agility_cli.players import batch
from agility_cli.record import storage

# ----------------------------------------------------------------------------------------------
# 1. The tool writes only regular files it may replace


def _specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a folder, a symlink to the FIFO and (as root) a char device 1,3 — a fake /dev/null."""
    out = {}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out["fifo"] = fifo
    folder = tmp_path / "folder"
    folder.mkdir()
    out["folder"] = folder
    link = tmp_path / "link"
    link.symlink_to(fifo)
    out["link"] = link
    device = tmp_path / "fakenull"
    try:
        os.mknod(device, 0o644 | stat.S_IFCHR, os.makedev(1, 3))
        out["device"] = device
    except (PermissionError, OSError):
        pass  # not root: the other three still stand for it
    return out


def _untouched(path: Path, before: os.stat_result) -> None:
    now = os.lstat(path)
    assert stat.S_IFMT(now.st_mode) == stat.S_IFMT(before.st_mode) and now.st_ino == before.st_ino


def test_export_never_writes_over_a_device_a_fifo_a_folder_or_a_link_to_one(tmp_path: Path) -> None:
    game = game_file(tmp_path, moves=4)
    specials = _specials(tmp_path)
    if os.geteuid() == 0:
        assert "device" in specials
    for name, target in specials.items():
        before = os.lstat(target)
        r = run("export", game, "--svg", "-o", target)
        assert r.exit_code == 2, (name, r.stderr)
        assert "regular file" in r.stderr or "folder" in r.stderr, (name, r.stderr)
        _untouched(target, before)
    regular = tmp_path / "board.svg"
    regular.write_text("old")
    assert run("export", game, "--svg", "-o", regular).exit_code == 0
    assert regular.read_text().startswith("<svg") or "<svg" in regular.read_text()[:300]


def test_key_export_and_the_data_directorys_writes_refuse_a_fifo(tmp_path: Path) -> None:
    alice = Machine(tmp_path, "alice")
    assert alice.run("new", alice.file, "--players", "alice", "bot:greedy", "-q").exit_code == 0
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    r = alice.run("key", "export", alice.file, "-o", fifo)
    assert r.exit_code == 2 and "regular file" in r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    # The one function every whole write goes through (the key store, history, checkpoints …).
    with pytest.raises(UsageError, match="named pipe"):
        storage.write_new(fifo, b"x", what="the key store", replace=True, mode=0o600)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_journal_at_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "journal"
    os.mkfifo(fifo)
    book = batch.Journal(fifo, {"run": 1})
    with pytest.raises(Exception, match="named pipe"):
        book.load()  # never waits on the pipe
    with pytest.raises(UsageError, match="named pipe"):
        book.record(0, {"x": 1})
    zero = batch.Journal(Path("/dev/zero"), {"run": 1})
    with pytest.raises(Exception, match="device"):
        zero.load()


def test_selfplay_refuses_a_fifo_as_its_journal(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    os.mkfifo(out / "selfplay-journal.jsonl")
    r = run("selfplay", "--games", "2", "--out", out, "--resume")
    assert r.exit_code in (2, 3) and "named pipe" in r.stderr


# ----------------------------------------------------------------------------------------------
# 2. No exit 4: the cluster's addresses, the TOML integers


@pytest.fixture
def no_connection(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Any Dask Client made is recorded and refused: a bad address must never reach one."""
    distributed = pytest.importorskip("distributed")
    made: list[str] = []

    def client(*args: Any, **kwargs: Any) -> Any:
        made.append(str(args[:1]))
        raise AssertionError("a connection was tried")

    monkeypatch.setattr(distributed, "Client", client)
    for name in [k for k in os.environ if k.startswith("DASK_DISTRIBUTED__COMM__TLS")]:
        monkeypatch.delenv(name)
    return made


@pytest.mark.parametrize("spec", ["scheduler.json", "tcp://127.0.0.1", "tcp://host:99999", "tcp://host:87x",
                                  "tls://127.0.0.1:1", "local:0x10", "udp://h:1", "tcp://:8786"])
def test_a_bad_cluster_address_is_refused_before_any_connection(spec: str, no_connection: list[str]) -> None:
    r = run("selfplay", "--games", "2", "--cluster", spec)
    assert r.exit_code == 2 and "--cluster" in r.stderr, r.stderr
    assert no_connection == []
    assert "tcp://HOST:PORT" in r.stderr or "local:N" in r.stderr or "TLS" in r.stderr


def test_tls_with_files_that_make_no_context_is_refused(tmp_path: Path, no_connection: list[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    bogus = tmp_path / "ca.pem"
    bogus.write_text("not a certificate\n")
    import dask

    with dask.config.set({"distributed.comm.tls.ca-file": str(bogus), "distributed.comm.tls.client.cert": str(bogus)}):
        r = run("selfplay", "--games", "2", "--cluster", "tls://127.0.0.1:1")
    assert r.exit_code == 2 and "TLS" in r.stderr and no_connection == []


def _toml_with_count(tmp_path: Path, literal: str) -> Path:
    from test_components import to_toml
    from test_hostile import standard_raw

    path = tmp_path / "c.toml"
    path.write_text(to_toml(standard_raw()).replace("count = 3}", f"count = {literal}}}", 1))
    return path


@pytest.mark.parametrize("literal", ["0x" + "f" * 3700, "0x" + "f" * 200, "0o" + "7" * 2000, "0b" + "1" * 5000,
                                     "0x" + "f" * 30])
def test_a_toml_integer_is_bounded_in_every_base(tmp_path: Path, literal: str) -> None:
    comp = _toml_with_count(tmp_path, literal)
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--players", "a", "b", "--components", comp)
    assert r.exit_code == 2 and not (tmp_path / "g.jsonl").exists()
    assert not any(ch * 40 in r.stderr for ch in "0123456789f"), r.stderr  # never hundreds of digits


# ----------------------------------------------------------------------------------------------
# 3. The calibration journal read as hostile


def _calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, entries: list[bytes]) -> tuple[int, str]:
    """``bench calibration --journal J`` where J is a real run's journal with ``entries`` added."""
    from agility_cli.cli import benchcal

    def fake_game(task: tuple[int, int, int, int]) -> list[dict[str, object]]:
        return [{"game": task[0], "line": 10, "chance": 0.5, "baseline": 0.5, "won": task[0] % 2, "steady_gap": None}]

    monkeypatch.setattr(benchcal, "calibration_game", fake_game)
    book = tmp_path / "cal.jsonl"
    benchcal.main(["--games", "2", "--simulations", "5", "--worlds", "4", "--journal", str(book)])
    with open(book, "ab") as fh:
        fh.write(b"".join(e + b"\n" for e in entries))
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        benchcal.main(["--games", "3", "--simulations", "5", "--worlds", "4", "--journal", str(book)])
    return int(done.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("entry", [
    b'{"index": 2, "result": [{"game": 2}]}',  # a row missing its keys (was KeyError 'line')
    b'{"index": 2, "result": [{"game": 2, "line": 3, "chance": 1e308, "baseline": 0.5, "won": 1}]}',
    b'{"index": 2, "result": 7}',  # was TypeError
    b'{"index": "x", "result": []}',
    b'{"index": 1e308, "result": []}',  # was OverflowError
    b'{"index": 2, "result": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # was RecursionError
])
def test_a_hostile_journal_entry_is_one_line_and_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
                                                         entry: bytes) -> None:
    code, said = _calibration(tmp_path, monkeypatch, capsys, [entry])
    assert code == 3 and said.startswith("bench calibration:") and said.count("\n") == 1, said
    assert "Traceback" not in said


def test_a_journal_that_is_a_fifo_or_dev_zero_is_refused_without_hanging(tmp_path: Path, capsys: Any) -> None:
    from agility_cli.cli import benchcal

    fifo = tmp_path / "j"
    os.mkfifo(fifo)
    for journal in (fifo, Path("/dev/zero")):
        with pytest.raises(SystemExit) as done:
            benchcal.main(["--games", "2", "--journal", str(journal)])
        said = capsys.readouterr().err
        assert done.value.code == 2 and said.count("\n") == 1 and "regular file" in said, said


# ----------------------------------------------------------------------------------------------
# 5. A seat is its machine's in an unsigned game too (R41)


def _attack(tmp_path: Path, *new_args: str) -> tuple[Machine, Machine, str]:
    """alice makes an unsigned game (alice first) and sends it; bob's machine decides in alice's seat."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--seed", "3", "--players", "alice", "bob", *new_args, "-q").exit_code == 0
    send(alice, bob)
    legal = json.loads(bob.run("legal", bob.file, "--json").stdout)
    r = bob.run("move", bob.file, *legal[0]["argv"], "-q")
    assert r.exit_code == 0
    return alice, bob, r.stdout


def test_R41_a_mailed_decision_in_the_seat_named_at_new_is_refused_at_apply(tmp_path: Path) -> None:
    alice, _, mail = _attack(tmp_path, "--as", "alice")
    before = alice.bytes()
    r = alice.run("apply", alice.file, "-", input=mail)
    assert r.exit_code == 1 and "alice's own decision" in r.stderr
    assert alice.bytes() == before


def test_R41_a_seat_learnt_from_the_first_mail_is_said_and_kept(tmp_path: Path) -> None:
    alice, _, mail = _attack(tmp_path)
    r = alice.run("apply", alice.file, "-", input=mail)
    assert r.exit_code == 0
    assert "this machine plays bob" in r.stderr and "decided in your" in r.stderr
    before = alice.bytes()
    legal = json.loads(alice.run("legal", alice.file, "--json", "--as", "bob").stdout or "[]") or []
    for args in (["move", alice.file, "reward", "black"], ["move", alice.file, "reward", "black", "--as", "alice"],
                 ["bot", alice.file]):
        r = alice.run(*args)
        assert r.exit_code == 1, (args, r.stderr)
    assert alice.bytes() == before and legal == legal
    listing = alice.run("games", alice.dir)
    assert "vs alice" in listing.stdout and "vs alice and bob" not in listing.stdout


# ----------------------------------------------------------------------------------------------
# 6. A damaged history record is an error naming the file


def test_a_truncated_history_record_is_exit_3_naming_the_file(tmp_path: Path) -> None:
    alice = Machine(tmp_path, "alice")
    assert alice.run("new", alice.file, "--players", "alice", "bot:greedy", "-q").exit_code == 0
    assert alice.run("show", alice.file).exit_code == 0
    records = list((alice.home / "history").glob("*.json"))
    assert len(records) == 1
    records[0].write_text('{"format":"agility-history/2","tip":')
    before = alice.bytes()
    for args in (["show", alice.file], ["bot", alice.file]):
        r = alice.run(*args)
        assert r.exit_code == 3, (args, r.stdout, r.stderr)
        assert records[0].name in r.stderr and "history record" in r.stderr
    assert alice.bytes() == before
    records[0].write_text(json.dumps({"format": "agility-history/2", "tip": [1, 7]}))  # a wrong type
    assert alice.run("show", alice.file).exit_code == 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
