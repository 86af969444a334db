"""The accidents of a game by git (issue 31), each over a bare remote with two clones and two
homes, no ``--as``, no ``AGILITY_PLAYER``: a force-push over the other's pushed turn, a rollback
after the other verified it, ``git pull --rebase`` over a force-push (git's fork-point drop), a true
fork pulled by hand with ``*.jsonl -merge`` (a conflict) and with a ``merge=union`` driver (both
forks joined in one file), a commit made by hand (the branch ahead 1), a push the remote refuses, a rebase left half
done, a run from a subdirectory, and ``play --git --wait``.  For each: no signed line of either
player is lost, what the tool says is what git did (its "pushed" is compared with ``git rev-list
@{u}..HEAD``), and nothing is decided before the accident is settled.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from machines import Machine
from test_git_play import git, joined, to_act

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TURN = "1\n" * 40  # the first choice at every decision, until the other player must act


def lines(m: Machine) -> list[bytes]:
    return m.file.read_bytes().split(b"\n")[:-1]


def remote_lines(m: Machine) -> list[bytes]:
    git(m.dir, "fetch", "--quiet")
    return git(m.dir, "show", f"@{{u}}:./{m.file.relative_to(m.dir)}").encode().split(b"\n")[:-1]


def claims_pushed(r) -> bool:
    """The tool's own words for a push git did: "agility: pushed …", "… committed and pushed …"."""
    said = " ".join((r.stderr or "").split())
    return "agility: pushed " in said or "agility: committed and pushed " in said


def truthful(m: Machine, r) -> None:
    """What the tool said about pushing is what git did."""
    said = " ".join((r.stderr or "").split())
    git(m.dir, "fetch", "--quiet")
    done = subprocess.run(["git", "-C", str(m.dir), "rev-list", "@{u}..HEAD"], capture_output=True, text=True)
    left = done.stdout.split() if done.returncode == 0 else None  # None: on no branch with an upstream
    if claims_pushed(r):
        assert left == [], (said, left)
    if "not pushed" in said:
        assert left != [], said
    for line in (r.stderr or "").splitlines():  # the git messages: a wider line is a command to copy
        assert len(line) <= 80 or "`" in line and str(m.dir.parent) in line, line


def play(m: Machine, *extra: str, input: str = TURN):
    r = m.run("play", m.file, "--git", *extra, input=input)
    assert "Traceback" not in r.output
    truthful(m, r)
    return r


def _build_synced(root: Path) -> None:
    alice, bob = joined(root)
    assert play(alice).exit_code == 0
    assert play(bob).exit_code == 0
    assert play(alice, input="").exit_code == 0  # takes bob's turn in, decides nothing
    assert to_act(alice) == "alice" and lines(alice) == lines(bob) == remote_lines(alice)


def synced(tmp_path: Path, force: bool = False) -> tuple[Machine, Machine]:
    """Both clones joined; alice has revealed and played her first turn, bob his: alice to act,
    both copies the remote's.  ``force``: the remote accepts a force-push.  The set-up (the remote,
    both clones, both homes) is made once per test process, beside the tests' own folders, and
    copied for each test: a sealed game's set-up by git takes most of a test's time otherwise."""
    template = tmp_path.parent / "synced-template"
    if not (template / "done").exists():
        shutil.rmtree(template, ignore_errors=True)
        template.mkdir()
        _build_synced(template)
        (template / "done").write_text("")
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    shutil.copytree(template, tmp_path, symlinks=True, dirs_exist_ok=True, ignore=shutil.ignore_patterns("done"))
    for m in (alice, bob):
        git(m.dir, "remote", "set-url", "origin", str(tmp_path / "game.git"))
    git(tmp_path / "game.git", "config", "receive.denyNonFastForwards", "false" if force else "true")
    assert lines(alice) == lines(bob) == remote_lines(alice)
    return alice, bob


def no_screen(r) -> None:
    """Refused before any decision screen: nothing of the board or the choices was printed."""
    assert r.exit_code == 1, r.output
    assert "Your choices" not in r.stdout and "1." not in r.stdout and r.stdout.strip() == "", r.stdout


