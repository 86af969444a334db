"""What a player mails: the lines new to the opponent, with a readable summary and a block that
survives any mail program (``agility send``, ``agility play --mail``).

The lines are every line after the opponent's last line (from the header on, when the opponent has
made none yet), at every stage: the header alone before the join, the join line, the reveal (R40),
then the decisions.  The block (:mod:`record.mail.armour`) is plain ASCII in lines of at most 76
characters and checks itself; the summary above it tells the turn as the *recipient* sees it
as the public sees it (R39: nothing of either player's hidden cards), for the person reading the
mail.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from ..record.mail import armour
from ..record import gamefile, keys
from ..record.gamefile import line_hash
from ..engine.moves import Header
from ..engine.view import PUBLIC
from ..i18n import _
from ..text import safe, shell_command
from . import session
from .session import ViewerError, is_bot

WIDTH = 72  # the summary's lines; the block's are at most 76


@dataclass
class Outgoing:
    """The lines ``sender`` sends ``recipient``: rows of the file from line ``first`` on."""

    sender: str
    recipient: str
    rows: list[bytes]
    first: int  # line number of rows[0]
    game_id: str  # short id for the block's markers
    summary: list[str]

    @property
    def last(self) -> int:
        """The line number of the last row."""
        return self.first + len(self.rows) - 1

    def block(self) -> str:
        """The armoured block of the rows."""
        return armour.armour(self.rows, game=self.game_id, first=self.first, last=self.last)

    def text(self, raw: bool = False) -> str:
        """What to mail: the summary and the block, or (``raw``) the plain lines as the file holds them."""
        if raw:
            return "".join(row.decode() + "\n" for row in self.rows)
        return "\n".join(self.summary) + "\n\n" + self.block()


def _sender(data: bytes, path: str, names: list[str], as_player: str | None, signed: bool,
            waiting: str | None) -> str:
    """Who sends: the seat whose key is held here (a signed game, R39), else ``--as``, else the
    player who is not to act now (an unsigned game by mail)."""
    if signed:
        held = [n for n in keys.held_seats(data) if n in names]
        if as_player is not None:
            if as_player not in held and len(held) > 0 and not any(is_bot(n) for n in names):
                raise ViewerError(_("--as {name}: this machine holds no key of {name}'s seat in this game").format(
                    name=as_player))
            return as_player
        if len(held) == 1:
            return held[0]
        if len(held) == 2:
            raise ViewerError(_("this machine holds the keys of both seats of this game: say who sends with --as NAME"))
        raise ViewerError(_("this machine holds no key of this game: only a player sends its lines"))
    if as_player is not None:
        return as_player
    assert waiting is not None
    return names[1] if waiting == names[0] else names[0]


def outgoing(path: str | Path, as_player: str | None = None) -> Outgoing:
    """What to mail now (the creator's reveal, when due, is made first: R40)."""
    name = str(path)
    data = gamefile.read_revealed(path)
    header_raw = data.split(b"\n", 1)[0]
    header = gamefile.decode_line(header_raw, name, 1)
    assert isinstance(header, Header)
    names = list(header.players)
    trust = gamefile.trust_of(data, name)
    news: session.News | None = None
    waiting: str | None = None
    if gamefile.pending_of(data, name) is None:
        news = session.since_last(path)
        s = news.game.state
        waiting = names[s.to_act if s.to_act is not None else s.active] if s.winner is None else names[1 - s.active]
    sender = _sender(data, name, names, as_player, trust.signed, waiting)
    if sender not in names:
        raise ViewerError(_("{name} does not play in this game; the players are {a} and {b}").format(
            name=repr(sender), a=names[0], b=names[1]))
    recipient = names[1] if sender == names[0] else names[0]
    rows = data.split(b"\n")[:-1]
    deciders = [""] + session.decision_players(data)
    theirs = [i for i, p in enumerate(deciders) if p == recipient]
    first = theirs[-1] + 1 if theirs else 0
    out = Outgoing(sender, recipient, rows[first:], first + 1, line_hash(header_raw)[:8], [])
    out.summary = _summary(out, path, names, news)
    return out


def _summary(out: Outgoing, path: str | Path, names: list[str], news: session.News | None) -> list[str]:
    """The summary's lines: who sends what, the turn as the recipient sees it, how to apply it."""
    last = out.last
    if last == out.first:
        head = [_("{sender} to {recipient}: Agility, {a} vs {b} — line {first} of the game.").format(
            sender=out.sender, recipient=out.recipient, a=names[0], b=names[1], first=out.first)]
    else:
        head = [_("{sender} to {recipient}: Agility, {a} vs {b} — lines {first}–{last} of the game.").format(
            sender=out.sender, recipient=out.recipient, a=names[0], b=names[1], first=out.first, last=last)]
    story: list[str] = []
    if news is not None:
        # Told as the public sees it: the mail is read by the recipient and printed on the sender's
        # machine, so it holds neither player's hidden cards (R39).
        steps = [st for st in news.since(out.recipient) if st.line >= out.first]
        story = session.narration(steps, PUBLIC)
    elif out.first == 1 and len(out.rows) == 1:
        story = [_("{sender} invites you to a fair game: nobody chooses the seed, every line is signed.").format(
            sender=out.sender)]
    else:
        story = [_("The seed handshake: the game starts once both secrets are in the file.")]
    apply = shell_command(["agility", "apply", Path(path).name, "-"])
    tail = [_("To add these lines to your copy, pipe or paste this whole mail into `{apply}`.").format(apply=apply)]
    if out.first == 1 and len(out.rows) == 1 and news is None:
        join = shell_command(["agility", "join", Path(path).name])
        tail.append(_("Then `{join}` adds your key and your part of the seed.").format(join=join))
    return summary_lines([*head, *story, *tail])


def summary_lines(paragraphs: list[str]) -> list[str]:
    """Paragraphs for the reader, each wrapped at :data:`WIDTH` (continued under an indent), made safe."""
    lines: list[str] = []
    for paragraph in paragraphs:
        if not paragraph.isascii():  # wide (CJK) characters: WIDTH terminal cells, as a mail reader shows them
            from .prose import wrap_cells

            lines += [line for part in safe(paragraph).split("\n") for line in wrap_cells(part, WIDTH, 8)]
            continue
        lines += textwrap.wrap(safe(paragraph), WIDTH, subsequent_indent="        ", break_long_words=True,
                               break_on_hyphens=False) or [""]
    return lines
