"""The commands of play at a distance: join (the seed handshake), send and apply (mail)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional
import msgspec
import typer

from ..engine.moves import Header
from ..engine.notation import UsageError
from ..record import gamefile, history, keys
from ..record.mail import apply as mail, box, find as mailfind
from ..record.gamefile import MAX_FILE_BYTES
from ..table import mailing, session
from ..table.screen import shell, show_game, tell
from ..i18n import _, ngettext
from ..said import message_of, tell as told
from ..text import safe, shell_command
from .application import app
from .common import ACCEPT_HELP, AS_HELP, history_notice, boundary, err, fit, handshake_text, key_home, note_components, say, view_for


# EXTRA COMMANDS: further commands are registered below this line.


@app.command(
    help=_(
        "Join a fair game: add your key and secret to the seed handshake (the second player's part).\n"
        "\n"
        "The creator committed to a secret of theirs in the header; you add a secret of your own, and the\n"
        "seed is derived from both once the creator reveals theirs, so neither of you chooses it.  Send\n"
        "the printed line (or the file) back.  Run by the creator after the join, it reveals their secret.\n"
        "\n"
        "Example:  agility join game.jsonl --as bob"
    ),
)
def join(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file the other player created and sent you.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_("Whose seat you are (also AGILITY_PLAYER): the player who joins.")),
    raw: bool = typer.Option(False, "--raw", help=_("Print the line to mail as it is, not the block `send` prints (as to a pipe).")),
) -> None:
    with boundary():

        path = safe(str(file))
        kind, line, pending = gamefile.join(file, as_player)
        note_components(gamefile.header_components(pending.header, str(file)))  # nothing taken on trust
        sender = pending.creator if kind == "reveal" else pending.joiner
        text, block = handshake_text(file, line, sender, raw)
        sys.stdout.write(text)
        above = _("the block above, as it is") if block else _("the line above")
        if kind == "reveal":
            say(_("revealed {creator}'s secret: the game has started.  Send {joiner} {above} (or the file); then "
                  "`{show}`").format(creator=pending.creator, joiner=pending.joiner, above=above,
                                     show=shell_command(['agility', 'show', str(file)])))
            return
        sealed = pending.header.sealed
        deck = (_("; the deck is sealed, window {window} (a modified client could read at most {window} of its own "
                  "next cards early, R42)").format(window=sealed.window) if not isinstance(sealed, msgspec.UnsetType)
                else _("; the deck is drawn from the joint seed (not sealed)"))
        say(_("joined {file} as {joiner}{deck}; your key for this game is kept in {home}.\n"
              "  send {creator} {above} (they add it with `{apply}`), or the file (git: commit and push)\n"
              "  {creator}'s next agility command on the game reveals their secret; the game starts then").format(
            file=path, joiner=pending.joiner, deck=deck, home=safe(key_home()), creator=pending.creator, above=above,
            apply=shell_command(['agility', 'apply', str(file)])))


def _create_from_mail(file: Path, incoming: mailfind.Incoming) -> bool:
    """``apply`` to a file that does not exist yet: create it from the mailed header line (verified).
    Returns whether it was created.  A fair game's header (R40) is kept as it is, to be joined."""

    headers = []
    if not incoming.found and incoming.damaged:
        raise UsageError(mailfind.damage_message(incoming.damaged))
    for index, text in enumerate(incoming.found, 1):
        try:
            record = gamefile.decode_line(text.encode(), "mail", index)
        except gamefile.GameFileError:
            continue
        if isinstance(record, Header):
            headers.append(record)
    if not headers:
        raise UsageError(_("{file} does not exist, and the mail holds no header line to start it from: ask your "
                           "opponent for `agility send FILE` from the start of the game").format(file=file))
    raw = gamefile.encode_line(headers[0]) + b"\n"
    try:
        gamefile.load_bytes(raw, str(file))  # verify before writing
    except gamefile.HandshakePending as exc:
        if exc.pending.awaiting != "join":
            raise
        gamefile.write_new(file, raw, what="the game file")  # a fair game waiting for the recipient's `join` (R40)
        return True
    gamefile.create(file, headers[0])
    return True