def test_a_force_push_over_the_other_players_pushed_turn_is_said_at_once_and_restored(tmp_path: Path):
    alice, bob = synced(tmp_path, force=True)
    git(bob.dir, "fetch", "--quiet")
    old = git(bob.dir, "rev-parse", "HEAD").strip()
    assert play(alice).exit_code == 0  # her turn, pushed
    turn = lines(alice)
    assert remote_lines(alice) == turn and len(turn) > len(lines(bob))
    # bob, who had not pulled, force-pushes his older commit: alice's turn is gone from the remote
    git(bob.dir, "push", "--quiet", "--force", "origin", f"{old}:refs/heads/{git(bob.dir, 'branch', '--show-current').strip()}")
    assert len(remote_lines(alice)) < len(turn)
    r = play(alice)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert "--restore" in said and "git pull --rebase" not in said
    assert "alice's" in said and "force-push" in said
    assert lines(alice) == turn  # nothing of hers dropped here
    r = play(alice, "--restore", input="")
    assert r.exit_code == 0, r.output
    assert "put back" in r.stderr and claims_pushed(r)
    assert remote_lines(alice) == turn
    r = play(bob)  # bob takes her turn in and plays on
    assert r.exit_code == 0, r.output
    assert lines(bob)[:len(turn)] == turn and len(lines(bob)) > len(turn)


@pytest.mark.slow  # a long git exchange after the set-up (made once per test process, then copied)
def test_a_rollback_after_the_other_verified_the_turn_is_put_back_by_the_other(tmp_path: Path):
    alice, bob = synced(tmp_path, force=True)
    assert play(alice).exit_code == 0
    turn = lines(alice)
    assert play(bob, input="").exit_code == 0  # bob verifies her turn (his decision shown, none made)
    assert lines(bob) == turn
    git(alice.dir, "reset", "--quiet", "--hard", "HEAD~1")  # alice takes her turn back from the remote
    git(alice.dir, "push", "--quiet", "--force")
    r = play(bob)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert "alice's" in said and "--restore" in said and "git pull --rebase" not in said
    r = play(bob, "--restore", input="")
    assert r.exit_code == 0 and remote_lines(bob) == turn
    r = play(alice, input="")  # her own record says her lines were dropped: the remote has them again
    assert r.exit_code == 0, r.output
    assert lines(alice) == turn
    assert play(bob).exit_code == 0  # and the game goes on from her turn
    assert lines(bob)[:len(turn)] == turn


def _turn_forced_away(tmp_path: Path) -> tuple[Machine, Machine, list[bytes]]:
    """Alice plays her turn and pushes it; bob force-pushes the remote back over it.  Returns both
    machines and alice's lines with her turn."""
    alice, bob = synced(tmp_path, force=True)
    old = git(bob.dir, "rev-parse", "HEAD").strip()
    assert play(alice).exit_code == 0
    turn = lines(alice)
    branch = git(bob.dir, "branch", "--show-current").strip()
    git(bob.dir, "push", "--quiet", "--force", "origin", f"{old}:refs/heads/{branch}")
    return alice, bob, turn


@pytest.mark.slow  # a long git exchange after the set-up (made once per test process, then copied)
def test_git_pull_rebase_over_a_force_push_drops_a_pushed_turn_and_the_tool_finds_it(tmp_path: Path):
    alice, bob, turn = _turn_forced_away(tmp_path)
    subprocess.run(["git", "-C", str(alice.dir), "pull", "--rebase", "--quiet"], check=True, capture_output=True)
    assert len(lines(alice)) < len(turn)  # git's fork-point logic dropped her pushed commit
    r = play(alice)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert "--restore" in said and "found in commit" in said and "git pull --rebase" not in said
    r = play(alice, "--restore", input="")
    assert r.exit_code == 0, r.output
    assert lines(alice) == turn == remote_lines(alice)
    assert play(bob).exit_code == 0 and lines(bob)[:len(turn)] == turn


