"""Git's words stay true (issue 52): a game file in a git clone with a remote is played by git
when ``--git`` is forgotten (even with ``AGILITY_MAILBOX`` set, which used to mail the reply to
nobody after the decisions); a commit made by hand on the other player's turn is pushed and said;
an advised ``git checkout`` names a commit that exists (no ``HEAD^2`` when HEAD is no merge), and
the advised command works."""

from __future__ import annotations

import mailbox
import shutil
import subprocess
from pathlib import Path

import pytest

from test_git_accidents import TURN, lines, remote_lines, synced
from test_git_play import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_play_without_git_in_a_clone_is_played_by_git_even_with_agility_mailbox(tmp_path: Path) -> None:
    alice, bob = synced(tmp_path)  # alice to act
    box = tmp_path / "Maildir"
    mailbox.Maildir(str(box))
    got = alice.run("play", alice.file, input=TURN, env={"AGILITY_MAILBOX": str(box), "AGILITY_MAIL_COMMAND": "false"})
    assert got.exit_code == 0, got.output
    assert "playing by git" in got.stderr and "pushed" in got.stderr
    assert "AGILITY_MAIL_COMMAND" not in got.stderr  # no mail was tried
    assert remote_lines(alice) == lines(alice) and len(lines(alice)) > len(lines(bob))
    assert git(alice.dir, "status", "--porcelain") == ""


def test_a_hand_commit_of_another_file_on_the_other_players_turn_is_said_not_pushed(tmp_path: Path) -> None:
    alice, bob = synced(tmp_path)  # alice to act: bob has nothing to decide
    (bob.dir / "notes.txt").write_text("good game so far\n")
    git(bob.dir, "add", "notes.txt")
    git(bob.dir, "commit", "--quiet", "-m", "notes")
    got = bob.run("play", bob.file, "--git", input="quit\n")
    assert got.exit_code == 0, got.output
    said = " ".join(got.stderr.split())
    assert "1 commit of yours" in said and "not pushed" in said and "`git push`" in said, said
    assert len(git(bob.dir, "rev-list", "@{u}..HEAD").split()) == 1  # never pushed for him
    git(bob.dir, "push", "--quiet")  # the advised command works
    assert git(bob.dir, "rev-list", "@{u}..HEAD") == ""


def test_a_joined_file_committed_without_a_merge_is_advised_a_command_that_works(tmp_path: Path) -> None:
    alice, bob = synced(tmp_path)  # alice to act
    common = bob.file.read_bytes()
    aside = tmp_path / "aside.jsonl"  # her turn in a copy outside the clone: never pushed
    shutil.copy(alice.file, aside)
    assert alice.run("play", aside, input=TURN).exit_code == 0
    turn = aside.read_bytes()[len(common):]
    assert turn
    # two forks joined in bob's file and committed as one commit (as a union merge then a rebase leaves it)
    bob.file.write_bytes(common + turn + turn)
    git(bob.dir, "commit", "--quiet", "-am", "joined by hand")
    assert subprocess.run(["git", "-C", str(bob.dir), "rev-parse", "--verify", "--quiet", "HEAD^2"]).returncode != 0
    got = bob.run("play", bob.file, "--git", input="quit\n")
    said = " ".join(got.stderr.split())
    assert got.exit_code != 0 and "HEAD^2" not in said, said
    assert "git checkout @{u} -- game.jsonl" in said
    git(bob.dir, "checkout", "@{u}", "--", "game.jsonl")  # the advised command works
    git(bob.dir, "commit", "--quiet", "-am", "the remote's copy")
    again = bob.run("play", bob.file, "--git", input="quit\n")
    assert again.exit_code == 0, again.output
    assert lines(bob) == common.split(b"\n")[:-1]


