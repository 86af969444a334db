"""The data directory is this user's alone (issue 37; record/datadir.py).

* it and every folder under it are made 0700 whatever the umask, its files 0600, and a folder of
  ours that others could read is made 0700;
* an existing folder or record owned by another user, or that others may write to (a ``cache/``
  made beforehand by someone else, mode 0777), is refused with exit 2 and the command that fixes
  it, and no file under it is read; a key store file others may read (0644) is refused the same way;
* a record that is not a regular file (a FIFO planted as a game's history record or checkpoint) is
  answered at once: exit 3, naming the file, "not a regular file".

The tests run as root here, which reads any file whatever its mode: what they check is the tool's
own refusal, and "owned by another user" is made by changing the user id the tool compares with.
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
from machines import Machine
from test_hostile import run

from agility_cli.record import keys

ROOT = Path(__file__).resolve().parents[1]


def home() -> Path:
    return Path(os.environ["AGILITY_HOME"])  # a fresh directory for each test (conftest)


@pytest.fixture(scope="module")
def sealed_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sealed game (the default between two people) set up by mail and a decision or two in."""
    root = tmp_path_factory.mktemp("datadir")
    alice, bob = Machine(root, "alice"), Machine(root, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    assert bob.run("join", bob.file).exit_code == 0
    current, other = bob, alice
    for _ in range(4):
        current, other = other, current
        current.file.write_bytes(other.file.read_bytes())
        assert current.run("bot", current.file, "--moves", "1").exit_code in (0, 1)
    return current.file


def observer(tmp_path: Path, sealed_file: Path) -> Path:
    """A copy of the sealed game on a machine that holds no key of it (an observer), whose
    ``replay`` keeps a checkpoint in its data directory."""
    path = tmp_path / "watched.jsonl"
    path.write_bytes(sealed_file.read_bytes())
    return path


def signed_solo(tmp_path: Path) -> Path:
    """alice against bot:greedy: alice's key kept in this machine's key store (R41)."""
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--players", "alice", "bot:greedy", "-q")
    assert r.exit_code == 0, r.output
    return path


def opened_under(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[str]:
    """The paths under ``folder`` that the tool opens from now on."""
    seen: list[str] = []
    real = os.open

    def spy(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(file).startswith(str(folder) + os.sep):
            seen.append(str(file))
        return real(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    return seen


def modes(folder: Path) -> dict[str, int]:
    found = {str(folder): stat.S_IMODE(folder.stat().st_mode)}
    found.update({str(p): stat.S_IMODE(p.lstat().st_mode) for p in folder.rglob("*")})
    return found


# ----------------------------------------------------------------------------------------------
# made private


def test_a_data_directory_made_under_umask_000_is_0700_and_its_files_0600(tmp_path: Path, sealed_file: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "deep" / "agility"
    monkeypatch.setenv("AGILITY_HOME", str(data))
    watched = observer(tmp_path, sealed_file)
    old = os.umask(0)
    try:
        assert run("replay", watched).exit_code == 0  # the observer's checkpoint makes the data directory
        assert run("new", tmp_path / "g.jsonl", "--players", "alice", "bot:greedy", "-q").exit_code == 0
    finally:
        os.umask(old)
    found = modes(data)
    assert (data / "cache").is_dir() and (data / "games").is_dir() and len(found) >= 5, found
    for name, mode in found.items():
        assert mode == (0o700 if Path(name).is_dir() else 0o600), (name, oct(mode))
    assert stat.S_IMODE((tmp_path / "deep").stat().st_mode) == 0o700


def test_a_folder_of_ours_that_others_may_read_is_made_0700(tmp_path: Path, sealed_file: Path) -> None:
    watched = observer(tmp_path, sealed_file)
    assert run("replay", watched).exit_code == 0
    for folder in (home(), home() / "cache"):
        folder.chmod(0o755)
    assert run("replay", watched).exit_code == 0
    assert {stat.S_IMODE(f.stat().st_mode) for f in (home(), home() / "cache")} == {0o700}


# ----------------------------------------------------------------------------------------------
# refused when another's, or writable by others


def test_a_cache_folder_others_may_write_to_is_refused_and_nothing_in_it_is_read(
        tmp_path: Path, sealed_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watched = observer(tmp_path, sealed_file)
    assert run("replay", watched).exit_code == 0
    cache = home() / "cache"
    assert sorted(p.name for p in cache.iterdir())  # the key and the checkpoint
    cache.chmod(0o777)  # as if another user had made it beforehand (their key 0644 beside it)
    (cache / "key").chmod(0o644)
    seen = opened_under(monkeypatch, cache)
    for command in (["replay", watched], ["show", watched]):
        r = run(*command)
        assert r.exit_code == 2, (command, r.output)
        assert "can be written by others (mode 0777)" in r.stderr and f"chmod 700 {cache}" in r.stderr, r.stderr
    assert seen == []


def test_a_checkpoint_key_others_may_read_is_refused(tmp_path: Path, sealed_file: Path) -> None:
    watched = observer(tmp_path, sealed_file)
    assert run("replay", watched).exit_code == 0
    key = home() / "cache" / "key"
    key.chmod(0o644)
    r = run("replay", watched)
    assert r.exit_code == 2 and f"chmod 600 {key}" in r.stderr, r.stderr


def test_a_data_directory_owned_by_another_user_is_refused_and_nothing_in_it_is_read(
        tmp_path: Path, sealed_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watched = observer(tmp_path, sealed_file)
    solo = signed_solo(tmp_path)
    assert run("replay", watched).exit_code == 0
    argv = json.loads(run("legal", solo, "--json").stdout)[0]["argv"]
    mine = os.geteuid()
    seen = opened_under(monkeypatch, home())
    monkeypatch.setattr(os, "geteuid", lambda: mine + 1)  # every folder of it is now another user's
    for command in (["replay", watched], ["show", solo], ["move", solo, *argv], ["key", "list", solo]):
        r = run(*command)
        assert r.exit_code == 2, (command, r.output)
        assert f"{home()} belongs to another user (uid {mine})" in r.stderr and "chown" in r.stderr, r.stderr
    assert seen == []


def test_a_key_store_file_others_may_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    before = path.read_bytes()
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    store = home() / "games" / f"{keys.game_id(path.read_bytes())}.json"
    store.chmod(0o644)
    for command in (["show", path], ["key", "list", path], ["move", path, *argv]):
        r = run(*command)
        assert r.exit_code == 2, (command, r.output)
        assert "can be read by others (mode 0644)" in r.stderr and f"chmod 600 {store}" in r.stderr, r.stderr
    assert path.read_bytes() == before
    store.chmod(0o600)
    assert run("move", path, *argv).exit_code == 0


def test_a_key_store_folder_others_may_write_to_is_refused(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    games = home() / "games"
    games.chmod(0o775)
    r = run("show", path)
    assert r.exit_code == 2 and f"chmod 700 {games}" in r.stderr and "mode 0775" in r.stderr, r.stderr


# ----------------------------------------------------------------------------------------------
# a record that is not a regular file: answered at once


def _agility(*args: Any) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, stopped after 20 s (a hang fails the test, never stalls it)."""
    return subprocess.run([sys.executable, "-m", "agility_cli", *map(str, args)], capture_output=True, text=True,
                          timeout=20, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_a_games_history_record_is_answered_at_once(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    argv = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    before = path.read_bytes()
    record = home() / "history" / f"{keys.game_id(path.read_bytes())}.json"
    record.parent.mkdir(mode=0o700, exist_ok=True)
    record.unlink(missing_ok=True)
    os.mkfifo(record, 0o600)
    for command in (["show", path], ["move", path, *argv]):
        proc = _agility(*command)
        assert proc.returncode == 3, (command, proc.returncode, proc.stderr)
        assert str(record) in proc.stderr and "not a regular file" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert path.read_bytes() == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_a_checkpoint_is_answered_at_once(tmp_path: Path, sealed_file: Path) -> None:
    watched = observer(tmp_path, sealed_file)
    assert run("replay", watched).exit_code == 0
    (entry,) = (home() / "cache").glob("*.bin")
    entry.unlink()
    os.mkfifo(entry, 0o600)
    proc = _agility("replay", watched)
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert str(entry) in proc.stderr and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