def forked(tmp_path: Path) -> tuple[Machine, Machine, int, list[bytes], list[bytes]]:
    """A true fork: alice pushed a turn, bob took it in and built on it without pushing (his lines
    committed by hand), then alice rolled her turn back on the remote and pushed another one.
    Returns the machines, the lines both share, bob's copy and the remote's."""
    alice, bob = synced(tmp_path, force=True)
    old = git(alice.dir, "rev-parse", "HEAD").strip()
    base = len(lines(alice))
    assert play(alice).exit_code == 0
    first = lines(alice)
    git(bob.dir, "pull", "--quiet", "--ff-only")
    r = bob.run("play", bob.file, "--local", input=TURN)  # without git
    assert r.exit_code == 0 and len(lines(bob)) > len(first)
    git(bob.dir, "commit", "--quiet", "-am", "my turn, by hand")
    built = lines(bob)
    git(alice.dir, "reset", "--quiet", "--hard", old)
    git(alice.dir, "push", "--quiet", "--force")
    r = alice.run("play", alice.file, "--local", "--accept-rewrite", input="2\n" + TURN)
    assert r.exit_code == 0, r.output
    git(alice.dir, "commit", "--quiet", "-am", "another turn")
    git(alice.dir, "push", "--quiet")
    other = lines(alice)
    assert other[:base] == first[:base] and other[base] != first[base]
    return alice, bob, base, built, other


def settled_by_the_rules(alice: Machine, bob: Machine, built: list[bytes], other: list[bytes]) -> None:
    """Bob's side is kept (alice built on it: her first turn is in it) by his ``--restore``, alice
    takes it by ``--accept-rewrite``, and the game goes on; alice's other turn stays in git."""
    r = play(bob, "--restore", input="")
    assert r.exit_code == 0, r.output
    assert claims_pushed(r) and remote_lines(bob) == lines(bob) == built
    r = play(alice)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert "The rules keep the remote's" in said and "--accept-rewrite" in said
    r = play(alice, "--accept-rewrite")  # and she plays her turn on it
    assert r.exit_code == 0, r.output
    assert lines(alice)[:len(built)] == built and len(lines(alice)) > len(built)
    assert remote_lines(alice) == lines(alice)
    assert other[-1].decode() in git(alice.dir, "log", "--all", "-p", "--reflog")  # nothing signed lost
    r = play(bob, input="")  # bob takes her turn in
    assert r.exit_code == 0, r.output
    assert lines(bob) == lines(alice)


@pytest.mark.slow  # about 30 s: the accidents of a fork, one after the other
def test_a_true_fork_pulled_by_hand_with_merge_off_then_with_a_union_driver(tmp_path: Path):
    """A true fork.  The repository's ``.gitattributes`` says ``*.jsonl -merge`` (the README's
    set-up): bob's ``git pull`` stops with a conflict, which the tool refuses to build on, naming the
    command that aborts it; after it, the tool says whose lines stand on each side.  Then bob's clone
    says ``*.jsonl merge=union``: his ``git pull`` joins both forks' lines in one file silently (a
    merge commit).  The tool finds his side (the first chain), says the rest are the remote's, never
    pushes the joined file, and the fork is settled by the rules with the tool's own commands."""
    alice, bob, base, built, other = forked(tmp_path)
    assert "-merge" in (bob.dir / ".gitattributes").read_text()
    pulled = subprocess.run(["git", "-C", str(bob.dir), "pull", "--no-rebase", "--no-edit"], capture_output=True)
    assert pulled.returncode != 0 and lines(bob) == built  # a conflict: the file is left as bob's
    r = play(bob)
    no_screen(r)
    assert "`git merge --abort`" in " ".join(r.stderr.split())
    git(bob.dir, "merge", "--abort")
    r = play(bob)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert f"forked after line {base}" in said and "The rules keep yours" in said and "--restore" in said
    (bob.dir / ".git" / "info" / "attributes").write_text("*.jsonl merge=union\n")
    pulled = subprocess.run(["git", "-C", str(bob.dir), "pull", "--no-rebase", "--no-edit"], capture_output=True)
    assert pulled.returncode == 0 and lines(bob) == built + other[base:]  # joined, committed, no word said
    r = play(bob)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert f"lines {len(built) + 1}-{len(built) + len(other) - base} came from the remote" in said, said
    assert f"forked after line {base}" in said and "The rules keep yours" in said and "--restore" in said
    assert git(bob.dir, "rev-list", "@{u}..HEAD")  # nothing pushed
    settled_by_the_rules(alice, bob, built, other)


