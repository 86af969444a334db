"""``agility games`` and ``agility play`` with no FILE look where each game lives (issue 52): the
other player's turn waiting in an IMAP inbox (dovecot on the loopback), in a Maildir named only by
``AGILITY_MAILBOX``, or pushed to the git remote shows the game as awaiting you (status ``mail`` or
``push``), and ``play`` goes to it; ``--offline`` does not look over the network; a server that
does not answer costs the whole deadline at most, said in a note."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from agility_cli.cli import look
from machines import Machine, start
from test_git_accidents import TURN, lines, remote_lines, synced
from test_git_play import git
from test_mail_clients import to_act
from test_mail_servers import IMAP_PASSWORD, Imap, cert, imap  # noqa: F401 (fixtures)
from test_mail_timeout import Dripper
from test_mailbox import a_turn, maildir_with


def statuses(m: Machine, *extra: str, env: dict[str, str | None] | None = None) -> dict[str, Any]:
    got = m.run("games", m.dir, "--json", *extra, env=env)
    assert got.exit_code == 0, got.output
    return {row["file"]: row for row in json.loads(got.stdout)["games"]}


def one(m: Machine, *extra: str, env: dict[str, str | None] | None = None) -> dict[str, Any]:
    rows = [r for r in statuses(m, *extra, env=env).values() if r["status"] != "missing"]
    assert len(rows) == 1, rows
    return rows[0]


def waiting_pair(tmp_path: Path) -> tuple[Machine, Machine, str]:
    """A game by mail where the reader waits for the mover's decision; the mover's turn mailed."""
    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    return mover, reader, name


def test_a_turn_waiting_in_a_maildir_named_only_by_agility_mailbox(tmp_path: Path) -> None:
    mover, reader, name = waiting_pair(tmp_path)
    assert one(reader)["status"] == "their_decision"
    folder = maildir_with(tmp_path / "Maildir", [a_turn(mover, name)])
    env = {"AGILITY_MAILBOX": str(folder)}
    row = one(reader, env=env)
    assert row["status"] == "mail" and row["awaiting_you"] and row["mailbox"] == str(folder)
    got = reader.run("play", input="quit\n", env=env)  # no FILE: the game whose mail waits
    assert got.exit_code == 0, got.output
    assert "applied" in got.stdout and reader.file.read_bytes().startswith(mover.file.read_bytes())


def test_a_turn_waiting_in_an_imap_inbox_and_offline_does_not_look(tmp_path: Path, imap: Imap,  # noqa: F811
                                                                    cert: tuple[Path, Path]) -> None:  # noqa: F811
    mover, reader, name = waiting_pair(tmp_path)
    imap.deliver(a_turn(mover, name))
    env = {"AGILITY_MAILBOX": f"imaps://alice@127.0.0.1:{imap.port}/INBOX", "AGILITY_IMAP_PASSWORD": IMAP_PASSWORD,
           "AGILITY_MAIL_CA_FILE": str(cert[0])}
    assert one(reader, "--offline", env=env)["status"] == "their_decision"
    row = one(reader, env=env)
    assert row["status"] == "mail" and row["awaiting_you"], row
    listed = reader.run("games", reader.dir, env=env)
    assert "awaiting you (1)" in listed.stdout and "not applied yet" in listed.stdout
    offline = reader.run("play", "--offline", input="quit\n", env=env)
    assert "awaits you" in offline.stderr and "applied" not in offline.stdout  # none, offline
    got = reader.run("play", input="quit\n", env=env)
    assert got.exit_code == 0 and "applied" in got.stdout, got.output
    assert reader.file.read_bytes().startswith(mover.file.read_bytes())


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_turn_pushed_to_the_git_remote_and_play_takes_it_by_git(tmp_path: Path) -> None:
    alice, bob = synced(tmp_path)  # alice to act
    assert bob.run("show", bob.file).exit_code == 0  # this copy is the one remembered (not the template's)
    assert git(bob.dir, "status", "--porcelain") == ""
    assert one(bob)["status"] == "their_decision"
    assert alice.run("play", alice.file, "--git", input=TURN).exit_code == 0  # her turn, pushed
    assert remote_lines(alice) == lines(alice) and len(lines(bob)) < len(lines(alice))
    assert one(bob, "--offline")["status"] == "their_decision"  # no fetch
    row = one(bob)
    assert row["status"] == "push" and row["awaiting_you"], row
    assert len(lines(bob)) < len(lines(alice))  # a listing pulls nothing: only a fetch
    got = bob.run("play", input="quit\n")  # no FILE, no --git: the pushed turn is taken by git
    assert got.exit_code == 0, got.output
    assert lines(bob)[: len(lines(alice))] == lines(alice)
    assert git(bob.dir, "status", "--porcelain") == ""


def test_a_server_that_does_not_answer_costs_the_whole_deadline_at_most(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(look, "LOOK_SECONDS", 2.0)
    mover, reader, _ = waiting_pair(tmp_path)
    server = Dripper(b"\x16\x03\x03\x40\x00", b"\x00", pause=0.3)
    try:
        env = {"AGILITY_MAILBOX": f"imaps://alice@127.0.0.1:{server.port}/INBOX", "AGILITY_IMAP_PASSWORD": "x"}
        began = time.monotonic()
        got = reader.run("games", reader.dir, "--json", env=env)
        assert time.monotonic() - began < 8
        assert got.exit_code == 0 and server.connections == 1
        assert json.loads(got.stdout)["games"][0]["status"] == "their_decision"
        began = time.monotonic()
        reader.run("games", reader.dir, "--offline", env=env)
        assert server.connections == 1  # offline: not even a connection
    finally:
        server.stop()


def test_games_in_zh_says_each_game_in_chinese_and_its_json_in_english(tmp_path: Path) -> None:
    """Issue 54: ``agility games`` in zh tells each game's status in Chinese; ``--json``'s ``says``
    stays English (it is for programs) and its keys and statuses are the same."""
    mover, reader, name = waiting_pair(tmp_path)
    shown = reader.run("--lang", "zh", "games", reader.dir, "--offline")
    assert shown.exit_code == 0, shown.output
    assert f"等待 {name} 的决定" in shown.stdout and "你的对局（1）：" in shown.stdout, shown.stdout
    got = reader.run("--lang", "zh", "games", reader.dir, "--offline", "--json")
    row = [r for r in json.loads(got.stdout)["games"] if r["status"] != "missing"][0]
    assert row["status"] == "their_decision" and row["says"] == f"waiting for {name}'s decision"
