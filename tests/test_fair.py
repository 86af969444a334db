"""Fair play: the seed handshake (R40) and signed lines (R41), end to end between two machines.

Each "machine" is a directory for its copy of the game and an ``AGILITY_HOME`` for its key store.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from agility_cli.record import gamefile, keys
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.moves import Header, RevealLine, line_to_move, move_to_line
from agility_cli.engine.state import digest

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


class Machine:
    """One player's machine: a directory holding their copy of the game, and their key store."""

    def __init__(self, root: Path, name: str):
        self.name = name
        self.dir = root / name
        self.home = root / f"{name}-home"
        self.dir.mkdir()
        self.file = self.dir / "game.jsonl"

    def run(self, *args: Any, env: dict[str, str] | None = None, input: str | None = None) -> Any:
        result = runner.invoke(app, [str(a) for a in args], input=input,
                               env={"AGILITY_HOME": str(self.home), **(env or {})})
        assert "Traceback" not in result.output and "Traceback" not in (result.stderr or "")
        return result

    def bytes(self) -> bytes:
        return self.file.read_bytes()

    def lines(self) -> list[bytes]:
        return self.bytes().splitlines()


def send(src: Machine, dst: Machine) -> None:
    """Send the whole file (as git pull or a mail attachment does)."""
    shutil.copyfile(src.file, dst.file)


