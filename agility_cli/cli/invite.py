"""The first mail of a game is a turn like any other (issue 52): ``new --to`` mails the
invitation (the header line, armoured as ``send`` prints it) by the sender ``play --mail`` uses;
the invitee's ``play FILE --mail MAILBOX`` of a file not here yet finds the invitation in the
mailbox, creates the file, joins (R40) and mails the join back; ``apply FILE MAILBOX`` creates the
file from the invitation found there."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from ..engine.moves import Header
from ..engine.notation import UsageError
from ..record import gamefile, history, keys
from ..record.mail import box, find as mailfind
from ..table import mailing
from ..table.screen import shell
from ..i18n import N_, _, ngettext
from ..said import said, tell as told
from ..text import quoted, safe
from . import outbox
from .common import err, fit, say


@dataclass
class Invitation:
    """A fair game's header line found in a mailbox, waiting for its second player's join."""

    line: bytes  # the header line, as the file's line 1
    header: Header
    game: str  # its game id (the SHA-256 of the header line, hex; 8 digits shown)
    sender: str  # the From: address of the message that carried it
    label: str  # the message, in words
    creator: str  # who created the game (R40)
    joiner: str  # who joins it


def _remembered(source: str) -> str:
    """The mailbox as a game remembers it (an absolute path, or the ``imaps://`` address)."""
    if box.kind_of(source) == "imaps":
        from ..record.mail import imap

        return str(imap.parse(source))
    return os.path.abspath(source)


def _open(source: str, within: Optional[float] = None
          ) -> tuple[str, list[box.Entry], Callable[[box.Entry], bytes], Optional[Callable[[], None]]]:
    kind = box.kind_of(source)
    if kind == "imaps":
        from ..record.mail import imap

        entries, read, close = imap.scan(source, within)
        return kind, entries, read, close
    kind, entries = box.scan(source)
    return kind, entries, (lambda entry: box.read_message(source, kind, entry)), None


def invitations(source: str, within: Optional[float] = None) -> list[Invitation]:
    """The invitations in the mailbox ``source`` not joined on this machine, newest first: a
    message whose block holds a fair game's header line waiting for a join (R40), its game
    unknown here (no key and no history of it).  A message that holds none is passed over.
    An IMAP mailbox is read within ``within`` seconds when given."""
    kind, entries, read, close = _open(source, within)
    found: dict[str, Invitation] = {}
    try:
        for entry in entries:
            if not entry.games or entry.problem or entry.lines:
                continue  # an invitation is a header line alone: no line with ``n`` and ``prev``
            try:
                incoming = mailfind.read_mail(read(entry))
            except UsageError:
                continue
            for index, text in enumerate(incoming.found, 1):
                invitation = _invitation(text, entry, box.label_of(source, kind, entry), index)
                if invitation is not None:
                    found[invitation.game] = invitation  # a re-sent invitation: the newest copy
    finally:
        if close is not None:
            close()
    return list(reversed(found.values()))


def _invitation(text: str, entry: box.Entry, label: str, index: int) -> Optional[Invitation]:
    raw = text.encode()
    try:
        record = gamefile.decode_line(raw, "mail", index)
    except gamefile.GameFileError:
        return None
    if not isinstance(record, Header):
        return None
    try:
        pending = gamefile.pending_of(raw + b"\n", "mail")
    except gamefile.GameFileError:
        return None
    if pending is None or pending.awaiting != "join":
        return None
    game = keys.game_id(raw)
    if keys.signing_key(game, pending.joiner) is not None or keys.signing_key(game, pending.creator) is not None:
        return None  # joined here already, or this machine's own invitation
    return Invitation(raw, record, game, entry.sender, label, pending.creator, pending.joiner)


def choose(found: list[Invitation], source: str, file: Path) -> Invitation:
    """The invitation to take: the only one, or the one picked at a terminal from the list."""
    if not found:
        raise UsageError(said(
            N_("no game file {file} here, and no invitation to a game in {source}: ask the other player to start "
               "one with `{theirs}`, or start one yourself with `{yours}`"),
            file=safe(str(file)), source=safe(source),
            theirs=f"agility new {safe(str(file))} --players THEM YOU --to YOUR-ADDRESS",
            yours=shell('agility', 'new', str(file), '--players', 'YOU', 'THEM', '--to', 'ADDRESS')))
    if len(found) == 1:
        return found[0]
    rows = "\n".join("  " + _("{i}. {creator} invites {joiner}, game {game}, from {sender}").format(
        i=i, creator=safe(inv.creator), joiner=safe(inv.joiner), game=inv.game[:8], sender=safe(inv.sender or '?'))
        for i, inv in enumerate(found, 1))
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise UsageError(
            ngettext("{n} invitation in {source}:", "{n} invitations in {source}:", len(found)).format(
                n=len(found), source=safe(source)) + "\n" + rows + "\n" +
            _("save the one you want as a file and run `{apply}`, or run this at a terminal to choose").format(
                apply="agility apply FILE SAVED-MESSAGE"))
    err(_("agility: {error}").format(error=ngettext("{n} invitation in {source}:", "{n} invitations in {source}:",
                                                  len(found)).format(n=len(found), source=safe(source))) + "\n" + rows)
    err(_("agility: which one? [1-{n}] ").format(n=len(found)))
    answer = sys.stdin.readline().strip()
    if not answer.isdigit() or not 1 <= int(answer) <= len(found):
        raise UsageError(_("no invitation chosen: nothing was written"))
    return found[int(answer) - 1]


def create(file: Path, invitation: Invitation) -> None:
    """The file from the invitation's header line (verified: a fair game waiting for a join)."""
    gamefile.write_new(file, invitation.line + b"\n", what="the game file")


def send_block(file: Path, sender: str, address: str, what: str, words: str) -> str:
    """Mail what ``send`` would print for ``sender`` now (the invitation, the join) to
    ``address`` by the mail command, SMTP or sendmail; remembers the address and the last line
    sent.  Returns what was done, in words; raises :class:`outbox.SendError`."""
    out = mailing.outgoing(file, sender)
    last = out.last
    title = outbox.subject(out.game_id, list(_players(file)), out.first, last) + f" ({what})"
    done = outbox.send(out.text(), address, title, words)
    gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    history.remember_mail(gid, address=address, sent=last)
    return done


def _players(file: Path) -> list[str]:
    header = gamefile.decode_line(gamefile.read_bytes(file).split(b"\n", 1)[0], str(file), 1)
    return list(getattr(header, "players", ["?", "?"]))


def check_address(to: str) -> str:
    if not outbox.is_address(to):
        raise UsageError(_("--to {to}: not a mail address (write name@example.org)").format(to=quoted(to)))
    return to


def check_mailbox(source: str) -> str:
    if box.kind_of(source) not in ("maildir", "mbox", "imaps"):
        raise UsageError(_("--mail {source}: no mailbox (a Maildir folder, an mbox file or imaps://user@host/INBOX)")
                         .format(source=quoted(source)))
    return source


def mail_invitation(file: Path, creator: str, other: str, to: str, mailbox: Optional[str]) -> None:
    """``new --to``: mail the invitation, remember the address and the mailbox, say what comes
    next.  A failed send keeps the file and says how to send it by hand (exit 2)."""
    gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    if mailbox is not None:
        history.remember_mail(gid, mailbox=_remembered(mailbox))
    path = str(file)
    try:
        done = send_block(file, creator, to, "invitation", _("the invitation to {name}").format(name=other))
    except outbox.SendError as exc:
        raise UsageError(said(N_("{error}; {file} is created: mail the invitation yourself, what `{send}` prints"),
                              error=str(exc), file=safe(path), send=shell('agility', 'send', path))) from None
    again = ["agility", "play", path] + ([] if mailbox is not None or os.environ.get("AGILITY_MAILBOX")
                                         else ["--mail", "MAILBOX"])
    say(_("agility: {done}.\n  {name} joins with `{play}`, which mails the join back; when it comes, go on "
          "with:").format(done=done, name=other, play=f"agility play {safe(path)} --mail THEIR-MAILBOX")
        + f"\n  {shell(*again)}")


def join_from_mail(file: Path, source: str, as_player: Optional[str], to: Optional[str]) -> None:
    """``play FILE --mail MAILBOX`` of a file not here: take the invitation, create the file, join
    and mail the join back (to ``--to``, else the invitation's sender), remembering the mailbox."""
    if box.kind_of(source) not in ("maildir", "mbox", "imaps"):
        raise UsageError(said(N_("no game file {file} here, and {source} is no mailbox to find an invitation in: "
                                 "give a Maildir folder, an mbox file or {imap}"),
                              file=safe(str(file)), source=safe(source), imap="imaps://user@host/INBOX"))
    invitation = choose(invitations(source), source, file)
    address = check_address(to) if to else invitation.sender
    create(file, invitation)
    print(fit(_("created {file} from {name}'s invitation ({label})").format(
        file=safe(str(file)), name=safe(invitation.creator), label=safe(told(invitation.label)))))
    _join_and_mail(file, as_player, address, created=True)
    history.remember_mail(invitation.game, mailbox=_remembered(source))


def _join_and_mail(file: Path, as_player: Optional[str], address: str, *, created: bool = False) -> None:
    """Join the game (R40) and mail the join to ``address`` (remembered); without an address or
    a way to send, say how to send it by hand.  A file just ``created`` is removed when the join
    is refused (nothing is kept of an invitation this machine cannot join)."""
    try:
        kind, line, pending = gamefile.join(file, as_player)
    except BaseException:
        if created:
            file.unlink()
        raise
    path = str(file)
    gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    print(_("joined {file} as {name}").format(file=safe(path), name=safe(pending.joiner)))
    if not address:
        say(_("agility: no address to mail the join to: mail {name} what `{send}` prints, or run `{play}`").format(
            name=pending.creator, send=shell('agility', 'send', path), play=shell('agility', 'play', path, '--to', 'ADDRESS')))
        return
    history.remember_mail(gid, address=address)
    if outbox.way() is None:
        say(_("agility: no way to send mail here (set {smtp} or {command}): mail {name} what `{send}` prints").format(
            smtp="AGILITY_SMTP_HOST", command="AGILITY_MAIL_COMMAND", name=pending.creator,
            send=shell('agility', 'send', path)))
        return
    try:
        done = send_block(file, pending.joiner, address, "join", _("your join"))
    except outbox.SendError as exc:
        raise UsageError(said(N_("{error}; you joined {file}: mail the join yourself, what `{send}` prints"),
                              error=str(exc), file=safe(path), send=shell('agility', 'send', path))) from None
    say(_("agility: {done}.\n  {name}'s next `agility play` reveals the seed; when that mail comes, go on "
          "with:").format(done=done, name=pending.creator) + f"\n  {shell('agility', 'play', path)}")


def apply_from_mailbox(file: Path, source: str) -> None:
    """``apply FILE MAILBOX`` of a file not here: the file from the invitation found there."""
    invitation = choose(invitations(source), source, file)
    create(file, invitation)
    history.remember_mail(invitation.game, mailbox=_remembered(source), address=invitation.sender or None)
    path = str(file)
    print(fit(_("created {file} from {name}'s invitation ({label}): a fair game, whose seed is drawn jointly").format(
        file=safe(path), name=safe(invitation.creator), label=safe(told(invitation.label)))))
    say(_("next: `{play}` joins it and mails the join back (or `{join}` joins only)").format(
        play=shell('agility', 'play', path), join=shell('agility', 'join', path)))


def still_pending(file: Path, source: str, as_player: Optional[str] = None, to: Optional[str] = None,
                  every: Optional[float] = None) -> bool:
    """``play --mail`` of a game in its seed handshake (R40): this machine's join is due (a copy
    made by ``apply FILE MAILBOX``): join and mail it; the other player's mail (the join, or the
    creator's reveal, not made here) is awaited: say so and the command to run when it comes
    (exit 0: nothing is wrong), or, with ``--wait`` (``every``: its seconds), that it is waited
    for.  True when that was all; False when the game can go on here."""
    pending = _handshake_here(file)
    if pending is None:
        return False
    if _join_due(pending):
        _join_and_mail(file, as_player, check_address(to) if to else history.load(pending.trust.game_id).address)
        return True
    if every is not None:
        say(_("agility: the game has not started: it waits for {what}, which is not in {source} yet; reading it "
              "again every {every} s (Ctrl-C stops; the game stays whole)").format(
            what=_awaited(pending), source=safe(source), every=f"{every:g}"))
        return True
    say(_("agility: the game has not started: it waits for {what}, which is not in {source} yet.\n  When that mail "
          "comes, go on with:").format(what=_awaited(pending), source=safe(source))
        + f"\n  {shell('agility', 'play', str(file))}")
    return True


def git_handshake(file: Path, as_player: Optional[str]) -> bool:
    """``play FILE --git`` of a game in its seed handshake (R40): this machine's join is due (the
    file came by ``git clone``): join, commit and push it; the other player's join or reveal is
    awaited: say so (exit 0).  True when that was all; False when the game can go on here."""
    from .gitsettle import git_commit_push

    pending = _handshake_here(file)
    if pending is None:
        return False
    path = str(file)
    if _join_due(pending):
        kind, line, joined = gamefile.join(file, as_player)
        print(_("joined {file} as {name}").format(file=safe(path), name=safe(joined.joiner)))
        git_commit_push(file, joined.joiner)
        say(_("agility: {name}'s next `agility play --git` reveals the seed; when it is pushed, go on with:").format(
            name=joined.creator) + f"\n  {shell('agility', 'play', path, '--git')}")
        return True
    say(_("agility: the game has not started: it waits for {what}, which the remote does not hold yet.\n  When it "
          "is pushed, go on with:").format(what=_awaited(pending)) + f"\n  {shell('agility', 'play', path, '--git')}")
    return True


def _handshake_here(file: Path) -> Optional[gamefile.Pending]:
    """The seed handshake (R40) ``file`` is in, when this machine cannot go on with it by itself
    (a join to make here, or the other player's join or reveal awaited); else None (a file the
    game's own read will judge, a game started, or a reveal this machine makes)."""
    try:
        pending = gamefile.pending_of(gamefile.read_bytes(file), str(file))
    except gamefile.GameFileError:
        return None  # the game's own read says what is wrong
    return None if pending is None or pending.can_reveal_here() else pending


def _join_due(pending: gamefile.Pending) -> bool:
    """R40: the join is this machine's to make (it does not hold the creator's key)."""
    return pending.awaiting == "join" and keys.signing_key(pending.trust.game_id, pending.creator) is None


def _awaited(pending: gamefile.Pending) -> str:
    return _("{name}'s join").format(name=pending.joiner) if pending.awaiting == "join" else \
        _("{name}'s reveal of the seed").format(name=pending.creator)
