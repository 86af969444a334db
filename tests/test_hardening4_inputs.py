"""Hardening, round 4 (issue 50), item 7 and the output paths: the reproductions of the issue, each
as a test through the CLI that failed before its fix.

* a saved message whose parts are nested deeper than the mail reader reads (21–50 levels) is refused
  with the depth limit named, never as "no file or folder here" (the file is there);
* an analysis file is checked against the game it is given with: layout 4 records the file it is
  of (the SHA-256 of its first and last lines, its number of lines), and in every layout its
  players and the decider of each line must be the game's (``mallory`` is refused);
* a FIFO or a device given as the analysis file: "not an analysis file", exit 2, no hang;
* ``export -o`` onto a symbolic link to a regular file elsewhere replaces the link (never writes
  through it) and says so; onto a device, a FIFO or a link to one it is refused (test_hardening4);
* a message names a file whole, however long its path (a path clipped at its end loses the name).

Messages are checked with their paths taken out, as the temporary folders' paths are long.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_fair import Machine
from test_hostile import run

from agility_cli.record.mail.read import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[1]


def _nested(line: bytes, depth: int) -> bytes:
    """A mail whose one text part, holding ``line``, is ``depth`` multiparts deep."""
    msg = b"Content-Type: text/plain\n\n" + line + b"\n"
    for i in range(depth):
        b = b"b%d" % i
        msg = b"Content-Type: multipart/mixed; boundary=" + b + b"\n\n--" + b + b"\n" + msg + b"\n--" + b + b"--\n"
    return b"From: bob@example.org\nSubject: agility\nMIME-Version: 1.0\n" + msg


@pytest.fixture
def mailed(tmp_path: Path) -> tuple[Machine, bytes, bytes]:
    """alice's copy of a game one line behind bob's, and bob's next line (as mailed)."""
    bob = Machine(tmp_path, "bob")
    assert bob.run("new", bob.file, "--seed", "5", "--players", "alice", "bob", "-q").exit_code == 0
    assert bob.run("bot", bob.file, "--moves", "6", "-q").exit_code == 0
    rows = bob.lines()
    last = next(i for i in range(len(rows) - 1, 0, -1) if json.loads(rows[i])["player"] == "bob")
    alice = Machine(tmp_path, "alice")
    alice.file.write_bytes(b"".join(r + b"\n" for r in rows[:last]))
    return alice, rows[last], alice.bytes()


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 25, 50])
def test_a_mail_nested_too_deep_names_the_depth_limit(mailed: tuple[Machine, bytes, bytes], depth: int) -> None:
    alice, line, before = mailed
    saved = alice.dir / f"n{depth}.eml"
    saved.write_bytes(_nested(line, depth))
    for args, given in (([saved], None), (["-"], _nested(line, depth).decode())):
        r = alice.run("apply", alice.file, *args, env={"AGILITY_PLAYER": "alice"}, input=given)
        assert r.exit_code == 2, r.stderr
        assert f"nested more than {MAX_DEPTH} deep" in r.stderr and "no file or folder" not in r.stderr, r.stderr
        assert alice.bytes() == before
    assert str(saved) in run("apply", alice.file, saved).stderr  # named whole


def test_a_mail_nested_within_the_limit_is_read(mailed: tuple[Machine, bytes, bytes]) -> None:
    alice, line, before = mailed
    saved = alice.dir / "ok.eml"
    saved.write_bytes(_nested(line, MAX_DEPTH - 1))
    r = alice.run("apply", alice.file, saved, "-q", env={"AGILITY_PLAYER": "alice"})
    assert r.exit_code == 0, r.stderr
    assert alice.bytes() == before + line + b"\n"


def test_a_saved_file_without_a_game_line_is_not_said_to_be_missing(mailed: tuple[Machine, bytes, bytes]) -> None:
    alice, _, before = mailed
    text = alice.dir / "notes.txt"
    text.write_text("hello\n")
    r = alice.run("apply", alice.file, text)
    assert r.exit_code == 2 and "holds no game line" in r.stderr and "no file or folder" not in r.stderr
    r = alice.run("apply", alice.file, alice.dir / "missing.eml")
    assert r.exit_code == 2 and "no file or folder here" in r.stderr
    assert alice.bytes() == before


# ----------------------------------------------------------------------------------------------
# The analysis file, checked against its game


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("analysed")
    game, other = root / "g.jsonl", root / "other.jsonl"
    for path, seed in ((game, "3"), (other, "4")):
        assert run("new", path, "--seed", seed, "--players", "alice", "bob", "-q").exit_code == 0
        assert run("bot", path, "--moves", "10", "-q").exit_code == 0
    out = root / "review.json"
    assert run("analyse", game, "--simulations", "2", "--worlds", "2", "--out", out, "--as", "alice").exit_code == 0
    return {"root": root, "game": game, "other": other, "review": out, "doc": json.loads(out.read_text())}


