"""The ``agility`` command: parse → one library call → render.  The one error boundary.

Exit codes (INTERFACE.md): 0 success · 1 decision refused (file unchanged) · 2 usage error ·
3 invalid game file · 4 internal error (a bug; never expected).  Messages go to stderr, never a
traceback.  Heavy modules are imported inside the commands that use them, so that each command
starts as fast as the bare libraries do.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional

import typer
from ..engine.components import Components
from ..record.gamefile import Game
from ..engine.moves import Move
from ..table.session import Step, Viewer
from ..engine.state import State
from ..text import safe_message
from ..engine.components import ComponentsError
from ..record.gamefile import GameFileError
from ..record.keys import KeyStoreError
from ..engine.rules import RulesError
from ..engine.notation import Refused, UsageError
import msgspec
from ..engine import notation
from ..text import shell_command
from ..table import session
from ..engine.notation import UsageError
from ..record import history
from ..engine import rules
from ..table import render
from ..engine.view import seat_view
import textwrap
from ..engine.components import Components, describe_set
import secrets
from ..record import gamefile
from ..engine.components import load_components
from ..engine.notation import UsageError, word_match
from ..text import check_players
from ..text import safe, shell_command
from ..engine.components import TILES
from ..text import quoted
from ..record import keys
from ..engine.state import public_state
from ..engine import rules, notation
from ..engine.components import describe_set
from ..text import safe
from ..table import guide
from ..engine.notation import Refused
from ..engine.moves import Header
from ..engine.view import move_view, seat_view
from ..record.gamefile import header_components
from ..players import bots
from ..engine.notation import UsageError, prefix_match
from ..engine.components import components_schema
from ..engine.moves import line_schema
from ..record import gamefile, keys
from ..table import logview
from ..record import gamefile, mail
from ..record import gamefile, history
from ..record.gamefile import MAX_FILE_BYTES
from ..record import repair as repair_
from ..engine.notation import UsageError
from ..table import choices
from ..table.choices import MAX_TYPED_LINE
from ..engine.moves import Play
from ..players import search
from ..engine.rng import Rng
import math
import time
from ..players import selfplay as sp
import shutil
from typer.main import get_command_name
import io


app = typer.Typer(
    name="agility",
    help=(
        "Play the board game Agility (Brent Povis) by log: every decision is one line of a JSON Lines\n"
        "game file, the state is re-derived by replaying it, and anyone can audit a finished game.\n\n"
        "Quick start:  agility new solo.jsonl --players alice bot:strong && agility play solo.jsonl"
    ),
    no_args_is_help=True,
    add_completion=True,  # Typer's --install-completion / --show-completion (README: Shell completion)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    """``agility --version``: the installed version (importlib.metadata), else the package's own."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("agility-cli")
    except PackageNotFoundError:  # run from a source tree that was never installed
        from .. import __version__ as number
    sys.stdout.write(f"agility {number}\n")
    raise typer.Exit(0)


@app.callback()
def _options(
    version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
) -> None:
    # Only the global options live here; the app's help is the Typer(help=…) text above.
    pass


EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_INVALID = 3
EXIT_BUG = 4


def _err(message: str) -> None:
    """A message on stderr, made safe: names, paths and mailed text may hold escape sequences."""

    sys.stderr.write(safe_message(message.rstrip("\n")) + "\n")


def _fail(code: int, message: str) -> NoReturn:
    _err(message)
    raise typer.Exit(code)


@contextlib.contextmanager
def boundary() -> Iterator[None]:
    """Turn every library error into one clean message on stderr and an exit code."""
    try:
        yield
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        _fail(130, "agility: interrupted")
    except BrokenPipeError:
        sys.stderr.close()
        raise typer.Exit(0) from None
    except Exception as exc:
        _fail(*_error_report(exc))


def _error_report(exc: Exception) -> tuple[int, str]:
    """The exit code and message for an error (the error classes are imported only when needed)."""

    if isinstance(exc, GameFileError):
        return EXIT_INVALID, f"agility: invalid game file: {exc}"
    if isinstance(exc, Refused):
        rule = f" ({exc.rule})" if exc.rule else ""
        return EXIT_REFUSED, f"agility: refused: {exc.message}{rule}\nthe game file is unchanged"
    if isinstance(exc, UsageError):
        return EXIT_USAGE, f"agility: {exc}"
    if isinstance(exc, ComponentsError):
        return EXIT_USAGE, f"agility: invalid components file: {exc}"
    if isinstance(exc, RulesError):
        return EXIT_USAGE, f"agility: {exc}"
    if isinstance(exc, KeyStoreError):
        return EXIT_USAGE, f"agility: {exc}"
    if isinstance(exc, FileExistsError):
        return EXIT_USAGE, f"agility: {exc.filename} already exists; `new` never overwrites a game (choose another name)"
    if isinstance(exc, OSError):
        return EXIT_USAGE, f"agility: {exc.filename or ''}: {exc.strerror}"
    # A bug; still no traceback for the user.
    return EXIT_BUG, f"agility: internal error ({type(exc).__name__}: {exc}); please report it with the game file"


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def _print_json(obj: Any) -> None:

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def _commands(path: str, state: State, legal: list[Move], limit: int) -> list[str]:
    """Up to ``limit`` legal decisions as commands to copy, then how many more there are."""

    # The decisions that matter first: exchanges are always there and rarely the point.
    legal = sorted(legal, key=lambda m: type(m).__name__ == "Exchange")
    shown = [_shell("agility", "move", path, *notation.argv(state, m)) for m in legal[:limit]]
    if len(legal) > limit:
        shown.append(f"… {len(legal) - limit} more: {_shell('agility', 'legal', path)}")
    return shown


def _shell(*words: str) -> str:
    """A command to copy, quoted for the shell where a word needs it (``text.shell_command``)."""

    return shell_command(list(words))


def _viewer(game: Game, as_player: Optional[str], reveal: bool = False, state: Optional[State] = None,
            whole: bool = True) -> Viewer:
    """Who is looking (R39; ``session.resolve_viewer``); warns on stderr when --reveal shows hidden cards."""

    try:
        viewer = session.resolve_viewer(game, as_player, reveal=reveal, state=state)
    except session.ViewerError as exc:
        raise UsageError(str(exc)) from None
    s = game.state if state is None else state
    if reveal and s.winner is None:
        _err("agility: warning: --reveal shows every hidden card (both hands, face-down cards, the deck order) "
             "while the game is still being played")
    if whole:  # the file as it stands, not cut at a line (show --at): compare it with what this machine saw
        _history_notice(game)
    return viewer


def _history_notice(game: Game) -> None:
    """R41: say on stderr when the file dropped lines this machine saw; else remember what it saw."""

    if not game.trust.signed or not game.hashes:
        return
    rewrite = history.check(game.game_id, game.hashes, game.deciders)
    if rewrite is not None:
        _err(f"agility: warning: {rewrite.message(game.path)}")
    else:
        session.remember(game)


