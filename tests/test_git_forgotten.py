"""The ``--git`` forgotten (issue 52): ``agility play FILE`` of a game file committed in a git
clone whose branch has an upstream on a remote is played by git — said in one line before anything
is read or decided — with no ``--git``, no ``--mail`` and no ``AGILITY_MAILBOX``.  A repository
without a remote, a file git does not track, and ``--local`` stay a play here; ``--local`` with an
option that reads or sends is refused before anything is done."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_git_accidents import TURN, claims_pushed, lines, remote_lines, synced
from test_git_play import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NO_MAIL = {"AGILITY_MAILBOX": None, "AGILITY_MAIL_COMMAND": None, "AGILITY_SMTP_HOST": None}


def test_a_bare_play_in_a_clone_with_a_remote_is_played_by_git_and_said_first(tmp_path: Path) -> None:
    alice, bob = synced(tmp_path)  # alice to act
    got = alice.run("play", alice.file, input=TURN, env=NO_MAIL)
    assert got.exit_code == 0, got.output
    said = " ".join(got.stderr.split())
    assert f"playing by git (game.jsonl is in a clone of {tmp_path / 'game.git'}); --local to play here only" in said
    assert "1) " in got.stdout  # her decisions were shown, and made
    assert claims_pushed(got) and remote_lines(alice) == lines(alice) and len(lines(alice)) > len(lines(bob))
    assert git(alice.dir, "status", "--porcelain") == ""
    # and bob's bare play takes her turn in by git (a fetch), not a play of his stale copy
    taken = bob.run("play", bob.file, input="quit\n", env=NO_MAIL)
    assert taken.exit_code == 0, taken.output
    assert lines(bob)[:len(lines(alice))] == lines(alice)


def test_a_bare_play_by_git_that_cannot_reach_the_remote_is_refused_before_any_decision(tmp_path: Path) -> None:
    alice, _ = synced(tmp_path)
    before = alice.file.read_bytes()
    shutil.rmtree(tmp_path / "game.git")  # the remote is gone: the fetch fails
    got = alice.run("play", alice.file, input=TURN, env=NO_MAIL)
    assert got.exit_code != 0, got.output
    assert "playing by git" in got.stderr and "--local" in got.stderr
    assert "1) " not in got.stdout and got.stdout.strip() == ""  # no decision shown
    assert alice.file.read_bytes() == before  # nothing decided
    played = alice.run("play", alice.file, "--local", input=TURN, env=NO_MAIL)  # the way out it named
    assert played.exit_code == 0 and len(alice.file.read_bytes()) > len(before)


def test_a_repository_without_a_remote_is_played_here(tmp_path: Path) -> None:
    alice, _ = synced(tmp_path)
    git(alice.dir, "remote", "remove", "origin")  # the branch's upstream goes with it
    head = git(alice.dir, "rev-parse", "HEAD")
    got = alice.run("play", alice.file, input=TURN, env=NO_MAIL)
    assert got.exit_code == 0, got.output
    assert "by git" not in got.stderr and "pushed" not in got.stderr
    assert git(alice.dir, "rev-parse", "HEAD") == head  # nothing committed
    assert git(alice.dir, "status", "--porcelain").split() == ["M", "game.jsonl"]  # played here


def test_a_file_git_does_not_track_is_played_here(tmp_path: Path) -> None:
    alice, _ = synced(tmp_path)
    other = alice.dir / "copy.jsonl"
    shutil.copy(alice.file, other)
    remote = remote_lines(alice)
    got = alice.run("play", other, input=TURN, env=NO_MAIL)
    assert got.exit_code == 0, got.output
    assert "by git" not in got.stderr and "pushed" not in got.stderr
    assert other.read_bytes().count(b"\n") > len(remote)  # played here
    assert remote_lines(alice) == remote and git(alice.dir, "status", "--porcelain").split() == ["??", "copy.jsonl"]


def test_local_plays_here_in_a_clone_and_refuses_an_option_that_reads_or_sends(tmp_path: Path) -> None:
    alice, _ = synced(tmp_path)
    remote, before = remote_lines(alice), alice.file.read_bytes()
    for extra in (["--git"], ["--mail", str(tmp_path)], ["--wait"], ["--to", "bob@example.org"]):
        refused = alice.run("play", alice.file, "--local", *extra, input=TURN, env=NO_MAIL)
        assert refused.exit_code == 2 and "--local plays here only" in refused.stderr, refused.output
        assert extra[0] in refused.stderr and alice.file.read_bytes() == before
    got = alice.run("play", alice.file, "--local", input=TURN, env=NO_MAIL)
    assert got.exit_code == 0, got.output
    assert "by git" not in got.stderr and "pushed" not in got.stderr
    assert len(lines(alice)) > len(remote) and remote_lines(alice) == remote
    assert git(alice.dir, "status", "--porcelain").split() == ["M", "game.jsonl"]  # the next --git sends it
    sent = alice.run("play", alice.file, "--git", input="", env=NO_MAIL)
    assert sent.exit_code == 0 and claims_pushed(sent) and remote_lines(alice) == lines(alice)


def test_a_game_against_a_bot_in_a_clone_is_played_here(tmp_path: Path) -> None:
    alice, _ = synced(tmp_path)
    solo = alice.dir / "solo.jsonl"
    assert alice.run("new", solo, "--players", "alice", "bot:random", "--seed", "3").exit_code == 0
    git(alice.dir, "add", "solo.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "a solo game")
    got = alice.run("play", solo, input="quit\n", env=NO_MAIL)
    assert got.exit_code == 0, got.output
    assert "by git" not in got.stderr
    assert git(alice.dir, "rev-list", "@{u}..HEAD").strip()  # the solo commit not pushed by the tool


def test_play_git_of_a_game_file_no_commit_holds_commits_it_whole(tmp_path: Path) -> None:
    """A first commit of the game by ``--git`` starts at its header line: told as "the new game"
    (it was an internal error, a KeyError on the header)."""
    alice, _ = synced(tmp_path)
    git(alice.dir, "rm", "--cached", "--quiet", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "the game out of git")
    got = alice.run("play", alice.file, "--git", input=TURN, env=NO_MAIL)
    assert "internal error" not in got.stderr, got.stderr
    assert "the new game" in git(alice.dir, "log", "-1", "--format=%s")
    assert git(alice.dir, "status", "--porcelain") == ""


def test_play_git_in_a_repository_without_a_remote_never_says_pushed(tmp_path: Path) -> None:
    """Git's words stay true (issue 52): a commit with nowhere to push is said not pushed, with
    the commands that name the shared repository (it used to say "committed and pushed")."""
    alice, _ = synced(tmp_path)
    git(alice.dir, "remote", "remove", "origin")
    got = alice.run("play", alice.file, "--git", input=TURN, env=NO_MAIL)
    assert got.exit_code == 0, got.output
    said = " ".join(got.stderr.split())
    assert not claims_pushed(got) and "not pushed" in said and "`git push -u origin HEAD`" in said, said
    assert git(alice.dir, "status", "--porcelain") == ""  # committed
