"""A signed game over a bare git remote with two clones, one command a turn: ``agility play --git``
driven by a pipe, as the README's git set-up has it — including a push that the other player's
simultaneous push overtook.  The copies end identical, and nothing of either player is dropped.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from storytext import unwrapped

from machines import Machine

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


def clone(remote: Path, m: Machine) -> None:
    m.dir.rmdir()
    subprocess.run(["git", "clone", "--quiet", str(remote), str(m.dir)], check=True, capture_output=True)
    git(m.dir, "config", "user.name", m.name)
    git(m.dir, "config", "user.email", f"{m.name}@example.org")
    git(m.dir, "config", "pull.ff", "only")


def to_act(m: Machine) -> str | None:
    return json.loads(m.run("show", m.file, "--json").stdout)["to_act"]


def joined(tmp_path: Path) -> tuple[Machine, Machine]:
    """The README's set-up: a bare remote, alice's clone with the new game pushed, bob's clone with
    his join pushed (alice has not pulled it yet)."""
    remote = tmp_path / "game.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(remote)], check=True)
    git(remote, "config", "receive.denyNonFastForwards", "true")
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    clone(remote, alice)
    (alice.dir / ".gitattributes").write_text("*.jsonl -merge\n")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    git(alice.dir, "add", ".gitattributes", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "new game")
    git(alice.dir, "push", "--quiet", "-u", "origin", "HEAD")
    clone(remote, bob)
    assert bob.run("join", bob.file).exit_code == 0
    git(bob.dir, "commit", "--quiet", "-am", "join")
    git(bob.dir, "push", "--quiet")
    return alice, bob


@pytest.mark.slow  # a whole game or a long git exchange: the slow suite (the fast one stays under 5 minutes)
def test_R41_a_git_game_of_ten_turns_by_play_git_alone(tmp_path: Path):
    alice, bob = joined(tmp_path)
    machines = {"alice": alice, "bob": bob}
    # alice's first play pulls the join; her machine reveals, and she plays.
    turns = 0
    overtaken = False
    for _ in range(60):
        mover = alice if turns == 0 else machines[to_act(alice) or "alice"]
        if turns == 4 and not overtaken:
            # bob pushes a commit of his own (a note, no game line) while alice plays: her push is
            # overtaken, pulled and retried on top of it.
            hook = alice.dir / ".git" / "hooks" / "pre-push"
            hook.write_text(
                "#!/bin/sh\n"
                f"[ -e {tmp_path}/hooked ] && exit 0\n"
                f"touch {tmp_path}/hooked\n"
                f"cd {bob.dir} && git pull --quiet --ff-only && echo note >> notes.txt && git add notes.txt "
                "&& git commit --quiet -m note && git push --quiet\n"
            )
            hook.chmod(0o755)
            overtaken = True
        r = mover.run("play", mover.file, "--git", input="1\n" * 40)
        assert r.exit_code == 0, r.output
        assert "Traceback" not in r.output
        if "must act now" in r.stdout:  # the last words say what to do by git, not by mail
            assert f"go on with: agility play {mover.file} --git" in " ".join(r.stdout.split()), r.stdout[-400:]
            assert "agility send" not in r.stdout and "agility apply" not in r.stdout
        turns += 1
        theirs = bob if mover is alice else alice
        r = theirs.run("play", theirs.file, "--git", input="")  # pull: see what came, no decision
        assert r.exit_code == 0, r.output
        if to_act(alice) is None or turns >= 12:
            break
    assert turns >= 10
    for m in machines.values():
        git(m.dir, "pull", "--quiet", "--ff-only")
    assert alice.file.read_bytes() == bob.file.read_bytes()
    assert (tmp_path / "hooked").exists() and (alice.dir / "notes.txt").exists()
    assert "agility: alice" in git(alice.dir, "log", "--format=%s")
    replay = alice.run("replay", alice.file)
    assert replay.exit_code == 0 and "Every line verified" in unwrapped(replay.stdout)


def test_R44_lines_a_plain_command_wrote_go_with_the_next_play_git(tmp_path: Path):
    """A plain command writes what the player's tool owes (here alice's ``show`` writes her reveal
    after bob's join; in play, her keys, R44) without committing it; the board's hint names ``play
    --git`` in a git work tree, and ``play --git`` commits and pushes those lines even when the
    player has no decision to make, so the other player is never left waiting for them."""
    alice, bob = joined(tmp_path)
    git(alice.dir, "pull", "--quiet", "--ff-only")
    shown = alice.run("show", alice.file)  # reveals: a line written, not committed
    assert shown.exit_code == 0 and alice.file.read_bytes().count(b"\n") == 3
    assert git(alice.dir, "status", "--porcelain") != ""
    # a path longer than a line is folded (the worker's temporary folders are long): compare unspaced
    assert f"bygit:agilityplay{alice.file}--git".replace(" ", "") in "".join(shown.stdout.split())
    played = alice.run("play", alice.file, "--git", input="")
    assert played.exit_code == 0, played.output
    assert git(alice.dir, "status", "--porcelain") == ""
    assert "line 3 of game.jsonl" in git(alice.dir, "log", "-1", "--format=%s")
    git(bob.dir, "pull", "--quiet", "--ff-only")
    assert bob.file.read_bytes() == alice.file.read_bytes()
    (tmp_path / "mail").mkdir()
    elsewhere = Machine(tmp_path / "mail", "bob")  # bob's copy outside any work tree: by mail only
    elsewhere.file.write_bytes(bob.file.read_bytes())
    told = elsewhere.run("show", elsewhere.file, home=bob.home)
    assert told.exit_code == 0 and "agility send" in told.stdout and "by git" not in told.stdout
