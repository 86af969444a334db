"""Play at a distance in one command a turn: what ``agility play --git`` and ``--mail`` do around
the interactive loop — take the opponent's lines in first (a pull, or a received message), and
send yours after (a commit and push, or the block to mail)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from ..engine.notation import UsageError
from ..record import gamefile, history, keys
from ..table import session
from ..i18n import N_, _
from ..said import Said, message_of, said
from ..text import quoted, safe
from ..table.screen import shell
from .common import err, fail, say, view_for
from .gitsettle import git_commit_push, git_pull

if TYPE_CHECKING:
    from ..table.mailing import Outgoing


def take_in(file: Path, use_git: bool, message: Optional[str], as_player: Optional[str], accept: bool,
            restore: bool = False) -> str:
    """Before the loop: settle with the remote (``--git``: fetch, take the other player's lines,
    put back lost ones on ``restore``) or apply the received mail (``--mail``: a mailbox, a saved
    message, ``-`` standard input).  Returns the mail's sender address ("" if none)."""
    if use_git:
        git_pull(file, restore=restore, accept=accept, ask=True)
    if message is None:
        return ""
    # The mail's modules only when there is mail: `play` of a solo game starts without them.
    from ..record.mail import box
    from .mailcmd import MAILBOXES, _recipient, _tell_applied, note_recipient, take_mailbox

    kind = box.kind_of(message)
    if kind in MAILBOXES:
        return take_mailbox(file, message, as_player, accept, in_play=True)
    if kind == "text":
        raise UsageError(_("the mail source {source} (--mail, or the one remembered for the game, or AGILITY_MAILBOX) "
                           "is no file or folder: give a mailbox, a saved message, imaps://user@host/INBOX, or - for "
                           "standard input").format(source=safe(message)))
    from ..record.mail import apply as mail, find as mailfind

    data = box.read_stdin() if kind == "stdin" else box.check_message_file(message)
    incoming = mailfind.read_mail(data)
    recipient = _recipient(file, as_player, accept)
    report = mail.apply_lines(file, [], as_player=as_player, recipient=recipient, incoming=incoming)
    note_recipient(report, recipient)
    if report.applied or report.keys or report.own or report.handshake:
        _tell_applied(file, report, False, as_player, in_play=True)
    return box.sender_of(data)


def first_mail_awaited(file: Path, source: str, as_player: Optional[str], to: Optional[str],
                       every: Optional[float] = None) -> bool:
    """Whether the game's handshake (R40) was all there was to do: this machine's join, made and
    mailed, or the other player's first mail (the join, the reveal) awaited, said (``every``: the
    seconds of ``--wait``, which goes on waiting for it)."""
    from . import invite

    return invite.still_pending(file, source, as_player, to, every)


def git_handshake_done(file: Path, as_player: Optional[str]) -> bool:
    """``--git`` in the seed handshake (R40): this machine's join made and pushed, or the other
    player's join or reveal awaited (said); True when that was all there was to do."""
    from . import invite

    return invite.git_handshake(file, as_player)


def is_mailbox(source: Optional[str]) -> bool:
    """Whether ``source`` is a mailbox (``--wait`` reads it again and again)."""
    if source is None:
        return False
    from ..record.mail import box
    from .mailcmd import MAILBOXES

    return box.kind_of(source) in MAILBOXES


def git_forgotten(file: Path, message: Optional[str], use_git: bool, local: bool = False) -> bool:
    """Issue 52: ``play FILE`` without ``--git``, ``--mail`` or ``--local``, of a game between two
    people that remembers no mailbox, whose file is committed in a git clone whose branch has an
    upstream on a remote: played by git, said in one line before anything is read or decided (a
    bare ``play`` used to play here and leave the decision unpushed, or, with ``AGILITY_MAILBOX``
    set, mail the reply to nobody after the decisions).  A file git does not track, a repository
    without a remote (or a branch without an upstream) and ``--local`` stay a play here."""
    if use_git or message is not None or local:
        return False
    try:
        header = gamefile.read_bytes(file).split(b"\n", 1)[0]
        players = getattr(gamefile.decode_line(header, str(file), 1), "players", [])
    except gamefile.GameFileError:
        return False  # the game's own read says what is wrong
    if any(session.is_bot(p) for p in players) or history.load(keys.game_id(header)).mailbox:
        return False
    from ..record import gitsync

    try:
        folder = gitsync.repository(file)
        remote = _upstream_remote(folder)
        if remote is None or gitsync.copy_at(folder, "HEAD", file.name) is None:
            return False  # no remote to play with, or a file git does not track: played here
    except gitsync.GitError:
        return False  # no git, or not a clone
    say(_("agility: playing by git ({file} is in a clone of {remote}); --local to play here only").format(
        file=safe(file.name), remote=safe(remote)))
    return True


