"""``agility games`` and ``agility play`` with no FILE look where each game lives (issue 52):
for a game waiting for the other side, its remembered mailbox — a Maildir, an mbox, an IMAP
mailbox — and ``AGILITY_MAILBOX``, and the git remote of a game file in a clone with an
upstream, so that the other player's mail or push that has arrived shows the game as awaiting
you.  One whole deadline for all of it (:data:`LOOK_SECONDS`), a progress line on a terminal,
``--offline`` to read nothing over the network (local mailboxes are still read: that is cheap).
Nothing is written: no mail applied, no ``git pull`` (a ``git fetch`` only updates what the
clone knows of its remote)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..engine.notation import UsageError
from ..record import gitsync
from ..record.mail import box
from ..i18n import N_, _, ngettext
from ..said import said, tell
from ..table.layout import cell_len
from ..text import safe

#: The whole time ``games`` and ``play`` with no FILE spend looking at mailboxes and remotes.
LOOK_SECONDS = 10.0


@dataclass
class Waiting:
    """Lines of a game waiting to be taken in: by ``mail`` (in ``where``, a mailbox) or a ``push``
    (on ``where``, the upstream branch)."""

    lines: int
    how: str
    where: str


class Look:
    """The looking of one listing: each mailbox scanned once, each clone fetched once, all within
    :data:`LOOK_SECONDS`; what could not be looked at in time is said once (:meth:`done`)."""

    def __init__(self, extra: Optional[str] = None, offline: bool = False, seconds: Optional[float] = None):
        self.extra, self.offline = extra, offline
        seconds = LOOK_SECONDS if seconds is None else seconds
        self.end = time.monotonic() + seconds
        self.seconds = seconds
        self.scans: dict[str, list[box.Entry]] = {}
        self.fetched: dict[str, bool] = {}  # a clone's top folder: whether its fetch worked
        self.late: list[str] = []  # said messages (told where shown) or a mailbox's address
        self.shown = False

    def left(self) -> float:
        return self.end - time.monotonic()

    def _progress(self, what: Any) -> None:
        """The progress line (a terminal only): what is being looked at, clipped to 79 cells."""
        if sys.stderr.isatty():
            line = _("agility: looking at {what} …").format(what=tell(what))
            while cell_len(line) > 79:
                line = line[:-1]
            sys.stderr.write("\r" + line + " " * (79 - cell_len(line)))
            sys.stderr.flush()
            self.shown = True

    def done(self) -> list[str]:
        """Clear the progress line; the notes of what was not looked at in time."""
        if self.shown:
            sys.stderr.write("\r" + " " * 79 + "\r")
            sys.stderr.flush()
        if not self.late:
            return []
        late = ", ".join(tell(w) for w in self.late[:3])
        if len(self.late) > 3:
            return [ngettext("not looked at within {seconds} s, so not counted: {late} and {n} more",
                             "not looked at within {seconds} s, so not counted: {late} and {n} more",
                             len(self.late) - 3).format(seconds=f"{self.seconds:g}", late=late, n=len(self.late) - 3)]
        return [_("not looked at within {seconds} s, so not counted: {late}").format(seconds=f"{self.seconds:g}",
                                                                                  late=late)]

    def __call__(self, mailbox: str, hashes: list[str], path: str, theirs: bool) -> Optional[Waiting]:
        """What waits for the game of ``hashes`` (its file at ``path``, its remembered ``mailbox``):
        local mailboxes always; over the network (IMAP, git) only when ``theirs`` (the game waits
        for the other side) and not offline."""
        total, where = 0, ""
        for source in dict.fromkeys(s for s in (mailbox, self.extra, os.environ.get("AGILITY_MAILBOX")) if s):
            entries = self._entries(source, theirs)
            if not entries:
                continue
            try:
                found = box.of_game(entries, hashes[0][:8], hashes, lambda e: e.key)
            except box.MailboxError:
                continue
            count = box.unapplied_lines(found, hashes)
            if count:
                total, where = total + count, where or source
        if total:
            return Waiting(total, "mail", where)
        if theirs and not self.offline and path:
            return self._pushed(Path(path), hashes)
        return None

    def invitations(self) -> list[tuple[str, Any]]:
        """Invitations to a game not joined here (``cli.invite``) in ``AGILITY_MAILBOX`` and the
        mailbox given (``play --mail``): (mailbox, invitation), newest first."""
        from . import invite

        found: list[tuple[str, Any]] = []
        for source in dict.fromkeys(s for s in (self.extra, os.environ.get("AGILITY_MAILBOX")) if s):
            kind = box.kind_of(source)
            if kind not in ("maildir", "mbox", "imaps") or (kind == "imaps" and self.offline):
                continue
            if kind == "imaps" and self.left() <= 0.5:
                self.late.append(safe(source))
                continue
            if kind == "imaps":
                self._progress(source)
            try:
                found += [(source, inv) for inv in invite.invitations(source, max(self.left(), 0.5))]
            except UsageError:
                continue  # play says why
        return found

    def _entries(self, source: str, theirs: bool) -> list[box.Entry]:
        if source in self.scans:
            return self.scans[source]
        kind = box.kind_of(source)
        entries: list[box.Entry] = []
        if kind in ("maildir", "mbox"):
            try:
                entries = box.scan(source)[1]
            except box.MailboxError:
                pass  # play says why
        elif kind == "imaps":
            if self.offline or not theirs:
                return []  # not cached: another game may want it
            if self.left() <= 0.5:
                self.late.append(safe(source))
            else:
                from ..record.mail import imap

                self._progress(source)
                try:
                    entries, _, close = imap.scan(source, within=self.left())
                    close()
                except box.MailboxError:
                    pass  # play says why
        self.scans[source] = entries
        return entries

    def _pushed(self, path: Path, hashes: list[str]) -> Optional[Waiting]:
        """Lines of the game on the clone's upstream (after one ``git fetch``) that the file lacks."""
        folder = path.resolve().parent
        top = _git(folder, 5, "rev-parse", "--show-toplevel")
        if top is None:
            return None
        upstream = _git(folder, 5, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}")
        if upstream is None:
            return None
        if top not in self.fetched:
            if self.left() <= 0.5:
                self.late.append(said(N_("the git remote of {folder}"), folder=safe(top)))
                self.fetched[top] = False
            else:
                self._progress(said(N_("the git remote of {folder}"), folder=top))
                self.fetched[top] = _git(folder, self.left(), "fetch", "--quiet") is not None
                if not self.fetched[top] and self.left() <= 0:
                    self.late.append(said(N_("the git remote of {folder}"), folder=safe(top)))
        if not self.fetched[top]:
            return None
        copy = gitsync.copy_at(folder, "@{u}", path.name)
        if copy is None:
            return None
        have = set(hashes)
        new = [h for h in gitsync.hashes(copy) if h not in have]
        return Waiting(len(new), "push", upstream) if new else None


def _git(folder: Path, seconds: float, *args: str) -> Optional[str]:
    """``git -C folder args``'s output, None when it fails or takes longer than ``seconds``."""
    env = {**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_SSH_COMMAND": os.environ.get(
        "GIT_SSH_COMMAND", "ssh -o BatchMode=yes")}
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, env=env,
                              timeout=max(seconds, 0.1), check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None