def _hints(path: str, state: State, viewer: Viewer, limit: int = 6) -> list[str]:
    """The viewer's own decisions as commands, or whose decision the game waits for (R39)."""

    if state.winner is not None or state.to_act is None:
        return []
    if viewer.complete or state.to_act == viewer.seat:

        # One command a row of the menu (a card to play is one row); `legal` lists the options.
        rows = choices.menu(state)
        shown = [_shell("agility", "move", path, *notation.argv(state, row.default)) for row in rows[:limit]]
        if len(rows) > limit:
            shown.append(f"… {len(rows) - limit} more: {_shell('agility', 'legal', path)}")
        elif any(len(row.moves) > 1 for row in rows):
            shown.append(f"options (reward, Flex …): {_shell('agility', 'legal', path)}")
        return shown
    who = state.players[state.to_act].name
    lines = [f"{who}'s decision: {who} to {rules.awaited(state)}"]
    if session.is_bot(who):
        lines.append(_shell("agility", "bot", path) + "   # let the bot decide")
    else:
        lines.append(f"not sent {who} your latest lines yet? {_shell('agility', 'send', path)}")
    return lines


def _plain_output() -> bool:
    """Plain text when piped, with NO_COLOR set or on a dumb terminal (FORCE_COLOR overrides)."""
    if os.environ.get("FORCE_COLOR"):
        return False
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


def _show_board(path: str, state: State, viewer: Viewer, hints: Optional[list[str]] = None) -> None:
    """The board as ``viewer`` sees it (R39), with a line saying whose view it is."""

    if hints is None:
        hints = _hints(path, state, viewer)
    view = seat_view(state, viewer.view_seat)
    if _plain_output():
        # No rich at all on this path: the layout is ours, and importing rich costs more than it.
        sys.stdout.write(f"[{viewer.label()}]\n" + render.board_plain(view, hints) + "\n")
    else:
        from rich.text import Text

        console = _console()
        console.print(Text(f"[{viewer.label()}]", style="dim"))
        console.print(render.board(view, hints))


def _tell(steps: list[Step], viewer: Viewer, heading: Optional[str] = None) -> None:
    """Narrate ``steps`` in the replay's sentences, as ``viewer`` sees them."""


    if not steps:
        return
    out = [heading] if heading else []
    for line in session.narration(steps, viewer.view_seat):
        # Within 80 columns, continued under the sentence (replay prints them unwrapped).
        out += textwrap.wrap(line, 80, subsequent_indent=" " * 8, break_on_hyphens=False) or [line]
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()


def _note_components(game: Game | Components) -> None:
    """On stderr, when the game is not played with the shipped component set: which set it is."""

    custom = describe_set(game if isinstance(game, Components) else game.components)
    if custom is not None:
        _err(f"agility: note: this game is played with a {custom}, not the shipped standard set; "
             "check that both players agreed on it")


def _refusal(path: str, state: State, exc: Any) -> NoReturn:
    lines = [f"agility: refused: {exc.message}" + (f" ({exc.rule})" if exc.rule else "")]
    if exc.legal:
        lines.append("legal now:")
        lines += [f"  {command}" for command in _commands(path, state, exc.legal, 12)]
    lines.append("the game file is unchanged")
    _fail(EXIT_REFUSED, "\n".join(lines))


def _check_line_number(option: str, value: Optional[int]) -> None:
    if value is not None and value < 1:

        raise UsageError(f"{option} counts lines of the file from 1 (line 1 is the header; decision n is line n+1)")


AS_HELP = ("Whose seat you are (also AGILITY_PLAYER). Default: in a signed game between two people, the seat whose "
           "key this machine holds (only a held seat may be named); against a bot, the human seat; in a game at "
           "one screen, the player to act.")
REVEAL_HELP = ("Show every hidden card (both hands, the deck order): in a game at one screen (with a warning) or "
               "once the game is over; refused while a signed game between two people is played.")
ACCEPT_HELP = ("Build on this file although it dropped lines this machine saw (a force-push or rebase rewrote "
               "the history): this machine then takes the file as it is now.")


# ----------------------------------------------------------------------------------------------


