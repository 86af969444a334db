"""Sealed games (R42–R44) through the command line, as people play them: two machines with their own
key stores, no ``--as`` and no ``AGILITY_PLAYER``; by mail (real message encodings made by the
standard library's ``email``) to the end and the audit, and by git with ``play --git``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from storytext import unwrapped

from machines import Machine
from test_mail_clients import VARIANTS, message

pytestmark = pytest.mark.slow

#: The seed of the tools' secrets: it decides the deal and so the game that the tests play.
SECRETS_SEED = 0


@pytest.fixture(autouse=True)
def seeded_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tools' secrets (handshake, seal, nonce) from a seeded source, so that each run plays the
    same deal and the same game (DECISIONS: tests inject seeded randomness); a real game never does.
    The signing keys too: they are in the header, whose hash (the game id) every seal's context holds."""
    from agility_cli.engine.rng import Rng
    from agility_cli.record import keys
    from agility_cli.record.sealed import game as sealgame, write as sealwrite

    rng = Rng.for_purpose(SECRETS_SEED, "test secrets")

    def draw(n: int) -> bytes:
        return b"".join(rng.next_u64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    class Os:
        @staticmethod
        def urandom(n: int) -> bytes:
            return draw(n)

    monkeypatch.setattr(sealgame, "new_secret", lambda: draw(32))
    monkeypatch.setattr(keys, "new_secret", lambda: draw(32).hex())
    monkeypatch.setattr(keys, "new_signing_key", lambda: draw(32).hex())
    monkeypatch.setattr(sealwrite, "os", Os)


def state(m: Machine) -> dict[str, Any]:
    r = m.run("show", m.file, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def send(src: Machine, dst: Machine, turn: int) -> str:
    """``send`` on one machine, mailed as one of the mail clients of test_mail_clients writes it
    (base64, quoted-printable, Latin-1, flowed, HTML, an attachment, a reply), ``apply`` on the other."""
    kind, flags = VARIANTS[turn % len(VARIANTS)]
    sent = src.run("send", src.file, *flags)
    assert sent.exit_code == 0, sent.output
    if not sent.stdout.strip():
        return ""
    got = dst.run("apply", dst.file, "-", input=message(kind, sent.stdout, src.name))
    assert got.exit_code == 0, (kind, flags, got.output)
    return got.stdout  # type: ignore[no-any-return]


def test_R42_a_sealed_game_by_mail_to_the_audit(tmp_path: Path) -> None:
    """The whole game, with ``new``'s defaults: the handshake with the sealed deck's passes, every turn
    mailed by a different kind of mail client, the other
    tool's keys sent back without asking (R44), the seal secrets at the end, and both replays say
    "audited"; alice's machine never shows a card of bob's hand before the end (R39, R42)."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    made = alice.run("new", alice.file, "--players", "alice", "bob")  # sealed: the default between two people
    assert made.exit_code == 0 and "the deck sealed" in " ".join(made.stderr.split()), made.output  # wrapped at 80
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    joined = bob.run("join", bob.file)
    assert joined.exit_code == 0, joined.output
    assert alice.run("apply", alice.file, "-", input=joined.stdout).exit_code == 0
    machines = {"alice": alice, "bob": bob}
    current, pauses, turn = alice, 0, 0
    applied: list[str] = []  # what each apply printed
    for turn in range(600):
        st = state(current)
        pending = st["sealed"]["audit_pending"]
        if st["status"] == "finished" and not pending:
            break
        who = pending[0] if st["status"] == "finished" else st["to_act"]
        pauses += "awaiting_keys" in st
        m = machines[who]
        if m is not current:
            applied.append(send(current, m, turn))
            current = m
            continue
        if st["status"] == "playing" and "awaiting_keys" not in st:
            if turn % 40 == 0:  # a hint reads the seat's view of the sealed game (what its secret opens)
                hinted = m.run("hint", m.file, "--level", "strong1")
                assert hinted.exit_code == 0 and "agility move" in hinted.stdout, hinted.output
            r = m.run("bot", m.file, "--moves", "1", "--seed", str(turn))
            assert r.exit_code == 0, r.output
            if turn % 25 == 0 and m is alice:  # R39: alice's machine lists of bob's hand only what is public
                seen = state(alice)["players"][1]
                assert len(seen["hand"]) <= seen["hand_count"]
                assert all(c["id"] is not None for c in seen["hand"]), turn
        else:
            other = machines["bob" if who == "alice" else "alice"]
            applied.append(send(m, other, turn))
            current = other
    send(current, machines["bob" if current is alice else "alice"], turn)
    assert state(alice)["status"] == "finished"
    # R44: a mail of keys alone is applied (never "nothing new"), and the tool that owes the next
    # pass of the reshuffle under way writes it in the same apply, then says what it waits for
    owed = [out for out in applied if "(keys of the sealed deck)\n" in out and "your tool added" in out]
    assert any("now waiting for" in out for out in owed), [out[:300] for out in applied if "keys of" in out]
    assert not any("nothing new" in out and "your tool added" in out for out in applied)
    assert alice.file.read_bytes() == bob.file.read_bytes()
    told = {}
    for m in (alice, bob):
        out = unwrapped(m.run("replay", m.file).stdout)  # to a pipe: wrapped at 80 (issue 52)
        assert "Sealed deck: audited" in out, out[-500:]
        told[m.name] = (out.split("\n", 1)[1], m.run("log", m.file).stdout)  # after the line naming the file
    # R39/R42: once audited every view is complete, so both machines tell the same game: each
    # player's face-down cards (recorded as slots of the sealed deck) named, by the other's tool too
    assert any('"card":"#' in line for line in alice.file.read_text().splitlines())
    assert told["alice"] == told["bob"] and "face down" not in told["alice"][0]
    # R39/R42: once audited, everything is public: every card of the last state is named
    rows = [json.loads(line) for line in alice.run("replay", alice.file, "--json").stdout.splitlines()]
    last = rows[-1]["state"]
    assert all(c["id"] for p in last["players"] for c in p["hand"]) and "hidden" not in json.dumps(last)
    for args in (["export", alice.file, "--svg", "-o", alice.dir / "b.svg"],
                 ["export", alice.file, "--html", "-o", alice.dir / "r.html"],
                 ["analyse", alice.file, "--simulations", "4", "--worlds", "2"]):
        done = alice.run(*args)
        assert done.exit_code == 0, (args, done.output)
    assert "bob:" in done.stdout  # the review covers both players' decisions
    assert b'"format":4' in alice.file.read_bytes().split(b"\n")[0]  # R42: new writes format 4


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_R44_a_sealed_game_by_git_goes_on_through_pauses(tmp_path: Path) -> None:
    """``play --git`` over a bare remote with two clones: each push carries the keys the other tool
    owes; a turn that waits for keys says so and goes on after the other player's pull and push."""
    def git(folder: Path, *args: str) -> str:
        return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout

    remote = tmp_path / "game.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(remote)], check=True)
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    for m in (alice, bob):
        m.dir.rmdir()
    subprocess.run(["git", "clone", "--quiet", str(remote), str(alice.dir)], check=True, capture_output=True)
    for m in (alice,):
        git(m.dir, "config", "user.name", m.name)
        git(m.dir, "config", "user.email", f"{m.name}@example.org")
    (alice.dir / ".gitattributes").write_text("*.jsonl -merge\n")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    git(alice.dir, "add", ".gitattributes", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "new game")
    git(alice.dir, "push", "--quiet", "-u", "origin", "HEAD")
    subprocess.run(["git", "clone", "--quiet", str(remote), str(bob.dir)], check=True, capture_output=True)
    git(bob.dir, "config", "user.name", "bob")
    git(bob.dir, "config", "user.email", "bob@example.org")
    for m in (alice, bob):
        git(m.dir, "config", "pull.ff", "only")
    assert bob.run("join", bob.file).exit_code == 0
    git(bob.dir, "commit", "--quiet", "-am", "join")
    git(bob.dir, "push", "--quiet")
    lines = []
    for _ in range(16):
        for m in (alice, bob):
            r = m.run("play", m.file, "--git", input="1\n" * 12)
            assert r.exit_code == 0, r.output
            assert "Traceback" not in r.output
        lines.append(len(alice.file.read_bytes().splitlines()))
        if state(alice)["status"] == "finished" or lines[-1] > 45:
            break
    assert lines[-1] > 30, lines  # the game went on, through the deal, keys lines and decisions
    assert all(b >= a for a, b in zip(lines, lines[1:]))  # nothing of either player dropped
    r = bob.run("play", bob.file, "--git", input="")  # bob pulls: the copies are one
    assert r.exit_code == 0, r.output
    assert alice.file.read_bytes() == bob.file.read_bytes() or bob.file.read_bytes().startswith(alice.file.read_bytes())