def test_by_git_from_zero_the_invitee_joins_with_play_git(tmp_path: Path) -> None:
    """By git the same as by mail (issue 52): bob's ``play --git`` of the cloned file joins and
    pushes (it used to tell bob to send bob the file); alice's next ``play --git`` reveals and
    plays; before the other's push, ``play --git`` says what it waits for (exit 0)."""
    from machines import Machine
    from test_git_play import clone, to_act

    remote = tmp_path / "game.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(remote)], check=True)
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    clone(remote, alice)
    (alice.dir / ".gitattributes").write_text("*.jsonl -merge\n")
    assert alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed").exit_code == 0
    git(alice.dir, "add", ".gitattributes", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "new game")
    git(alice.dir, "push", "--quiet", "-u", "origin", "HEAD")
    early = alice.run("play", alice.file, "--git", input="quit\n")
    assert early.exit_code == 0 and "waits for bob's join" in " ".join(early.stderr.split())
    clone(remote, bob)
    joined = bob.run("play", bob.file, "--git", input="quit\n")
    said = " ".join(joined.stderr.split())
    assert joined.exit_code == 0 and "joined" in joined.stdout and "pushed" in said, joined.output
    assert "Send bob" not in said
    assert bob.run("play", bob.file, "--git", input="quit\n").exit_code == 0  # the reveal not pushed yet
    assert alice.run("play", alice.file, "--git", input=TURN).exit_code == 0  # reveal, her turn, pushed
    assert to_act(alice) == "bob"
    got = bob.run("play", bob.file, "--git", input="quit\n")
    assert got.exit_code == 0, got.output
    assert lines(bob) == lines(alice) == remote_lines(alice)


def test_accept_rewrite_is_not_answered_by_a_warning_that_advises_it(tmp_path: Path) -> None:
    """R41: with --accept-rewrite given, play does not warn "or accept this one with
    --accept-rewrite" (issue 52: the flag just given); the record takes the file as it is."""
    alice, _ = synced(tmp_path)  # alice to act
    old = git(alice.dir, "rev-parse", "HEAD").strip()
    assert alice.run("play", alice.file, "--git", input=TURN).exit_code == 0
    git(alice.dir, "reset", "--quiet", "--hard", old)  # her turn gone from her copy: a rewrite
    warned = alice.run("show", alice.file)
    assert "--accept-rewrite" in warned.stderr  # the warning stands without the flag
    got = alice.run("play", alice.file, "--local", "--accept-rewrite", input="quit\n")
    assert got.exit_code == 0, got.output
    assert "rewritten" not in got.stderr and "accept this one" not in got.stderr, got.stderr
    assert "rewritten" not in alice.run("show", alice.file).stderr  # accepted for good


def test_accept_rewrite_leaves_nothing_unpushed_unsaid(tmp_path: Path) -> None:
    """Issue 52: ``--accept-rewrite`` committed the remote's copy on top and did not push it nor
    say so; a commit of the tool's own is pushed now, and anything left unpushed is said."""
    from test_git_accidents import forked

    alice, bob, base, built, other = forked(tmp_path)
    assert bob.run("play", bob.file, "--git", "--restore", input="").exit_code == 0  # bob's side, pushed
    r = alice.run("play", alice.file, "--git", "--accept-rewrite", input="")  # no decision made
    assert r.exit_code == 0, r.output
    said = " ".join(r.stderr.split())
    git(alice.dir, "fetch", "--quiet")
    ahead = git(alice.dir, "rev-list", "@{u}..HEAD").split()
    # pushed (or nothing of hers left to push), or said not pushed with the command
    assert not ahead or ("not pushed" in said and "`git push`" in said), said
    assert "accept this one" not in said and remote_lines(alice)[:len(built)] == built


def test_a_joined_file_with_the_remotes_fork_first_names_the_fork_at_its_real_line(tmp_path: Path) -> None:
    """Issue 52: after a union merge and a ``git pull --rebase`` the remote's fork comes first in
    the file; the tool took that first chain for this machine's side and named the fork after the
    remote's lines (line 45, not 33).  This machine's side is the chain to its own last line."""
    from test_git_accidents import forked

    alice, bob, base, built, other = forked(tmp_path)
    joined = other + built[base:]  # the remote's fork first, then bob's own lines
    bob.file.write_bytes(b"".join(row + b"\n" for row in joined))
    git(bob.dir, "commit", "--quiet", "-am", "a union merge, rebased")
    r = bob.run("play", bob.file, "--git", input="")
    said = " ".join(r.stderr.split())
    assert f"forked after line {base}:" in said, said
    assert f"forked after line {len(other)}" not in said
    assert "HEAD^2" not in said