@app.command()
def new(
    file: Path = typer.Argument(..., help="The game file to create (JSON Lines); never overwritten."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game's PRNG (default: a random one, recorded)."),
    players: tuple[str, str] = typer.Option(("alice", "bob"), "--players", help="The two names in seat order; a seat named `bot:random`, `bot:greedy`, `bot:strong` (or `bot:strong1`…`bot:strong3`) is a computer player."),
    first: str = typer.Option("A", "--first", help="Start player: a name, A (first seat), B, or random."),
    board: str = typer.Option("recommended", "--board", help="recommended, random-a, random-b, or a LAYOUT: nine tiles for spaces 1–9, comma separated."),
    components: Optional[Path] = typer.Option(None, "--components", help="A components file (JSON or TOML) with the real card, dog and course values; embedded in the header."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the header line."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Whose seat you are (also AGILITY_PLAYER; default: the first player): your key is made for that seat."),
) -> None:
    """Create a game file and show the board.

    Without --seed, between two people, the seed is drawn jointly (fair play): the file holds your
    commitment and key; send it to the other player, who runs `agility join FILE`; your next command
    on the game reveals your secret and the game starts.  Against a bot the seed is drawn here, and
    your lines are signed: play it with `agility play FILE`.  --seed N fixes the seed (demos, tests,
    one screen): an unsigned game; by mail, send what `agility send FILE` prints.

    \b
    Examples:
      agility new game.jsonl --players alice bob            # fair game by mail or git
      agility new solo.jsonl --players alice bot:strong     # against the computer
      agility new game.jsonl --seed 42 --players alice bob --first random
    """
    with boundary():

        if seed is not None and seed < 0:
            raise UsageError("--seed must be a non-negative whole number")

        names = (players[0].strip(), players[1].strip())
        if not all(names) or names[0] == names[1]:
            raise UsageError("--players needs two different names")
        try:
            check_players(names)
        except ValueError as exc:
            raise UsageError(f"--players: {exc}") from None
        humans = [name for name in names if not name.startswith("bot:")]
        # R40: two people and no --seed: nobody chooses the seed; it is drawn by the handshake.
        handshake = seed is None and len(humans) == 2
        # Against a bot, without --seed, the seed is drawn here and the human seat's lines are signed (R41).
        host_signs = seed is None and len(humans) == 1
        if seed is None:
            seed = secrets.randbelow(2**32)
        if first.lower() == "random":
            if handshake and "random" in names:
                raise UsageError("a player is named 'random': choose the start player with --first A or --first B")
            start = "random" if handshake else rules.random_first(seed, names)
        elif first in names:
            start = first
        elif first.upper() in ("A", "B"):
            start = names["AB".index(first.upper())]
        else:

            raise UsageError(f"--first must be {names[0]}, {names[1]}, A, B or random, not {quoted(first)}")
        layout: tuple[str, ...] | str
        if board in ("random-a", "random-b") and handshake:
            layout = board  # drawn from the joint seed at the reveal
        elif board in ("recommended", "random-a", "random-b"):
            layout = rules.RECOMMENDED_BOARD if board == "recommended" else rules.random_board(seed, board[-1])
        else:

            words = [w.strip() for w in board.split(",") if w.strip()]
            if words and words[0].lower() == "sweep":
                words = words[1:]
            if len(words) != 9:
                raise UsageError(
                    f"--board LAYOUT names the nine tiles of spaces 1–9, comma separated; got {len(words)}: "
                    "e.g. clear_hurdles,flex,clear_tunnels,exchange,break,boost,clear_a_frames,distraction,clear_weave_poles"
                )
            layout = rules.validate_board(["sweep"] + [word_match(w, list(TILES[1:]), "tile") for w in words])
        comps = load_components(components) if components else None
        creator = as_player if as_player is not None else (humans[0] if humans else None)
        if (handshake or host_signs) and as_player is not None and as_player not in humans:
            raise UsageError(f"--as {as_player!r}: you are one of the human players ({', '.join(humans) or 'none'})")
        header = gamefile.make_header(seed=seed, players=names, first=start if start != "random" else names[0],
                                      board=layout if isinstance(layout, tuple) else rules.RECOMMENDED_BOARD,
                                      components=comps)
        if handshake:

            assert creator is not None
            header = msgspec.structs.replace(header, first=start, board=layout)
            _game, raw, _lines = gamefile.create_signed(file, header, creator, handshake=True)
            if comps is not None:
                _note_components(comps)
            other = names[1] if creator == names[0] else names[0]
            sys.stdout.write(raw.decode() + "\n")
            if not quiet:
                path = safe(str(file))
                _err(
                    f"created {path}: a fair game, {creator} (you) vs {other}; the seed is drawn jointly (R40).\n"
                    f"  1. send {other} the file {path} (by mail: its one line, above; or commit it with git)\n"
                    f"  2. {other} runs `{shell_command(['agility', 'join', str(file)])}` and sends back the file or "
                    "the line it prints\n"
                    f"     (by mail you add it with `{shell_command(['agility', 'apply', str(file)])}`)\n"
                    f"  3. your next agility command on {path} reveals your secret, and the game starts\n"
                    f"  your key for this game is kept in {safe(_key_home())}; back it up with "
                    f"`{shell_command(['agility', 'key', 'export', str(file)])}`"
                )
            return
        # A bot seat that starts, or a first decision without a choice, is made at once (in the
        # same write as the header: a game file appears whole or not at all).
        started: list[tuple[Game, list[Move]]] = []

        def first_moves(g: Game) -> list[Move]:
            moves = session.automatic(g, None)
            started.append((g, moves))
            return moves

        if host_signs and creator is not None:  # R41: the host signs, the bot seat's lines too
            created, raw, lines = gamefile.create_signed(file, header, creator, handshake=False, decide=first_moves)
            assert created is not None
            game = created
        else:
            game, raw, lines = gamefile.create(file, header, first_moves)
        _note_components(game)
        steps = session.steps_after(started[0][0], started[0][1], lines) if started else []
        if quiet:
            sys.stdout.write(raw.decode() + "\n" + "".join(line.decode() + "\n" for line in lines))
            return
        signed = "; your lines are signed" if game.trust.signed else ""
        _err(f"created {file} (seed {seed}); {game.header.first} starts{signed}")
        viewer = _viewer(game, creator)
        _tell(steps, viewer)
        _show_board(str(file), game.state, viewer)
        if len(humans) == 2:  # a --seed game between two people, by mail
            sender = viewer.name if viewer.seat is not None else names[0]
            other = names[1] if sender == names[0] else names[0]
            _err(
                f"by mail: send {other} the game so far — `{_shell('agility', 'send', str(file), '--as', sender)}` "
                f"prints it; {other} runs `{_shell('agility', 'apply', file.name, '-')}` and pastes it "
                "(that creates their copy)"
            )
        else:
            _err(f"play it: {_shell('agility', 'play', str(file))}")


def _tell_reveal(lines: list[bytes]) -> None:
    """R40: this command also wrote the creator's seed reveal, which the other player needs too."""
    if lines:
        _err("your seed secret is revealed (R40): the game has started; the reveal line goes to the other "
             "player with your moves (`agility send` includes it)")


def _key_home() -> str:

    return str(keys.home())


@app.command()
def show(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="Print the STATE as JSON (INTERFACE.md), as the viewer sees it."),
    at: Optional[int] = typer.Option(None, "--at", help="Show the game as it was after line N of the file (1 = the header)."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    reveal: bool = typer.Option(False, "--reveal", help=REVEAL_HELP),
) -> None:
    """Replay and verify the game; say what the opponent did since your last decision; show the board.

    Everything is shown as one player sees it (their own hand, not the opponent's).

    Example:  agility show game.jsonl --at 12
    """
    with boundary():

        _check_line_number("--at", at)
        news = session.since_last(file, upto=at)
        game = news.game
        if at is not None and at > game.lines:

            raise UsageError(f"--at {at}: {file} has only {game.lines} lines")
        viewer = _viewer(game, as_player, reveal, whole=at is None)
        if as_json:
            out = public_state(seat_view(game.state, viewer.view_seat))
            out["viewer"] = viewer.name
            out["complete_view"] = viewer.complete
            _print_json(out)
            return
        steps = news.since(viewer.name)
        if steps:
            _tell(steps, viewer, news.heading(viewer.name))
        _show_board(str(file), game.state, viewer)


@app.command()
def legal(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="A JSON array of {player, argv, text}."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    reveal: bool = typer.Option(False, "--reveal", help=REVEAL_HELP),
) -> None:
    """List your legal decisions now, grouped, as `agility move` words (fits 80 columns).

    Only the viewer's own decisions are listed; when the opponent must act, it says whose
    decision it is and what (R39).  --json: every decision as {player, argv, text}.

    Example:  agility legal game.jsonl --json
    """
    with boundary():

        game = gamefile.load(file)
        s = game.state
        viewer = _viewer(game, as_player, reveal)
        mine = s.winner is None and (viewer.complete or s.to_act == viewer.seat)
        if as_json:
            _print_json(notation.legal_json(s) if mine else [])
            return
        if s.winner is not None:
            print(f"The game is over: {s.players[s.winner].name} won. No decision is open.")
            return

        assert s.to_act is not None
        who = safe(s.players[s.to_act].name)
        out: list[str] = []
        custom = describe_set(game.components)
        if custom is not None:
            out.append(f"(a {custom})")
        if not mine:
            out.append(f"[{viewer.label()}] It is {who}'s decision: {who} to {rules.awaited(s)}.")
            out += [f"  {hint}" for hint in _hints(str(file), s, viewer)[1:]]
        else:
            out.append(f"[{viewer.label()}] {who} to {rules.awaited(s)} — one command a decision; "
                       "options go after its words (play 3 red +1):")
        sys.stdout.write("".join(_wrap80(line) for line in out))
        if mine:
            sys.stdout.write(_legal_rows(str(file), s))


def _legal_rows(path: str, s: State) -> str:
    """`legal`: one command to copy a decision (a card to play is one row), then what it does,
    its options and the guide's hint on the tile it reaches, within 80 columns."""

    rows = []
    for row in choices.menu(s):
        rows.append(f"  {_shell('agility', 'move', path, *notation.argv(s, row.default))}\n")
        rows.append(_wrap80("      " + row.label + (f"; options: {row.options}" if row.options else "")))
        if row.tile is not None:
            rows.append(_wrap80("      " + guide.tile_hint(row.tile)))
    return "".join(rows)


def _wrap80(line: str) -> str:
    """A line of prose within 80 columns, continued two columns further in; with its newline."""

    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return "\n".join(textwrap.wrap(line, 80, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True)) + "\n"


def _menu_lines(rows: list[Any], width: int = 80) -> list[str]:
    """The numbered menu of ``agility play`` within ``width`` columns: ``  3) play t07 [3] …``, its
    options, and what the tile a card reaches does (the guide's one-line hint)."""


    out = []
    for k, row in enumerate(rows, 1):
        out += textwrap.wrap(row.label, width, initial_indent=f"{k:>3}) ", subsequent_indent=" " * 8, break_on_hyphens=False)
        if row.tile is not None:
            out += textwrap.wrap(guide.tile_hint(row.tile), width, initial_indent=" " * 8, subsequent_indent=" " * 10)
        if row.options:
            out += textwrap.wrap(f"options: {row.options}", width, initial_indent=" " * 8, subsequent_indent=" " * 10, break_on_hyphens=False)
    return out


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def move(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The game file."),
    verb: str = typer.Argument(..., help="The decision's verb (list below), then its words."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the appended line(s), for machines and mail."),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=ACCEPT_HELP),
) -> None:
    """Check a decision against the rules and append it as one line.

    Then every appended line is told in the replay's sentences (decisions with a single legal
    option that follow are recorded at once, and a bot seat makes its whole turn at once), and
    the board is shown.  -q prints only the raw lines; `agility send FILE` prints what to mail.

    \b
    Verbs.  A verb, colour, dog or tile may be shortened (a dog by any word
    of its name: husky).  CARD: a card's number or id (t07).  COURSE: a
    course id (4A) or #N, the Nth course on the board.  Obstacles count
    from 1 along the course.
      play CARD [--reward COLOUR] [--flex N]  play a card; --flex=-2 shifts back
      play CARD COLOUR [+N|-N]                the same, shorter
      reward COLOUR                           the reward, after the action
      adopt DOG --course COURSE               adopt a dog from the display
      advance COURSE [--spare COLOUR]         a dog clears the obstacle it faces
      done                                    end adopting and moving dogs
      take CARD                               a display card (refill, Break)
      exchange FROM TO                        spend an Exchange token
      break 1|2, return COLOUR                the Break tile: declare, return,
      put-back CARD, draw                       put back, draw (or take CARD)
      boost-action, boost-cube COLOUR         the Boost tile: option A or B
      distract COURSE OBSTACLE COLOUR         Distraction: a +1 marker
      rush COURSE                             Rush: a Rush marker
      slip COURSE AFTER                       Slip: open ground after AFTER
      inspire COLOUR                          take an Inspiration cube
      discard CARD                            Intimidation: discard a card
      prize flex|exchange                     choose a prize token

    \b
    Examples:
      agility move game.jsonl play 3 --reward red
      agility move game.jsonl play t07 --reward blue --flex=-2
      agility move game.jsonl adopt golden --course 4A
      agility move game.jsonl advance 2B --spare blue
      agility move game.jsonl take 5
      agility move game.jsonl done
    """
    with boundary():

        words = [verb, *ctx.args]
        holder: dict[str, Any] = {}

        def decide(game: Game) -> list[Move]:
            viewer = holder["viewer"] = _decider(game, as_player, "`move`", accept_rewrite)
            holder["state"] = game.state
            chosen = notation.parse(game.state, words)
            return [chosen, *session.automatic(game, chosen)]

        try:
            out = session.append(file, decide)
        except Refused as exc:
            if "state" in holder and exc.legal:
                _refusal(str(file), holder["state"], exc)
            raise
        _after_append(file, out, holder["viewer"], quiet)


def _decider(game: Game, as_player: Optional[str], what: str, accept_rewrite: bool) -> Viewer:
    """The viewer, who must be the one to decide now (R39, R41), on a history this machine accepts."""

    try:
        viewer = session.resolve_viewer(game, as_player)
    except session.ViewerError as exc:
        raise UsageError(str(exc)) from None
    session.require_decider(game, viewer, what)
    session.check_history(game, accept=accept_rewrite)
    return viewer


def _after_append(file: Path, out: Any, viewer: Viewer, quiet: bool) -> None:
    """What `move` and `bot` print after appending: the raw lines (-q), or the story and the board."""

    session.remember(out.game, [st.move for st in out.steps])
    if quiet:
        sys.stdout.write("".join(raw.decode() + "\n" for raw in [*out.handshake, *(st.raw for st in out.steps)]))
        return
    _tell_reveal(out.handshake)
    # The decider's view (in a game at one screen the player to act is someone else now).
    after = _viewer(out.game, viewer.name if viewer.plays else None, whole=False)
    _tell(out.steps, after)
    _show_board(str(file), out.game.state, after)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="JSON Lines: {line, state} then {line, move, state} per line."),
    to: Optional[int] = typer.Option(None, "--to", help="Stop after line N of the file (1 = the header)."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    reveal: bool = typer.Option(False, "--reveal", help=REVEAL_HELP),
) -> None:
    """Verify every line (schema, sequence, hash chain, owner, legality, digest) and narrate the game.

    The narration and --json show the game as one player sees it (R39); once the game is over,
    every view is complete.  Lines are numbered as in the file (line 1 is the header).

    Example:  agility replay game.jsonl --to 40
    """
    with boundary():

        _check_line_number("--to", to)
        data = gamefile.read_revealed(file)
        # The viewer is found on the game as it stands (the last line), as for `show`.
        game = gamefile.load_bytes(data, str(file))
        viewer = _viewer(game, as_player, reveal)
        seat = viewer.view_seat
        out = sys.stdout
        if as_json:
            enc = msgspec.json.Encoder()
            for entry in gamefile.verify(data, str(file), upto=to, keep_before=seat is not None):
                if isinstance(entry, gamefile.Start):
                    out.write(enc.encode({"line": 1, "state": public_state(seat_view(entry.state, seat))}).decode() + "\n")
                elif seat is None:
                    move = msgspec.json.decode(entry.raw)
                    out.write(enc.encode({"line": entry.line, "move": move, "state": public_state(entry.after)}).decode() + "\n")
                else:
                    assert entry.before is not None
                    move = msgspec.json.decode(entry.raw)
                    shown = move_view(entry.before, entry.move, seat)
                    if shown is not entry.move and "card" in move:
                        move["card"] = getattr(shown, "card")  # the face-down card, hidden (R39)
                    state = public_state(seat_view(entry.after, seat))
                    out.write(enc.encode({"line": entry.line, "move": move, "state": state}).decode() + "\n")
            return

        last: State | None = None
        turn = 0
        if viewer.revealed or not viewer.complete:
            _err(f"agility: replay as {viewer.label()}")
        for item in gamefile.verify(data, str(file), upto=to, keep_before=True):
            if isinstance(item, gamefile.Start):

                head = item.header
                board = ", ".join(f"{i} {t}" for i, t in enumerate(head.board))
                comp = describe_set(header_components(head)) or "standard"
                out.write(
                    f"Game {safe(str(file))}: {safe(head.players[0])} vs {safe(head.players[1])}, seed {head.seed}, "
                    f"{safe(head.first)} starts\n"
                    f"  board: {board}\n  components: {comp}\n"
                    f"  {gamefile.fairness_text(item.trust)}\n"  # R40, R41: where the seed came from, signed or not
                )
                continue
            assert item.before is not None
            step = session.Step(item.line, item.raw, item.move, item.before, item.after)
            if item.before.turn != turn:
                turn = item.before.turn
                out.write(f"Turn {turn} — {safe(item.before.players[item.before.active].name)}\n")
            out.write(f"  {item.line:>4}. {session.sentence(step, seat)}\n")
            last = item.after
        if last is None:
            out.write("No decision yet.\n")
        elif last.winner is not None:
            out.write(f"Result: {last.players[last.winner].name} wins. Every line verified.\n")
        else:
            who = last.players[last.to_act].name if last.to_act is not None else "?"

            out.write(f"Game in progress: {who} to {rules.awaited(last)}. Every line verified.\n")


@app.command()
def bot(
    file: Path = typer.Argument(..., help="The game file."),
    strategy: str = typer.Option("greedy", "--strategy", help="random, greedy, or the search bot: strong (default level), strong1 (quick) … strong3 (deep)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bot's choices (deterministic)."),
    moves_: Optional[int] = typer.Option(None, "--moves", help="Make at most K decisions."),
    until_end: bool = typer.Option(False, "--until-end", help="Play both seats until the game ends."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the appended lines."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=ACCEPT_HELP),
) -> None:
    """Make the decisions of whoever must act with a seeded strategy, appending them like `move`.

    Every appended line is told in the replay's sentences, then the board (-q: only the lines).

    Example:  agility bot game.jsonl --strategy greedy --seed 7 --until-end
    """
    with boundary():

        name = prefix_match(strategy, list(bots.STRATEGIES), "strategy")
        if moves_ is None and not until_end:
            moves_ = 1
        if moves_ is not None and moves_ < 1:
            raise UsageError("--moves must be at least 1")
        limit = moves_ if moves_ is not None else 100_000

        holder: dict[str, Viewer] = {}

        def decide(game: Game) -> list[Move]:
            viewer = holder["viewer"] = _decider(game, as_player, "`bot`", accept_rewrite)
            # R41: in a signed game between two people the bot decides only for the seat held here.
            only = viewer.seat if session.two_person_signed(game) else None
            return bots.play_out(game.state, name, seed, limit, only)

        _after_append(file, session.append(file, decide), holder["viewer"], quiet)


@app.command()
def schema(
    components: bool = typer.Option(False, "--components", help="Print the schema of a components file instead."),
) -> None:
    """Print the JSON Schema of a game-file line (or of a components file).

    Example:  agility schema > line.schema.json
    """
    with boundary():

        if components:

            doc = components_schema()
        else:

            doc = line_schema()
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(doc), indent=2).decode() + "\n")


