"""A hostile or unlucky key store and hostile key files (R40, R41): never an internal error (exit 4).

* a damaged or unreadable key store — ``AGILITY_HOME`` naming a regular file, a store file that is
  malformed, wrong-typed, deeply nested, a FIFO, or in a directory that cannot be read — is a usage
  error (exit 2) that names the store;
* ``agility key import`` reads a key file as game files are read (a regular file, bounded in size)
  and checks its key against the game file (R41) and its secret against the header's commitment
  (R40) before anything is written;
* a key this machine holds for a game is never replaced;
* a full disk while the key store is written says what failed (exit 2) and leaves no partial file;
* ``key export -o EXISTING`` speaks of key files; the data directory is created with mode 0700.
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile import FullDisk, run

from agility_cli.record import changes, gamefile, keys, storage

ROOT = Path(__file__).resolve().parents[1]


def home() -> Path:
    return Path(os.environ["AGILITY_HOME"])  # a fresh directory for each test (conftest)


def signed_solo(tmp_path: Path, name: str = "g.jsonl") -> Path:
    """alice against bot:greedy, no --seed: alice's lines are signed, her key kept here (R41)."""
    path = tmp_path / name
    r = run("new", path, "--players", "alice", "bot:greedy", "-q")
    assert r.exit_code == 0, r.output
    return path


def store_file(path: Path) -> Path:
    return home() / "games" / f"{keys.game_id(path.read_bytes())}.json"


