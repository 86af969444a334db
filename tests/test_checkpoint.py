"""The checkpoint of a sealed game's verified prefix (R42, record/checkpoint.py): a read goes on from
it, and anything else — a file changed under it, a forged or foreign checkpoint, other keys —
is verified in full, so the cache never changes what a read finds."""

from __future__ import annotations

import json

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
    assert b'"format":3' in alice.file.read_bytes().split(b"\n")[0]
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
    import pickle

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
        kept = pickle.loads(cursor.tail)
        assert len(kept) >= 6 and [line for line, _ in kept] == list(range(kept[0][0], kept[-1][0] + 1))
        catalogue = len(pickle.dumps(cursor.state.cat, protocol=pickle.HIGHEST_PROTOCOL))
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