def handshake(tmp_path: Path, *extra: str) -> tuple[Machine, Machine]:
    """alice creates a fair game, bob joins, alice's next command reveals: the game has started."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    r = alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", *extra)
    assert r.exit_code == 0, r.stderr
    send(alice, bob)
    r = bob.run("join", bob.file)
    assert r.exit_code == 0, r.stderr
    send(bob, alice)
    r = alice.run("show", alice.file)  # the creator's next command reveals (R40)
    assert r.exit_code == 0, r.stderr
    send(alice, bob)
    return alice, bob


def to_act(m: Machine) -> str:
    """Who must decide now (``legal --json`` lists only the viewer's own decisions, R39)."""
    r = m.run("show", m.file, "--json")
    assert r.exit_code == 0, r.stderr
    return str(json.loads(r.stdout)["to_act"] or "")


# ----------------------------------------------------------------------------------------------
# the seed (R40)


def test_R40_seed_derivation_golden_vector():
    game, a, b = "00" * 32, "11" * 32, "22" * 32
    # As documented (docs/fair-play.md): SHA-256 over the domain, the game id and both secrets.
    h = hashlib.sha256(b"agility seed v1\n" + bytes(32) + bytes([0x11]) * 32 + bytes([0x22]) * 32).digest()
    assert keys.derive_seed(game, a, b) == int.from_bytes(h[:8], "big") == 6439995273076302996
    assert keys.commitment(a) == "02d449a31fbb267c8f352e9968a79e3e5fc95c1bbeaa502fd6454ebde5a4bedc"
    # Either secret changes the seed: neither player steers it alone.
    assert keys.derive_seed(game, a, "33" * 32) != keys.derive_seed(game, a, b)
    assert keys.derive_seed(game, "33" * 32, b) != keys.derive_seed(game, a, b)


def test_R40_handshake_between_two_machines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    r = alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--board", "random-a", "--first", "random")
    assert r.exit_code == 0, r.stderr
    assert "agility join" in r.stderr
    header = json.loads(alice.lines()[0])
    assert header["format"] == 2 and header["seed"] is None
    assert header["board"] == "random-a" and header["first"] == "random"
    assert list(header["keys"]) == ["alice"] and len(header["commit"]) == 64
    assert list(header)[-1] == "sig"

    # Before the join, every command says what the game waits for (exit 1, file unchanged).
    before = alice.bytes()
    for args in (("show", alice.file), ("legal", alice.file), ("move", alice.file, "done")):
        r = alice.run(*args)
        assert r.exit_code == 1 and "waiting for bob to join" in r.stderr, args
    assert alice.bytes() == before

    send(alice, bob)
    r = bob.run("join", bob.file, "--as", "alice")
    assert r.exit_code == 1 and "alice created this game" in r.stderr
    r = bob.run("join", bob.file)
    assert r.exit_code == 0, r.stderr
    join_text = r.stdout.strip()
    join = json.loads(join_text)
    assert join["kind"] == "join" and join["player"] == "bob" and join["n"] == 1
    assert list(join)[-1] == "sig"
    # bob cannot start the game: only alice holds the secret committed to.
    r = bob.run("show", bob.file)
    assert r.exit_code == 1 and "waiting for alice to reveal" in r.stderr
    r = bob.run("join", bob.file)
    assert r.exit_code == 1 and "joined already" in r.stderr

    # By mail: alice applies bob's join line; her machine reveals at once and prints the line to send.
    r = alice.run("apply", alice.file, join_text)
    assert r.exit_code == 0, r.stderr
    assert "join and reveal" in r.stdout and "game has started" in r.stdout
    reveal_line = alice.lines()[2]
    assert reveal_line.decode() in r.stdout
    r = bob.run("apply", bob.file, reveal_line.decode())
    assert r.exit_code == 0, r.stderr
    assert alice.bytes() == bob.bytes()

    # The seed is the documented derivation; the board and start player are drawn from it.
    lines = alice.lines()
    gid = hashlib.sha256(lines[0]).hexdigest()
    reveal = json.loads(lines[2])
    assert hashlib.sha256(bytes.fromhex(reveal["secret"])).hexdigest() == header["commit"]
    seed = keys.derive_seed(gid, reveal["secret"], join["secret"])
    game = gamefile.load(alice.file)
    assert game.header.seed == seed
    assert game.header.board == rules.random_board(seed, "a")
    assert game.header.first == rules.random_first(seed, ("alice", "bob"))
    r = alice.run("replay", alice.file)
    assert r.exit_code == 0 and f"seed {seed}" in r.stdout
    assert "joint seed (commit and reveal)" in r.stdout and "signed" in r.stdout and "unsigned" not in r.stdout

    # Keys live in each player's data directory, private; never beside the game file.
    store = alice.home / "games" / f"{gid}.json"
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.parent.stat().st_mode) == 0o700
    assert sorted(p.name for p in alice.dir.iterdir()) == ["game.jsonl"]
    assert keys.held_seats(lines[0]) == []  # this test's own key store holds no key
    monkeypatch.setenv("AGILITY_HOME", str(bob.home))
    assert keys.held_seats(lines[0]) == ["bob"]
    assert keys.held_seats(gamefile.load(bob.file)) == ["bob"]
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    assert keys.held_seats(alice.bytes()) == ["alice"]


def test_R40_the_handshakes_notes_fit_80_columns_with_each_command_whole(tmp_path: Path):
    """``new`` and ``join`` tell each step on stderr; a long path wraps the note, never a command."""
    deep = tmp_path / ("a-rather-long-folder-name-" * 2)
    deep.mkdir()
    alice, bob = Machine(deep, "alice"), Machine(deep, "bob")
    made = alice.run("new", alice.file, "--players", "alice", "bob")
    assert made.exit_code == 0, made.stderr
    send(alice, bob)
    joined = bob.run("join", bob.file)
    assert joined.exit_code == 0, joined.stderr
    for note, command in ((made.stderr, f"`agility key export {alice.file}`"),
                          (joined.stderr, f"`agility apply {bob.file}`")):
        lines = note.splitlines()
        assert any(command in line for line in lines), note  # whole, on one line
        # a line is wider than 80 only when it is one word (a path) or one command too long for a line
        assert all(len(line) <= 80 or len(re.sub(r"`[^`]*`", "C", line).split()) == 1 for line in lines), note