def test_a_commit_made_by_hand_is_pushed_by_the_next_play_git_and_said_truly(tmp_path: Path):
    alice, bob = synced(tmp_path)
    r = alice.run("play", alice.file, "--local", input=TURN)  # without git
    assert r.exit_code == 0
    git(alice.dir, "commit", "--quiet", "-am", "my turn, by hand")
    assert len(git(alice.dir, "rev-list", "@{u}..HEAD").split()) == 1  # [ahead 1]
    r = play(alice, input="")
    assert r.exit_code == 0, r.output
    assert claims_pushed(r) and git(alice.dir, "rev-list", "@{u}..HEAD") == ""
    assert remote_lines(alice) == lines(alice)
    assert play(bob).exit_code == 0


@pytest.mark.slow  # a whole game or a long git exchange: the slow suite (the fast one stays under 5 minutes)
def test_a_push_the_remote_refuses_is_never_said_pushed(tmp_path: Path):
    alice, bob = synced(tmp_path)
    hook = tmp_path / "game.git" / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'the host is read-only today' >&2\nexit 1\n")
    hook.chmod(0o755)
    r = play(alice)
    assert r.exit_code == 1
    said = " ".join(r.stderr.split())
    assert not claims_pushed(r) and "nothing is lost" in said
    assert len(git(alice.dir, "rev-list", "@{u}..HEAD").split()) == 1
    hook.unlink()
    r = play(alice, input="")  # the branch ahead 1 is pushed at the next play --git
    assert r.exit_code == 0, r.output
    assert claims_pushed(r) and git(alice.dir, "rev-list", "@{u}..HEAD") == ""
    assert play(bob).exit_code == 0


@pytest.mark.parametrize("how", ["rebase", "merge", "cherry-pick"])
def test_a_git_operation_left_half_done_is_refused_before_any_decision(tmp_path: Path, how: str):
    alice, _ = synced(tmp_path)
    (alice.dir / "notes.txt").write_text("a\n")
    git(alice.dir, "add", "notes.txt")
    git(alice.dir, "commit", "--quiet", "-m", "a")
    if how == "rebase":
        env = {**os.environ, "GIT_SEQUENCE_EDITOR": "sed -i 1s/^pick/edit/"}
        subprocess.run(["git", "-C", str(alice.dir), "rebase", "-i", "HEAD~1"], check=True, capture_output=True, env=env)
        commands = ["git rebase --abort", "git rebase --continue"]
    else:
        git(alice.dir, "checkout", "--quiet", "-b", "side", "HEAD~1")
        (alice.dir / "notes.txt").write_text("b\n")
        git(alice.dir, "add", "notes.txt")
        git(alice.dir, "commit", "--quiet", "-m", "b")
        subprocess.run(["git", "-C", str(alice.dir), how, "--no-commit" if how == "merge" else "--no-edit",
                        "main" if git(alice.dir, "branch", "--list", "main") else "master"], capture_output=True)
        commands = [f"git {how} --abort"]
    before = alice.file.read_bytes()
    r = play(alice)
    no_screen(r)
    said = " ".join(r.stderr.split())
    assert all(f"`{c}`" in said for c in commands), said
    assert "agility: committed" not in said and not claims_pushed(r)
    assert alice.file.read_bytes() == before
    r = alice.run("move", alice.file, "done", "--git")  # move --git alike, before its decision is read
    assert r.exit_code == 1 and f"`{commands[0]}`" in " ".join(r.stderr.split())
    assert alice.file.read_bytes() == before


