"""Playing by git: the game file fetched and settled before a turn, committed and pushed after it.

``agility play FILE --git`` and ``agility move … --git`` use the ``git`` program in the folder of
the game file (its repository).  Before any decision is shown:

* a repository in the middle of a rebase, merge, cherry-pick or revert, or not on a branch, is
  refused with the git command that finishes or aborts it (:func:`unfinished`);
* ``git fetch``, then the game's copies are compared line by line (:func:`survey`): this
  machine's file (or, when this machine's record says lines it saw are gone from it, the longest
  copy in the reflogs that still holds them) and the upstream's (``git show @{u}:FILE``).  When one
  extends the other the longer is taken — by fast-forward, or by a new commit on top of the
  remote (:func:`settle`: a merge whose game file is the longer copy, never a rewrite of what is
  pushed); lines the upstream once held and lost (a force-push, a rollback) are put back only on
  ``--restore``; two copies that really forked are explained, nothing is merged.

After the turn: ``git add FILE``, ``git commit`` with a message naming the player and the lines,
``git push``, and a check that the upstream holds ``HEAD`` (:func:`unpushed`) before anything
says "pushed".  A push rejected because the remote moved on is retried once its commits are
settled as above.  ``git pull --rebase`` is never run, and never advised: its fork-point logic
drops a player's own pushed commits after a force-push.

Every git command runs with ``-C`` the file's folder, a fixed locale, no pager and no prompt; what git
prints is kept for the message.  :class:`GitError` (exit 1) says what failed and what to do.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ..i18n import N_, _name
from ..said import Said, said, said_in
from . import storage
from .lines import line_hash, sentences

GIT_TIMEOUT = 120  # seconds for one git command (a push over a slow network)
REFLOG_LOOK = 200  # how many reflog entries of HEAD and of the upstream are searched for lost lines


class GitError(Exception):
    """A git step failed; the message says what git said and what to do (nothing was dropped).  Its
    message is a said message (``said.message_of``): English in ``str()``, told where shown."""


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
        raise GitError(said(N_("--git needs the git program, and it is not installed here"))) from None
    except subprocess.TimeoutExpired:
        raise GitError(said(N_("`{command}` did not finish within {seconds} s (the network?)"),
                            command=f"git {' '.join(args)}", seconds=GIT_TIMEOUT)) from None
    if check and done.returncode != 0:
        words = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise GitError(said(N_("`{command}` failed: {said}"), command=f"git {' '.join(args)}",
                            said=" / ".join(words[-3:]) or said(N_("exit {code}"), code=done.returncode)))
    return done


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


#: The folders found inside a git work tree (a command asks for its game's folder many times; one
#: ``git rev-parse`` says it, and a folder does not leave its repository while the tool runs)
_IN_WORK_TREE: set[Path] = set()


def repository(path: Path) -> Path:
    """The folder of ``path``, inside a git work tree (:class:`GitError` when it is in none)."""
    folder = path.resolve().parent
    if folder in _IN_WORK_TREE:
        return folder
    done = git(folder, "rev-parse", "--show-toplevel", check=False)
    if done.returncode != 0:
        raise GitError(said(N_("{path} is not in a git repository: clone the shared repository, or play without "
                               "--git"), path=path))
    _IN_WORK_TREE.add(folder)
    return folder


def has_upstream(folder: Path) -> bool:
    return git(folder, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}", check=False).returncode == 0


#: A git operation left half done: the file git keeps while it runs, and the commands that finish
#: or abort it.
_UNFINISHED = (
    ("rebase-merge", N_("a rebase"), "git rebase --continue", "git rebase --abort"),
    ("rebase-apply", N_("a rebase"), "git rebase --continue", "git rebase --abort"),
    ("MERGE_HEAD", N_("a merge"), "git commit", "git merge --abort"),
    ("CHERRY_PICK_HEAD", N_("a cherry-pick"), "git cherry-pick --continue", "git cherry-pick --abort"),
    ("REVERT_HEAD", N_("a revert"), "git revert --continue", "git revert --abort"),
)


def unfinished(folder: Path) -> Said | None:
    """What stops the tool from building on this repository: a rebase, merge, cherry-pick or revert
    in progress, or a HEAD on no branch — said with the commands that finish or abort it."""
    asked = [arg for name, *_ in _UNFINISHED for arg in ("--git-path", name)]
    paths = git(folder, "rev-parse", *asked).stdout.splitlines()  # one line a path, in the order asked
    for (name, what, finish, abort), where in zip(_UNFINISHED, paths):
        if where and (folder / where).exists():
            return said(N_("the repository is in the middle of {what}: nothing was read, committed or pushed.  "
                           "Abort it (the next `--git` then works out what each side lacks):\n  `{abort}`\n"
                           "or, once no file has conflicts, finish it:\n  `{finish}`"),
                        what=said(what), abort=abort, finish=finish)
    if git(folder, "symbolic-ref", "--quiet", "HEAD", check=False).returncode != 0:
        return said(N_("the repository is not on a branch (a detached HEAD): nothing was committed or pushed.  "
                       "Go back to your branch, e.g.:\n  `git switch -`"))
    return None


def committed_lines(path: Path) -> int:
    """How many lines of the game file the last commit holds (0 when it holds no such file): the
    lines after them are not committed yet, whichever command wrote them (a plain ``show`` writes
    the tool's owed keys, R44)."""
    data = copy_at(repository(path), "HEAD", path.name)
    return data.count(b"\n") if data is not None else 0


def copy_at(folder: Path, rev: str, name: str) -> bytes | None:
    """The game file as commit ``rev`` holds it (``git show REV:./FILE``), None when it holds none."""
    done = subprocess.run(["git", "-C", str(folder), "show", f"{rev}:./{name}"], capture_output=True, env=_env(),
                          timeout=GIT_TIMEOUT, check=False)
    return done.stdout if done.returncode == 0 else None


def hashes(data: bytes) -> list[str]:
    """The SHA-256 of each whole line of a copy, line 1 first (an unfinished last line is left out)."""
    return [line_hash(raw) for raw in data.split(b"\n")[:-1]]


def holds(copy: list[str], mark: tuple[int, str]) -> bool:
    """Whether the copy (its line hashes) holds line ``mark[0]`` with hash ``mark[1]`` (always for none)."""
    n, h = mark
    return not n or (n <= len(copy) and copy[n - 1] == h)


def fetch(folder: Path) -> None:
    git(folder, "fetch", "--quiet")


def unpushed(folder: Path) -> list[str]:
    """The commits of HEAD the upstream lacks (``git rev-list @{u}..HEAD``), newest first."""
    return git(folder, "rev-list", "@{u}..HEAD").stdout.split()


def game_unpushed(path: Path) -> bool:
    """Whether HEAD holds lines of the game that the upstream lacks (commits of other files only
    are the player's own business: never pushed for them)."""
    folder = repository(path)
    return has_upstream(folder) and bool(unpushed(folder)) and copy_at(folder, "HEAD", path.name) != copy_at(
        folder, "@{u}", path.name)


def behind(folder: Path) -> int:
    return len(git(folder, "rev-list", "HEAD..@{u}").stdout.split())


def _reflog(folder: Path, ref: str) -> list[str]:
    done = git(folder, "log", "-g", f"--max-count={REFLOG_LOOK}", "--format=%H", ref, "--", check=False)
    return done.stdout.split() if done.returncode == 0 else []


def lost_copy(folder: Path, name: str, mark: tuple[int, str]) -> tuple[str, bytes] | None:
    """The longest copy of the game in the recent reflogs (HEAD's, then the upstream's) that holds
    line ``mark``: where lines a rebase or a force-push dropped are still found."""
    upstream = git(folder, "rev-parse", "--symbolic-full-name", "@{u}", check=False).stdout.strip()
    best: tuple[str, bytes] | None = None
    seen: set[str] = set()
    for ref in ("HEAD", *([upstream] if upstream else [])):
        for sha in _reflog(folder, ref):
            if sha in seen:
                continue
            seen.add(sha)
            data = copy_at(folder, sha, name)
            if data is not None and holds(hashes(data), mark) and (best is None or len(data) > len(best[1])):
                best = (sha, data)
    return best


class _Prev(msgspec.Struct):
    prev: str = ""


_PREV = msgspec.json.Decoder(_Prev)


def one_chain(data: bytes) -> int:
    """How many first lines of a copy make one chain: the copy ends before a line whose ``prev``
    names an earlier line than the one before it (a second fork's first line: two copies joined by a
    git merge, e.g. a union merge driver) or a line that is no game line (a conflict marker
    committed).  A copy of one chain: all its whole lines."""
    rows = data.split(b"\n")[:-1]
    where: dict[str, int] = {}
    for k, raw in enumerate(rows, 1):
        if k > 1:
            try:
                prev = _PREV.decode(raw).prev
            except (msgspec.DecodeError, msgspec.ValidationError):
                return k - 1
            if where.get(prev, k - 1) != k - 1:
                return k - 1
        where.setdefault(line_hash(raw), k)
    return len(rows)


@dataclass
class Survey:
    """Where this machine's copy of the game and the upstream's stand, after a fetch.

    ``kind``: ``same`` (nothing to take in), ``ahead`` (ours extends theirs with lines it never
    held: pushed as they are), ``mend`` (this machine's file joined the remote's lines onto its own,
    a merge: its own side committed on top), ``behind`` (theirs extends ours: taken by fast-forward or a commit
    on top), ``restore`` (ours, or a copy in the reflog, extends theirs with lines it held before
    or lines this machine's file lost: put back only on ``--restore``), ``fork`` (both have lines
    the other lacks)."""

    kind: str
    ours: bytes  # this machine's copy: its file, or the reflog's copy that holds the lines it saw
    theirs: bytes  # the upstream's copy
    common: int  # how many first lines the two share
    source: str = ""  # the commit the ours copy was found in, when not this machine's file
    dropped_upstream: bool = False  # the upstream no longer holds a line this machine saw there
    ahead: list[str] = field(default_factory=list)  # commits of HEAD not on the upstream
    joined: int = 0  # this machine's file joined two forks (a merge): how many lines of it were the other's


def survey(path: Path, tip: tuple[int, str], seen_upstream: tuple[int, str]) -> Survey | None:
    """``git fetch`` and compare the copies (None when the branch has no upstream).  ``tip``: the
    last line this machine wrote or verified; ``seen_upstream``: the last it saw the upstream hold
    (both from this machine's history record)."""
    folder = repository(path)
    if not has_upstream(folder):
        return None
    fetch(folder)
    theirs = copy_at(folder, "@{u}", path.name) or b""
    ours, source = _read(path), ""
    try:
        ours, joined = own_side(path.name, ours, theirs, tip)
    except GitError as exc:
        if git(folder, "rev-parse", "--verify", "--quiet", "HEAD^2", check=False).returncode == 0:
            raise
        # issue 52: HEAD is no merge (a `git pull --rebase` after it): HEAD^2 names nothing
        told = exc.args[0].params["joined"] if isinstance(exc.args[0], Said) else str(exc).split("  Take your side")[0]
        raise GitError(said(N_("{joined}  HEAD is not the merge commit (a rebase replayed it), so take the remote's "
                               "copy, then run the command again:\n  `{command}`"), joined=told,
                            command=f"git checkout @{{u}} -- {path.name}")) from None
    if not holds(hashes(ours), tip) and not holds(hashes(theirs), tip):  # lost here and there: in a reflog?
        found = lost_copy(folder, path.name, tip)
        if found is not None:
            source, ours = found
    mine, remote = hashes(ours), hashes(theirs)
    common = 0
    while common < min(len(mine), len(remote)) and mine[common] == remote[common]:
        common += 1
    dropped = not holds(remote, seen_upstream)
    ahead = unpushed(folder)
    if common == len(mine) == len(remote):
        kind = "restore" if source else "same"
    elif common == len(remote):  # ours extends theirs
        kind = "restore" if source or dropped else "ahead"
    elif common == len(mine):
        kind = "behind"
    else:
        kind = "fork"
    if joined and kind in ("same", "ahead"):
        kind = "mend"  # the file itself lost nothing but holds a second fork: this side, committed
    return Survey(kind, ours, theirs, common, source, dropped, ahead, joined)


def _chain_to(rows: list[bytes], tip: str) -> list[bytes] | None:
    """The lines of a joined file that lead, ``prev`` by ``prev``, from the header to the line
    hashing to ``tip`` (this machine's last line), None when they do not."""
    by_hash = {line_hash(raw): raw for raw in rows}
    chain: list[bytes] = []
    at = tip
    while at in by_hash and len(chain) < len(rows):
        raw = by_hash[at]
        chain.append(raw)
        if raw == rows[0]:
            return chain[::-1]
        try:
            at = _PREV.decode(raw).prev
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
    return None


def own_side(name: str, ours: bytes, theirs: bytes, tip: tuple[int, str] = (0, "")) -> tuple[bytes, int]:
    """A file that joins two forks (a merge with a union driver, conflict markers committed): this
    machine's side — the chain that leads to this machine's last line ``tip`` (issue 52: after a
    ``git pull --rebase`` the remote's fork comes first), else the first chain — and how many lines
    were the other side's, when the remote's copy holds every one of them (nothing is dropped by
    leaving them there); else :class:`GitError`, with the commands that take either side."""
    cut = one_chain(ours)
    rows = ours.split(b"\n")[:-1]
    if cut == len(rows):
        return ours, 0
    remote = set(hashes(theirs))
    mine, others = rows[:cut], rows[cut:]
    if tip[1] and tip[1] not in {line_hash(raw) for raw in mine}:
        chain = _chain_to(rows, tip[1])
        if chain is not None:
            mine, kept = chain, set(chain)
            others = [raw for raw in rows if raw not in kept]
    rest = [raw for raw in others if raw.strip() and not raw.startswith((b"<<<<<<<", b"|||||||", b"=======", b">>>>>>>"))]
    if all(line_hash(raw) in remote for raw in rest):
        return b"".join(raw + b"\n" for raw in mine), len(rows) - len(mine)
    joined = said(N_("{name} joins two copies of the game that forked after line {line} (a git merge): its lines "
                     "after {line} are not all on the remote, so nothing was changed."), name=name, line=cut)
    raise GitError(said(N_("{joined}  Take your side, then run the command again:\n  `{first}`\nor the merged-in "
                           "one:\n  `{second}`"), joined=joined, first=f"git checkout HEAD^1 -- {name}",
                        second=f"git checkout HEAD^2 -- {name}"))


def settle(path: Path, content: bytes, message: str) -> str:
    """Make the branch hold the upstream's history with ``content`` as the game file, never
    rewriting what is pushed: a fast-forward when the upstream's copy is ``content`` and HEAD is
    behind it, else a new commit on top of the upstream (a merge of it whose game file is
    ``content``; other files merge as git merges them, and a conflict in one stops with nothing
    changed).  Returns what was done: ``"fast-forward"``, ``"commit"`` or ``""`` (nothing)."""
    folder = repository(path)
    name = path.name
    up_to_date = git(folder, "merge-base", "--is-ancestor", "@{u}", "HEAD", check=False).returncode == 0
    if git(folder, "merge-base", "--is-ancestor", "HEAD", "@{u}", check=False).returncode == 0 and (
            copy_at(folder, "@{u}", name) or b"") == content and _read(path) in (content, copy_at(folder, "HEAD", name)):
        if not up_to_date:
            git(folder, "checkout", "--quiet", "--", name)  # a file equal to HEAD's: nothing is lost
            git(folder, "merge", "--ff-only", "--quiet", "@{u}")
            return "fast-forward"
        return ""
    here = _read(path)
    if here != content and not content.startswith(here) and here != copy_at(folder, "HEAD", name):
        raise GitError(said(N_("{name} has lines that neither copy holds (not committed): nothing was changed.  "
                               "Look at them with `{command}`"), name=name, command=f"git diff -- {name}"))
    if not up_to_date:
        storage.write_new(path, copy_at(folder, "HEAD", name) or b"", what=f"the game file {name}",
                          replace=True)  # as committed: content holds all of it
        done = git(folder, "merge", "--no-ff", "--no-commit", "--quiet", "@{u}", check=False)
        conflicted = set(git(folder, "diff", "--name-only", "--diff-filter=U").stdout.split())
        prefix = git(folder, "rev-parse", "--show-prefix").stdout.strip()
        others = conflicted - {prefix + name}
        if others or (done.returncode != 0 and not conflicted):
            if (folder / git(folder, "rev-parse", "--git-path", "MERGE_HEAD").stdout.strip()).exists():
                git(folder, "merge", "--abort", check=False)
            words = (done.stderr.strip() or done.stdout.strip()).splitlines()
            why = said(N_("other files conflict ({files})"), files=", ".join(sorted(others))) if others else \
                " / ".join(words[-2:])
            raise GitError(said_in(_name("verb", "the remote's commits could not be taken in: {why}; nothing was "
                                         "changed.  Settle those files by hand, then run the command again"), why=why))
    storage.write_new(path, content, what=f"the game file {name}", replace=True)
    git(folder, "add", "--", name)
    if up_to_date and git(folder, "diff", "--cached", "--quiet", "--", name, check=False).returncode == 0:
        return ""
    git(folder, "commit", "--quiet", "--no-verify", "-m", message)
    return "commit"


def commit(path: Path, message: str) -> bool:
    """``git add`` and ``git commit`` the game file; whether there was anything to commit."""
    folder = repository(path)
    git(folder, "add", "--", path.name)
    if git(folder, "diff", "--cached", "--quiet", "--", path.name, check=False).returncode == 0:
        return False
    git(folder, "commit", "--quiet", "-m", message, "--", path.name)
    return True


def push(path: Path, tries: int = 3) -> list[str]:
    """``git push``, then the commits the upstream still lacks (``git rev-list @{u}..HEAD`` after a
    fetch): empty when git did push.  A rejection because the remote moved on is retried while the
    remote's game file is a first part of ours (its other commits are taken in by a commit on top,
    nothing of anyone's dropped); a remote whose game went another way stops (a fork)."""
    folder = repository(path)
    if not has_upstream(folder):
        return []
    for _ in range(tries):
        done = git(folder, "push", "--quiet", check=False)
        if done.returncode == 0:
            fetch(folder)
            return unpushed(folder)
        answer = (done.stderr + done.stdout).lower()
        if "rejected" not in answer and "non-fast-forward" not in answer and "fetch first" not in answer:
            raise GitError(said(N_("`{command}` failed: {said}"), command="git push",
                                said=" / ".join(done.stderr.strip().splitlines()[-2:]) or str(done.returncode)))
        fetch(folder)
        ours, theirs = hashes(_read(path)), hashes(copy_at(folder, "@{u}", path.name) or b"")
        if theirs != ours[:len(theirs)]:
            raise GitError(sentences(
                said(N_("the push was refused: the other player pushed lines of the game meanwhile that yours do not "
                        "follow — the copies have forked, and nothing was merged.")),
                said(N_("Run the same command again: it says whose lines stand on each side and what to type"))))
        settle(path, _read(path), f"agility: the remote's commits taken in under {path.name}")
    raise GitError(said(N_("`git push` was refused again and again: try later (`git push`)")))