def _recipient(file: Path, as_player: Optional[str], accept_rewrite: bool, restoring: bool = False) -> Optional[str]:
    """Who receives a mail (R41: nobody moves for them): the viewer of a signed game (its key is
    held here), else ``--as``, else the one seat this machine has played in an unsigned game.
    Refuses to build on a rewritten history (``session.check_history``), unless the mail is
    ``restoring`` it (:func:`_restores`)."""

    try:
        game = gamefile.load(file)
    except gamefile.HandshakePending:
        return None  # the join or reveal is still to come: apply_lines knows the handshake
    if not restoring:
        session.check_history(game, accept=accept_rewrite)
    if game.trust.signed:
        viewer = view_for(game, as_player, whole=not restoring)  # restoring: no alarm the mail is about to lift
        return viewer.name if viewer.plays else None
    return as_player or history.seat_played(game.hashes[0])


@app.command(
    "apply",
    help=_(
        "Add the lines your opponent mailed, after checking that they continue your copy of the game.\n"
        "\n"
        "Reads what `agility send` printed (the armoured block, or plain lines) in pasted text, a raw\n"
        "mail message as your mail program saves or pipes it (any encoding: base64, quoted-printable,\n"
        "any charset, format=flowed, HTML, attachments) or an mbox of several.  Mail quoting (>, > >),\n"
        "indentation, CRLF, blank lines and prose around the lines are ignored, and a line the mail\n"
        "program wrapped is joined again.  Lines already in the file are skipped; every\n"
        "other line must continue the file's last line and verify (hash chain, player, legality,\n"
        "digest), else nothing is written (exit 1).  The lines are appended under the file's lock and\n"
        "told in the replay's sentences, as you see them; then the board.  If FILE does not exist yet,\n"
        "the mail's header line (what `agility send` prints at the start of a game) creates it.\n"
        "In a sealed game a line whose keys open a card to no card of the set (a pass before it was\n"
        "false) is not applied: your tool writes an abort in its place, which publishes your seal\n"
        "secret so that every copy names the cheat, who forfeits; the game is over.\n"
        "\n"
        "Given a mailbox (a Maildir folder, an mbox file such as $MAIL, or an IMAP address), the\n"
        "messages of this game in it (by the block's game id, or a line that continues the file) that\n"
        "hold lines the file does not are applied, oldest first; other mail is ignored, and the mailbox\n"
        "is never changed.\n"
        "\n"
        "Example:  agility apply game.jsonl saved-mail.eml\n"
        "\n"
        "\b\n"
        "Also:\n"
        "  agility apply game.jsonl ~/Maildir\n"
        "  agility apply game.jsonl \"$MAIL\"\n"
        "  agility apply game.jsonl < mail.txt\n"
        "  pbpaste | agility apply game.jsonl -\n"
        "  agility apply game.jsonl '{\"kind\":\"done\",\"n\":7,...}'"
    ),
)
def apply_(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file (created from the mailed header line if it does not exist).")),
    lines: Optional[list[str]] = typer.Argument(None, metavar="[SOURCE | LINE...]", help=_("A mailbox (a Maildir folder, an mbox file, imaps://user@host/INBOX: the game's new mail in it is found and applied; a mail server's whole exchange has a deadline of AGILITY_MAIL_TIMEOUT seconds, default 60), a saved mail (its file, as your mail program saves it), or the mailed lines themselves; none or - reads standard input.")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print nothing on success.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=_(ACCEPT_HELP)),
) -> None:
    with boundary():

        if lines and len(lines) == 1 and not os.path.lexists(file) and box.kind_of(lines[0]) in MAILBOXES:
            from . import invite

            invite.apply_from_mailbox(file, lines[0])  # issue 52: a new game from the invitation found there
            return
        if lines and len(lines) == 1 and file.exists() and box.kind_of(lines[0]) in MAILBOXES:
            take_mailbox(file, lines[0], as_player, accept_rewrite, in_play=False, quiet=quiet)
            return
        incoming = mailfind.read_mail(read_input(lines))
        if not incoming.found and not incoming.damaged and lines and len(lines) == 1 and _looks_like_a_path(lines[0]):
            _no_game_line(lines[0], incoming)
        created = not file.exists() and _create_from_mail(file, incoming)
        if created and gamefile.pending_of(gamefile.read_bytes(file), str(file)) is not None:
            print(fit(_("created {file} from the mailed header line: a fair game, whose seed is drawn jointly").format(
                file=safe(str(file)))))
            say(_("next: `{join}` adds your key and your part of the seed").format(
                join=shell_command(['agility', 'join', str(file)])))
            return
        try:
            recipient = None if created else _recipient(file, as_player, accept_rewrite)
            report = mail.apply_lines(file, [], as_player=as_player, recipient=recipient, incoming=incoming)
            note_recipient(report, recipient)
        except BaseException:
            if created:
                file.unlink()  # nothing of the mail is kept when it does not verify
            raise
        if not quiet:
            _tell_applied(file, report, created, as_player)