def _upstream_remote(folder: Path) -> Optional[str]:
    """Where the branch of the clone in ``folder`` pushes: its upstream's remote (its URL, without
    any password or user written in it), None when the branch has no upstream on a remote."""
    import re

    from ..record import gitsync

    if not gitsync.has_upstream(folder):
        return None
    branch = gitsync.git(folder, "symbolic-ref", "--quiet", "HEAD", check=False).stdout.strip()
    if not branch:
        return None  # a detached HEAD: `--git` itself says what to do
    name = gitsync.git(folder, "for-each-ref", "--format=%(upstream:remotename)", branch).stdout.strip()
    if not name or name == ".":
        return None  # an upstream that is a branch of this repository: no remote
    url = gitsync.git(folder, "remote", "get-url", name, check=False).stdout.strip() or name
    return re.sub(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", r"\1", url, flags=re.I)


def mail_source(file: Path, message: Optional[str], use_git: bool) -> Optional[str]:
    """The mail source of ``play``: ``--mail``'s, else (a bare ``play`` of a game between two
    people, not by git) the one remembered for the game, else ``AGILITY_MAILBOX``."""
    if message is not None or use_git:
        return message
    try:
        header = gamefile.read_bytes(file).split(b"\n", 1)[0]
        players = getattr(gamefile.decode_line(header, str(file), 1), "players", [])
    except gamefile.GameFileError:
        return None  # the game's own read says what is wrong
    if any(session.is_bot(p) for p in players):
        return None
    remembered = history.load(keys.game_id(header)).mailbox
    return remembered or os.environ.get("AGILITY_MAILBOX") or None


def _kept(file: Path, error: str) -> Said:
    """What a failed send (``error``) leaves: the decisions are in the file (never "unchanged": they
    were written before the reply was made), and the reply is printed to mail by hand."""
    return said(N_("{error}; your decisions are saved in {file}; mail the reply above yourself"),
                error=error, file=safe(str(file)))


def send_out(file: Path, use_git: bool, by_mail: bool, reply: Optional[Path], as_player: Optional[str],
             to: Optional[str] = None, seen: str = "", ask: bool = True) -> None:
    """After the loop: commit and push the lines not committed yet (``--git``: this turn's, and any
    the tool wrote on an earlier command), or print the block to mail (``--mail``/``--reply``: also
    written to the reply file) and send it (``outbox``: the mail command, SMTP or sendmail) to the
    opponent's address — ``--to``, or the one remembered for the game, or the sender ``seen`` in
    the mail read, confirmed once at the terminal (never when not ``ask``: the board asked first)."""
    unsent = _keys_unsent(file)  # R42: said again once sent (the closing words said "not sent")
    if use_git:
        deciders = session.decision_players(gamefile.read_bytes(file))
        git_commit_push(file, as_player or (deciders[-1] if deciders else ""))
        _tell_keys_sent(file, unsent)
    if not (by_mail or reply):
        return
    from ..table import mailing
    from . import outbox
    try:
        out = mailing.outgoing(file, as_player)
    except session.ViewerError as exc:
        raise UsageError(message_of(exc)) from None
    if not out.rows or session.is_bot(out.recipient):
        return
    gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    last = out.last
    how = outbox.way()
    if how is not None and not reply and history.load(gid).sent >= last:
        err(_("agility: nothing new to send {name}: your tool sent line {line} already").format(
            name=out.recipient, line=last))
        return
    text = out.text()
    print("\n" + _("--- mail this to {name} ---").format(name=out.recipient) + f"\n{text}", end="")
    history.remember_mail(gid, printed=last)  # R42: printed to mail, as `send` prints it
    if reply is not None:
        gamefile.write_new(reply, text.encode(), what="the reply", replace=True)
        err(_("agility: the reply to mail {name} is in {reply}").format(name=out.recipient, reply=reply))
    if how is None:
        return
    address = _address(gid, to, seen, out.recipient, how, ask)
    if how != "command" and not address:
        if seen:
            say(_("agility: to send your replies by itself, confirm {name}'s address once:").format(name=out.recipient)
                + f"\n  {shell('agility', 'play', str(file), '--to', seen)}")
        return
    header = gamefile.decode_line(gamefile.read_bytes(file).split(b"\n", 1)[0], str(file), 1)
    title = outbox.subject(out.game_id, list(getattr(header, "players", ["?", "?"])), out.first, last)
    try:
        err(_("agility: {error}").format(error=outbox.send(text, address, title)))
    except outbox.SendError as exc:
        raise UsageError(_kept(file, str(exc))) from None
    history.remember_mail(gid, sent=last)
    _tell_keys_sent(file, unsent)


def to_mail(file: Path, player: Optional[str]) -> Optional[tuple["Outgoing", history.Record]]:
    """This seat's lines since the other player's last (``mailing.outgoing``) and the game's mail
    record (what was mailed, printed, to whom); None when there are none or they go to a bot."""
    from ..table import mailing

    out = mailing.outgoing(file, player)
    if not out.rows or session.is_bot(out.recipient):
        return None
    return out, history.load(keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0]))