# EXTRA COMMANDS: further commands are registered below this line.


@app.command()
def join(
    file: Path = typer.Argument(..., help="The game file the other player created and sent you."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Whose seat you are (also AGILITY_PLAYER): the player who joins."),
) -> None:
    """Join a fair game: add your key and secret to the seed handshake (the second player's part).

    The creator committed to a secret of theirs in the header; you add a secret of your own, and the
    seed is derived from both once the creator reveals theirs, so neither of you chooses it.  Send
    the printed line (or the file) back.  Run by the creator after the join, it reveals their secret.

    Example:  agility join game.jsonl --as bob
    """
    with boundary():

        path = safe(str(file))
        kind, raw, pending = gamefile.join(file, as_player)
        _note_components(gamefile.header_components(pending.header, str(file)))  # nothing taken on trust
        sys.stdout.write(raw.decode() + "\n")
        if kind == "reveal":
            _err(f"revealed {pending.creator}'s secret: the game has started.  Send {pending.joiner} the line above "
                 f"(or the file); then `{shell_command(['agility', 'show', str(file)])}`")
            return
        _err(
            f"joined {path} as {pending.joiner}; your key for this game is kept in {safe(_key_home())}.\n"
            f"  send {pending.creator} the line above (they add it with `{shell_command(['agility', 'apply', str(file)])}`), "
            "or the file "
            f"(git: commit and push)\n"
            f"  {pending.creator}'s next agility command on the game reveals their secret; the game starts then"
        )


key_app = typer.Typer(
    help=(
        "Your signing keys for signed games: one key per player per game, kept in your data directory.\n\n"
        "Example:  agility key export game.jsonl -o alice.key   (then, on the new machine)\n"
        "          agility key import game.jsonl alice.key"
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(key_app, name="key")


@key_app.command("list")
def key_list(
    file: Path = typer.Argument(..., help="The game file."),
) -> None:
    """Say whose keys this machine holds for a game, and where they are kept.

    Example:  agility key list game.jsonl
    """
    with boundary():

        data = gamefile.read_bytes(file)
        trust = gamefile.trust_of(data, str(file))
        if not trust.signed:
            print(f"{safe(str(file))} is an unsigned game: no keys")
            return
        held = keys.held_seats(data)
        for name in trust.keys:
            mark = "held here" if name in held else "not on this machine"
            print(f"{name}: key {trust.keys[name][:16]}… ({mark})")
        print(f"key store: {safe(str(keys.home()))}")


@key_app.command("export")
def key_export(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Whose seat you are (also AGILITY_PLAYER): whose key, when this machine holds both."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the key file here (mode 0600; never overwritten) instead of standard output."),
) -> None:
    """Export your key for this game (and your handshake secret, until it is revealed) as a key file.

    Keep the key file private: whoever holds it can sign lines in your name in this game.

    Example:  agility key export game.jsonl -o alice-game.key
    """
    with boundary():

        path = safe(str(file))
        data = gamefile.read_bytes(file)
        held = keys.held_seats(data)
        if as_player is not None:
            seat = as_player
        elif len(held) == 1:
            seat = held[0]
        elif not held:
            raise UsageError(f"this machine holds no key for {path} (an unsigned game, or the key is on another machine)")
        else:
            raise UsageError(f"this machine holds the keys of {' and '.join(held)} for {path}: choose one with --as")
        try:
            payload = keys.export_key(keys.game_id(data), seat)
        except keys.KeyStoreError as exc:
            raise UsageError(str(exc)) from None
        if out is None:
            sys.stdout.write(payload.decode())
            _err(f"agility: this is {seat}'s private key for {path}: keep it secret")
            return
        try:  # whole or not at all, mode 0600 from the start, never over an existing file
            gamefile.write_new(out, payload, what="the key file", mode=0o600)
        except FileExistsError:
            raise UsageError(f"{safe(str(out))} already exists; a key file is never overwritten (choose another "
                             "name, or move that file away)") from None
        _err(f"wrote {seat}'s key for {path} to {safe(str(out))} (keep it secret; import it with "
             f"`{shell_command(['agility', 'key', 'import', str(file), str(out)])}`)")


@key_app.command("import")
def key_import(
    file: Path = typer.Argument(..., help="The game file."),
    keyfile: Path = typer.Argument(..., help="A key file written by `agility key export`."),
) -> None:
    """Import a key exported on another machine, to go on playing this game here.

    The key must be the one the game file names for that player.

    Example:  agility key import game.jsonl alice-game.key
    """
    with boundary():

        path = safe(str(file))
        data = gamefile.read_bytes(file)
        trust = gamefile.trust_of(data, str(file))
        header = gamefile.decode_line(data.split(b"\n", 1)[0], str(file))
        commit = header.commit if isinstance(header.commit, str) else None
        # Everything is checked before anything is written: the key file (a regular file of at most
        # keys.MAX_KEY_FILE_BYTES), its key against the game file's (R41), its secret against the
        # header's commitment (R40).
        try:
            doc = keys.read_key_file(keys.read_key_bytes(keyfile, "key file"))
            keys.check_key_file(doc, game=trust.game_id, keys=trust.keys, commit=commit)
        except keys.KeyStoreError as exc:
            raise UsageError(f"{safe(str(keyfile))}: {exc}; {path} is unchanged and nothing was imported") from None
        player = doc["player"]
        if keys.signing_key(trust.game_id, player) == doc["signing_key"] and (
            "secret" not in doc or keys.secret(trust.game_id, player) == doc["secret"]
        ):
            print(f"{safe(player)}'s key for {path} is already in {safe(str(keys.home()))}: nothing to import")
            return
        keys.store(trust.game_id, player, signing_key=doc["signing_key"], secret=doc.get("secret"))
        print(f"imported {safe(player)}'s key for {path} into {safe(str(keys.home()))}")


@app.command("log")
def log_(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    reveal: bool = typer.Option(False, "--reveal", help=REVEAL_HELP),
) -> None:
    """Print the decisions compactly, one a line: line number, player, decision (verifying as it goes).

    Numbers are lines of the file (line 1 is the header), as in `show --at`, `replay --to`,
    `undo` and every narration.  A card played or discarded face down by the opponent shows
    as such (R39).  Works on a game in progress.  On a damaged file the verified decisions are
    printed, then the first bad line is reported (exit 3).

    Example:  agility log game.jsonl | tail -5
    """
    with boundary():

        data = gamefile.read_revealed(file)
        views = logview.log_views(data, str(file))
        if views.header is None or views.state is None:
            assert views.error is not None
            raise views.error
        hashes, deciders = gamefile.chain_of(data, views.lines)
        game = gamefile.Game(str(file), views.header, gamefile.header_components(views.header), views.state,
                             views.lines, views.tip, views.trust, hashes, deciders)
        _note_components(game)
        viewer = _viewer(game, as_player, reveal)
        rows = views.rows[viewer.view_seat]
        if rows:
            sys.stdout.write("\n".join(rows) + "\n")
            sys.stdout.flush()
        if views.error is not None:
            raise views.error


def _create_from_mail(file: Path, texts: list[str]) -> bool:
    """``apply`` to a file that does not exist yet: create it from the mailed header line (verified).
    Returns whether it was created.  A fair game's header (R40) is kept as it is, to be joined."""

    found, _ignored = mail.mailed_lines("\n".join(texts))
    headers = []
    for index, text in enumerate(found, 1):
        try:
            record = gamefile.decode_line(text.encode(), "mail", index)
        except gamefile.GameFileError:
            continue
        if isinstance(record, Header):
            headers.append(record)
    if not headers:
        raise UsageError(
            f"{file} does not exist, and the mail holds no header line to start it from: "
            "ask your opponent for `agility send FILE` from the start of the game"
        )
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


def _recipient(file: Path, as_player: Optional[str], accept_rewrite: bool) -> Optional[str]:
    """Who receives a mail (R41: nobody moves for them): the viewer of a signed game (its key is
    held here), else ``--as``, else the one seat this machine has played in an unsigned game.
    Refuses to build on a rewritten history (``session.check_history``)."""

    try:
        game = gamefile.load(file)
    except gamefile.HandshakePending:
        return None  # the join or reveal is still to come: apply_lines knows the handshake
    session.check_history(game, accept=accept_rewrite)
    if game.trust.signed:
        viewer = _viewer(game, as_player)
        return viewer.name if viewer.plays else None
    return as_player or history.seat_played(game.hashes[0])


@app.command("apply")
def apply_(
    file: Path = typer.Argument(..., help="The game file (created from the mailed header line if it does not exist)."),
    lines: Optional[list[str]] = typer.Argument(None, help="Lines mailed by your opponent; none or - reads standard input."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing on success."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=ACCEPT_HELP),
) -> None:
    """Add the lines your opponent mailed, after checking that they continue your copy of the game.

    Mail quoting (>, > >), indentation, CRLF, blank lines and prose around the lines are ignored, and
    a line the mail program wrapped is joined again.  Lines already in the file are skipped; every
    other line must continue the file's last line and verify (hash chain, player, legality,
    digest), else nothing is written (exit 1).  The lines are appended under the file's lock and
    told in the replay's sentences, as you see them; then the board.  If FILE does not exist yet,
    the mail's header line (what `agility send` prints at the start of a game) creates it.

    Example:  agility apply game.jsonl < mail.txt

    \b
    Also:
      pbpaste | agility apply game.jsonl -
      agility apply game.jsonl '{"kind":"done","n":7,...}'
    """
    with boundary():

        if not lines or lines == ["-"]:
            if sys.stdin.isatty():
                _err("agility: paste the mailed lines, then press Ctrl-D")

            received = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            if len(received) > MAX_FILE_BYTES:
                raise UsageError(f"the input is more than {MAX_FILE_BYTES >> 20} MiB: not a mail of game lines")
            texts = [received.decode("utf-8", "replace")]
        else:
            texts = [t for t in lines if t != "-"]

        created = not file.exists() and _create_from_mail(file, texts)
        if created and gamefile.pending_of(gamefile.read_bytes(file), str(file)) is not None:

            print(f"created {safe(str(file))} from the mailed header line: a fair game, whose seed is drawn jointly")
            _err(f"next: `{shell_command(['agility', 'join', str(file)])}` adds your key and your part of the seed")
            return
        try:
            recipient = None if created else _recipient(file, as_player, accept_rewrite)
            report = mail.apply_lines(file, texts, as_player=as_player, recipient=recipient)
        except BaseException:
            if created:
                file.unlink()  # nothing of the mail is kept when it does not verify
            raise
        if quiet:
            return
        assert report.game is not None
        _note_components(report.game)
        if created:
            print(f"created {safe(str(file))} from the mailed header line")
        if report.handshake:  # R40: the join (and the reveal that followed it) of the seed handshake
            print(f"added the seed handshake's {' and '.join(report.handshake)} line{'s' if len(report.handshake) > 1 else ''}"
                  f"{': the game has started' if 'reveal' in report.handshake else ''}")
            if report.reveal is not None:
                print(f"send this line (your reveal) to the other player:\n{report.reveal.decode()}")
        if report.already and report.applied:
            print(f"skipped {len(report.already)} line(s) already in the file (lines {report.already[0] + 1}–{report.already[-1] + 1})")
        if report.normalised:
            print(f"re-encoded line(s) {', '.join(str(n + 1) for n in report.normalised)} as agility writes them (spacing changed in the mail)")
        if report.ignored:
            shown = "".join(f"\n  {safe(line, 72)}" for line in report.ignored[:8])
            more = f"\n  … and {len(report.ignored) - 8} more" if len(report.ignored) > 8 else ""
            _err(f"agility: ignored {len(report.ignored)} line(s) of text that are not game lines:{shown}{more}")
        viewer = _viewer(report.game, as_player)
        if report.applied:
            steps = [session.Step(*step) for step in report.steps]
            print(f"applied {len(report.applied)} line{'s' if len(report.applied) > 1 else ''} to {safe(str(file))}:")
            _tell(steps, viewer)
        elif not created and not report.handshake:
            print(f"nothing new: {safe(str(file))} already holds every mailed line")
        print(f"now {rules.status_text(report.game.state)}")
        _show_board(str(file), report.game.state, viewer)


@app.command()
def undo(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    all_turn: bool = typer.Option(False, "--all-turn", help="Take back every decision of this turn so far, not only the last."),
) -> None:
    """Take back your last decision in the current turn, if nothing hidden was revealed since.

    Removes the acting player's last decision together with the forced lines recorded after it
    (single legal options, which `move` appends by itself); --all-turn goes back to the turn's
    first decision.  Refused (exit 1, file unchanged) if a card or dog was turned up or the deck
    reshuffled since, and it never removes the opponent's lines or an earlier turn's.  Use it only
    for lines you have not sent yet.  The lines taken back are told as the replay tells them
    (numbered as lines of the file), then the board.

    Example:  agility undo game.jsonl
    """
    with boundary():

        viewer = _viewer(gamefile.load(file), as_player)
        if not viewer.plays:

            raise UsageError("this machine holds no key of this game: undo takes back only your own decisions")
        report = repair_.undo(file, actor=viewer.name, all_turn=all_turn)
        session.remember(report.game, accept=True)  # this machine's own change: it never raises the alarm
        viewer = _viewer(report.game, viewer.name, whole=False)
        print(f"removed {len(report.removed)} line{'s' if len(report.removed) > 1 else ''} from {safe(str(file))}:")
        for (line, raw, m), (before, after) in zip(report.removed, report.states):
            step = session.Step(line, raw, m, before, after)
            print(f"  line {line}: {session.sentence(step, viewer.view_seat)}")
        print(f"now {rules.status_text(report.game.state)}")
        _show_board(str(file), report.game.state, viewer)


@app.command()
def send(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP + " Unsigned: the player who is not to act now."),
) -> None:
    """Print exactly what to mail your opponent: every line since their last decision.

    From the header line on when they have made no decision yet.  They paste it into
    `agility apply FILE -` (which creates their copy from the header line the first time).

    Example:  agility send game.jsonl | mail -s "agility" bob@example.org
    """
    with boundary():

        game = gamefile.load(file)
        s = game.state
        names = [p.name for p in s.players]
        if game.trust.signed:
            viewer = _viewer(game, as_player)  # R39: the seat whose key is held here sends
            if not viewer.plays:

                raise UsageError("this machine holds no key of this game: only a player sends its lines")
            sender = viewer.name
        elif as_player is not None:
            sender = as_player
        elif s.winner is not None:
            sender = names[s.active]
        else:  # one screen, or an unsigned game by mail: the player who just moved sends
            sender = names[1 - (s.to_act if s.to_act is not None else s.active)]
        try:
            game, rows = session.outbox(file, sender)
        except session.ViewerError as exc:

            raise UsageError(str(exc)) from None
        other = names[1] if sender == names[0] else names[0]
        if session.is_bot(other):
            _err(f"agility: {other} is a bot seat of this game: nothing to mail")
            return
        if not rows:
            _err(f"agility: nothing new for {other}: the file's last line is theirs")
            return
        sys.stdout.write("".join(raw.decode() + "\n" for raw in rows))
        sys.stdout.flush()
        _err(f"agility: mail {'these ' + str(len(rows)) + ' lines' if len(rows) > 1 else 'this line'} to {other}; "
             f"they run `{_shell('agility', 'apply', file.name, '-')}` and paste {'them' if len(rows) > 1 else 'it'}")


PLAY_WORDS = "a number (3, 3 red), a move's words (play 3 red), help, hint, board or quit"


@app.command()
def play(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    reveal: bool = typer.Option(False, "--reveal", help=REVEAL_HELP),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=ACCEPT_HELP),
) -> None:
    """Play interactively: what happened since your last decision, the board, your decisions numbered.

    Type a number (1 is the first decision listed), the number and its options (`3 red`,
    `3 --flex=1`, `5 red blue` for an exchange), or the words of `agility move` (`play 3 red`).
    Other words: help or ? (the current step explained), hint, board, quit.  Against a bot the
    whole game is played here; against a person it stops when they must act and says what to
    send.  One choice a line from standard input, so a pipe can drive it; end of input or Ctrl-C
    leave the file whole (every decision is written at once).

    \b
    Examples:
      agility new solo.jsonl --players alice bot:greedy && agility play solo.jsonl
      printf '1\n2 red\nquit\n' | agility play solo.jsonl
    """
    with boundary():

        news = session.since_last(file)
        viewer = _viewer(news.game, as_player, reveal)
        _tell(news.since(viewer.name), viewer, news.heading(viewer.name))
        try:
            _play_loop(file, news.game, viewer, accept_rewrite)
        except KeyboardInterrupt:
            _fail(130, f"\nagility: interrupted; the game is saved: go on with `{_shell('agility', 'play', str(file))}`")


def _play_loop(file: Path, game: Game, viewer: Viewer, accept_rewrite: bool = False) -> None:

    path = str(file)
    again = _shell("agility", "play", path, *(["--as", viewer.name] if viewer.reason == "--as" else []))
    while True:
        s = game.state
        if s.winner is not None:
            final = session.resolve_viewer(game, viewer.name if viewer.plays else None)
            _show_board(path, s, final, hints=[])
            print(f"The game is over: {s.players[s.winner].name} wins.")
            return
        assert s.to_act is not None
        who = s.players[s.to_act].name
        if s.to_act != viewer.seat:
            if session.is_bot(who):
                out = session.append(file, lambda g: session.automatic(g, None))
                _tell(out.steps, viewer)
                game = out.game
                continue
            _show_board(path, s, viewer, hints=[])
            print(f"{who} must act now ({rules.awaited(s)}).")
            print(f"Send {who} your new lines: {_shell('agility', 'send', path, '--as', viewer.name)}")
            print(f"When their reply comes: {_shell('agility', 'apply', path, '-')}, then {again}")
            return
        _show_board(path, s, viewer, hints=[])
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
        _tell(out.steps, viewer)
        game = out.game


def _print_menu(s: State, rows: list[Any], viewer: Viewer) -> None:

    print(f"{viewer.name} to {rules.awaited(s)}:")
    for line in _menu_lines(rows):
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
                _print_hint(_hint(game, s.to_act, "strong", None), file)
            continue
        if word in ("board", "b", "show"):
            _show_board(str(file), s, viewer, hints=[])
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


def _hint(game: Game, seat: int, level: str, seconds: float | None) -> dict[str, Any]:
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


def _print_hint(result: dict[str, Any], file: Path) -> None:

    player = safe(result["player"])
    sims = result["simulations"]
    how = "the only legal decision" if sims == 0 else f"{sims} simulations, {result['seconds']:.1f} s"
    print(f"hint for {player} ({how}, from {player}'s view only):")
    for label, entry in (("best", result["best"]), ("runner-up", result["runner_up"])):
        if entry is None:
            continue
        print(f"  {label + ':':<11}{entry['command']}")
        print(f"  {'':<11}# {entry['text']} — win chance {100 * entry['win_chance']:.0f}%")


@app.command()
def repair(
    file: Path = typer.Argument(..., help="The game file."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing FILE.bak."),
) -> None:
    """Remove an incomplete last line left by an interrupted write, keeping a backup FILE.bak.

    Every line before it is verified first.  A last line that is complete but lacks its newline
    gets the newline instead (no decision is lost).  Any other damage is reported (exit 3) and
    left alone; exit 0 with a note when there is nothing to repair.

    Example:  agility repair game.jsonl
    """
    with boundary():

        report = repair_.repair(file, force=force)
        print(report.text(str(file)))


@app.command()
def hint(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
    level: str = typer.Option("strong", "--level", help="Search level: strong (default), strong1 (quick) … strong3 (deep)."),
    seconds: Optional[float] = typer.Option(None, "--seconds", help="Think this long instead of the level's fixed number of simulations (not reproducible)."),
    as_json: bool = typer.Option(False, "--json", help="JSON: {player, simulations, best, runner_up, ranked}."),
) -> None:
    """Suggest a decision for the player who must act now, from that player's view only.

    The strong bot searches the decisions open now, guessing the cards the player cannot see
    (never reading them), and prints its choice as the command to type, with its estimated
    chance of winning, and the runner-up.  Reproducible unless --seconds is given.

    Example:  agility hint game.jsonl --as alice
    """
    with boundary():

        name = prefix_match(level, list(search.LEVELS), "level")
        if seconds is not None and not (math.isfinite(seconds) and seconds > 0):  # nan and inf parse as floats
            raise UsageError(f"--seconds must be a positive number of seconds (such as 2 or 0.5), not {seconds}")
        game = gamefile.load(file)
        s = game.state
        if s.to_act is None:
            assert s.winner is not None
            raise UsageError(f"the game is over: {s.players[s.winner].name} won; no decision is open")
        seat = s.to_act
        player = s.players[seat].name
        viewer = _viewer(game, as_player)
        if viewer.seat != seat:  # R39: the hint would tell the viewer what the player to act holds
            raise notation.Refused(
                f"it is {player}'s decision now, not {viewer.name}'s: a hint is for the player to act", []
            )
        result = _hint(game, seat, name, seconds)
        if as_json:
            result.pop("seconds")
            _print_json(result)
            return
        _print_hint(result, file)


@app.command()
def selfplay(
    games: int = typer.Option(100, "--games", "-n", help="How many games to play."),
    strategy: str = typer.Option("greedy", "--strategy", help="Strategy A: random, greedy, strong, strong1 … strong3."),
    vs: str = typer.Option("random", "--vs", help="Strategy B: random, greedy, strong, strong1 … strong3."),
    seed: int = typer.Option(0, "--seed", help="Master seed; game i is seeded by (seed, i) through the game's PRNG."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0: one per CPU); results do not depend on it."),
    out: Optional[Path] = typer.Option(None, "--out", help="Also write every game as a game file in this directory."),
    board: str = typer.Option("recommended", "--board", help="recommended, random-a, random-b, or mixed (cycles the three)."),
    components: Optional[Path] = typer.Option(None, "--components", help="A components file to play with (embedded in written games)."),
    as_json: bool = typer.Option(False, "--json", help="Print the statistics as JSON instead of tables."),
) -> None:
    """Play many bot-vs-bot games in memory and print statistics.

    Strategies alternate seats from game to game; the start player is drawn from each game's seed.
    Game i is exactly the game `agility new FILE --seed G --players bot:A bot:B --first random`
    plays by itself (G is shown in the files written with --out).

    Example:  agility selfplay --games 200 --strategy greedy --vs random --seed 1 --jobs 2
    """
    with boundary():

        names = list(bots.STRATEGIES)
        comp_bytes = None
        if components is not None:

            comp_bytes = msgspec.json.encode(load_components(components))
        config = sp.Config(
            games=games,
            strategy=prefix_match(strategy, names, "strategy"),
            vs=prefix_match(vs, names, "strategy"),
            seed=seed,
            board=prefix_match(board, list(sp.BOARD_MODES), "board"),
            jobs=jobs if jobs > 0 else (os.cpu_count() or 1),
            out=None if out is None else str(out),
            components=comp_bytes,
        )
        try:
            sp.check(config)
        except sp.ConfigError as exc:
            raise UsageError(str(exc)) from None
        started = time.perf_counter()
        results = sp.run_with_progress(config, _console(stderr=True))
        elapsed = time.perf_counter() - started
        summary = sp.summarize(config, results)
        if as_json:
            _print_json(summary)
            return
        _console().print(sp.render(summary))
        _err(f"{games} games in {elapsed:.1f} s ({games / elapsed:.0f} games/s, {config.jobs} job(s))")


@app.command("rules")
def rules_(
    topic: Optional[str] = typer.Argument(
        None,
        help="A topic: its id, or the first letters of its id or of a word of its title (boost, mini, pause).",
        autocompletion=lambda incomplete: _topic_ids(incomplete),
    ),
    all_: bool = typer.Option(False, "--all", help="Print every topic."),
) -> None:
    """Explain the rules of the game, topic by topic: goal, a turn, each tile, dogs, pause box…

    Without a TOPIC: the list of topics, then the overview.  The same text is in docs/guide.md.

    \b
    Examples:
      agility rules boost
      agility rules mini
      agility rules --all | less
    """
    with boundary():

        if topic is not None and all_:
            _fail(EXIT_USAGE, "agility: give a TOPIC or --all, not both")
        try:
            chosen = guide.topics() if all_ else [guide.find(topic)] if topic is not None else [guide.topics()[0]]
        except guide.TopicError as exc:
            _fail(EXIT_USAGE, f"agility rules: {exc}")
        head = guide.contents(_width()) + "\n\n" if topic is None and not all_ else ""
        if _plain_output():
            body = "\n\n".join(guide.topic_plain(t, _width()) for t in chosen)
            sys.stdout.write(head + body + "\n")
            return
        from rich.markdown import Markdown
        from rich.text import Text

        console = _console()
        if head:
            console.print(Text(head.rstrip("\n") + "\n"))
        for t in chosen:
            console.print(Text(t.title, style="bold underline"))
            console.print()
            console.print(Markdown(t.text))
            console.print()


def _topic_ids(incomplete: str) -> list[str]:
    """Shell completion of `agility rules TOPIC`: the topic ids that start with what was typed."""

    return [t.id for t in guide.topics() if t.id.startswith(incomplete.lower())]


def _width() -> int:
    """The terminal's width (80 when piped, unless COLUMNS says otherwise), at most 100."""

    return min(shutil.get_terminal_size((80, 24)).columns, 100)


def _register_only_the_invoked_command(args: list[str]) -> None:
    """Start-up: Typer builds a Click command for every registered command before it runs one
    (about 0.6 ms each, measured); when the first word names a command exactly, only that one is
    built.  Anything else (``--help``, a typo, shell completion) sees every command."""
    if not args or args[0].startswith("-") or any(k.endswith("_COMPLETE") for k in os.environ):
        return

    commands = [
        info for info in app.registered_commands
        if (info.name or get_command_name(info.callback.__name__ if info.callback else "")) == args[0]
    ]
    groups = [info for info in app.registered_groups if info.name == args[0]]
    if commands or groups:
        app.registered_commands[:] = commands
        app.registered_groups[:] = groups


def main() -> None:
    """Entry point of the ``agility`` script.

    Click's own usage errors (an unknown option, ``--at x``) quote the user's words: they are
    printed here, made safe for the terminal like every other message, instead of by Click.
    (Typer may bundle its own copy of Click, so its exceptions are recognised by their class names.)
    """
    _register_only_the_invoked_command(sys.argv[1:])
    try:
        code = app(standalone_mode=False)
    except Exception as exc:
        names = {cls.__name__ for cls in type(exc).__mro__}
        if "ClickException" in names:

            shown = io.StringIO()
            exc.show(file=shown)  # type: ignore[attr-defined]
            sys.stderr.write(safe_message(shown.getvalue()))
            sys.exit(getattr(exc, "exit_code", EXIT_USAGE))
        if "Abort" in names:
            _err("agility: interrupted")
            sys.exit(130)
        _err(f"agility: internal error ({type(exc).__name__}: {exc})")  # pragma: no cover - caught by each command
        sys.exit(EXIT_BUG)
    sys.exit(code if isinstance(code, int) else 0)