#: The mail sources read as mailboxes: the game's messages are found in them (``record.mail.box``).
MAILBOXES = ("maildir", "mbox", "imaps")


def take_mailbox(file: Path, source: str, as_player: Optional[str], accept: bool, *, in_play: bool,
                 quiet: bool = False) -> str:
    """Apply the messages of the game in the mailbox ``source`` that hold lines the file does not
    (oldest first), tell them, and remember the source for the game (a bare ``play`` reads it
    again).  Returns the address of the newest message of the game ("" if none)."""
    rows = gamefile.read_bytes(file).split(b"\n")[:-1]  # a game in its handshake too (R40): no load
    hashes = [gamefile.line_hash(row) for row in rows]
    gid = keys.game_id(rows[0]) if rows else ""
    kind = box.kind_of(source)
    close = None
    if kind == "imaps":
        from ..record.mail import imap

        entries, read, close = imap.scan(source)
        remembered = str(imap.parse(source))
    else:
        kind, entries = box.scan(source)
        remembered = os.path.abspath(source)

        def read(entry: box.Entry) -> bytes:
            return box.read_message(source, kind, entry)
    try:
        found = box.of_game(entries, hashes[0][:8] if hashes else "", hashes, lambda e: box.label_of(source, kind, e))
        restoring = not accept and _restores(gid, hashes, found)
        recipient = _recipient(file, as_player, accept, restoring)
        reports = box.apply_found(file, source, kind, found, read, as_player=as_player, recipient=recipient,
                                  strict=not in_play)
    finally:
        if close is not None:
            close()
    if restoring:
        now = [gamefile.line_hash(row) for row in gamefile.read_bytes(file).split(b"\n")[:-1]]
        if history.check(gid, now) is None:
            say(_("agility: the lines gone from {file} came back from the mail (to line {line}): its history is whole "
                  "again (R41)").format(file=safe(str(file)), line=history.load(gid).tip[0]))
    for note in found.notes + found.lost:  # no mail stalls the game: what was passed over, said once
        err(_("agility: note: {note}").format(note=told(note)))
    history.remember_mail(gid, mailbox=remembered)
    for report in reports:
        note_recipient(report, recipient)
        if not quiet and (not in_play or report.applied or report.keys or report.own or report.handshake):
            _tell_applied(file, report, False, as_player, in_play=in_play)
    if not reports and not quiet:
        err(_("agility: no new mail of this game in {source}").format(source=safe(source)))
    return found.sender


def _restores(gid: str, hashes: list[str], found: box.Found) -> bool:
    """R41: the file is this machine's recorded history cut short — a backup put back, a sync tool's
    older copy: every line of this machine's it holds is the one recorded, the recorded last line
    is past its end — and a message of the mailbox holds that last line.  Applying the mail then
    restores the history (each line verified as always: the last line's hash reached again proves
    every line before it), so it is not refused as a rewrite; if the mail falls short of the last
    line, the alarm stands."""
    if not gid:
        return False
    record = history.load(gid)
    n, last = record.tip
    if not n or n <= len(hashes) or any(k <= len(hashes) and hashes[k - 1] != h for k, h in record.mine):
        return False
    return any(line.hash == last[:box.HASH_DIGITS] for entry in found.messages for line in entry.lines)


def note_recipient(report: mail.ApplyReport, recipient: Optional[str]) -> None:
    """R41 in an unsigned game (issue 50: a seat is its key there too): a mail applied fixes the
    seat this machine plays by mail (``history.learn_seat``) — the recipient when it is known (the
    seat played here, ``--as``, ``AGILITY_PLAYER``), else, for the first mail applied on a machine
    that has played no seat yet, the seat left by the mail's decisions (the first-move guard: with
    ``--first bob``, alice's machine receives bob's lines before alice has played on it), said on
    standard error so that a mail made in this machine's name is seen at once.  From then on a
    mailed decision of that seat is refused, and this machine decides for no other human seat."""
    game = report.game
    if game is None or game.trust.signed or not game.hashes or not report.applied:
        return
    names = list(game.header.players)
    if recipient is not None:
        if recipient in names and not session.is_bot(recipient):
            history.learn_seat(game.hashes[0], recipient)
        return
    deciders = {move.player for _line, move in report.applied}
    if len(deciders) != 1 or not deciders <= set(names):
        return
    theirs = next(iter(deciders))
    mine = names[1 - names.index(theirs)]
    if session.is_bot(mine):
        return
    history.learn_seat(game.hashes[0], mine)
    err(fit(_("agility: this machine plays {mine} in {file} from now on: the mail holds {theirs}'s decisions, which "
              "come by mail. If you are {theirs}, that mail decided in your name: do not go on with this copy.").format(
        mine=safe(mine), file=safe(game.path), theirs=safe(theirs))))