def test_R40_the_creators_join_command_reveals(tmp_path: Path):
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "-q").exit_code == 0
    r = alice.run("join", alice.file)
    assert r.exit_code == 1 and "bob is the player who joins" in r.stderr
    send(alice, bob)
    assert bob.run("join", bob.file).exit_code == 0
    send(bob, alice)
    r = alice.run("join", alice.file)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["kind"] == "reveal"
    r = alice.run("join", alice.file)
    assert r.exit_code == 1 and "needs no join" in r.stderr


def test_R40_a_reveal_that_does_not_match_the_commitment_is_invalid_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    alice, _bob = handshake(tmp_path)
    lines = alice.lines()
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    gid = hashlib.sha256(lines[0]).hexdigest()
    key = keys.signing_key(gid, "alice")
    assert key is not None
    reveal = msgspec.json.decode(lines[2], type=RevealLine)
    # Another secret, properly signed by alice: only the commitment can catch it.
    other = msgspec.structs.replace(reveal, secret="ab" * 32, sig=msgspec.UNSET)
    lines[2] = keys.with_signature(msgspec.json.encode(other), key)
    alice.file.write_bytes(b"\n".join(lines[:3]) + b"\n")
    r = alice.run("replay", alice.file)
    assert r.exit_code == 3
    assert "line 3" in r.stderr and "does not match the commitment" in r.stderr


def test_R40_a_game_against_a_bot_needs_no_handshake_and_the_host_signs(tmp_path: Path):
    alice = Machine(tmp_path, "alice")
    r = alice.run("new", alice.file, "--players", "alice", "bot:greedy", "--first", "B", "-q")
    assert r.exit_code == 0, r.stderr
    header = json.loads(alice.lines()[0])
    assert isinstance(header["seed"], int) and header["keys"].keys() == {"alice"} and "commit" not in header
    assert len(alice.lines()) > 1  # the bot's first decisions, signed by its host
    assert all("sig" in json.loads(line) for line in alice.lines())
    r = alice.run("replay", alice.file)
    assert r.exit_code == 0
    assert "seed chosen by its creator" in r.stdout and "signed" in r.stdout


# ----------------------------------------------------------------------------------------------
# signatures (R41)