def _export(game: Path, analysis: Path, page: Path) -> Any:
    return run("export", game, "--html", "--analysis", analysis, "-o", page)


def test_the_analysis_file_records_the_file_it_is_of(analysed: dict[str, Any], tmp_path: Path) -> None:
    doc, game = analysed["doc"], analysed["game"]
    rows = game.read_bytes().split(b"\n")[:-1]
    import hashlib

    assert doc["version"] == 4
    assert doc["game"] == {"header": hashlib.sha256(rows[0]).hexdigest(), "lines": len(rows),
                           "tip": hashlib.sha256(rows[-1]).hexdigest()}
    page = tmp_path / "page.html"
    assert _export(game, analysed["review"], page).exit_code == 0 and page.exists()


def test_an_analysis_of_another_game_is_refused(analysed: dict[str, Any], tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    r = _export(analysed["other"], analysed["review"], page)
    assert r.exit_code == 2 and "analysis of another game" in r.stderr and not page.exists(), r.stderr
    assert f"agility analyse {analysed['other']} --out {analysed['review']}" in r.stderr  # what to do


def test_an_analysis_of_a_longer_or_other_copy_is_refused_and_of_a_shorter_one_read(
        analysed: dict[str, Any], tmp_path: Path) -> None:
    rows = analysed["game"].read_bytes().split(b"\n")[:-1]
    cut = tmp_path / "cut.jsonl"  # the copy cut short (undone, rewritten) since the analysis
    cut.write_bytes(b"".join(r + b"\n" for r in rows[:6]))
    page = tmp_path / "page.html"
    r = _export(cut, analysed["review"], page)
    assert r.exit_code == 2 and "another copy of this game" in r.stderr and "only 6 lines" in r.stderr, r.stderr
    assert not page.exists()
    longer = tmp_path / "longer.jsonl"  # the game went on since the analysis: still this game's
    longer.write_bytes(analysed["game"].read_bytes())
    assert run("bot", longer, "--moves", "3", "-q").exit_code == 0
    assert _export(longer, analysed["review"], page).exit_code == 0
    doc = dict(analysed["doc"], game=dict(analysed["doc"]["game"], tip="0" * 64))
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    r = _export(analysed["game"], forged, tmp_path / "p2.html")
    assert r.exit_code == 2 and "another copy" in r.stderr


def test_an_analysis_naming_a_stranger_or_the_wrong_decider_is_refused(analysed: dict[str, Any], tmp_path: Path) -> None:
    doc = analysed["doc"]
    game = analysed["game"]
    first = doc["decisions"][0]
    cases = {
        "mallory": dict(doc, decisions=[dict(first, player="mallory")] + doc["decisions"][1:]),
        "bob for alice": dict(doc, decisions=[dict(first, player="bob")] + doc["decisions"][1:]),
        "a line past the end": dict(doc, decisions=[dict(first, line=999)]),
        "a line past the file it is of": dict(doc, game=dict(doc["game"], lines=first["line"] - 1,
                                                               tip=_hash_of_line(game, first["line"] - 1))),
        "a graph of mallory": {"players": ["alice", "mallory"], "points": [{"line": 2, "win": {"mallory": 0.5}}]},
        "an old layout of mallory": {k: v for k, v in dict(doc, version=3, decisions=[dict(first, player="mallory")]).items()
                                     if k != "game"},
    }
    for name, bad in cases.items():
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        page = tmp_path / "page.html"
        r = _export(game, path, page)
        assert r.exit_code == 2, (name, r.stderr)
        assert "not an analysis of this game" in r.stderr and not page.exists(), (name, r.stderr)
    assert "'mallory'" in r.stderr
    old = tmp_path / "old.json"  # an old layout of this game's still loads
    old.write_text(json.dumps({k: v for k, v in dict(doc, version=3).items() if k != "game"}))
    assert _export(game, old, tmp_path / "old.html").exit_code == 0


def _hash_of_line(game: Path, n: int) -> str:
    import hashlib

    return hashlib.sha256(game.read_bytes().split(b"\n")[n - 1]).hexdigest()


def test_null_as_an_analysis_file_is_refused(analysed: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "null.json"
    path.write_text("null\n")
    r = _export(analysed["game"], path, tmp_path / "page.html")
    assert r.exit_code == 2 and "not an analysis file" in r.stderr


def _cli(*args: Any, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``agility ARGS`` in a new Python, under a timeout (a read that waits on a FIFO fails here)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "agility_cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_a_fifo_or_a_device_as_the_analysis_file_is_not_an_analysis_file(analysed: dict[str, Any], tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 6) / ("and-another-" * 8)
    deep.mkdir(parents=True)
    fifo = deep / "review.fifo"
    os.mkfifo(fifo)
    specials = [fifo, Path("/dev/zero")]
    if os.geteuid() == 0:
        device = deep / "fakenull"
        os.mknod(device, 0o644 | stat.S_IFCHR, os.makedev(1, 3))
        specials.append(device)
    for special in specials:
        page = tmp_path / "page.html"
        r = _cli("export", analysed["game"], "--html", "--analysis", special, "-o", page)
        assert r.returncode == 2, (special, r.stderr)
        assert "not an analysis file" in r.stderr and "game file" not in r.stderr and "a analysis" not in r.stderr
        assert str(special) in r.stderr, r.stderr  # the path whole (> 200 characters for the FIFO)
        assert len(r.stderr.replace(str(special), "").rstrip("\n")) <= 80, r.stderr
        assert "Traceback" not in r.stderr and not page.exists()
    assert len(str(fifo)) > 200


# ----------------------------------------------------------------------------------------------
# export -o onto a link, a device, a FIFO


def test_export_onto_a_link_to_a_file_elsewhere_replaces_the_link_not_the_file(analysed: dict[str, Any],
                                                                               tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "precious.txt"
    outside.parent.mkdir()
    outside.write_text("precious\n")
    link = tmp_path / "board.svg"
    link.symlink_to(outside)
    r = run("export", analysed["game"], "--svg", "-o", link)
    assert r.exit_code == 0, r.stderr
    assert outside.read_text() == "precious\n"
    assert not link.is_symlink() and "<svg" in link.read_text()[:400]
    assert "symbolic link" in r.stderr and str(outside) in r.stderr and "unchanged" in r.stderr
    review = tmp_path / "review.json"  # analyse --out likewise
    review.symlink_to(outside)
    r = run("analyse", analysed["game"], "--simulations", "2", "--worlds", "2", "--out", review, "--as", "alice")
    assert r.exit_code == 0 and outside.read_text() == "precious\n" and not review.is_symlink()
    assert "symbolic link" in r.stderr


def test_export_onto_a_device_a_fifo_or_a_link_to_one_changes_nothing(analysed: dict[str, Any], tmp_path: Path) -> None:
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    targets = [fifo, link]
    if os.geteuid() == 0:
        device = tmp_path / "fakenull"
        os.mknod(device, 0o644 | stat.S_IFCHR, os.makedev(1, 3))
        targets.append(device)
    for target in targets:
        before = os.lstat(target)
        r = _cli("export", analysed["game"], "--svg", "-o", target, timeout=60)
        assert r.returncode == 2 and "regular file" in r.stderr and "Traceback" not in r.stderr, r.stderr
        after = os.lstat(target)
        assert (after.st_ino, stat.S_IFMT(after.st_mode)) == (before.st_ino, stat.S_IFMT(before.st_mode))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(t.name for t in targets)  # no temporary file left


@pytest.mark.parametrize("address", ["tls://127.0.0.1:1", "scheduler.json"])
def test_a_refused_cluster_address_ends_the_process_at_once_without_a_traceback(address: str, tmp_path: Path) -> None:
    """Item 2 in a new Python: the refusal was clean, then a ``Client.__del__`` traceback and a 30 s
    stall followed at the interpreter's exit (a test in the same process cannot see either)."""
    pytest.importorskip("distributed")
    import time

    started = time.monotonic()
    r = _cli("selfplay", "--games", "2", "--cluster", address, "--out", tmp_path / "run", timeout=60)
    assert r.returncode == 2 and "--cluster" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    assert time.monotonic() - started < 20, "a stall after the refusal"
    assert not (tmp_path / "run").exists()


def test_a_journal_that_is_a_fifo_or_dev_zero_ends_at_once_in_a_new_python(tmp_path: Path) -> None:
    """Item 3 under a timeout: the old reader waited on the FIFO, and read /dev/zero until the
    memory was full."""
    fifo = tmp_path / "journal.fifo"
    os.mkfifo(fifo)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for journal in (fifo, Path("/dev/zero")):
        r = subprocess.run([sys.executable, "-m", "agility_cli.cli.bench", "calibration", "--games", "2", "--journal",
                            str(journal)], capture_output=True, text=True, timeout=60, env=env)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "regular file" in r.stderr, r.stderr
        assert str(journal) in r.stderr and "Traceback" not in r.stderr


def test_a_journal_of_another_run_is_named_whole(tmp_path: Path) -> None:
    from agility_cli.engine.notation import UsageError
    from agility_cli.players import batch

    deep = tmp_path / ("a-long-folder-name-" * 10)
    deep.mkdir()
    path = deep / "journal.jsonl"
    path.write_text(json.dumps({"journal": {"run": 2}}) + "\n")
    with pytest.raises(UsageError) as caught:
        batch.Journal(path, {"run": 1}).load()
    assert str(path) in str(caught.value) and "another run" in str(caught.value)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
