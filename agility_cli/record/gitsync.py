"""Playing by git: the game file pulled before a turn and committed and pushed after it.

``agility play FILE --git`` and ``agility move … --git`` use the ``git`` program in the folder of
the game file (its repository):

* **pull**: ``git pull --ff-only`` — only a fast-forward, so nothing of yours is ever dropped.  A
  branch that has diverged from the remote (both of you pushed) stops with what to do.
* **commit and push**: ``git add FILE``, ``git commit`` with a message naming the player and the
  lines, ``git push``.  A push rejected because the remote moved on meanwhile is retried once the
  remote's commits are taken in by fast-forward of the game file: when the remote's copy of the
  game is the same as before your turn (the other commits changed other files, or nothing), your
  commit is rebased on them (``git pull --rebase``) and pushed again; when the remote's game file
  went on too, the two copies have forked and it stops with the explanation (a game cannot fork).

Every git command runs with ``-C`` the file's folder, a fixed locale, no pager and no prompt; what git
prints is kept for the message.  :class:`GitError` (exit 1) says what failed and what to do.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .lines import line_hash

GIT_TIMEOUT = 120  # seconds for one git command (a push over a slow network)


class GitError(Exception):
    """A git step failed; the message says what git said and what to do (nothing was dropped)."""


@dataclass
class Pulled:
    """What a pull brought: the file's bytes before and after (equal when nothing came)."""

    before: bytes
    after: bytes
    remote: bool  # the branch has an upstream to pull from


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "GIT_EDITOR": "true"})
    return env


def git(folder: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``git -C folder args``; :class:`GitError` with git's own words when it fails and ``check``."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, env=_env(),
                              timeout=GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise GitError("--git needs the git program, and it is not installed here") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"`git {' '.join(args)}` did not finish within {GIT_TIMEOUT} s (the network?)") from None
    if check and done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise GitError(f"`git {' '.join(args)}` failed: {' / '.join(said[-3:]) or f'exit {done.returncode}'}")
    return done


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def repository(path: Path) -> Path:
    """The work tree holding ``path`` (:class:`GitError` when it is in none)."""
    folder = path.resolve().parent
    done = git(folder, "rev-parse", "--show-toplevel", check=False)
    if done.returncode != 0:
        raise GitError(f"{path} is not in a git repository: clone the shared repository, or play without --git")
    return folder


def has_upstream(folder: Path) -> bool:
    return git(folder, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}", check=False).returncode == 0


def committed_lines(path: Path) -> int:
    """How many lines of the game file the last commit holds (0 when it holds no such file): the
    lines after them are not committed yet, whichever command wrote them (a plain ``show`` writes
    the tool's owed keys, R44)."""
    done = git(repository(path), "show", f"HEAD:./{path.name}", check=False)
    return done.stdout.count("\n") if done.returncode == 0 else 0


def pull(path: Path) -> Pulled:
    """``git pull --ff-only``: the other player's new lines, never a merge (a game cannot fork)."""
    folder = repository(path)
    before = _read(path)
    if not has_upstream(folder):
        return Pulled(before, before, False)
    done = git(folder, "pull", "--ff-only", "--quiet", check=False)
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        if any("diverg" in line or "Not possible to fast-forward" in line for line in said):
            raise GitError(
                "your branch and the remote have diverged (both have commits the other lacks): nothing was merged.  "
                "A game cannot fork: see both with `git log --oneline --all --graph`, and keep one history — "
                "if your own commits hold no game line the other has not, `git pull --rebase` puts them on top; "
                "else agree with the other player which lines stand (`agility replay` each side)"
            )
        raise GitError(f"`git pull --ff-only` failed: {' / '.join(said[-3:])}")
    return Pulled(before, _read(path), True)


def commit(path: Path, message: str) -> bool:
    """``git add`` and ``git commit`` the game file; whether there was anything to commit."""
    folder = repository(path)
    git(folder, "add", "--", path.name)
    if git(folder, "diff", "--cached", "--quiet", "--", path.name, check=False).returncode == 0:
        return False
    git(folder, "commit", "--quiet", "-m", message, "--", path.name)
    return True


def push(path: Path, tries: int = 3) -> None:
    """``git push``; a rejection because the remote moved on is retried while the remote's game file
    is still the one your turn started from (your commits go on top, nothing is dropped)."""
    folder = repository(path)
    if not has_upstream(folder):
        return
    for _ in range(tries):
        done = git(folder, "push", "--quiet", check=False)
        if done.returncode == 0:
            return
        said = (done.stderr + done.stdout).lower()
        if "rejected" not in said and "non-fast-forward" not in said and "fetch first" not in said:
            raise GitError(f"`git push` failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
        git(folder, "fetch", "--quiet")
        theirs = git(folder, "show", f"@{{u}}:./{path.name}", check=False)
        base = git(folder, "show", f"HEAD^:./{path.name}", check=False)
        if theirs.returncode == 0 and base.returncode == 0 and line_hash(theirs.stdout.encode()) != line_hash(
                base.stdout.encode()):
            raise GitError(
                "the push was refused: the other player pushed new lines of the game meanwhile, on the same "
                "tip as yours — the game has forked, and nothing was merged.  Run `git pull --ff-only` after "
                "agreeing which lines stand (`git log --all --graph`, `agility replay` of each side)"
            )
        git(folder, "pull", "--rebase", "--quiet")  # the remote's other commits, yours on top
    raise GitError("`git push` was refused again and again: try later (`git push`)")
