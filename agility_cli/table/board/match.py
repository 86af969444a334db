"""One game of ``agility play`` as the full-screen board drives it, without Textual.

The same session as the line mode (``playloop.play_loop``): the decisions are written by
``playloop.record_choice`` (at once, under the file's lock, with the bot's and the forced ones that
follow), a bot's turn by ``session.automatic``, ``undo`` by ``playloop.undo_lines``, and what the
player reads by the same narration (``screen.news_lines``).  What the board adds is only which of
those comes next (:meth:`Match.moment`) and the words it leaves on the terminal once it closes
(:attr:`Match.closing`): the same as the line mode's last words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ...engine import rules
from ...engine.components import tile_name
from ...engine.moves import Move, Play
from ...engine.notation import Refused
from ...engine.state import State
from ...engine.view import seat_view
from ...i18n import _, name
from ...said import tell as tell_said
from ...record.gamefile import Game
from .. import choices, playloop, screenfit, session
from ..render import card_text, text_of, why_won
from ..screen import news_lines
from ..session import Step, Viewer

#: What the board does next: the viewer decides, a bot thinks, the game is over, the other person
#: must act (the board closes and says what to send), a sealed game waits for a player's keys.
DECIDE, BOT, OVER, OTHER, KEYS = "decide", "bot", "over", "other", "keys"


class Match:
    """The game, the viewer, and what happened since the viewer's last decision."""

    def __init__(self, file: Path, game: Game, viewer: Viewer, accept_rewrite: bool = False,
                 news: Optional[list[Step]] = None, heading: Optional[str] = None, by: Optional[str] = None):
        self.file, self.game, self.viewer = file, game, viewer
        self.accept_rewrite, self.by = accept_rewrite, by
        self.steps: list[Step] = list(news or [])
        self.told: list[str] = [heading] if heading and self.steps else []
        self.played: Optional[screenfit.Played] = None
        self.rows: list[choices.Row] = []
        self.closing = ""  # the words left on the terminal once the board closes
        self.looked = False  # the file was read for the opponent's last card
        self.distance: Any = None  # ``--wait`` by mail or git: the board's wait (waiting.Distance)

    @property
    def path(self) -> str:
        return str(self.file)

    @property
    def view(self) -> State:
        """The position as the viewer may see it (R39)."""
        return seat_view(self.game.state, self.viewer.view_seat)

    @property
    def verdict(self) -> Optional[tuple[Optional[str], str]]:
        return session.verdict_of(self.game)  # R42: a forfeit or an audit pending

    def moment(self) -> str:
        """What comes next (:data:`DECIDE`, :data:`BOT`, :data:`OVER`, :data:`OTHER`, :data:`KEYS`)."""
        s = self.game.state
        verdict = self.verdict
        if s.winner is not None or (verdict is not None and verdict[0] is not None):
            return OVER
        if session.awaited_text(self.game) is not None:
            return KEYS
        assert s.to_act is not None
        if s.to_act == self.viewer.seat:
            return DECIDE
        return BOT if session.is_bot(s.players[s.to_act].name) else OTHER

    def thinker(self) -> str:
        s = self.game.state
        return s.players[s.to_act].name if s.to_act is not None else ""

    def bot_turn(self) -> None:
        """The bot's decisions (and the forced ones), written at once, until a person must act."""
        out = session.append(self.file, lambda g: session.automatic(g, None))
        self.steps += out.steps
        self.game = out.game

    def begin(self) -> None:
        """The viewer's decision begins: its choices, and the opponent's last card."""
        self.see_last_card()
        if self.played is None and self.viewer.plays and not self.looked and not any(
                isinstance(st.move, Play) for st in self.steps):
            self.looked = True
            self.played = playloop._last_played_in_file(self.file, self.viewer.seat)  # resumed after their card
        self.rows = choices.menu(self.game.state)

    def see_last_card(self) -> None:
        """The opponent's last card among the steps since the viewer's last decision (at a
        decision, and at the end: the card that ended the game, not one of the turn before)."""
        seat = self.viewer.seat if self.viewer.plays else None
        self.played = screenfit.last_played(self.steps, seat, self.played)

    def choose(self, move: Move) -> Optional[str]:
        """Write ``move``; a refusal's words (the game read again), or None."""
        try:
            out = playloop.record_choice(self.file, self.game, move, self.accept_rewrite)
        except Refused as exc:
            if exc.code == "history/rewritten":
                raise  # exit 1 with the warning, as the line mode does
            self.game, self.steps, self.told = session.since_last(self.file).game, [], []
            return _("refused: {reason}").format(reason=tell_said(exc.message))
        session.remember(out.game, [st.move for st in out.steps])
        self.game, self.steps, self.told = out.game, out.steps, []
        if self.distance is not None:
            self.distance.unsent = True  # sent once the other player must act (waiting.takes_over)
        return None

    def undo(self) -> Optional[str]:
        """``undo``, as ``agility undo``: the refusal's words, or None (what was undone is told)."""
        try:
            undone = playloop.undo_lines(self.file, self.viewer)
        except Refused as exc:
            return _("refused: {reason}").format(reason=tell_said(exc.message))
        self.game, self.steps, self.told = undone.game, [], undone.told
        return None

    # ------------------------------------------------------------------------------------------
    # What the player reads

    def last_card(self, short: bool = False) -> str:
        """``bot:strong played t18 [4] 2 red | 1 black → Distraction (turn 14)`` — the opponent's
        last card and the tile it reached (``short``: ``bot:strong t18[4]→Distraction``)."""
        p = self.played
        if p is None or not self.viewer.plays:
            return ""
        s = self.game.state
        who = s.players[1 - self.viewer.seat].name
        tile = name("tile", tile_name(p.tile)) if p.tile is not None else ""
        if p.card not in s.cat.cards:
            if short:
                return _("{name} a card face down").format(name=who)
            return _("{name} played a card face down (turn {turn})").format(name=who, turn=p.turn)
        if short:
            return f"{who} {p.card}[{s.cat.cards[p.card].number}]→{tile}"
        return _("{name} played {card} → {tile} (turn {turn})").format(
            name=who, card=text_of(card_text(s, p.card)), tile=tile, turn=p.turn)

    def story(self) -> list[str]:
        """What happened since the viewer's last decision: the opponent's card and tile first, then
        the told lines (a heading, an undo) and the narration, the latest last."""
        head = self.last_card()
        return [*([head] if head else []), *self.told, *news_lines(self.steps, self.viewer)]

    def result(self) -> str:
        """``The game is over: alice wins (…).`` — said once, as the board closes."""
        s = self.game.state
        verdict = self.verdict
        winner = verdict[0] if verdict is not None and verdict[0] is not None else s.players[s.winner or 0].name
        why = verdict[1] if verdict is not None else why_won(s)
        return _("The game is over: ") + _("{name} wins").format(name=winner) + _(" ({text}).").format(text=why)

    def close(self, moment: str) -> None:
        """The words the board leaves on the terminal at ``moment`` (the line mode's last words)."""
        again = playloop.again_command(self.path, self.viewer, self.by)
        if moment == OVER:  # within 80 columns at its words (a verdict's reason is long)
            self.closing = "\n".join(playloop.result_rows(self.result(), 80)) + "\n"
        elif moment == KEYS:
            self.closing = f"{tell_said(session.awaited_text(self.game))}\n" + _("Go on with {command} once they are in.").format(command=again) + "\n"
        elif moment == OTHER:
            self.closing = playloop.handover(self.path, self.game.state, self.viewer, self.by)
        else:
            self.closing = _("The game is saved. Go on with: {command}").format(command=again) + "\n"

    def awaited(self) -> str:
        s = self.game.state
        return rules.awaited(s) if s.to_act is not None else ""


def board_refused(plain: bool) -> Optional[str]:
    """Why ``play`` stays in the line mode, or None for the board: ``--plain`` (a screen reader),
    ``TERM=dumb``, standard input or output not a terminal (a pipe: byte for byte the line mode), or
    a terminal smaller than 80×24 (then said in one line: the returned words)."""
    import os
    import shutil
    import sys

    if plain or os.environ.get("TERM") == "dumb" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return ""
    size = shutil.get_terminal_size()
    if size.columns < 80 or size.lines < 24:
        return (f"agility: the board needs a terminal of 80×24 at least (this one is {size.columns}×{size.lines}): "
                "playing line by line")
    return None