@pytest.mark.slow  # a long git exchange after the set-up (made once per test process, then copied)
def test_a_run_from_a_subdirectory_with_the_game_in_another(tmp_path: Path, monkeypatch):
    alice, bob = synced(tmp_path, force=True)
    for m in (alice, bob):
        (m.dir / "elsewhere").mkdir()
    old = git(bob.dir, "rev-parse", "HEAD").strip()
    monkeypatch.chdir(alice.dir / "elsewhere")
    r = alice.run("play", "../game.jsonl", "--git", input=TURN)
    assert r.exit_code == 0 and claims_pushed(r), r.output
    truthful(alice, r)
    turn = lines(alice)
    branch = git(bob.dir, "branch", "--show-current").strip()
    git(bob.dir, "push", "--quiet", "--force", "origin", f"{old}:refs/heads/{branch}")
    r = alice.run("play", "../game.jsonl", "--git", "--restore", input="")
    assert r.exit_code == 0, r.output
    assert remote_lines(alice) == turn
    monkeypatch.chdir(bob.dir / "elsewhere")
    r = bob.run("play", "../game.jsonl", "--git", input=TURN)
    assert r.exit_code == 0, r.output
    assert lines(bob)[:len(turn)] == turn


def test_wait_without_git_is_a_usage_error(tmp_path: Path):
    alice, _ = joined(tmp_path)
    aside = tmp_path / "aside.jsonl"  # outside the clone: a bare `play` of the clone's file is by git (issue 52)
    shutil.copy(alice.file, aside)
    r = alice.run("play", aside, "--wait")
    assert r.exit_code == 2 and "--git" in r.output
    r = alice.run("play", alice.file, "--local", "--wait")
    assert r.exit_code == 2 and "--local plays here only" in r.output and "--wait" in r.output


