"""A hostile opponent and an unlucky disk (issue 12): one test (or a few) per numbered failure.

1. terminal escapes in names, component sets, mails and arguments are shown escaped; bad names are
   refused;  2. commands printed to copy are quoted for the shell;  3. ``repair --force`` never
   writes through a symlinked ``FILE.bak``;  4. a custom component set is named, with its
   fingerprint, in every view;  5. a full disk leaves every file as it was (whole lines or none);
6. a file replaced while ``move`` waits for the lock does not swallow the line;  7. FIFOs, devices
   and huge files or lines are refused;  8. deeply nested JSON is exit 3, never 4, and control
   characters in names cannot crash the coloured board;  9. component ids a command cannot name
   unambiguously are refused, and every printed command makes exactly its decision;  10. mail
   quirks (BOM, quoted-printable, prose starting with ``{``) do not refuse a good mail;
11. long values are clipped, a CR-only file is named as such, diff3 conflict ranges are right, and
   the README warns about ``git merge -X ours/theirs``.

Plus the disk-full test for ``move``, ``apply``, ``new`` and ``repair``: a write wrapper fails
after K bytes; the file afterwards verifies and holds exactly the lines reported written.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from gamefiles import new_game, one_player, play_random
from typer.testing import CliRunner

from agility_cli.record import gamefile, lines, storage
from agility_cli.engine import rules, notation
from agility_cli import text
from agility_cli.cli import app
from agility_cli.engine.components import (
    Components,
    ComponentsError,
    fingerprint,
    parse_components,
    standard_components,
    validate,
)
from agility_cli.engine.moves import Header
from agility_cli.engine.state import public_state

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "agility_cli" / "data" / "standard.json"
runner = CliRunner()

ESC = "\x1b"
CONTROL = ("\x1b", "\x07", "\x08", "\r", "\x9b", "\u202e", "\u2066")


def run(*args: Any, input: bytes | str | None = None, env: dict[str, str] | None = None) -> Any:
    r = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in r.output and "Traceback" not in (r.stderr or "")
    assert r.exit_code in (0, 1, 2, 3), (r.exit_code, r.output)
    return r


def assert_clean(out: str) -> None:
    """No control or bidi character reaches the terminal (newlines apart)."""
    for ch in CONTROL:
        assert ch not in out, (ch, out[:300])


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def joined(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def game_file(tmp_path: Path, moves: int = 20, name: str = "g.jsonl", seed: int = 42) -> Path:
    path = tmp_path / name
    new_game(path, seed)
    play_random(path, moves, 7)
    return path


def standard_raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(STANDARD.read_bytes())
    return data


def write_components(path: Path, raw: dict[str, Any]) -> Path:
    path.write_text(json.dumps(raw))
    return path


def edit_line(path: Path, index: int, change: Callable[[dict[str, Any]], None]) -> None:
    lines = lines_of(path)
    obj = json.loads(lines[index])
    change(obj)
    lines[index] = json.dumps(obj, separators=(",", ":")).encode()
    path.write_bytes(joined(lines))


# ----------------------------------------------------------------------------------------------
# 1. Terminal escape injection


def test_item1_safe_escapes_controls_and_bidi_and_clips() -> None:
    assert text.safe("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert text.safe("\x1b]8;;http://x\x07link") == "\\x1b]8;;http://x\\x07link"
    assert text.safe("abc\u202eevil") == "abc\\u202eevil"
    assert text.safe("x\x9by\x7f") == "x\\x9by\\x7f"
    assert text.safe("Zoë ☃ 犬") == "Zoë ☃ 犬"
    clipped = text.safe("x" * 1000)
    assert clipped.startswith("x" * 200) and "(1000 characters)" in clipped and len(clipped) < 230
    assert text.safe_message("line one\nline\x1b two") == "line one\nline\\x1b two"


@pytest.mark.parametrize(
    "names, why",
    [
        (("al\x1b[2Jice", "bob"), "control"),
        (("alice", "b\u202eob"), "control"),
        (("alice", "b\x07ob"), "control"),
        (("x" * 41, "bob"), "at most 40"),
        (("Zoe\u0308", "bob"), "NFC"),  # e + combining diaeresis: not NFC
        (("alice", "\u0430lice"), "look alike"),  # Cyrillic а
        (("bob", "B0B"), "look alike"),
    ],
)
def test_item1_new_refuses_names_that_cannot_be_shown_or_told_apart(tmp_path: Path, names: tuple[str, str], why: str) -> None:
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "1", "--players", *names)
    assert r.exit_code == 2, r.output
    assert why in r.stderr
    assert_clean(r.stderr)
    assert not path.exists()


def test_item1_a_forged_header_name_with_escapes_is_refused_and_shown_escaped(tmp_path: Path) -> None:
    path = game_file(tmp_path, 5)
    edit_line(path, 0, lambda o: o.update(players=["al\x1b[2J\x1b]8;;http://evil\x07ice", "bob"]))
    for command in (["show"], ["replay"], ["legal"], ["log"], ["move", "done"], ["show", "--json"]):
        r = run(command[0], path, *command[1:])
        assert r.exit_code == 3, (command, r.output)
        assert "line 1" in r.stderr and "\\x1b" in r.stderr
        assert_clean(r.stdout + r.stderr)


def test_item1_a_forged_line_cannot_print_a_fake_applied_message(tmp_path: Path) -> None:
    path = game_file(tmp_path, 5)
    before = path.read_bytes()
    last = json.loads(lines_of(path)[-1])
    fake = dict(last, n=last["n"] + 1, prev=gamefile.line_hash(lines_of(path)[-1]),
                player="\r\x1b[2Kapplied 1 line to game.jsonl\x1b[8m")
    r = run("apply", path, json.dumps(fake))
    assert r.exit_code == 1
    assert "\\x0d\\x1b[2Kapplied" in r.stderr
    assert_clean(r.stdout + r.stderr)
    assert path.read_bytes() == before


def test_item1_mail_prose_and_arguments_are_shown_escaped(tmp_path: Path) -> None:
    path = game_file(tmp_path, 5)
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(path.read_bytes())
    play_random(theirs, 2, 9)
    new_lines = lines_of(theirs)[len(lines_of(path)):]
    mail = "Hi \x1b[2J\x1b]8;;http://evil\x07click\x1b]8;;\x07\n" + "\n".join(x.decode() for x in new_lines) + "\n"
    r = run("apply", path, "-", input=mail)
    assert r.exit_code == 0, r.output
    assert "ignored 1 line(s)" in r.stderr and "\\x1b[2J" in r.stderr
    assert_clean(r.stdout + r.stderr)
    r = run("move", path, "play", "\x1b[2J\x1b[31mred")
    assert r.exit_code in (1, 2) and "\\x1b[2J" in r.stderr
    assert_clean(r.stdout + r.stderr)


def test_item1_components_with_control_characters_or_long_names_are_refused(tmp_path: Path) -> None:
    for field, value, why in (
        ("dog", "Golden\x1b[2J", "control"),
        ("dog", "G" * 61, "at most 60"),
        ("set", "stan\u202edard", "control"),
        ("desc", "ok\x1b[31m", "description"),
    ):
        raw = standard_raw()
        if field == "dog":
            raw["dogs"][0]["name"] = value
        elif field == "set":
            raw["name"] = value
        else:
            raw["description"] = value
        comp = write_components(tmp_path / "c.json", raw)
        r = run("new", tmp_path / "x.jsonl", "--seed", "1", "--components", comp)
        assert r.exit_code == 2 and why in r.stderr, (field, r.stderr)
        assert_clean(r.stderr)


# ----------------------------------------------------------------------------------------------
# 2. Shell injection through hints


def test_item2_every_printed_command_is_quoted_for_the_shell(tmp_path: Path) -> None:
    d = tmp_path / "my games $(touch PWNED)"
    d.mkdir()
    path = d / "it's a game; rm -rf x.jsonl"
    new_game(path, 42)
    play_random(path, 3, 7)
    r = run("legal", path)
    assert r.exit_code == 0
    # `legal` lists one command a decision (a card to play is one row, its options after it).
    commands = [line.strip() for line in r.stdout.splitlines() if line.startswith("  agility move ")]
    legal = json.loads(run("legal", path, "--json").stdout)
    assert commands and len(commands) <= len(legal)
    argvs = [["agility", "move", str(path), *entry["argv"]] for entry in legal]
    for command in commands:
        assert shlex.split(command) in argvs
    # Pasted into a real shell, the words arrive as they are and nothing runs.
    for command in commands:
        out = subprocess.run(
            ["sh", "-c", "printf '%s\\n' " + command.removeprefix("agility ")],
            capture_output=True, text=True, cwd=tmp_path, check=True,
        ).stdout.splitlines()
        assert out == shlex.split(command)[1:]
    assert not (tmp_path / "PWNED").exists()
    # A refusal lists the legal commands quoted too.
    r = run("move", path, "exchange", "red", "red")
    assert r.exit_code in (1, 2)
    for line in r.stderr.splitlines():
        if line.strip().startswith("agility move"):
            assert shlex.split(line.strip())[2] == str(path)


def test_item2_a_damaged_file_hint_quotes_the_path(tmp_path: Path) -> None:
    path = game_file(tmp_path, 3, name="a b.jsonl")
    path.write_bytes(path.read_bytes() + b'{"kind":"done"')
    r = run("replay", path)
    assert r.exit_code == 3
    assert f"agility repair '{path}'" in r.stderr


def test_item2_item9_a_shell_word_as_a_component_id_is_refused(tmp_path: Path) -> None:
    raw = standard_raw()
    raw["boards"][7]["sides"][0]["id"] = "8A$(touch PWNED)"
    comp = write_components(tmp_path / "c.json", raw)
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--components", comp)
    assert r.exit_code == 2 and "not a valid id" in r.stderr
    assert not (tmp_path / "g.jsonl").exists()


# ----------------------------------------------------------------------------------------------
# 3. repair --force and a symlinked FILE.bak


def _incomplete(tmp_path: Path) -> tuple[Path, bytes]:
    path = game_file(tmp_path, 10)
    data = path.read_bytes() + b'{"kind":"done","n":'
    path.write_bytes(data)
    return path, data


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_item3_repair_force_replaces_a_symlinked_backup_never_its_target(tmp_path: Path) -> None:
    path, data = _incomplete(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    backup = tmp_path / "g.jsonl.bak"
    backup.symlink_to(victim)
    r = run("repair", path)
    assert r.exit_code == 1 and "already exists" in r.stderr
    assert victim.read_text() == "precious" and path.read_bytes() == data
    r = run("repair", path, "--force")
    assert r.exit_code == 0, r.output
    assert victim.read_text() == "precious"
    assert not backup.is_symlink() and backup.read_bytes() == data
    gamefile.load(path)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_item3_repair_never_creates_a_backup_through_a_dangling_symlink(tmp_path: Path) -> None:
    path, data = _incomplete(tmp_path)
    target = tmp_path / "created-through-link"
    (tmp_path / "g.jsonl.bak").symlink_to(target)
    r = run("repair", path)
    assert r.exit_code == 1
    assert not target.exists() and path.read_bytes() == data


# ----------------------------------------------------------------------------------------------
# 4. A custom component set is visible in every view


def _boosted_standard(tmp_path: Path) -> Path:
    """A set that calls itself "standard" but pays more for every card."""
    raw = standard_raw()
    for card in raw["cards"]:
        card["rewards"][0]["count"] = 3
    return write_components(tmp_path / "sneaky.json", raw)


def test_item4_a_custom_set_is_named_with_its_fingerprint_everywhere(tmp_path: Path) -> None:
    comp_path = _boosted_standard(tmp_path)
    comp = parse_components(comp_path.read_bytes())
    fp = fingerprint(comp)
    assert fp != fingerprint(standard_components()) and len(fp) == 12
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "3", "--components", comp_path)
    assert r.exit_code == 0
    assert "custom component set 'standard'" in r.stderr and fp in r.stderr
    for command in (["show"], ["legal"], ["replay"]):
        out = run(command[0], path, *command[1:]).stdout
        assert "custom component set 'standard'" in out and fp in out, command
    r = run("log", path)
    assert r.exit_code == 0 and fp in r.stderr
    state = json.loads(run("show", path, "--json").stdout)
    assert state["components"] == {"name": "standard", "standard": False, "fingerprint": fp}
    replayed = [json.loads(line) for line in run("replay", path, "--json").stdout.splitlines()]
    assert all(entry["state"]["components"]["fingerprint"] == fp for entry in replayed)
    # apply says so too
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(path.read_bytes())
    play_random(theirs, 2, 5)
    mail = b"\n".join(lines_of(theirs)[len(lines_of(path)):]).decode()
    r = run("apply", path, "-", input=mail)
    assert r.exit_code == 0 and fp in r.stderr


def test_item4_a_fair_game_with_a_custom_set_says_so_to_its_creator_and_at_join(tmp_path: Path) -> None:
    comp_path = _boosted_standard(tmp_path)
    fp = fingerprint(parse_components(comp_path.read_bytes()))
    alice, bob = tmp_path / "alice.jsonl", tmp_path / "bob.jsonl"
    r = run("new", alice, "--players", "alice", "bob", "--components", comp_path,
            env={"AGILITY_HOME": str(tmp_path / "a")})
    assert r.exit_code == 0 and fp in r.stderr
    bob.write_bytes(alice.read_bytes())
    r = run("join", bob, env={"AGILITY_HOME": str(tmp_path / "b")})
    assert r.exit_code == 0 and "custom component set 'standard'" in r.stderr and fp in r.stderr


def test_item4_the_shipped_set_says_nothing_extra(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "3")
    assert "custom" not in r.stderr + r.stdout
    state = json.loads(run("show", path, "--json").stdout)
    assert state["components"] == {"name": "standard", "standard": True, "fingerprint": fingerprint(standard_components())}


# ----------------------------------------------------------------------------------------------
# 5. Whole lines or nothing: a disk that fills up (and the disk-full test)


class FullDisk:
    """``os.write`` that writes at most ``budget`` more bytes, then fails with ENOSPC; it may also
    write in short pieces (``chunk``), as a real ``write`` may."""

    def __init__(self, budget: int, chunk: int | None = None):
        self.budget = budget
        self.chunk = chunk
        self.real = os.write

    def __call__(self, fd: int, data: Any) -> int:
        data = bytes(data)
        if self.budget <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(len(data), self.budget, self.chunk or len(data))
        written = self.real(fd, data[:n])
        self.budget -= written
        return written


def _printed_lines(stdout: str) -> list[bytes]:
    return [line.encode() for line in stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("budget", [0, 1, 40, 150, 10**6])
def test_item5_move_on_a_full_disk_writes_whole_lines_or_nothing(tmp_path: Path, budget: int, monkeypatch: Any) -> None:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    monkeypatch.setattr(os, "write", FullDisk(budget, chunk=7))
    r = run("move", path, *argv, "--quiet")
    monkeypatch.undo()
    after = path.read_bytes()
    gamefile.load(path)  # verifies
    if r.exit_code == 0:
        assert after == before + joined(_printed_lines(r.stdout))
    else:
        assert r.exit_code == 2, r.output
        assert "could not write" in r.stderr and "No space left" in r.stderr and "unchanged" in r.stderr
        assert after == before and r.stdout == ""


def test_item5_short_writes_are_completed(tmp_path: Path, monkeypatch: Any) -> None:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    monkeypatch.setattr(os, "write", FullDisk(10**9, chunk=3))
    r = run("move", path, *argv, "--quiet")
    monkeypatch.undo()
    assert r.exit_code == 0
    assert path.read_bytes() == before + joined(_printed_lines(r.stdout))
    gamefile.load(path)


@pytest.mark.parametrize("budget", [0, 100, 10**6])
def test_item5_apply_on_a_full_disk_writes_whole_lines_or_nothing(tmp_path: Path, budget: int, monkeypatch: Any) -> None:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(before)
    play_random(theirs, 4, 3)
    mailed = one_player(lines_of(theirs)[len(lines_of(path)):])
    monkeypatch.setattr(os, "write", FullDisk(budget, chunk=50))
    r = run("apply", path, "-", input=b"\n".join(mailed))
    monkeypatch.undo()
    gamefile.load(path)
    if r.exit_code == 0:
        assert path.read_bytes() == before + joined(mailed)
        assert f"applied {len(mailed)} lines" in r.stdout
    else:
        assert r.exit_code == 2 and "could not write" in r.stderr and "unchanged" in r.stderr
        assert path.read_bytes() == before


@pytest.mark.parametrize("budget", [0, 100, 10**6])
def test_item5_new_on_a_full_disk_leaves_no_file(tmp_path: Path, budget: int, monkeypatch: Any) -> None:
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr(os, "write", FullDisk(budget, chunk=64))
    r = run("new", path, "--seed", "9", "--players", "bot:greedy", "bob", "--quiet")
    monkeypatch.undo()
    if r.exit_code == 0:
        assert path.read_bytes() == r.stdout.encode()
        gamefile.load(path)
    else:
        assert r.exit_code == 2 and "could not write" in r.stderr and "nothing was created" in r.stderr
        assert not path.exists()
    assert [p.name for p in tmp_path.iterdir()] == (["g.jsonl"] if r.exit_code == 0 else [])
    if r.exit_code:
        assert run("new", path, "--seed", "9", "--quiet").exit_code == 0  # nothing blocks the next try


def test_item5_new_killed_before_linking_leaves_no_game_file(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "g.jsonl"

    def killed(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", killed)
    r = runner.invoke(app, ["new", str(path), "--seed", "1"])
    monkeypatch.undo()
    assert r.exit_code == 130
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("budget", [0, 100, 10**6])
@pytest.mark.parametrize("damage", ["incomplete", "no-newline"])
def test_item5_repair_on_a_full_disk_leaves_no_backup_and_the_file_unchanged(
    tmp_path: Path, budget: int, damage: str, monkeypatch: Any
) -> None:
    path = game_file(tmp_path, 10)
    data = path.read_bytes()
    data = data + b'{"kind":"done","n":' if damage == "incomplete" else data[:-1]
    path.write_bytes(data)
    monkeypatch.setattr(os, "write", FullDisk(budget, chunk=1000))
    r = run("repair", path)
    monkeypatch.undo()
    backup = tmp_path / "g.jsonl.bak"
    if r.exit_code == 0:
        assert backup.read_bytes() == data
        gamefile.load(path)
    else:
        assert r.exit_code == 2 and "could not write" in r.stderr and "unchanged" in r.stderr
        assert path.read_bytes() == data and not backup.exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]
        assert run("repair", path).exit_code == 0  # nothing blocks the next try


def test_item5_a_failed_fsync_takes_the_line_back(tmp_path: Path, monkeypatch: Any) -> None:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]

    def eio(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", eio)
    r = run("move", path, *argv)
    monkeypatch.undo()
    assert r.exit_code == 2 and "Input/output error" in r.stderr and "unchanged" in r.stderr
    assert path.read_bytes() == before


def test_item5_new_works_where_the_file_system_has_no_hard_links(tmp_path: Path, monkeypatch: Any) -> None:
    def no_links(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "2", "--quiet")
    assert r.exit_code == 0 and path.read_bytes() == r.stdout.encode()
    r = run("new", path, "--seed", "3", "--quiet")
    assert r.exit_code == 2 and "already exists" in r.stderr
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]
    gamefile.load(path)


# ----------------------------------------------------------------------------------------------
# 6. The file replaced while move waits for the lock


def test_item6_a_file_replaced_while_waiting_for_the_lock_gets_the_line(tmp_path: Path, monkeypatch: Any) -> None:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    real = storage._lock_exclusive
    calls = []

    def lock_then_replaced(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:  # while we wait, `git checkout` or an editor saves by rename
            fresh = tmp_path / "fresh.jsonl"
            fresh.write_bytes(before)
            os.replace(fresh, path)
        real(fd)

    monkeypatch.setattr(storage, "_lock_exclusive", lock_then_replaced)
    r = run("move", path, *argv, "--quiet")
    monkeypatch.undo()
    assert r.exit_code == 0, r.output
    assert len(calls) == 2  # it noticed and started over
    assert path.read_bytes() == before + joined(_printed_lines(r.stdout))


# ----------------------------------------------------------------------------------------------
# 7. Reading without limits


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_item7_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "g.jsonl"
    os.mkfifo(fifo)
    for command in (["replay"], ["show"], ["move", "done"], ["apply", "-"], ["repair"], ["log"]):
        proc = subprocess.run(
            [sys.executable, "-m", "agility_cli", command[0], str(fifo), *command[1:]],
            capture_output=True, text=True, cwd=ROOT, timeout=60, input='{"kind":"done","n":1}',
        )
        assert proc.returncode == 3, (command, proc.stderr)
        assert "named pipe" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_item7_a_device_is_refused() -> None:
    for command in (["show"], ["move", "done"], ["replay", "--json"]):
        r = run(command[0], "/dev/zero", *command[1:])
        assert r.exit_code == 3 and "a device" in r.stderr, command


def test_item7_huge_files_and_lines_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(gamefile.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    r = run("show", big)
    assert r.exit_code == 3 and "at most 64 MiB" in r.stderr
    path = game_file(tmp_path, 3)
    lines = lines_of(path)
    long = b'{"kind":"done","n":' + b"1" * (gamefile.MAX_LINE_BYTES + 10) + b"}"
    path.write_bytes(joined(lines + [long]))
    r = run("replay", path)
    assert r.exit_code == 3 and f"line {len(lines) + 1}:" in r.stderr and "at most" in r.stderr
    assert len(r.stderr) < 2000


def test_item7_an_oversized_components_file_or_a_device_is_refused(tmp_path: Path) -> None:
    if os.path.exists("/dev/zero"):
        r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--components", "/dev/zero")
        assert r.exit_code == 2 and "not a regular file" in r.stderr


# ----------------------------------------------------------------------------------------------
# 8. Exit 4 on hostile JSON, and control characters in the coloured board


def _deep(depth: int = 5000) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("where", ["field", "unknown", "header", "raw"])
def test_item8_deep_nesting_is_exit_3_everywhere(tmp_path: Path, where: str) -> None:
    path = game_file(tmp_path, 10)
    lines = lines_of(path)
    if where == "header":
        lines[0] = lines[0][:-1] + b',"zzz":' + _deep().encode() + b"}"
        bad = 1
    else:
        bad = len(lines)
        if where == "field":
            lines[-1] = lines[-1].replace(b'"player":', b'"player":' + _deep().encode() + b',"x":', 1)
        elif where == "unknown":
            lines[-1] = lines[-1][:-1] + b',"zzz":' + _deep().encode() + b"}"
        else:
            lines[-1] = _deep().encode()
    data = joined(lines)
    path.write_bytes(data)
    for command in (["replay"], ["replay", "--json"], ["show"], ["move", "done"], ["log"], ["legal"], ["undo"]):
        r = run(command[0], path, *command[1:])
        assert r.exit_code == 3, (command, r.output)
        assert f"line {bad}:" in r.stderr
    r = run("apply", path, "-", input="{}")
    assert r.exit_code in (2, 3)
    assert path.read_bytes() == data


def test_item8_deep_nesting_in_a_mailed_line_is_refused(tmp_path: Path) -> None:
    path = game_file(tmp_path, 10)
    before = path.read_bytes()
    r = run("apply", path, '{"kind":"done","n":' + _deep() + "}")
    assert r.exit_code == 1 and "nested" in r.stderr
    assert path.read_bytes() == before


def test_item8_the_nesting_check_ignores_brackets_inside_strings() -> None:
    assert not lines._too_deep(json.dumps({"kind": "x", "s": "[" * 500}).encode())
    assert lines._too_deep(_deep(gamefile.MAX_DEPTH + 1).encode())
    assert not lines._too_deep(_deep(gamefile.MAX_DEPTH).encode())


@pytest.mark.parametrize("name", ["a\x07b", "a\bb", "a\rb", "\x1b[2Jx", "a\u202eb"])
def test_item8_control_characters_in_names_cannot_crash_the_coloured_board(name: str) -> None:
    from rich.console import Console

    from agility_cli.table import render

    s = rules.setup(
        Header(format=1, rules=1, seed=3, players=(name, "bob"), first="bob", board=rules.RECOMMENDED_BOARD,
               components="standard"),
        standard_components(),
    )
    console = Console(file=open(os.devnull, "w"), force_terminal=True, width=80)
    console.print(render.board(s, ["agility move 'x' done"]))  # raised IndexError in rich's spans
    plain = render.board_plain(s)
    assert_clean(plain)
    assert text.safe(name) in plain


@pytest.mark.parametrize("name", ["a\x07b", "a\bb", "a\rb"])
def test_item8_new_refuses_such_names(tmp_path: Path, name: str) -> None:
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--players", name, "bob")
    assert r.exit_code == 2 and "control" in r.stderr


# ----------------------------------------------------------------------------------------------
# 9. Component ids a command cannot name unambiguously


def _with(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    raw = standard_raw()
    change(raw)
    return raw


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda r: r["cards"][0].update(id="5"), "all digits"),
        (lambda r: r["cards"][1].update(id="T01"), "but for case"),
        (lambda r: r["boards"][0]["sides"][0].update(id="3"), "all digits"),
        (lambda r: r["boards"][0]["sides"][1].update(id="1a"), "but for case"),
        (lambda r: r["cards"][0].update(id="t 1"), "not a valid id"),
        (lambda r: r["cards"][0].update(id="--reward"), "not a valid id"),
        (lambda r: r["cards"][0].update(id="t\x1b1"), "not a valid id"),
        (lambda r: r["dogs"][0].update(id="Golden"), "not a valid id"),
        (lambda r: r["dogs"][0].update(id="golden_retriever"), "not a valid id"),
        (lambda r: r["dogs"][1].update(name="Golden Retriever"), "another dog"),
    ],
)
def test_item9_ids_that_cannot_be_named_unambiguously_are_refused(change: Callable[[dict[str, Any]], None], why: str) -> None:
    with pytest.raises(ComponentsError, match=why):
        parse_components(json.dumps(_with(change)).encode())


def awkward_components() -> Components:
    """A valid set whose ids are as odd as the validator allows: mixed case, ``_`` and ``-``,
    digits first, ids that look like tiles or colours, dogs whose ids are prefixes of others."""
    raw = standard_raw()
    rng = random.Random(5)
    for i, card in enumerate(raw["cards"]):
        card["id"] = rng.choice(["T", "x_", "Ab-", "9z", "red", "c"]) + f"{i:02d}"
    for i, dog in enumerate(raw["dogs"]):
        dog["id"] = ["d", "d-1", "done", "d1x", "play", "0dog"][i % 6] + ("" if i < 6 else f"-{i}")
    for b, board in enumerate(raw["boards"]):
        for s, side in enumerate(board["sides"]):
            side["id"] = ["a1", "B-2", "x_y", "7z", "Red", "done", "q", "Z9"][b] + "ab"[s]
    return validate(parse_components(json.dumps(raw).encode()))


@pytest.mark.parametrize("seed", range(4))
def test_item9_every_legal_command_makes_exactly_its_decision_with_awkward_ids(seed: int) -> None:
    comps = awkward_components()
    board = rules.random_board(seed, "ab"[seed % 2])
    s = rules.setup(
        Header(format=1, rules=1, seed=seed, players=("alice", "bob"), first="alice", board=board,
               components=comps),
        comps,
    )
    r = random.Random(seed)
    path = "/tmp/my game $(x).jsonl"
    while s.winner is None:
        legal = rules.legal_moves(s)
        for m in legal:
            argv = notation.argv(s, m)
            assert notation.parse(s, argv) == m, (m, argv)
            command = text.shell_command(["agility", "move", path, *argv])
            assert shlex.split(command)[3:] == argv
        rules.apply_in_place(s, r.choice(legal))


def test_item9_the_awkward_set_plays_through_the_cli(tmp_path: Path) -> None:
    comp = tmp_path / "awkward.json"
    comp.write_bytes(json.dumps(json.loads(__import__("msgspec").json.encode(awkward_components()))).encode())
    path = tmp_path / "g.jsonl"
    assert run("new", path, "--seed", "4", "--components", comp).exit_code == 0
    for _ in range(40):
        legal = json.loads(run("legal", path, "--json").stdout)
        if not legal:
            break
        entry = legal[len(legal) // 2]
        before = gamefile.load(path).state
        expected = next(m for m in rules.legal_moves(before) if notation.argv(before, m) == entry["argv"])
        r = run("move", path, *entry["argv"], "--quiet")
        assert r.exit_code == 0, (entry, r.stderr)
        first = gamefile.decode_line(r.stdout.splitlines()[0].encode())
        assert first.player == expected.player and json.loads(r.stdout.splitlines()[0])["kind"] != "game"


# ----------------------------------------------------------------------------------------------
# 10. Mail quirks


def _mail_setup(tmp_path: Path) -> tuple[Path, bytes, list[bytes]]:
    path = game_file(tmp_path, 20)
    before = path.read_bytes()
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(before)
    play_random(theirs, 3, 11)
    return path, before, lines_of(theirs)[len(lines_of(path)):]


def test_item10_a_bom_before_the_first_line_is_ignored(tmp_path: Path) -> None:
    path, before, mailed = _mail_setup(tmp_path)
    r = run("apply", path, "-", input=b"\xef\xbb\xbf" + b"\n".join(mailed) + b"\n")
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before + joined(mailed)


def test_item10_quoted_printable_soft_breaks_and_escapes_are_undone(tmp_path: Path) -> None:
    import quopri

    path, before, mailed = _mail_setup(tmp_path)
    body = quopri.encodestring(b"Here you go:\n\n" + b"\n".join(mailed) + b"\n\nBye\n").decode()
    assert "=\n" in body  # long lines were soft-broken
    mail = "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n" + body
    r = run("apply", path, "-", input=mail)
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before + joined(mailed)
    # Without the header line too (pasted from a raw message source).
    path.write_bytes(before)
    r = run("apply", path, "-", input=body)
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before + joined(mailed)


def test_item10_prose_starting_with_a_brace_is_ignored_and_listed(tmp_path: Path) -> None:
    path, before, mailed = _mail_setup(tmp_path)
    mail = (
        "{sigh} you again.\n" + "\n".join(x.decode() for x in mailed[:2]) + "\n"
        + "{ok, here is the last one}\n" + mailed[2].decode() + "\n{cheers}\n"
    )
    r = run("apply", path, "-", input=mail)
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before + joined(mailed)
    assert "ignored 3 line(s)" in r.stderr
    for prose in ("{sigh} you again.", "{ok, here is the last one}", "{cheers}"):
        assert prose in r.stderr


def test_item10_a_wrapped_game_line_after_prose_is_still_joined(tmp_path: Path) -> None:
    path, before, mailed = _mail_setup(tmp_path)
    first = mailed[0].decode()
    wrapped = first[:50] + "\n" + first[50:]
    r = run("apply", path, "-", input="{cheers\n" + wrapped + "\n" + "\n".join(x.decode() for x in mailed[1:]))
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before + joined(mailed)


# ----------------------------------------------------------------------------------------------
# 11. Messages


def test_item11_a_huge_name_is_not_echoed_whole(tmp_path: Path) -> None:
    huge = "x" * 10_000_000
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--players", huge, "bob")
    assert r.exit_code == 2 and len(r.stderr) < 1000
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--first", huge)
    assert r.exit_code == 2 and len(r.stderr) < 1000
    path = game_file(tmp_path, 5)
    before = path.read_bytes()
    r = run("move", path, "--as", huge, "done")
    assert r.exit_code in (1, 2) and len(r.stderr) < 5000
    edit_line(path, len(lines_of(path)) - 1, lambda o: o.update(player="y" * 900_000))
    r = run("replay", path)
    assert r.exit_code == 3 and len(r.stderr) < 5000 and "900000 characters" in r.stderr
    path.write_bytes(before)


def test_item11_a_cr_only_file_is_not_called_crlf(tmp_path: Path) -> None:
    path = game_file(tmp_path, 5)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r"))
    r = run("replay", path)
    assert r.exit_code == 3
    assert "CR" in r.stderr and "classic Mac" in r.stderr and "CRLF" not in r.stderr


def test_item11_diff3_conflict_ranges_leave_out_the_ancestor(tmp_path: Path) -> None:
    path = game_file(tmp_path, 20)
    lines = lines_of(path)
    cut = 12
    ours, theirs = lines[cut:15], lines[cut:14]
    data = joined(lines[:cut] + [b"<<<<<<< HEAD", *ours, b"||||||| base", lines[cut], b"=======", *theirs,
                                 b">>>>>>> bob/main"])
    path.write_bytes(data)
    r = run("replay", path)
    assert r.exit_code == 3
    start = cut + 1
    base = start + len(ours) + 1
    mid = base + 2
    end = mid + len(theirs) + 1
    assert f"one side is lines {start + 1}–{base - 1}, the other lines {mid + 1}–{end - 1}" in r.stderr
    assert f"lines {base}–{mid - 1} are the common ancestor's" in r.stderr


def test_item11_readme_warns_that_merge_strategy_options_drop_a_branch() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Playing by email or by git", 1)[1].split("\n## ", 1)[0]
    assert "-X ours" in section and "-X theirs" in section
    assert "agility log" in section


# ----------------------------------------------------------------------------------------------
# The text helpers themselves


def test_shell_command_quotes_only_what_needs_it() -> None:
    assert text.shell_command(["agility", "move", "g.jsonl", "play", "3", "--reward", "red"]) == (
        "agility move g.jsonl play 3 --reward red"
    )
    assert text.shell_command(["agility", "move", "my game.jsonl", "done"]) == "agility move 'my game.jsonl' done"


def test_confusable_names() -> None:
    assert text.confusable("alice", "\u0430lice")  # Cyrillic а
    assert text.confusable("bob", "Bob")
    assert text.confusable("paul", "\u03c1aul")  # Greek rho
    assert not text.confusable("alice", "bob")
    assert not text.confusable("bot:greedy", "bot:random")


def test_public_state_names_the_component_set() -> None:
    s = rules.setup(
        Header(format=1, rules=1, seed=1, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD,
               components="standard"),
        standard_components(),
    )
    assert public_state(s)["components"]["standard"] is True
    other = copy.deepcopy(json.loads(STANDARD.read_bytes()))
    other["name"] = "mine"
    comps = parse_components(json.dumps(other).encode())
    s = rules.setup(
        Header(format=1, rules=1, seed=1, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD,
               components=comps),
        comps,
    )
    assert public_state(s)["components"] == {"name": "mine", "standard": False, "fingerprint": fingerprint(comps)}


def test_item1_usage_errors_of_the_command_line_parser_are_made_safe_too(tmp_path: Path) -> None:
    """Click's own usage errors quote the user's words: the entry point prints them escaped."""
    path = tmp_path / "g.jsonl"
    new_game(path)
    p = subprocess.run(
        [sys.executable, "-m", "agility_cli", "show", str(path), "--at", "\x1b[2J\x1b]8;;http://evil\x07"],
        capture_output=True, text=True, timeout=60,
    )
    assert p.returncode == 2
    assert "\x1b" not in p.stderr and "\x07" not in p.stderr
    assert "\\x1b[2J" in p.stderr and "--at" in p.stderr
    ok = subprocess.run([sys.executable, "-m", "agility_cli", "show", str(path), "--at", "1"],
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "Action board" in ok.stdout