def test_R41_every_line_is_signed_and_a_git_game_between_two_clones_verifies(tmp_path: Path):
    """Two clones of one repository, each player appending in turn, pushing and pulling."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")

    def g(cwd: Path, *args: str) -> None:
        subprocess.run([git, "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=cwd, check=True,
                       capture_output=True)

    origin = tmp_path / "origin.git"
    g(tmp_path, "init", "--bare", "-q", str(origin))
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    for m in (alice, bob):
        m.dir.rmdir()
        g(tmp_path, "clone", "-q", str(origin), str(m.dir))

    def push(m: Machine, message: str) -> None:
        g(m.dir, "add", "game.jsonl")
        g(m.dir, "commit", "-q", "-m", message)
        g(m.dir, "push", "-q", "origin", "HEAD")

    def pull(m: Machine) -> None:
        g(m.dir, "pull", "-q", "origin", "HEAD" if (m.dir / "game.jsonl").exists() else "master")

    assert alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "-q").exit_code == 0
    push(alice, "new game")
    g(bob.dir, "pull", "-q", "origin", subprocess.run([git, "branch", "--show-current"], cwd=alice.dir,
                                                      capture_output=True, text=True).stdout.strip())
    assert bob.run("join", bob.file).exit_code == 0
    push(bob, "join")
    pull(alice)
    for turn in range(40):
        player = to_act(alice)
        m = alice if player == "alice" else bob
        assert m.run("bot", m.file, "--seed", turn, "-q").exit_code == 0
        push(m, f"{player} moves")
        pull(bob if m is alice else alice)
    assert alice.bytes() == bob.bytes()
    lines = alice.lines()
    assert all(list(json.loads(line))[-1] == "sig" for line in lines)
    assert alice.run("replay", alice.file).exit_code == 0
    assert bob.run("replay", bob.file).exit_code == 0


def test_R41_the_signature_covers_the_line_without_its_sig_member(tmp_path: Path):
    alice, _bob = handshake(tmp_path)
    trust = gamefile.load(alice.file).trust
    for line in alice.lines():
        record = json.loads(line)
        pos = line.rfind(b',"sig":')
        message = line[:pos] + b"}"
        assert keys.signed_message(line) == message
        signer_key = record.get("key") or trust.keys[record["player"] if "player" in record else "alice"]
        from nacl.signing import VerifyKey

        VerifyKey(bytes.fromhex(signer_key)).verify(message, bytes.fromhex(record["sig"]))


def _forge(m: Machine, signer_home: Path, monkeypatch: pytest.MonkeyPatch, signer: str) -> tuple[int, str]:
    """Replace the file's last decision with another legal decision of the same player, with the right
    prev and digest, signed with ``signer``'s key: only the signature can tell.  Returns (line, decider)."""
    lines = m.lines()
    before = gamefile.load_bytes(b"\n".join(lines[:-1]) + b"\n", "x")
    made = line_to_move(gamefile.decode_line(lines[-1]))
    others = [mv for mv in rules.legal_moves(before.state) if mv != made]
    assert others and all(mv.player == made.player for mv in others)
    forged = others[0]
    state = before.state.copy()
    rules.apply_in_place(state, forged)
    monkeypatch.setenv("AGILITY_HOME", str(signer_home))
    key = keys.signing_key(before.game_id, signer)
    assert key is not None
    raw = keys.with_signature(gamefile.encode_line(move_to_line(forged, before.next_n, before.tip, digest(state))), key)
    m.file.write_bytes(b"\n".join([*lines[:-1], raw]) + b"\n")
    return len(lines), made.player


def _play_until_unforced(alice: Machine, bob: Machine, who: str) -> None:
    """Play (by bots, each on their own machine) until ``who`` has made an unforced decision last."""
    for turn in range(200):
        player = to_act(alice)
        m = alice if player == "alice" else bob
        before = gamefile.load(m.file)
        unforced = len(rules.legal_moves(before.state)) > 1
        r = m.run("bot", m.file, "--seed", turn, "-q")
        assert r.exit_code == 0, r.stderr
        send(m, bob if m is alice else alice)
        if player == who and unforced and len(m.lines()) == before.lines + 1:
            return
    raise AssertionError("no unforced decision")


def _advance_to(alice: Machine, bob: Machine, who: str) -> None:
    """Play (by bots, each on their own machine, sending the file after each) until ``who`` is to act."""
    for turn in range(200):
        player = to_act(alice)
        if player == who:
            return
        m = alice if player == "alice" else bob
        assert m.run("bot", m.file, "--seed", turn, "-q").exit_code == 0
        send(m, bob if m is alice else alice)
    raise AssertionError(f"{who} never acts")