def tree(directory: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder under ``directory``."""
    if not directory.exists():
        return {}
    return {
        str(p.relative_to(directory)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(directory.rglob("*"))
    }


def _legal_argv(path: Path) -> list[str]:
    entry: list[str] = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    return entry


# ----------------------------------------------------------------------------------------------
# A damaged or unreadable key store


def test_agility_home_naming_a_regular_file_is_a_usage_error(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    before = path.read_bytes()
    not_a_dir = tmp_path / "passwd"
    not_a_dir.write_text("root:x:0:0::/root:/bin/sh\n")
    env = {"AGILITY_HOME": str(not_a_dir)}
    for command in (["key", "list", path], ["key", "export", path], ["move", path, *_legal_argv(path)]):
        r = run(*command, env=env)
        assert r.exit_code == 2, (command, r.output)
        assert "is not a directory" in r.stderr and "AGILITY_HOME" in r.stderr
    r = run("new", tmp_path / "other.jsonl", "--players", "alice", "bot:greedy", env=env)
    assert r.exit_code == 2 and "is not a directory" in r.stderr
    assert not (tmp_path / "other.jsonl").exists()
    assert path.read_bytes() == before and not_a_dir.read_text().startswith("root:")


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="needs /etc/passwd")
def test_agility_home_etc_passwd(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    r = run("key", "list", path, env={"AGILITY_HOME": "/etc/passwd"})
    assert r.exit_code == 2 and "/etc/passwd is not a directory" in r.stderr


DAMAGED_STORES = {
    "not JSON": b"{not json",
    "bad bytes": b"\xff\xfe\x00garbage",
    "empty": b"",
    "a list": b"[1, 2]",
    "players a list": b'{"players": []}',
    "an entry not an object": b'{"players": {"alice": 5}}',
    "a key not a string": b'{"players": {"alice": {"signing_key": 5}}}',
    "a key not hex": b'{"players": {"alice": {"signing_key": "zz"}}}',
    "a secret not hex": b'{"players": {"alice": {"secret": ["x"]}}}',
    "another game": b'{"game": "' + b"0" * 64 + b'", "players": {}}',
    "nested 60000 deep": b"[" * 60_000,
    "nested 100000 deep": b"[" * 100_000,  # also larger than a key store file can be
    "a 5000-digit number": b'{"players": {"alice": ' + b"5" * 5000 + b"}}",
    "truncated": b'{"game": "',
}


@pytest.mark.parametrize("damage", sorted(DAMAGED_STORES))
def test_a_damaged_key_store_is_exit_3_naming_it(tmp_path: Path, damage: str) -> None:
    """This machine's own record damaged: exit 3 (as a damaged game file), naming the file."""
    path = signed_solo(tmp_path)
    before = path.read_bytes()
    argv = _legal_argv(path)
    store = store_file(path)
    store.write_bytes(DAMAGED_STORES[damage])
    for command in (["key", "list", path], ["key", "export", path], ["legal", path], ["move", path, *argv]):
        r = run(*command)
        assert r.exit_code == 3, (damage, command, r.output)
        assert "key store" in r.stderr and str(store) in r.stderr, r.stderr
    assert path.read_bytes() == before and store.read_bytes() == DAMAGED_STORES[damage]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_the_key_store_is_refused_without_hanging(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    store = store_file(path)
    store.unlink()
    os.mkfifo(store)
    proc = subprocess.run(
        [sys.executable, "-m", "agility_cli", "key", "list", str(path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert proc.returncode == 3 and "named pipe" in proc.stderr and "Traceback" not in proc.stderr  # own record: exit 3


def test_a_key_store_directory_that_cannot_be_read_is_a_usage_error(tmp_path: Path, monkeypatch: Any) -> None:
    """As root every directory is readable, so the refusal of the system is simulated too."""
    path = signed_solo(tmp_path)
    argv = _legal_argv(path)
    games = home() / "games"
    real_open = os.open

    def denied(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(file).startswith(str(games)):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *args, **kwargs)

    with monkeypatch.context() as patch:  # (monkeypatch.undo would undo conftest's AGILITY_HOME too)
        patch.setattr(os, "open", denied)
        for command in (["key", "list", path], ["key", "export", path], ["move", path, *argv]):
            r = run(*command)
            assert r.exit_code == 2, (command, r.output)
            assert "Permission denied" in r.stderr and "key store" in r.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any directory")
def test_a_key_store_directory_without_permission(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    games = home() / "games"
    games.chmod(0)
    try:
        r = run("key", "list", path)
        assert r.exit_code == 2 and "Permission denied" in r.stderr
    finally:
        games.chmod(0o700)


_VALID_STORE: dict[str, tuple[Path, bytes]] = {}


def _valid_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A signed game and its key store's bytes, made once (for this test's AGILITY_HOME) for the
    property test below."""
    if str(home()) not in _VALID_STORE:
        path = signed_solo(tmp_path_factory.mktemp("store"))
        _VALID_STORE[str(home())] = path, store_file(path).read_bytes()
    return _VALID_STORE[str(home())]


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """A key store file damaged as a disk, an editor or an opponent might: bytes flipped, cut,
    inserted, nested, values retyped."""
    kind = draw(st.sampled_from(["flip", "truncate", "insert", "nest", "retype", "splice"]))
    if kind == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(out) - 1))
            out[i] ^= draw(st.integers(1, 255))
        return bytes(out)
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    if kind == "insert":
        i = draw(st.integers(0, len(data)))
        return data[:i] + draw(st.binary(min_size=1, max_size=40)) + data[i:]
    if kind == "nest":
        depth = draw(st.integers(1, 30_000))
        return b"[" * depth + data + b"]" * draw(st.integers(0, depth))
    if kind == "retype":
        doc = json.loads(data)
        player = next(iter(doc["players"]))
        field = draw(st.sampled_from(["signing_key", "public_key", "secret", "players", "game"]))
        value = draw(st.one_of(st.none(), st.integers(), st.lists(st.integers(), max_size=3), st.text(max_size=70),
                               st.just("0" * 64), st.just({"x": 1})))
        if field in ("players", "game"):
            doc[field] = value
        else:
            doc["players"][player][field] = value
        return json.dumps(doc).encode()
    i, j = sorted(draw(st.lists(st.integers(0, len(data)), min_size=2, max_size=2)))
    return data[:i] + data[j:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_property_a_mutated_key_store_is_never_an_internal_error(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path, original = _valid_store(tmp_path_factory)
    damaged = data.draw(mutated(original))
    store = store_file(path)
    store.write_bytes(damaged)
    try:
        for command in (["key", "list", path], ["key", "export", path]):
            r = run(*command)  # asserts no traceback and an exit code of 0–3
            assert r.exit_code in (0, 2, 3), (command, damaged[:200], r.output)
            if r.exit_code:
                assert "key store" in r.stderr or "no key" in r.stderr, r.stderr
    finally:
        store.write_bytes(original)


# ----------------------------------------------------------------------------------------------
# key import of hostile files


def _exported(tmp_path: Path) -> tuple[Path, Path]:
    """A signed game and alice's exported key file; the store is then removed, as on a new machine."""
    path = signed_solo(tmp_path)
    key = tmp_path / "alice.key"
    assert run("key", "export", path, "-o", key).exit_code == 0
    store_file(path).unlink()
    return path, key


@pytest.mark.parametrize(
    "content, why",
    [
        (b"[" * 60_000, "not JSON"),
        (b"{" * 50_000, "not JSON"),
        (b'{"format": "agility-key/1", "game": ' + b"9" * 5000 + b"}", "not JSON"),
        (b"\xff\xfe\x00\x01", "not JSON"),
        (b'{"format": "agility-key/1", "game": 5}', "has no 'game'"),
        (b'["agility-key/1"]', "not an agility key file"),
    ],
)
def test_key_import_of_malformed_json_is_a_usage_error_and_writes_nothing(
    tmp_path: Path, content: bytes, why: str
) -> None:
    path, key = _exported(tmp_path)
    key.write_bytes(content)
    before = tree(home())
    r = run("key", "import", path, key)
    assert r.exit_code == 2 and why in r.stderr, r.stderr
    assert tree(home()) == before


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_key_import_of_a_device_is_refused(tmp_path: Path) -> None:
    path, _key = _exported(tmp_path)
    r = run("key", "import", path, "/dev/zero")
    assert r.exit_code == 2 and "a device, not a key file" in r.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_key_import_of_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    path, _key = _exported(tmp_path)
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "agility_cli", "key", "import", str(path), str(fifo)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert proc.returncode == 2 and "named pipe" in proc.stderr and "Traceback" not in proc.stderr


def test_key_import_of_a_huge_or_missing_file_is_refused(tmp_path: Path) -> None:
    path, _key = _exported(tmp_path)
    big = tmp_path / "big.key"
    with open(big, "wb") as f:
        f.truncate(keys.MAX_KEY_FILE_BYTES + 1)  # sparse: costs no disk
    r = run("key", "import", path, big)
    assert r.exit_code == 2 and "at most 64 KiB" in r.stderr
    r = run("key", "import", path, tmp_path / "missing.key")
    assert r.exit_code == 2 and "no such key file" in r.stderr
    r = run("key", "import", path, tmp_path)
    assert r.exit_code == 2 and "directory" in r.stderr


def test_key_import_checks_the_key_against_the_game_file_before_writing(tmp_path: Path) -> None:
    path, key = _exported(tmp_path)
    doc = json.loads(key.read_bytes())
    other = keys.new_signing_key()  # a key file consistent in itself, but not the game's key (R41)
    doc.update(signing_key=other, public_key=keys.public_key(other))
    key.write_text(json.dumps(doc))
    r = run("key", "import", path, key)
    assert r.exit_code == 1 and "does not name" in r.stderr and "nothing was imported" in r.stderr
    assert not store_file(path).exists()


def _fair_game(tmp_path: Path) -> tuple[Path, Path]:
    """A fair game created by alice (her secret kept until the reveal, R40) and her key file."""
    path = tmp_path / "fair.jsonl"
    assert run("new", path, "--players", "alice", "bob", "-q").exit_code == 0
    key = tmp_path / "alice.key"
    assert run("key", "export", path, "-o", key).exit_code == 0
    assert "secret" in json.loads(key.read_bytes())
    return path, key


def test_key_import_checks_the_secret_against_the_commitment_before_writing(tmp_path: Path) -> None:
    path, key = _fair_game(tmp_path)
    doc = json.loads(key.read_bytes())
    doc["secret"] = keys.new_secret()  # a well-formed secret, but not the one committed to (R40)
    key.write_text(json.dumps(doc))
    elsewhere = tmp_path / "new-machine"
    r = run("key", "import", path, key, env={"AGILITY_HOME": str(elsewhere)})
    assert r.exit_code == 1 and "commits to" in r.stderr and "R40" in r.stderr
    assert not elsewhere.exists()  # nothing written, not even the directory


def test_key_import_of_a_secret_into_a_game_without_a_commitment_is_refused(tmp_path: Path) -> None:
    path, key = _exported(tmp_path)
    doc = json.loads(key.read_bytes())
    doc["secret"] = keys.new_secret()
    key.write_text(json.dumps(doc))
    r = run("key", "import", path, key)
    assert r.exit_code == 1 and "commits to none" in r.stderr
    assert not store_file(path).exists()


def test_key_import_of_the_right_key_works_once_and_then_has_nothing_to_do(tmp_path: Path) -> None:
    path, key = _fair_game(tmp_path)
    elsewhere = tmp_path / "new-machine"
    env = {"AGILITY_HOME": str(elsewhere)}
    r = run("key", "import", path, key, env=env)
    assert r.exit_code == 0 and "imported alice's key" in r.stdout
    stored = tree(elsewhere)
    r = run("key", "import", path, key, env=env)
    assert r.exit_code == 0 and "already" in r.stdout
    assert tree(elsewhere) == stored


# ----------------------------------------------------------------------------------------------
# A held key is never replaced


def test_store_never_replaces_a_held_key(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    gid = keys.game_id(path.read_bytes())
    before = store_file(path).read_bytes()
    with pytest.raises(keys.KeyHeld, match="already holds a key for alice in this game"):
        keys.store(gid, "alice", signing_key=keys.new_signing_key())
    assert store_file(path).read_bytes() == before
    held = keys.signing_key(gid, "alice")
    keys.store(gid, "alice", signing_key=held)  # the same key again: nothing to do
    assert store_file(path).read_bytes() == before


def test_key_import_replaces_an_entry_proven_wrong_and_never_a_right_one(tmp_path: Path) -> None:
    """This machine holds some other key for alice (a made-up or damaged entry): it does not match
    the key the game file names, so it could never be used; importing her real key replaces it."""
    path, key = _exported(tmp_path)
    gid = keys.game_id(path.read_bytes())
    right = json.loads(key.read_text())
    keys.store(gid, "alice", signing_key=keys.new_signing_key(), replace_wrong=True)
    r = run("show", path)
    assert r.exit_code == 3 and "is not the one the game file names" in r.stderr and str(store_file(path)) in r.stderr
    r = run("key", "import", path, key)
    assert r.exit_code == 0 and "imported alice's key" in r.stdout, r.output
    assert keys.entry(gid, "alice")["signing_key"] == right["signing_key"]
    assert run("show", path).exit_code == 0
    r = run("key", "import", path, key)  # the right key again: nothing to do
    assert r.exit_code == 0 and "nothing to import" in r.stdout


def test_a_join_whose_line_was_not_written_can_be_made_again(tmp_path: Path, monkeypatch: Any) -> None:
    """The joiner's key is kept before the join line is appended (R40); when the append fails, the
    next join uses that key again rather than being refused for holding one."""
    path = tmp_path / "fair.jsonl"
    assert run("new", path, "--players", "alice", "bob", "-q").exit_code == 0
    before = path.read_bytes()
    bob = {"AGILITY_HOME": str(tmp_path / "bob")}

    real_append = storage.append

    def full(fd: int, name: str, old_size: int, data: bytes, what: str, restore: bytes = b"") -> None:
        with monkeypatch.context() as disk:
            disk.setattr(os, "write", FullDisk(0))
            real_append(fd, name, old_size, data, what, restore)

    with monkeypatch.context() as patch:
        patch.setattr(changes, "append", full)
        r = run("join", path, env=bob)
    assert r.exit_code == 2 and "could not write the join line" in r.stderr
    assert path.read_bytes() == before
    r = run("join", path, env=bob)
    assert r.exit_code == 0, r.output
    gid = keys.game_id(before)
    stored = json.loads((tmp_path / "bob" / "games" / f"{gid}.json").read_bytes())
    assert stored["players"]["bob"]["public_key"] in path.read_text()


# ----------------------------------------------------------------------------------------------
# A full disk while the key store is written


@pytest.mark.parametrize("budget", [0, 1, 100])
def test_new_on_a_full_disk_reports_the_key_store_and_leaves_nothing(tmp_path: Path, budget: int, monkeypatch: Any) -> None:
    path = tmp_path / "g.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", FullDisk(budget, chunk=16))
        r = run("new", path, "--players", "alice", "bot:greedy", "-q")
    assert r.exit_code == 2, r.output
    assert "could not write the key store" in r.stderr and "No space left" in r.stderr
    assert not path.exists() and list(tmp_path.iterdir()) == []
    assert [p for p in home().rglob("*") if p.is_file()] == []  # no partial or temporary file
    assert run("new", path, "--players", "alice", "bot:greedy", "-q").exit_code == 0  # nothing blocks a retry


@pytest.mark.parametrize("budget", [0, 100])
def test_key_import_on_a_full_disk_leaves_no_partial_store(tmp_path: Path, budget: int, monkeypatch: Any) -> None:
    path, key = _exported(tmp_path)
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", FullDisk(budget, chunk=16))
        r = run("key", "import", path, key)
    assert r.exit_code == 2 and "could not write the key store" in r.stderr
    assert [p.name for p in (home() / "games").iterdir()] == []
    assert run("key", "import", path, key).exit_code == 0


def test_key_export_on_a_full_disk_leaves_no_partial_key_file(tmp_path: Path, monkeypatch: Any) -> None:
    path = signed_solo(tmp_path)
    out = tmp_path / "alice.key"
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", FullDisk(10))
        r = run("key", "export", path, "-o", out)
    assert r.exit_code == 2 and "could not write the key file" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


# ----------------------------------------------------------------------------------------------
# key export -o, and the modes of what is written


def test_key_export_never_overwrites_and_says_so_of_key_files(tmp_path: Path) -> None:
    path = signed_solo(tmp_path)
    out = tmp_path / "alice.key"
    out.write_text("precious")
    r = run("key", "export", path, "-o", out)
    assert r.exit_code == 2
    assert "already exists; a key file is never overwritten" in r.stderr
    assert "game" not in r.stderr.split("already exists")[1]
    assert out.read_text() == "precious"


def test_the_data_directory_is_created_with_mode_0700(tmp_path: Path) -> None:
    data = tmp_path / "deep" / "agility"
    r = run("new", tmp_path / "g.jsonl", "--players", "alice", "bot:greedy", "-q", env={"AGILITY_HOME": str(data)})
    assert r.exit_code == 0, r.output
    for directory in (data, data / "games"):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
    (store,) = (data / "games").iterdir()
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    out = tmp_path / "alice.key"
    assert run("key", "export", tmp_path / "g.jsonl", "-o", out, env={"AGILITY_HOME": str(data)}).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