def _mail_owed(file: Path, viewer: session.Viewer) -> bool:
    """Whether this seat's lines since the other player's last are not mailed yet (the game's mail
    record says which line was mailed last) and the tool has a way to send them."""
    from . import outbox

    if not viewer.plays or outbox.way() is None:
        return False
    try:
        left = to_mail(file, viewer.name)
    except session.ViewerError:
        return False
    return left is not None and max(left[1].sent, left[1].printed) < left[0].last  # `send` printed: mailed by hand


def _keys_unsent(file: Path) -> bool:
    """R42: the game is over and this machine's audit keys are in the file, not sent yet (what
    the closing words of ``play`` said: "audit pending: your keys are not sent")."""
    try:
        if not history.load(keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])).audit:
            return False  # no audit keys of this machine's in the file: no game to read (every turn's send)
        game = gamefile.load(file)
    except (gamefile.HandshakePending, gamefile.GameFileError, keys.KeyStoreError, ValueError, OSError):
        return False
    return game.written_state.winner is not None and gamefile.keys_unsent(game) is not None


def _tell_keys_sent(file: Path, unsent: bool) -> None:
    """R42: when the keys the closing words called not sent have just gone (pushed, mailed), the
    audit as it stands now: passed on this machine, or waiting for the other player's keys."""
    if not unsent or _keys_unsent(file):
        return
    game = gamefile.load(file)
    names = list(game.header.players)
    pending = [names[seat] for seat in game.sealed.audit_pending(game.written_state)] if game.sealed else []
    say(_("agility: your keys are sent; the audit waits for {name}'s keys (R42)").format(name=pending[0]) if pending
        else _("agility: your keys are sent; the audit passed: every pass, key and face-down card checks (R42)"))


def _address(gid: str, to: Optional[str], seen: str, who: str, how: str, ask: bool = True) -> str:
    """The opponent's address: ``--to`` (remembered), the game's remembered one, or the sender of
    the mail read, confirmed once at a terminal (then remembered); "" when none is confirmed."""
    from . import outbox

    if to:
        if not outbox.is_address(to):
            raise UsageError(_("--to {to}: not a mail address (write name@example.org)").format(to=quoted(to)))
        history.remember_mail(gid, address=to)
        return to
    known = history.load(gid).address
    if known or not seen or how == "command" or not ask or not (sys.stdin.isatty() and sys.stderr.isatty()):
        return known
    err(_("agility: send this reply to {name} at {address}, and the next ones too? [Y/n] ").format(name=who,
                                                                                                 address=seen))
    answer = sys.stdin.readline().strip().lower()
    if answer in ("", "y", "yes"):
        history.remember_mail(gid, address=seen)
        return seen
    return ""