def _no_game_line(source: str, incoming: mailfind.Incoming) -> None:
    """Refuse (exit 2) a one-word argument of ``apply`` that gave no game line: a saved message
    that holds none (saying what the mail reader could not read, such as parts nested deeper than
    it reads), or a word that names no file (a mistyped path)."""
    if os.path.lexists(source):
        unread = incoming.unread()
        if unread:
            raise UsageError(_("{source} holds no game line (not read: {unread}): give the saved message your "
                               "opponent's lines came in, or paste the lines (`agility apply FILE -`)").format(
                source=safe(source, None), unread=told(unread)))
        raise UsageError(_("{source} holds no game line: give the saved message your opponent's lines came in, or "
                           "paste the lines (`agility apply FILE -`)").format(source=safe(source, None)))
    raise UsageError(_("{source} is no file or folder here, and holds no game line: give the path of the saved "
                       "message (or mailbox), or pipe the message in (`agility apply FILE -`)").format(
        source=safe(source, None)))


def _looks_like_a_path(text: str) -> bool:
    """Whether an argument of ``apply`` that names no file was meant as one (a mistyped saved
    message's path, say) rather than pasted text: one word, no ``{``."""
    return bool(text) and text != "-" and "{" not in text and not any(c.isspace() for c in text)


def read_input(lines: Optional[list[str]]) -> bytes:
    """What ``apply`` reads: a saved message (one argument naming an existing file: a raw message
    as a mail program saves it, an mbox, or a text file of pasted lines), the lines given as
    arguments, or standard input (``-`` or nothing), at most the size of a game file."""
    if lines and len(lines) == 1 and lines[0] != "-" and os.path.lexists(lines[0]):
        source = Path(lines[0])
        if source.is_dir():
            raise UsageError(_("{source} is a folder: give the saved message's file, or pipe the message in "
                               "(`agility apply FILE -`)").format(source=safe(str(source))))
        return gamefile.read_bytes(source, what="mail message", limit=MAX_FILE_BYTES)
    if lines and lines != ["-"]:
        return "\n".join(t for t in lines if t != "-").encode()
    if sys.stdin.isatty():
        err(_("agility: paste the mailed lines (or the block), then press Ctrl-D"))
    received = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(received) > MAX_FILE_BYTES:
        raise UsageError(_("the input is more than {n} MiB: not a mail of game lines").format(n=MAX_FILE_BYTES >> 20))
    return received


