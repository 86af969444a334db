"""The checkpoint of a sealed game's verified prefix (R42, record/checkpoint.py): a read goes on from
it, and anything else — a file changed under it, a forged or foreign checkpoint, other keys —
is verified in full, so the cache never changes what a read finds."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from agility_cli.record import checkpoint, gamefile
from agility_cli.record.sealed import game as sealgame
from machines import Machine


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Machine, Machine]:
    """A sealed game (the default between two people) a few decisions in, on alice's machine."""
    root = tmp_path_factory.mktemp("checkpoint")
    alice, bob = Machine(root, "alice"), Machine(root, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    assert bob.run("join", bob.file).exit_code == 0
    current, other = bob, alice
    for _ in range(12):  # each machine in turn, on the other's copy: its bot's decision or its owed keys
        current, other = other, current
        current.file.write_bytes(other.file.read_bytes())
        assert current.run("bot", current.file, "--moves", "1").exit_code in (0, 1)
        if current.file.read_bytes().count(b"\n") >= 9:
            break
    alice.file.write_bytes(current.file.read_bytes())
    assert alice.file.read_bytes().count(b"\n") >= 9
    assert re.search(rb'"format":[34],', alice.file.read_bytes().split(b"\n")[0])  # a sealed game (R42)
    return alice, bob


def _load(m: Machine, monkeypatch: pytest.MonkeyPatch) -> tuple[gamefile.Game, int]:
    """The game as alice's machine reads it, and how many lines' seals were checked doing so."""
    checked = [0]
    real = sealgame.check

    def counting(*args: object, **kwargs: object) -> object:
        checked[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setenv("AGILITY_HOME", str(m.home))
    monkeypatch.setattr(sealgame, "check", counting)
    return gamefile.load_bytes(m.file.read_bytes(), str(m.file)), checked[0]


def test_R42_a_read_goes_on_from_the_checkpoint_and_finds_the_same_game(game: tuple[Machine, Machine],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _ = game
    for f in (alice.home / "cache").glob("*.bin"):
        f.unlink()
    full, checked_full = _load(alice, monkeypatch)
    again, checked_again = _load(alice, monkeypatch)
    assert checked_full >= 3 and checked_again == 0
    assert (again.lines, again.tip, again.hashes) == (full.lines, full.tip, full.hashes)
    assert json.dumps(again.state.players[0].hand) == json.dumps(full.state.players[0].hand)
    assert (alice.home / "cache").stat().st_mode & 0o077 == 0


def test_R42_a_file_changed_under_the_checkpoint_is_verified_again(game: tuple[Machine, Machine],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _ = game
    _load(alice, monkeypatch)
    data = alice.file.read_bytes()
    lines = data.split(b"\n")
    lines[3] = lines[3].replace(b'"n":3', b'"n":7', 1)
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    with pytest.raises(gamefile.GameFileError, match="line 4"):
        gamefile.load_bytes(b"\n".join(lines), str(alice.file))


def test_R42_a_forged_checkpoint_or_another_key_store_is_not_used(game: tuple[Machine, Machine],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = game
    _load(alice, monkeypatch)
    (entry,) = (alice.home / "cache").glob("*.bin")
    blob = bytearray(entry.read_bytes())
    blob[-1] ^= 1  # one bit of the pickled state
    entry.write_bytes(bytes(blob))
    _, checked = _load(alice, monkeypatch)
    assert checked >= 3  # ignored (its HMAC fails), verified in full, then kept again
    bob_cache = bob.home / "cache"
    bob_cache.mkdir(exist_ok=True, mode=0o700)
    (bob_cache / entry.name).write_bytes(entry.read_bytes())  # alice's checkpoint on bob's machine
    bob.file.write_bytes(alice.file.read_bytes())
    _, checked = _load(bob, monkeypatch)
    assert checked >= 3
    cursor = checkpoint.load(entry.stem, alice.file.read_bytes(), {})  # bob's machine: its own HMAC key
    assert cursor is None


def test_R42_the_news_since_a_players_last_decision_starts_from_a_checkpoint(game: tuple[Machine, Machine],
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The news ``show`` tells (each player's steps since their last decision) is the same from the
    checkpoint of the whole file (the states of its last lines, kept with it: no line is verified
    again) as from a full verification, and ``show`` prints the same."""
    from agility_cli.table import session

    alice, _ = game
    alice.run("show", alice.file)  # whatever keys alice's tool owes are written now
    data = alice.file.read_bytes()
    for f in (alice.home / "cache").glob("*.bin"):
        f.unlink()
    checked = [0]
    real = sealgame.check

    def counting(*args: object, **kwargs: object) -> object:
        checked[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sealgame, "check", counting)
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    told = []
    for _ in range(2):
        news = session.since_last(alice.file)
        told.append([session.narration(news.since(name), 0) for name in ("alice", "bob")])
        told[-1].append(checked[0])
        checked[0] = 0
    assert told[0][:2] == told[1][:2] and any(told[0][:2])
    assert told[0][2] >= 3 and told[1][2] == 0
    cut = data[: data.rindex(b"\n", 0, len(data) - 1) + 1]  # a file the checkpoint is not all of
    assert gamefile.recent_lines(cut, str(alice.file), 2) is None
    assert alice.run("show", alice.file).output == alice.run("show", alice.file).output
    assert alice.file.read_bytes() == data


def test_R44_the_checkpoint_says_whether_the_tool_owes_a_line(game: tuple[Machine, Machine],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint of the whole file says whether this machine's tool owes a line (its keys, a
    pass: R44), as a full read finds it; a file it is not all of, or another key store, says nothing."""
    from agility_cli.record import changes, verify

    alice, bob = game
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    for data in (alice.file.read_bytes(), alice.file.read_bytes().rsplit(b"\n", 2)[0] + b"\n"):
        for f in (alice.home / "cache").glob("*.bin"):
            f.unlink()
        assert not verify.settled(data)  # no checkpoint: not known
        owed = changes.sealed_followups(data, str(alice.file))  # a full read, which keeps one
        assert verify.settled(data) == (owed == b"")
        assert not verify.settled(data + owed + b"x")  # not all of these bytes
    settled_here = verify.settled(data)
    monkeypatch.setenv("AGILITY_HOME", str(bob.home))
    assert not verify.settled(data) or not settled_here


def test_R42_checkpoints_made_line_by_line_tell_the_news_of_a_full_read_and_stay_small(
        game: tuple[Machine, Machine], monkeypatch: pytest.MonkeyPatch) -> None:
    """A game read after each new line (as a player's tool reads it, mail after mail) makes each
    checkpoint from the one before, carrying the kept lines over: the news told from the last is
    the news of a full verification, and no kept line carries the game's catalogue (the cursor
    holds it once), so the checkpoint does not grow with the reads."""
    import msgspec

    from agility_cli.record import keys
    from agility_cli.table import session

    alice, _ = game
    data = alice.file.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    for f in (alice.home / "cache").glob("*.bin"):
        f.unlink()
    try:
        for end in ends[3:]:  # from the reveal on, a line more each time
            alice.file.write_bytes(data[:end])
            gamefile.load_bytes(data[:end], str(alice.file))
        news = session.since_last(alice.file)
        chained = [session.narration(news.since(name), 0) for name in ("alice", "bob")]
        held = keys.seal_secrets(news.game.game_id, news.game.header.players)
        cursor = checkpoint.load(news.game.game_id, data, held)
        assert cursor is not None and cursor.offset == len(data)
        kept = msgspec.msgpack.decode(cursor.tail)  # [line, snapshot] each
        assert len(kept) >= 6 and [line for line, _ in kept] == list(range(kept[0][0], kept[-1][0] + 1))
        catalogue = len(msgspec.msgpack.encode(cursor.state.cat.components))
        lines = checkpoint.tail_of(cursor)
        assert [r.line for r in lines] == [line for line, _ in kept]
        assert all(len(blob) - len(r.raw) < catalogue for (_, blob), r in zip(kept, lines))
        told = checkpoint.tail_of(cursor, kept[-3][0])
        assert [r.line for r in told] == [line for line, _ in kept[-3:]] and told[0].after.cat is cursor.state.cat
        for f in (alice.home / "cache").glob("*.bin"):
            f.unlink()
        news = session.since_last(alice.file)
        assert chained == [session.narration(news.since(name), 0) for name in ("alice", "bob")] and any(chained)
    finally:
        alice.file.write_bytes(data)



# ----------------------------------------------------------------------------------------------
# No pickle (issue 37): a checkpoint is read as data, even with a valid HMAC


def _forge(m: Machine, blob_of: Callable[[bytes], bytes]) -> Path:
    """alice's checkpoint of the game with each entry's cursor replaced by ``blob_of(cursor)``,
    authenticated again under the folder's own key (what an attacker holding that key could write)."""
    import hashlib
    import hmac

    (entry,) = (m.home / "cache").glob("*.bin")
    key = (m.home / "cache" / "key").read_bytes()
    entries = checkpoint._entries(entry.read_bytes(), key)
    assert entries
    head = len(checkpoint.MAGIC) + 32
    body = entry.read_bytes()[head:head + 64] + b"".join(
        line.to_bytes(4, "big") + offset.to_bytes(8, "big") + p + bytes([owes]) + len(new).to_bytes(8, "big") + new
        for line, offset, p, owes, blob in entries for new in [blob_of(blob)])
    entry.write_bytes(checkpoint.MAGIC + hmac.new(key, body, hashlib.sha256).digest() + body)
    return entry


def test_a_forged_checkpoint_holding_a_pickle_runs_nothing(game: tuple[Machine, Machine], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickle that would run a command, put in a checkpoint with a valid HMAC (a cache folder
    someone else could write to, its key beside it): nothing is unpickled, the game is verified in full."""
    import os
    import pickle

    alice, _ = game
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> tuple[object, ...]:
            return (os.system, (f"touch {marker}",))

    _load(alice, monkeypatch)
    _forge(alice, lambda blob: pickle.dumps(Evil()))
    checkpoint._READ.clear()
    full, checked = _load(alice, monkeypatch)
    assert not marker.exists()
    assert checked >= 3 and full.lines == alice.file.read_bytes().count(b"\n")
    _, checked = _load(alice, monkeypatch)  # the forged entry replaced by the full read's own
    assert checked == 0 and not marker.exists()


@pytest.mark.parametrize("part", ["body", "deck", "table"])
def test_a_forged_checkpoint_naming_another_class_is_refused_and_the_game_verified_in_full(
        game: tuple[Machine, Machine], part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot with a valid HMAC whose tag names a class outside the tool's own (os.system):
    refused before anything is made, and the game verified in full."""
    import msgspec

    from agility_cli.record import snapshot

    alice, _ = game
    _load(alice, monkeypatch)
    forged = msgspec.msgpack.encode([[["posix:system", None], ["os:system", None]], [snapshot.OBJECT, 0]])
    fields = list(checkpoint._Kept.__struct_fields__)

    def swap(blob: bytes) -> bytes:
        kept = msgspec.msgpack.decode(blob)
        kept[fields.index(part)] = forged
        return msgspec.msgpack.encode(kept)

    _forge(alice, swap)
    checkpoint._READ.clear()
    called: list[object] = []
    monkeypatch.setattr(os, "system", lambda *a: called.append(a) or 0)
    full, checked = _load(alice, monkeypatch)
    assert checked >= 3 and not called
    assert full.lines == alice.file.read_bytes().count(b"\n")
    _, checked = _load(alice, monkeypatch)  # kept again, and read
    assert checked == 0


def test_a_snapshot_refuses_an_unknown_class_and_keeps_shared_objects_shared() -> None:
    from agility_cli.engine import state as engine_state
    from agility_cli.record import snapshot

    codec = snapshot.Codec([engine_state])
    shared = [1, 2]
    sealing = engine_state.Sealing(5, {}, [(shared, shared)])
    back = codec.decode(codec.encode({"a": sealing, ("t", 1): {b"x"}}))
    assert isinstance(back["a"], engine_state.Sealing) and back["a"].next_card == 5
    assert back["a"].made[0][0] is back["a"].made[0][1] and back[("t", 1)] == {b"x"}
    with pytest.raises(snapshot.SnapshotError):
        codec.encode(Path("/"))  # not a class of its modules: never written
    for tag in ("posix:system", "builtins:eval", "agility_cli.engine.state:Nope"):
        with pytest.raises(snapshot.SnapshotError, match="does not keep"):
            codec.decode(msgspec_encode([[[tag, None]], [snapshot.OBJECT, 0]]))
    with pytest.raises(snapshot.SnapshotError):  # an attribute the class cannot hold
        codec.decode(msgspec_encode([[["agility_cli.engine.state:Sealing", None]], [snapshot.OBJECT, 0, "__class__", 1]]))


def msgspec_encode(obj: object) -> bytes:
    import msgspec

    return msgspec.msgpack.encode(obj)


def test_no_pickle_in_the_package() -> None:
    import agility_cli

    root = Path(agility_cli.__file__).parent
    found = [str(p.relative_to(root)) for p in root.rglob("*.py")
             if re.search(r"^\s*(import pickle|from pickle import|import cPickle)|pickle\.loads?\(",
                          p.read_text(encoding="utf-8"), re.M)]
    assert not found, found