def test_R41_a_forged_line_rechained_with_a_correct_digest_is_caught_by_its_signature(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    alice, bob = handshake(tmp_path)
    _play_until_unforced(alice, bob, "alice")
    # bob rewrites alice's last decision: legal, right prev and digest, signed with his own key.
    line, decider = _forge(bob, bob.home, monkeypatch, "bob")
    assert decider == "alice"
    r = bob.run("replay", bob.file)
    assert r.exit_code == 3
    assert f"line {line}" in r.stderr and "signature" in r.stderr and "alice" in r.stderr
    # Mailed to alice, it is refused and her file is unchanged.
    mine = alice.bytes()
    r = alice.run("apply", alice.file, bob.lines()[-1].decode())
    assert r.exit_code == 1 and alice.bytes() == mine


def test_R41_an_unsigned_line_in_a_signed_game_is_invalid(tmp_path: Path):
    alice, bob = handshake(tmp_path)
    _play_until_unforced(alice, bob, "alice")
    lines = alice.lines()
    pos = lines[-1].rfind(b',"sig":')
    lines[-1] = lines[-1][:pos] + b"}"
    alice.file.write_bytes(b"\n".join(lines) + b"\n")
    r = alice.run("replay", alice.file)
    assert r.exit_code == 3 and "missing signature" in r.stderr and "alice" in r.stderr


def test_R41_this_machine_cannot_sign_the_opponents_decision(tmp_path: Path):
    alice, bob = handshake(tmp_path)
    m = bob if to_act(alice) == "alice" else alice
    other = "alice" if m is bob else "bob"
    before = m.bytes()
    r = m.run("bot", m.file, "--until-end", "-q")
    assert r.exit_code == 1
    assert f"only {other}'s key can sign it" in r.stderr
    assert m.bytes() == before


def test_R41_a_lost_key_is_refused_and_an_exported_key_carries_on_elsewhere(tmp_path: Path):
    alice, bob = handshake(tmp_path)
    laptop = Machine(tmp_path, "laptop")  # alice's new machine
    _advance_to(alice, bob, "alice")
    send(alice, laptop)
    before = laptop.bytes()
    r = laptop.run("bot", laptop.file, "-q")
    assert r.exit_code == 1 and "only alice's key can sign it" in r.stderr and laptop.bytes() == before
    keyfile = tmp_path / "alice.key"
    r = alice.run("key", "export", alice.file, "-o", keyfile)
    assert r.exit_code == 0, r.stderr
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600
    assert alice.run("key", "export", alice.file, "-o", keyfile).exit_code != 0  # never overwritten
    # A key for the wrong game or player is refused.
    other = Machine(tmp_path, "other")
    assert other.run("new", other.file, "--players", "carol", "dave", "--deck", "seed", "-q").exit_code == 0
    r = other.run("key", "import", other.file, keyfile)
    assert r.exit_code == 1 and "another game" in r.stderr  # a key file that does not match: refused
    r = laptop.run("key", "import", laptop.file, keyfile)
    assert r.exit_code == 0, r.stderr
    r = laptop.run("key", "list", laptop.file)
    assert "alice: key" in r.stdout and "held here" in r.stdout
    r = laptop.run("bot", laptop.file, "-q")
    assert r.exit_code == 0, r.stderr
    assert laptop.run("replay", laptop.file).exit_code == 0


# ----------------------------------------------------------------------------------------------
# apply: nobody can move for you


def test_R41_apply_refuses_bot_until_end_lines_made_for_the_recipient(tmp_path: Path):
    """An unsigned game: bob's `bot --until-end` plays both seats; alice refuses her own decisions."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--seed", "5", "--players", "alice", "bob", "-q").exit_code == 0
    send(alice, bob)
    r = bob.run("bot", bob.file, "--until-end", "-q")
    assert r.exit_code == 0
    mine = alice.bytes()
    r = alice.run("apply", alice.file, env={"AGILITY_PLAYER": "alice"}, input=r.stdout)
    assert r.exit_code == 1
    assert "alice's own decision" in r.stderr and "nobody can move for you" in r.stderr
    assert alice.bytes() == mine


def test_R41_apply_refuses_a_signed_line_in_the_recipients_name(tmp_path: Path):
    """Even signed with the recipient's own key (from another machine), a mailed decision of theirs is refused."""
    alice, bob = handshake(tmp_path)
    _advance_to(alice, bob, "alice")
    laptop = Machine(tmp_path, "laptop")
    send(alice, laptop)
    keyfile = tmp_path / "alice.key"
    assert alice.run("key", "export", alice.file, "-o", keyfile).exit_code == 0
    assert laptop.run("key", "import", laptop.file, keyfile).exit_code == 0
    mailed = ""
    for turn in range(50):
        before = gamefile.load(laptop.file)
        unforced = len(rules.legal_moves(before.state)) > 1
        r = laptop.run("bot", laptop.file, "--seed", turn, "-q")
        assert r.exit_code == 0, r.stderr
        mailed += r.stdout
        if unforced:
            break
    mine = alice.bytes()
    r = alice.run("apply", alice.file, *mailed.splitlines())
    assert r.exit_code == 1 and "alice's own decision" in r.stderr
    assert alice.bytes() == mine


def test_R41_apply_takes_the_opponents_signed_lines(tmp_path: Path):
    alice, bob = handshake(tmp_path)
    while to_act(alice) == "alice":
        r = alice.run("bot", alice.file, "-q")
        assert r.exit_code == 0
    send(alice, bob)
    r = bob.run("bot", bob.file, "-q")
    assert r.exit_code == 0, r.stderr
    r = alice.run("apply", alice.file, *r.stdout.splitlines())
    assert r.exit_code == 0, r.stderr
    assert alice.bytes() == bob.bytes()


# ----------------------------------------------------------------------------------------------
# unsigned files


SEEDED_GAMES = [p for p in sorted((ROOT / "games").glob("*.jsonl")) if b'"format":1' in p.read_bytes().split(b"\n", 1)[0]]


def test_the_recorded_games_are_seeded_ones_but_for_the_sealed_game() -> None:
    assert {p.stem for p in (ROOT / "games").glob("*.jsonl")} - {p.stem for p in SEEDED_GAMES} == {"sealed-by-mail"}


@pytest.mark.parametrize("path", SEEDED_GAMES, ids=lambda p: p.stem)
def test_R41_every_recorded_game_replays_as_unsigned_with_a_chosen_seed(path: Path):
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0, r.stderr
    assert "seed chosen by its creator" in r.stdout and "unsigned" in r.stdout
    data = path.read_bytes()
    for line in data.splitlines()[1:]:
        decoded = gamefile.decode_line(line)
        assert gamefile.encode_line(decoded) == line  # byte-identical re-encoding: no field added
    header = gamefile.decode_line(data.splitlines()[0])
    assert isinstance(header, Header) and header.keys is msgspec.UNSET and header.format == 1


def test_R41_a_seeded_game_stays_format_1_and_unsigned(tmp_path: Path):
    m = Machine(tmp_path, "alice")
    assert m.run("new", m.file, "--seed", "3", "-q").exit_code == 0
    header = json.loads(m.lines()[0])
    assert header["format"] == 1 and "keys" not in header and "sig" not in header
    assert m.run("move", m.file, "play", "1", "--reward", "red", "-q").exit_code in (0, 1)
    assert all("sig" not in json.loads(line) for line in m.lines())


def test_R41_a_signature_in_an_unsigned_game_is_invalid(tmp_path: Path):
    m = Machine(tmp_path, "alice")
    assert m.run("new", m.file, "--seed", "3", "-q").exit_code == 0
    assert m.run("bot", m.file, "-q").exit_code == 0
    lines = m.lines()
    lines[1] = keys.with_signature(lines[1], keys.new_signing_key())
    m.file.write_bytes(b"\n".join(lines) + b"\n")
    r = m.run("replay", m.file)
    assert r.exit_code == 3 and "line 2" in r.stderr and "unsigned" in r.stderr


def test_R41_a_header_whose_keys_were_changed_breaks_the_chain_or_its_signature(tmp_path: Path):
    alice, _bob = handshake(tmp_path)
    lines = alice.lines()
    header = json.loads(lines[0])
    header["keys"]["alice"] = "ab" * 32
    lines[0] = json.dumps(header, separators=(",", ":")).encode()
    alice.file.write_bytes(b"\n".join(lines) + b"\n")
    r = alice.run("replay", alice.file)
    assert r.exit_code == 3 and "line 1" in r.stderr and "signature" in r.stderr


def _mutations(lines: list[bytes]) -> list[tuple[str, list[bytes]]]:
    """Hand edits of a signed handshake game's header, join and reveal lines."""
    out = []

    def edit(i: int, change: Any, label: str) -> None:
        obj = json.loads(lines[i])
        change(obj)
        copy = list(lines)
        copy[i] = json.dumps(obj, separators=(",", ":")).encode()
        out.append((label, copy))

    edit(0, lambda o: o.update(format=1), "format 1 with keys")
    edit(0, lambda o: o.update(seed=7), "a fixed seed with a commit")
    edit(0, lambda o: o.pop("commit"), "no commit")
    edit(0, lambda o: o.pop("sig"), "header not signed")
    edit(0, lambda o: o.update(keys={}), "no keys")
    edit(0, lambda o: o["keys"].update(bob="cd" * 32), "two keys")
    edit(0, lambda o: o.update(keys={"carol": o["keys"]["alice"]}), "a stranger's key")
    edit(0, lambda o: o.update(board="random-c"), "unknown random board")
    edit(0, lambda o: o.update(first="nobody"), "unknown first")
    edit(0, lambda o: o.update(sig="0" * 128), "header sig zeros")
    edit(1, lambda o: o.update(player="alice"), "join by the creator")
    edit(1, lambda o: o.update(key="ef" * 32), "join key swapped")
    edit(1, lambda o: o.update(secret="zz"), "join secret not hex")
    edit(1, lambda o: o.pop("sig"), "join not signed")
    edit(1, lambda o: o.update(kind="reveal"), "join turned reveal")
    edit(2, lambda o: o.update(player="bob"), "reveal by the joiner")
    edit(2, lambda o: o.update(n=5), "reveal n")
    edit(2, lambda o: o.update(sig="ab" * 64), "reveal sig garbage")
    out.append(("join and reveal swapped", [lines[0], lines[2], lines[1], *lines[3:]]))
    out.append(("reveal dropped", [lines[0], lines[1], *lines[3:]]))
    edit(3, lambda o: o.update(sig=o["sig"][:-2] + ("00" if o["sig"][-2:] != "00" else "11")), "decision sig changed")
    edit(3, lambda o: o.update(sig=o["sig"].upper()), "decision sig upper case")
    return out


def test_R40_R41_hand_edited_fair_lines_are_invalid_never_a_crash(tmp_path: Path):
    alice, bob = handshake(tmp_path)
    _advance_to(alice, bob, "bob")
    lines = alice.lines()
    assert len(lines) > 4
    for label, edited in _mutations(lines):
        alice.file.write_bytes(b"\n".join(edited) + b"\n")
        for args in (("replay", alice.file), ("show", alice.file), ("move", alice.file, "done"), ("log", alice.file)):
            r = alice.run(*args)
            assert r.exit_code in (1, 3), (label, args, r.exit_code, r.output, r.stderr)
        r = alice.run("replay", alice.file)
        assert r.exit_code == 3, (label, r.stderr)


def test_R40_a_mailed_fair_header_creates_the_recipients_copy_to_join(tmp_path: Path):
    """By mail from the first line: bob has no file yet; `apply` keeps the header, `join` follows."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    r = alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed")
    assert r.exit_code == 0, r.stderr
    header = alice.file.read_text()
    r = bob.run("apply", bob.file, "-", input="Hi bob, a game?\n\n> " + header)
    assert r.exit_code == 0, r.stderr
    assert bob.file.read_text() == header and "agility join" in r.stderr
    r = bob.run("join", bob.file)
    assert r.exit_code == 0, r.stderr
    r = alice.run("apply", alice.file, "-", input=bob.lines()[-1].decode())
    assert r.exit_code == 0 and "the game has started" in r.stdout, r.stderr
    r = bob.run("apply", bob.file, "-", input=alice.lines()[-1].decode())
    assert r.exit_code == 0, r.stderr
    assert bob.file.read_bytes() == alice.file.read_bytes()