def _tell_applied(file: Path, report: mail.ApplyReport, created: bool, as_player: str | None,
                  *, in_play: bool = False) -> None:
    """What ``apply`` did: the handshake lines, what was skipped or re-encoded, the story, the board.
    ``in_play`` (``play --mail``): no story and no board, which the play screen tells next, and the
    tool's own lines go in the reply that ``play`` prints at its end."""
    assert report.game is not None
    note_components(report.game)
    for note in report.notes:
        err(_("agility: note: {note}").format(note=told(note)))
    if created:
        print(_("created {file} from the mailed header line").format(file=safe(str(file))))
    if report.handshake:  # R40: the join (and the reveal that followed it) of the seed handshake
        from ..record.lines import line_kind

        kinds = _(" and ").join(told(line_kind(kind)) for kind in report.handshake)  # the players' words
        if "reveal" in report.handshake:
            print(fit(_("added the seed handshake's {lines} lines: the game has started").format(
                lines=kinds) if len(report.handshake) > 1 else
                _("added the seed handshake's {lines} line: the game has started").format(lines=kinds)))
        else:
            print(fit(ngettext("added the seed handshake's {lines} line", "added the seed handshake's {lines} lines",
                               len(report.handshake)).format(lines=kinds)))
        if report.reveal is not None and in_play:  # R40: play --mail sends the reveal in its reply
            print(fit(_("your reveal is the game's line 3: it goes in the reply below")))
        elif report.reveal is not None:  # R40: the creator's reveal, to send (the block, on a terminal)
            text, block = handshake_text(file, report.reveal, as_player, False)
            print(fit((_("your reveal is the game's line 3: send it to the other player with `{send}` (or the block "
                         "below):") if block else
                       _("your reveal is the game's line 3: send it to the other player with `{send}` (or the line "
                         "below):")).format(send=shell('agility', 'send', str(file)))))
            sys.stdout.write(text)
    if report.already and report.applied:
        print(_("skipped {n} line(s) already in the file (lines {first}–{last})").format(
            n=len(report.already), first=report.already[0] + 1, last=report.already[-1] + 1))
    if report.normalised:
        print(_("re-encoded line(s) {lines} as agility writes them (spacing changed in the mail)").format(
            lines=", ".join(str(n + 1) for n in report.normalised)))
    if report.ignored and not report.from_block:
        shown = "".join(f"\n  {safe(line, 72)}" for line in report.ignored[:8])
        more = ("\n  " + _("… and {n} more").format(n=len(report.ignored) - 8)) if len(report.ignored) > 8 else ""
        err(_("agility: ignored {n} line(s) of text that are not game lines:").format(n=len(report.ignored))
            + shown + more)
    viewer = view_for(report.game, as_player)
    taken = len(report.applied) + len(report.keys)
    if taken:
        keys = _(" ({n} of them keys of the sealed deck)").format(n=len(report.keys)) if report.keys and \
            report.applied else (_(" (keys of the sealed deck)") if report.keys else "")
        print(ngettext("applied {n} line to {file}{keys}", "applied {n} lines to {file}{keys}", taken).format(
            n=taken, file=safe(str(file)), keys=keys) + (_(":") if report.steps and not in_play else ""))
        if not in_play:
            tell([session.Step(*step) for step in report.steps], viewer)
    elif not created and not report.handshake:
        print(_("nothing new: {file} already holds every mailed line").format(file=safe(str(file))))
    if report.own:  # R44: this machine's tool answered at once
        what = "; ".join(_("line {n}: {text}").format(n=n + 1, text=safe(told(text))) for n, text in report.own)
        if in_play:
            said = ngettext("your tool added {what} — the reply below holds it",
                            "your tool added {what} — the reply below holds them", len(report.own))
        else:
            said = ngettext("your tool added {what} — send it with:", "your tool added {what} — send them with:",
                            len(report.own))
        print(fit(said.format(what=what)))
        if not in_play:
            print(f"  {shell('agility', 'send', str(file))}")  # its own line, to copy whole
    if not in_play:
        # the board after this tool's own lines too: an abort's verdict is theirs (R42)
        show_game(str(file), gamefile.load(file) if report.own else report.game, viewer, now=True)


@app.command(
    help=_(
        "Print what to mail your opponent: every line since their last decision, at every stage.\n"
        "\n"
        "The header alone before they join, the join line, the reveal, then your decisions.  A short\n"
        "summary of your turn for the person reading the mail, then a block of plain ASCII in lines of\n"
        "at most 76 characters that checks itself, so no mail program or terminal can damage it\n"
        "unseen: a block cut short or changed is refused by `agility apply`, saying so.  They pipe or\n"
        "paste the whole mail into `agility apply FILE -` (which creates their copy the first time).\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility send game.jsonl | mail -s \"agility: my turn\" bob@example.org\n"
        "  agility send game.jsonl --raw        # the JSON lines themselves"
    ),
)
def send(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP) + " " + _("Unsigned: the player who is not to act now.")),
    raw: bool = typer.Option(False, "--raw", help=_("Print the plain lines as the file holds them (for an opponent on an older agility).")),
) -> None:
    with boundary():
        try:
            out = mailing.outgoing(file, as_player)
        except session.ViewerError as exc:
            raise UsageError(message_of(exc)) from None
        if session.is_bot(out.recipient):
            err(_("agility: {name} is a bot seat of this game: nothing to mail").format(name=out.recipient))
            return
        if not out.rows:
            err(_("agility: nothing new for {name}: the file's last line is theirs").format(name=out.recipient))
            return
        sys.stdout.write(out.text(raw))
        sys.stdout.flush()
        # R42: what the opponent may have now (a sealed game's audit keys are "not sent" until then)
        try:
            gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
            history.remember_mail(gid, printed=out.last)
        except (keys.KeyStoreError, UsageError, OSError):
            pass  # this machine's record only: the lines are printed either way
        try:  # R41: a rewritten history is said here as by every other command
            history_notice(gamefile.load(file))
        except gamefile.HandshakePending:
            pass
        say(ngettext("agility: mail this line to {name}; they run `{apply}` on the mail",
                     "agility: mail these {n} lines to {name}; they run `{apply}` on the mail", len(out.rows)).format(
            n=len(out.rows), name=out.recipient, apply=shell('agility', 'apply', file.name, '-')))