def wait_here(file: Path, as_player: Optional[str], every: float, accept: bool, mailbox: Optional[str],
              turn: bool = True) -> None:
    """``play --wait``: :func:`wait_turn`, with Ctrl-C leaving everything whole (exit 130); not
    ``turn``: the seed handshake's wait alone (the board waits for the turn itself)."""
    try:
        _wait_handshake(file, as_player, every, accept, mailbox)
        if turn:
            wait_turn(file, as_player, every, accept, mailbox)
    except KeyboardInterrupt:
        fail(130, "\n" + stopped_waiting(file, mailbox))


def stopped_waiting(file: Path, mailbox: Optional[str]) -> str:
    """What a stopped ``--wait`` says: the game is whole, and the command that goes on."""
    again = ["--mail", mailbox] if mailbox else ["--git"]
    return _("agility: stopped waiting; the game is whole: go on with `{command}`").format(
        command=shell('agility', 'play', str(file), *again, '--wait'))


def _wait_handshake(file: Path, as_player: Optional[str], every: float, accept: bool, mailbox: Optional[str]) -> None:
    """``--wait`` while the seed handshake (R40) waits for the other player's join or reveal
    (issue 52): fetch or read the mailbox every ``every`` seconds until it has come."""
    import time

    from .mailcmd import take_mailbox

    while True:
        pending = gamefile.pending_of(gamefile.read_bytes(file), str(file))
        if pending is None or pending.can_reveal_here():
            return
        time.sleep(every)
        if mailbox is None:
            git_pull(file, accept=accept)
        else:
            take_mailbox(file, mailbox, as_player, accept, in_play=True, quiet=True)


def wait_turn(file: Path, as_player: Optional[str], every: float, accept: bool, mailbox: Optional[str] = None,
              stop: Optional[threading.Event] = None, progress: Optional[Callable[[str, int], None]] = None) -> bool:
    """``play --wait`` by git (``mailbox`` None) or by a mailbox: every ``every`` seconds fetch
    (never ``git pull``) or read the mailbox again, until the player has a decision or the game
    ends, with a one-line status on stderr.  Lines the tool writes meanwhile (a sealed game's
    keys, R44) are sent at once: committed and pushed, or mailed to the confirmed address.
    Ctrl-C stops it with everything whole: each step is a whole fetch, append, commit or send.

    The board's wait (issue 51) gives ``stop``, checked between two checks (False is returned once
    it is set), and ``progress``, told who is awaited ("" for a sealed game's keys) and how many
    checks were made, instead of the status on stderr.  True: the decision or the end has come."""
    import time

    from ..record import gitsync
    from .mailcmd import take_mailbox

    checks = 0
    while True:
        game = session.since_last(file).game  # writes the keys this machine owes (R44)
        viewer = view_for(game, as_player, whole=False)
        if mailbox is None and gitsync.committed_lines(file) < game.lines:
            git_commit_push(file, viewer.name if viewer.plays else "")
        seat = session.decider_now(game)
        decide = game.written_state.winner is None and seat is not None and seat == viewer.seat and viewer.plays
        if mailbox is not None and not decide and _mail_owed(file, viewer):
            # lines of this seat's not mailed yet, whenever the tool wrote them: by this check, by
            # the last check's apply (keys owed for the mail it took in), before the wait began (the
            # creator's reveal, written when the join was applied) — the other tool waits for them
            # (R40, R44); owed when the decision is yours, they go with its mail, after it
            send_out(file, False, True, None, viewer.name if viewer.plays else None)
        if decide or game.written_state.winner is not None:
            if checks and sys.stderr.isatty() and progress is None:
                sys.stderr.write("\n")
            return True
        waited = session.awaited_text(game)
        who = (game.written_state.players[seat].name if seat is not None else
               _("the other player") if waited is None else _("the other player's keys"))
        status = _("agility: waiting for {who} (checked {time}, every {every} s; Ctrl-C stops)").format(
            who=who, time=time.strftime('%H:%M:%S'), every=f"{every:g}")
        if progress is not None:
            progress("" if seat is None else who, checks + 1)
        elif sys.stderr.isatty():
            from ..table.layout import _cut

            sys.stderr.write("\r" + _cut(status, 79))
            sys.stderr.flush()
        elif not checks:
            say(status)
        checks += 1
        if stop is None:
            time.sleep(every)
        elif stop.wait(every):
            return False
        if mailbox is None:
            git_pull(file, accept=accept)
        else:
            take_mailbox(file, mailbox, as_player, accept, in_play=True, quiet=True)
