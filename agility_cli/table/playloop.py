"""``agility play``: the interactive decision loop, reading one choice a line, its help and hints.

Each decision is one screen that fits the terminal (``screenfit.decision_screen``): what happened
since the player's last decision, the parts of the board that bear on it, the numbered choices and
one line on what to type.  The whole board is one word away (``board``).  The words: a row's number
and its options (``3``, ``3 red``, ``5 red blue``), the words of ``agility move`` (``play 3 red``),
``help``, ``hint`` (which names the row to type), ``board``, ``news`` (what happened, in full),
``more`` (the next page of a long menu), ``undo`` (as ``agility undo``) and ``quit``.  A text taller
than the terminal (``board``, ``news``, ``help``, the end of the game) is paged (``screen.more``);
the end of the game is the story, the final board, then who won and how on its last line.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from ..engine import rules
from ..i18n import N_, _, ngettext, name as i18n_name
from ..said import message_of, said, tell as tell_said
from .layout import cell_len
from .prose import wrap_cells, wrap_prose
from .render import awaited
from ..engine.moves import Adopt, Done, Move, Play
from ..engine.notation import Refused, UsageError
from ..engine.state import State
from ..engine.view import seat_view
from ..record.gamefile import Game
from ..text import safe, safe_message
from . import choices, guide, screenfit, session
from .choices import MAX_TYPED_LINE, MoreNeeded, Row
from .render import features_text, text_of
from .render import why_won
from .screen import board_view, more, news_lines, plain_lines, print_lines, shell, story_lines, terminal_size, wrap80
from .session import Step, Viewer

#: What may be typed at the prompt, after a refusal (the help line under the menu says more).
PLAY_WORDS = N_("a row's number (3, 3 red), a move's words (play 3 red), help or quit")


def say(text: str) -> None:
    """A message at the prompt, made safe: what follows a dash on a line of its own, indented; on a
    terminal each line is wrapped at its words within the terminal's width (issue 51), to a pipe
    left whole (to read and to search)."""
    first, *rest = safe_message(text).split(" — ")
    lines = [f"  {first}", *(f"    {part}" for part in rest)]
    if sys.stdout.isatty():
        width = terminal_size()[0]
        lines = [row for line in lines for row in (
            wrap_cells(line, width, len(line) - len(line.lstrip()) + 2) if cell_len(line) != len(line) else  # CJK: in cells
            textwrap.wrap(line, width, subsequent_indent=" " * (len(line) - len(line.lstrip()) + 2), break_on_hyphens=False))]
    print("\n".join(lines))


def _then(prose: str, command: str) -> str:
    """What to do next: the prose within 80 columns, then the command to copy on its own line, whole
    (it may be wider than the terminal)."""
    return wrap80(prose) + f"  {command}\n"


def again_command(path: str, viewer: Viewer, by: Optional[str] = None) -> str:
    """The command that goes on with the game: ``agility play FILE`` (``--as``, ``--git`` kept)."""
    as_ = ["--as", viewer.name] if viewer.reason == "--as" else []
    return shell("agility", "play", path, *as_, *(["--git"] if by == "git" else []))


def handover(path: str, s: State, viewer: Viewer, by: Optional[str]) -> str:
    """Where ``play`` stops because the other person must act: who and what, then how the lines
    travel (``by``: git, a mailbox, a mail, or by hand) and the command that goes on."""
    assert s.to_act is not None
    who = s.players[s.to_act].name
    as_ = ["--as", viewer.name] if viewer.reason == "--as" else []
    again = again_command(path, viewer, by)
    out = wrap80(_("{name} must act now ({what}).").format(name=who, what=awaited(s, mini=True)))
    if by == "git":  # play --git commits and pushes once the loop ends
        return out + _then(_("Once {name} has pushed, go on with:").format(name=who), again)  # the push is said below
    if by == "mailbox":  # play --mail MAILBOX sends the reply once the loop ends; the box is remembered
        return out + _then(_("Your reply to {name} follows; when theirs comes, this reads your mailbox again (or add "
                             "--wait):").format(name=who), shell('agility', 'play', path, *as_))
    if by == "mail":  # play --mail prints the reply once the loop ends
        return out + _then(_("Mail {name} the reply below; when theirs comes, save it and go on with:").format(name=who),
                           f"{shell('agility', 'play', path, *as_, '--mail')} MESSAGE")
    return (out + _("Send {name} your new lines:").format(name=who) + f"\n  {shell('agility', 'send', path, *as_)}\n"
            + _("When their reply comes:") + f"\n  {shell('agility', 'apply', path, '-')}\n  {again}\n")


class _Quit:
    """``quit`` typed in a second step."""


QUIT = _Quit()


class _Undone:
    """What :meth:`_Decision.read` returns after ``undo`` took lines back."""

    def __init__(self, game: Game, told: list[str]):
        self.game = game
        self.told = told


def play_loop(file: Path, game: Game, viewer: Viewer, accept_rewrite: bool = False,
              news: Optional[list[Step]] = None, heading: Optional[str] = None, by: Optional[str] = None) -> None:
    """Play ``game`` from ``viewer``'s seat until the game ends, the other person must act, or the
    player quits; ``news`` are the steps made since the player's last decision, told first.
    ``by`` (``"git"``, ``"mail"``): how ``play`` sends the lines when the loop ends, which is what
    its last words tell the player to do next."""
    path = str(file)
    again = again_command(path, viewer, by)
    steps = list(news or [])
    told: list[str] = [heading] if heading and steps else []
    played: Optional[screenfit.Played] = None  # the card the opponent played last, for the screen
    while True:
        s = game.state
        verdict = session.verdict_of(game)  # R42: a forfeit (an abort, a failed audit) or an audit pending
        if s.winner is not None or (verdict is not None and verdict[0] is not None):
            game_over(path, game, viewer, steps, verdict)
            return
        waiting = session.awaited_text(game)
        if waiting is not None:  # R44: a sealed game paused for a player's keys
            # Where play stops for the other player the text is printed whole (not paged): its last
            # lines, on the screen, say what to do next.
            print_lines([*plain_lines(story_lines(steps, viewer)), *board_view(path, s, viewer, hints=[tell_said(waiting)])])
            print(_("Go on with {command} once they are in.").format(command=again))
            return
        assert s.to_act is not None
        who = s.players[s.to_act].name
        if s.to_act != viewer.seat:
            if session.is_bot(who):
                out = session.append(file, lambda g: session.automatic(g, None))
                steps += out.steps
                game = out.game
                continue
            print_lines([*plain_lines(story_lines(steps, viewer)), *board_view(path, s, viewer, hints=[])])
            sys.stdout.write(handover(path, s, viewer, by))
            return
        played = screenfit.last_played(steps, viewer.seat if viewer.plays else None, played)
        if played is None and viewer.plays and not any(isinstance(st.move, Play) for st in steps):
            played = _last_played_in_file(file, viewer.seat)  # resumed after the opponent's card
        decision = _Decision(file, game, viewer, steps, told, played=played)
        choice = decision.read()
        if choice is None:
            print(_("The game is saved. Go on with: {command}").format(command=again))
            return
        if isinstance(choice, _Undone):
            game, steps, told = choice.game, [], choice.told
            continue
        try:
            out = record_choice(file, game, choice, accept_rewrite)
        except Refused as exc:
            if exc.code == "history/rewritten":
                raise  # exit 1 with the warning, as `move` does; nothing is committed, pushed or mailed
            say(_("refused: {reason}").format(reason=tell_said(exc.message)))
            game, steps, told = session.since_last(file).game, [], []
            continue
        except UsageError as exc:  # pragma: no cover - the choice was parsed on this very state
            print(safe_message(f"{exc}"))
            continue
        session.remember(out.game, [st.move for st in out.steps])
        game, steps, told = out.game, out.steps, []


def record_choice(file: Path, game: Game, choice: Move, accept_rewrite: bool = False) -> session.Outcome:
    """Write the player's ``choice`` (made on ``game``) and the decisions that follow it without a
    person (a bot's, a forced one), at once, under the file's lock; refused (``play/stale``) when the
    file changed meanwhile, or when its history was rewritten (R41)."""
    tip = game.tip

    def decide(g: Game) -> list[Move]:
        if g.tip != tip:
            raise Refused(said(N_("the game file changed while you were choosing; here it is again")), [], None,
                          "play/stale")
        session.check_history(g, accept=accept_rewrite)
        return [choice, *session.automatic(g, choice)]

    return session.append(file, decide)


def undo_lines(file: Path, viewer: Viewer) -> _Undone:
    """``undo``: as ``agility undo`` (the viewer's own lines of this turn, nothing revealed since);
    :class:`Refused` when there is nothing it may take back."""
    from ..record import repair

    report = repair.undo(file, actor=viewer.name)
    session.remember(report.game, accept=True)  # this machine's own change: never an alarm
    n = len(report.removed)
    told = [ngettext("Undone: {n} line taken back", "Undone: {n} lines taken back", n).format(n=n)]
    for (line, raw, m), (before, after) in zip(report.removed, report.states):
        told.append(f"{line:>4}. {session.sentence(Step(line, raw, m, before, after), viewer.view_seat)}")
    return _Undone(report.game, told)


def game_over(path: str, game: Game, viewer: Viewer, steps: list[Step],
              verdict: Optional[tuple[Optional[str], str]] = None) -> None:
    """The end of ``agility play``: what happened last, the final board (every card shown: the game
    is over), then who won and how, in the last lines — paged on a terminal too short for it all, so
    the result is on the last screen, and said even when the reader stops the paging (issue 32).
    ``verdict``: a sealed game's (R42, ``session.verdict_of``), whose winner and reason it gives."""
    s = game.state
    final = session.resolve_viewer(game, viewer.name if viewer.plays else None)
    winner = verdict[0] if verdict is not None and verdict[0] is not None else s.players[s.winner or 0].name
    why = verdict[1] if verdict is not None else why_won(s)
    story = story_lines(steps, final)
    # the result within the terminal's width (80 when unknown): a long reason goes on, indented
    over, wins = _("The game is over: "), _("{name} wins").format(name=winner)
    head = over + wins
    whole = head + _(" ({text}).").format(text=why)
    rows = result_rows(whole, max(terminal_size()[0], 40))
    if not rows[0].startswith(head):  # a name too long to wrap after: the line as it is
        rows = [whole]
    more([*plain_lines(story), *([[]] if story else []), *board_view(path, s, final, hints=[], verdict=verdict)],
         after=len(rows) + 1)  # the result, then the shell's prompt
    print_lines([[(over, "bold"), (wins, "bold green"), (rows[0][len(head):], "")],
                 *[[(row, "")] for row in rows[1:]]])


def result_rows(text: str, width: int) -> list[str]:
    """The game's result within ``width`` terminal cells, broken at its words, a long reason going
    on indented by two (the line mode's last lines, the board's closing words)."""
    import textwrap

    return wrap_cells(text, width, 2) if cell_len(text) != len(text) else textwrap.wrap(
        text, width, subsequent_indent="  ", break_on_hyphens=False)


def _last_played_in_file(file: Path, seat: int) -> Optional[screenfit.Played]:
    """The card the opponent of ``seat`` played last, from the file (``None`` when it played none):
    the decision screen shows it even when it came before the player's last decision."""
    from ..record import gamefile

    data = gamefile.read_revealed(file)
    if b'"kind":"play"' not in data:  # no card played yet: no need to verify
        return None
    before: Optional[State] = None
    found: list[Step] = []
    for item in gamefile.verify(data, str(file)):
        if isinstance(item, gamefile.Start):
            before = item.state.copy()
            continue
        after = item.after.copy()  # the verifier goes on in the same state
        if isinstance(item.move, Play) and before is not None and item.move.player != before.players[seat].name:
            found = [Step(item.line, item.raw, item.move, before, after)]
        before = after
    return screenfit.last_played(found, seat)


@dataclass
class _Decision:
    """One decision of the player: its screen, and the lines typed until one names a decision."""

    file: Path
    game: Game
    viewer: Viewer
    steps: list[Step]
    told: list[str] = field(default_factory=list)  # lines told before the steps (a heading, an undo)
    page: int = 0
    played: Optional[screenfit.Played] = None  # the card the opponent played last (on every screen)

    def __post_init__(self) -> None:
        self.rows = choices.menu(self.game.state)
        self.pages = 1

    @property
    def news(self) -> list[str]:
        return [*self.told, *news_lines(self.steps, self.viewer)]

    def show(self, news: bool = True, title: Optional[str] = None, rows: Optional[list[Row]] = None,
             typing: Optional[str] = None) -> None:
        """The decision screen (``news``: with what happened; ``title``, ``rows`` and ``typing``: a
        second step)."""
        s = self.game.state
        width, height = terminal_size()
        note = None if self.viewer.label() == self.viewer.own_label() else self.viewer.label()
        view = seat_view(s, self.viewer.view_seat)
        screen = screenfit.decision_screen(view, self.rows if rows is None else rows, self.news if news else [],
                                           width, height, note=note, page=0 if rows else self.page, title=title,
                                           help_text=typing, example=choices.example(s, self.rows),
                                           played=self.played)
        if rows is None:
            self.pages = screen.pages
        print_lines(screen.lines)

    def read(self) -> Union[Move, _Undone, None]:
        """Read lines until one names a decision; ``None`` on quit or end of input."""
        self.show()
        s = self.game.state
        while True:
            text = _ask()
            if text is None or text.lower() in ("quit", "q", "exit"):
                return None
            word = text.lower()
            if not text:
                continue
            if word in ("help", "?", "h"):
                more(plain_lines(play_help(s, terminal_size()[0]).split("\n")))
            elif word == "hint":
                print_play_hint(self.game, self.rows, terminal_size()[0])
            elif word.split()[0] == "rules":  # `agility rules TOPIC` without leaving the game
                print_rules(text.split(None, 1)[1] if " " in text.strip() else "")
            elif word in ("board", "b", "show"):  # issue 32: paged when taller than the terminal
                span = f"1–{len(self.rows)}" if len(self.rows) > 1 else "1"
                more(board_view(str(self.file), s, self.viewer, hints=[]), after=2)
                print_lines([[("  " + _("type menu (your choices again), {span}, or help, hint, news, undo, quit").format(
                    span=span), "cyan")]])
            elif word in ("menu", "legal", "l"):
                self.show()
            elif word == "news":
                told = story_lines(self.steps, self.viewer, self.told[0] if self.told else None)
                more(plain_lines(told))
                if not self.steps:
                    say(_("nothing happened since your last decision"))
            elif word == "more":
                self.page = (self.page + 1) % max(self.pages, 1)
                self.show(news=False)
            elif word == "undo":
                undone = self._undo()
                if undone is not None:
                    return undone
            elif word == "done" and self._done_already():
                continue
            else:
                move = self._pick(text)
                if isinstance(move, _Quit):
                    return None
                if move is not None:
                    return move

    def _pick(self, text: str) -> Union[Move, _Quit, None]:
        s = self.game.state
        try:
            return choices.pick(s, self.rows, text)
        except MoreNeeded as exc:
            if exc.row.two_steps:
                return self._second_step(exc.row, exc.number)
            say(f"{exc}")
        except (UsageError, Refused) as exc:
            say(_("{refusal} — type {words}").format(refusal=tell_said(message_of(exc)), words=_(PLAY_WORDS)))
        return None

    def _second_step(self, row: Row, number: int) -> Union[Move, _Quit, None]:
        """Adopting a dog onto one of several free courses: the course, in a menu of its own
        (``back``: the first menu again, and ``None``)."""
        s = self.game.state
        sub = choices.course_rows(s, row)
        dog = s.cat.dogs[row.moves[0].dog] if isinstance(row.moves[0], Adopt) else None
        name = _("{dog} ({features})").format(dog=i18n_name("dog", dog.name), features=text_of(features_text(dog))) \
            if dog is not None else row.label
        span = f"1–{len(sub)}" if len(sub) > 1 else "1"
        self.show(news=False, title=_("{n}) adopt {dog} onto which course?").format(n=number, dog=name),
                  rows=sub, typing=_("type {span} (the course), or back (the other choices), or quit").format(span=span))
        while True:
            text = _ask()
            if text is None or text.lower() in ("quit", "q", "exit"):
                return QUIT
            if text.lower() in ("back", "0", "menu"):
                self.show(news=False)
                return None
            if not text:
                continue
            try:
                return choices.pick(s, sub, text)
            except (UsageError, Refused) as exc:
                words = f"1–{len(sub)}" if len(sub) > 1 else "1"
                say(_("{refusal} — type {span} (a course), or back").format(refusal=tell_said(message_of(exc)), span=words))

    def _undo(self) -> Optional[_Undone]:
        """``undo``: as ``agility undo`` (the viewer's own lines of this turn, nothing revealed since)."""
        try:
            return undo_lines(self.file, self.viewer)
        except Refused as exc:
            say(_("refused: {reason}").format(reason=tell_said(exc.message)))
            return None

    def _done_already(self) -> bool:
        """``done`` once the dog step is over (``done`` recorded, maybe for you): a note, not a refusal."""
        s = self.game.state
        if any(isinstance(m, Done) for m in rules.legal_moves(s)) or s.active != self.viewer.seat:
            return False
        mine = [st for st in self.steps if isinstance(st.move, Done) and st.move.player == self.viewer.name
                and st.before.turn == s.turn]
        if mine:
            forced = len(rules.legal_moves(mine[-1].before)) == 1
            why = _("said done for you: the only choice") if forced else _("you said done")
            say(_("note: the dog step is over (line {line} {why}) — now: {what}").format(
                line=mine[-1].line, why=why, what=awaited(s, mini=True)))
            return True
        if s.phase == "refill" or s.in_mini:
            say(_("note: the dog step of this turn is over — now: {what}").format(what=awaited(s, mini=True)))
            return True
        return False


def print_rules(topic: str) -> None:
    """``rules TOPIC`` inside ``agility play``: the topic (the overview without one), paged, or
    why no topic has that name."""
    try:
        found = guide.find(topic) if topic else guide.topics()[0]
    except guide.TopicError as exc:
        say(f"{exc}")
        return
    more(plain_lines(guide.topic_plain(found, max(min(terminal_size()[0], 100), 40)).split("\n")))


def _ask() -> Optional[str]:
    """The next line typed at the prompt, stripped (``None`` at the end of input); a line that is
    not UTF-8 is said so and asked again."""
    while True:
        try:
            line = _read_line("> ")
        except UsageError as exc:
            say(_("{refusal} — type {words}").format(refusal=exc, words=_(PLAY_WORDS)))
            continue
        return None if line is None else line.strip()


def _read_line(prompt: str) -> Optional[str]:
    """One line from standard input (None at its end); with line editing on a terminal.

    The input is someone's typing or a pipe: a line must be UTF-8 text (else :class:`UsageError`),
    and of a line longer than ``choices.MAX_TYPED_LINE`` characters only enough is kept for
    ``choices.pick`` to refuse it (the rest is read and dropped), so memory and time stay bounded.
    """

    not_utf8 = UsageError("that line is not UTF-8 text; type it again")
    if sys.stdin.isatty():
        try:
            line = input(prompt)
            line.encode("utf-8")  # undecodable bytes come as surrogates under some locales
        except EOFError:
            return None
        except UnicodeError:
            raise not_utf8 from None
        return line[: MAX_TYPED_LINE + 1]
    sys.stdout.write(prompt)
    sys.stdout.flush()
    stream = sys.stdin.buffer
    limit = 4 * MAX_TYPED_LINE + 2  # bytes: MAX_TYPED_LINE characters of UTF-8 and a CRLF
    raw = stream.readline(limit)
    if not raw:
        sys.stdout.write("\n")
        return None
    overlong = len(raw) == limit and not raw.endswith(b"\n")
    if overlong:
        while (more := stream.readline(1 << 16)) and not more.endswith(b"\n"):
            pass  # the rest of the line, dropped
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        line = raw.decode("utf-8", "replace")  # an overlong line may end inside a character
        if not overlong:
            sys.stdout.write(safe(line.rstrip("\r\n")) + "\n")
            raise not_utf8 from None
    sys.stdout.write(safe(line.rstrip("\r\n")) + "\n")  # echo: a piped session reads well
    return line


def play_help(s: State, width: int = 80) -> str:
    """`help` in `agility play`: the current step explained, what each card's tile does, the words."""
    width = max(min(width, 100), 40)
    phase = "over" if s.winner is not None else "prize" if s.prizes else s.phase
    out = wrap_prose(guide.phase_help(phase), width - 2, 2)  # in terminal cells where it is wide (zh)
    p = s.players[s.to_act] if s.to_act is not None else None
    if phase == "play" and p is not None:
        seen = set()
        for m in rules.legal_moves(s):
            if isinstance(m, Play) and m.flex == 0 and m.card not in seen:
                seen.add(m.card)
                tile = s.board[(s.marker + s.cat.cards[m.card].number) % 10]
                out.append(f"  {m.card} → {guide.tile_hint(tile)}"[:width])
    words = _("Type a row's number, then its options if you like (3 red: the reward now; 5 red blue: an exchange; "
              "2 +1: a Flex shift); or: hint (the strong bot's advice), board (the whole board), news (what happened, "
              "in full), more (the next page of a long menu), undo (take back your last decision), quit.")
    out += wrap_prose(words, width - 2, 2)
    return "\n".join(out)


# The strong bot's advice lives in .hintview; the play loop shows it, and offers it here as it always did.
from .hintview import hint_result as hint_result, play_hint_lines as play_hint_lines  # noqa: E402
from .hintview import print_hint as print_hint, print_play_hint  # noqa: E402
