"""``agility play``: the interactive decision loop, reading one choice a line, its help and hints."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional
import msgspec
import textwrap

from ..record.gamefile import Game
from ..engine.moves import Move
from .session import Viewer
from ..engine.state import State
from ..text import safe_message
from ..engine.notation import Refused, UsageError
from ..engine import notation
from ..text import shell_command
from . import session
from ..engine.notation import UsageError
from ..engine import rules
from ..engine.notation import UsageError
from ..text import safe, shell_command
from ..engine import rules, notation
from ..text import safe
from . import guide
from ..engine.notation import Refused
from ..engine.notation import UsageError
from ..engine.notation import UsageError
from . import choices
from .choices import MAX_TYPED_LINE
from ..engine.moves import Play
from ..players import search
from ..engine.rng import Rng
from .screen import menu_lines, shell, show_board, tell


PLAY_WORDS = "a number (3, 3 red), a move's words (play 3 red), help, hint, board or quit"


def play_loop(file: Path, game: Game, viewer: Viewer, accept_rewrite: bool = False) -> None:

    path = str(file)
    again = shell("agility", "play", path, *(["--as", viewer.name] if viewer.reason == "--as" else []))
    while True:
        s = game.state
        if s.winner is not None:
            final = session.resolve_viewer(game, viewer.name if viewer.plays else None)
            show_board(path, s, final, hints=[])
            print(f"The game is over: {s.players[s.winner].name} wins.")
            return
        assert s.to_act is not None
        who = s.players[s.to_act].name
        if s.to_act != viewer.seat:
            if session.is_bot(who):
                out = session.append(file, lambda g: session.automatic(g, None))
                tell(out.steps, viewer)
                game = out.game
                continue
            show_board(path, s, viewer, hints=[])
            print(f"{who} must act now ({rules.awaited(s)}).")
            print(f"Send {who} your new lines: {shell('agility', 'send', path, '--as', viewer.name)}")
            print(f"When their reply comes: {shell('agility', 'apply', path, '-')}, then {again}")
            return
        show_board(path, s, viewer, hints=[])
        rows = choices.menu(s)
        _print_menu(s, rows, viewer)
        move = _read_choice(file, game, rows, viewer)
        if move is None:
            print(f"The game is saved. Go on with: {again}")
            return
        tip = game.tip

        def decide(g: Game, chosen: Move = move) -> list[Move]:
            if g.tip != tip:
                raise Refused("the game file changed while you were choosing; here it is again", [], None, "play/stale")
            session.check_history(g, accept=accept_rewrite)
            return [chosen, *session.automatic(g, chosen)]

        try:
            out = session.append(file, decide)
        except Refused as exc:
            print(f"refused: {exc.message}")
            if exc.code == "history/rewritten":
                return
            game = session.since_last(file).game
            continue
        except UsageError as exc:  # pragma: no cover - the choice was parsed on this very state
            print(f"{exc}")
            continue
        session.remember(out.game, [st.move for st in out.steps])
        tell(out.steps, viewer)
        game = out.game


def _print_menu(s: State, rows: list[Any], viewer: Viewer) -> None:

    print(f"{viewer.name} to {rules.awaited(s)}:")
    for line in menu_lines(rows):
        print(line)
    print(f"  type {PLAY_WORDS}")


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


def _read_choice(file: Path, game: Game, rows: list[Any], viewer: Viewer) -> Optional[Move]:
    """Read lines until one names a decision; ``None`` on quit or end of input."""

    s = game.state
    while True:
        try:
            line = _read_line("> ")
        except UsageError as exc:
            print(f"  {exc} — type {PLAY_WORDS}")
            continue
        if line is None:
            return None
        text = line.strip()
        word = text.lower()
        if not text:
            continue
        if word in ("quit", "q", "exit"):
            return None
        if word in ("help", "?", "h"):
            print(_play_help(s))
            continue
        if word == "hint":
            if s.to_act is not None:
                print_hint(hint_result(game, s.to_act, "strong", None), file)
            continue
        if word in ("board", "b", "show"):
            show_board(str(file), s, viewer, hints=[])
            _print_menu(s, rows, viewer)
            continue
        if word in ("menu", "legal", "l"):
            _print_menu(s, rows, viewer)
            continue
        try:
            return choices.pick(s, rows, text)
        except (UsageError, Refused) as exc:
            print(safe_message(f"  {getattr(exc, 'message', exc)} — type {PLAY_WORDS}"))


def _play_help(s: State) -> str:
    """`help` in `agility play`: the current step explained, and what each card's tile does."""


    phase = "over" if s.winner is not None else "prize" if s.prizes else s.phase
    out = textwrap.wrap(guide.phase_help(phase), 78, initial_indent="  ", subsequent_indent="  ")
    p = s.players[s.to_act] if s.to_act is not None else None
    if phase == "play" and p is not None:
        seen = set()

        for m in rules.legal_moves(s):
            if isinstance(m, Play) and m.flex == 0 and m.card not in seen:
                seen.add(m.card)
                tile = s.board[(s.marker + s.cat.cards[m.card].number) % 10]
                out.append(f"  {m.card} → {guide.tile_hint(tile)}"[:80])
    return "\n".join(out)


def hint_result(game: Game, seat: int, level: str, seconds: float | None) -> dict[str, Any]:
    """The strong bot's suggestion for ``seat`` (who must act), from that seat's view only (R39):
    ``agility hint`` and ``hint`` inside ``agility play``.  Reproducible unless ``seconds``."""


    s = game.state
    budget = search.LEVELS[level] if seconds is None else search.Budget(seconds=seconds)
    analysis = search.analyse(s, seat, Rng.for_purpose(game.seed, f"hint:{game.next_n}"), budget)

    def item(st: search.MoveStat) -> dict[str, Any]:
        words = notation.argv(s, st.move)
        return {
            "command": shell_command(["agility", "move", game.path, *words]),
            "argv": words,
            "move": msgspec.to_builtins(st.move),
            "text": notation.describe(s, st.move),
            "win_chance": round(st.win_rate, 4),
            "visits": st.visits,
        }

    ranked = [item(st) for st in analysis.moves]
    return {
        "player": s.players[seat].name,
        "level": level if seconds is None else None,
        "simulations": analysis.simulations,
        "seconds": analysis.seconds,
        "best": ranked[0],
        "runner_up": ranked[1] if len(ranked) > 1 else None,
        "ranked": ranked,
    }


def print_hint(result: dict[str, Any], file: Path) -> None:

    player = safe(result["player"])
    sims = result["simulations"]
    how = "the only legal decision" if sims == 0 else f"{sims} simulations, {result['seconds']:.1f} s"
    print(f"hint for {player} ({how}, from {player}'s view only):")
    for label, entry in (("best", result["best"]), ("runner-up", result["runner_up"])):
        if entry is None:
            continue
        print(f"  {label + ':':<11}{entry['command']}")
        print(f"  {'':<11}# {entry['text']} — win chance {100 * entry['win_chance']:.0f}%")