@pytest.mark.slow
def test_play_git_wait_fetches_until_the_other_players_push_arrives(tmp_path: Path):
    alice, bob = synced(tmp_path)
    assert play(alice).exit_code == 0  # her turn: bob to act
    before = len(lines(alice))
    agility = Path(sys.executable).with_name("agility")
    env = {**os.environ, "AGILITY_HOME": str(bob.home)}
    env.pop("AGILITY_PLAYER", None)
    later = subprocess.Popen(  # bob plays while alice waits
        ["sh", "-c", f"sleep 3; '{agility}' play '{bob.file}' --git"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env=env, text=True)
    later.stdin.write(TURN)
    later.stdin.close()
    try:
        r = play(alice, "--wait", "--every", "1", input="quit\n")
    finally:
        assert later.wait(120) == 0, later.stderr.read()
    assert r.exit_code == 0, r.output
    assert "waiting for bob" in r.stderr
    assert len(lines(alice)) > before and lines(alice) == remote_lines(alice)
    assert to_act(alice) == "alice"


def test_a_commit_message_names_a_face_down_card_as_the_viewer_neutral_log_does(tmp_path: Path):
    """R39: the git log is read by both players; a card put back face down is "a card face down"
    there, as ``agility log`` tells it to nobody in particular, never its id."""
    (alice,) = [Machine(tmp_path, "alice")]
    assert alice.run("new", alice.file, "--players", "alice", "bot:greedy", "--deck", "seed", "--seed", "787759886",
                     "-q").exit_code == 0
    assert alice.run("bot", alice.file, "--until-end", "-q").exit_code == 0
    rows = alice.file.read_bytes().split(b"\n")[:-1]
    (k,) = [i + 1 for i, raw in enumerate(rows) if b'"kind":"put_back"' in raw]
    card = json.loads(rows[k - 1])["card"]
    subprocess.run(["git", "init", "--quiet", str(alice.dir)], check=True)
    git(alice.dir, "config", "user.name", "alice")
    git(alice.dir, "config", "user.email", "alice@example.org")
    full = alice.file.read_bytes()
    alice.file.write_bytes(b"".join(raw + b"\n" for raw in rows[:k - 1]))
    git(alice.dir, "add", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "before")
    alice.file.write_bytes(full)
    r = alice.run("move", alice.file, "done", "--git")  # the game is over: refused, nothing to commit
    assert r.exit_code != 0
    shown = alice.run("play", alice.file, "--git", input="")  # commits the lines not committed yet
    assert shown.exit_code == 0, shown.output
    subject = git(alice.dir, "log", "-1", "--format=%s")
    assert f"line{'s' if k < len(rows) else ''} {k}" in subject and "a card face down" in subject, subject
    assert card not in subject and card not in git(alice.dir, "log", "--format=%B")


@pytest.mark.slow  # a whole game or a long git exchange: the slow suite (the fast one stays under 5 minutes)
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_inside_play_at_a_terminal_one_word_puts_the_dropped_turn_back(tmp_path: Path):
    """``play --git`` at a terminal asks before any decision; the answer ``restore`` does what
    ``--restore`` does.  Every line it writes fits the terminal's 80 columns but a command."""
    from test_play_tty import ANSI, Terminal

    alice, bob, turn = _turn_forced_away(tmp_path)
    term = Terminal(["play", "game.jsonl", "--git", "--plain"], 80, 24, alice.dir, alice.home)  # line mode (issue 51)
    try:
        asked = term.until_prompt()
        assert asked is not None and "Type restore" in asked and "Your choices" not in asked, asked
        term.send("restore")
        rest = ""
        while term._read(2.0) and not rest.endswith("\n") or term._more(1.0):
            rest = ANSI.sub("", term.buffer)
        told = ANSI.sub("", asked + term.buffer).replace("\r\n", "\n")
    finally:
        code = term.close()
    assert code == 0, told
    assert "put back" in told and "agility: pushed" in " ".join(told.split()), told
    assert all(len(row) <= 80 for row in told.split("\n")), told
    assert remote_lines(alice) == turn


def test_a_commit_of_another_file_alone_is_never_pushed_for_the_player(tmp_path: Path):
    alice, _ = synced(tmp_path)
    (alice.dir / "notes.txt").write_text("mine\n")
    git(alice.dir, "add", "notes.txt")
    git(alice.dir, "commit", "--quiet", "-m", "a note of mine")
    r = play(alice, input="")
    assert r.exit_code == 0, r.output
    assert not claims_pushed(r) and len(git(alice.dir, "rev-list", "@{u}..HEAD").split()) == 1


def _copy(*rows: tuple[str, dict]) -> bytes:
    head = json.dumps({"kind": "game"}) + "\n"
    return (head + "".join(json.dumps({"kind": "play", "player": who, **extra}) + "\n" for who, extra in rows)).encode()


def test_the_rules_keep_the_side_built_on_else_the_first_pushed_and_never_drop_released_keys():
    from agility_cli.cli.gitsettle import kept_side

    base = [("alice", {}), ("bob", {})]
    one = _copy(*base, ("alice", {"card": "t01"}))
    built = _copy(*base, ("alice", {"card": "t02"}), ("bob", {}))
    assert kept_side(built, one, 3, False) == (True, "the other player built on them")
    assert kept_side(one, built, 3, True)[0] is False
    assert kept_side(one, _copy(*base, ("alice", {"card": "t03"})), 3, True) == (True, "they were pushed first")
    assert kept_side(one, _copy(*base, ("alice", {"card": "t03"})), 3, False)[0] is False
    keyed = _copy(*base, ("alice", {"card": "t04", "seal": {"then": [[5, "k"]]}}))
    assert kept_side(keyed, built, 3, False) == (True, "keys were released after them (a sealed game never drops those)")
    assert kept_side(built, keyed, 3, True)[0] is False


@pytest.mark.slow
def test_ctrl_c_while_waiting_leaves_everything_whole(tmp_path: Path):
    import signal
    import time

    alice, _ = synced(tmp_path)
    assert play(alice).exit_code == 0  # bob to act: alice waits
    before = alice.file.read_bytes()
    env = {**os.environ, "AGILITY_HOME": str(alice.home)}
    env.pop("AGILITY_PLAYER", None)
    waiting = subprocess.Popen([str(Path(sys.executable).with_name("agility")), "play", str(alice.file), "--git",
                                "--wait", "--every", "1"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, text=True,
                               # as a terminal's foreground job has it: a runner that ignores SIGINT (a
                               # shell's background job) passes that on, and Ctrl-C would then do nothing
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(6)
    waiting.send_signal(signal.SIGINT)
    out, errs = waiting.communicate(timeout=60)
    assert waiting.returncode == 130, errs
    assert "waiting for bob" in errs and "the game is whole" in " ".join(errs.split()) and "Traceback" not in errs
    assert alice.file.read_bytes() == before
    assert git(alice.dir, "status", "--porcelain") == "" and git(alice.dir, "rev-list", "@{u}..HEAD") == ""
    assert not (alice.dir / ".git" / "index.lock").exists()


@pytest.mark.slow  # a long git exchange after the set-up (made once per test process, then copied)
def test_a_game_in_a_subfolder_whose_push_the_other_players_note_overtook(tmp_path: Path, monkeypatch):
    """The game in ``games/`` of the repository, run from another folder: a commit of another file
    that bob pushed meanwhile is taken in by a commit on top, and alice's turn pushed, truly."""
    alice, bob = synced(tmp_path)
    (alice.dir / "games").mkdir()
    git(alice.dir, "mv", "game.jsonl", "games/game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "the game in a folder")
    git(alice.dir, "push", "--quiet")
    git(bob.dir, "pull", "--quiet", "--ff-only")
    for m in (alice, bob):
        m.file = m.dir / "games" / "game.jsonl"
    r = alice.run("play", alice.file, "--local", input=TURN)  # her turn, without git
    assert r.exit_code == 0
    git(alice.dir, "commit", "--quiet", "-am", "my turn, by hand")
    (bob.dir / "notes.txt").write_text("a note\n")
    git(bob.dir, "add", "notes.txt")
    git(bob.dir, "commit", "--quiet", "-m", "a note")
    git(bob.dir, "push", "--quiet")
    (alice.dir / "elsewhere").mkdir()
    monkeypatch.chdir(alice.dir / "elsewhere")
    r = alice.run("play", "../games/game.jsonl", "--git", input="")
    assert r.exit_code == 0, r.output
    truthful(alice, r)
    assert claims_pushed(r) and (alice.dir / "notes.txt").exists()
    assert remote_lines(alice) == lines(alice)
    monkeypatch.chdir(bob.dir)
    assert play(bob).exit_code == 0 and lines(bob)[:len(lines(alice))] == lines(alice)


def test_a_file_joining_two_forks_is_cut_at_the_second_forks_first_line():
    """A union merge puts the other fork's lines after this machine's: the first chain is this
    side; the rest is taken as the remote's only when the remote holds every line of it."""
    from agility_cli.record import gitsync
    from agility_cli.record.lines import line_hash

    def chain(rows: list[bytes], kind: str, count: int) -> list[bytes]:
        """``rows`` and ``count`` lines more, each chained onto the one before it."""
        rows = list(rows)
        for _ in range(count):
            rows.append(json.dumps({"kind": kind, "n": len(rows), "prev": line_hash(rows[-1])}).encode())
        return rows

    def joined(rows: list[bytes]) -> bytes:
        return b"".join(raw + b"\n" for raw in rows)

    mine = chain([b'{"kind":"game"}'], "play", 3)
    theirs = chain(mine[:2], "move", 2)  # forked after line 2
    union = mine + theirs[2:]
    assert gitsync.one_chain(joined(mine)) == 4 and gitsync.one_chain(joined(union)) == 4
    assert gitsync.one_chain(joined(mine[:3] + [b"<<<<<<< HEAD"] + mine[3:])) == 3  # a conflict committed
    side, extra = gitsync.own_side("game.jsonl", joined(union), joined(theirs))
    assert side == joined(mine) and extra == 2
    with pytest.raises(gitsync.GitError, match="HEAD\\^1"):  # lines the remote lacks: nothing is cut
        gitsync.own_side("game.jsonl", joined(union), joined(theirs[:3]))
