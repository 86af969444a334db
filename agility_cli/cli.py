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
from typing import TYPE_CHECKING, Any, Iterator, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from .gamefile import Game
    from .moves import Move
    from .state import State

app = typer.Typer(
    name="agility",
    help=(
        "Play the board game Agility (Brent Povis) by log: every decision is one line of a JSON Lines\n"
        "game file, the state is re-derived by replaying it, and anyone can audit a finished game.\n\n"
        "Quick start:  agility new game.jsonl --seed 42 && agility legal game.jsonl"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_INVALID = 3
EXIT_BUG = 4


def _err(message: str) -> None:
    sys.stderr.write(message.rstrip("\n") + "\n")


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
    from .components import ComponentsError
    from .gamefile import GameFileError
    from .rules import RulesError
    from .verbs import Refused, UsageError

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
    import msgspec

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def _commands(path: str, state: State, legal: list[Move], limit: int) -> list[str]:
    """Up to ``limit`` legal decisions as commands to copy, then how many more there are."""
    from . import verbs

    # The decisions that matter first: exchanges are always there and rarely the point.
    legal = sorted(legal, key=lambda m: type(m).__name__ == "Exchange")
    shown = [f"agility move {path} {' '.join(verbs.argv(state, m))}" for m in legal[:limit]]
    if len(legal) > limit:
        shown.append(f"… {len(legal) - limit} more: agility legal {path}")
    return shown


def _hints(path: str, state: State, limit: int = 6) -> list[str]:
    from . import rules

    return _commands(path, state, rules.legal_moves(state), limit)


def _plain_output() -> bool:
    """Plain text when piped, with NO_COLOR set or on a dumb terminal (FORCE_COLOR overrides)."""
    if os.environ.get("FORCE_COLOR"):
        return False
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


def _show_board(path: str, state: State) -> None:
    from . import render

    hints = _hints(path, state)
    if _plain_output():
        # No rich at all on this path: the layout is ours, and importing rich costs more than it.
        sys.stdout.write(render.board_plain(state, hints) + "\n")
    else:
        _console().print(render.board(state, hints))


def _refusal(path: str, state: State, exc: Any) -> NoReturn:
    lines = [f"agility: refused: {exc.message}" + (f" ({exc.rule})" if exc.rule else "")]
    if exc.legal:
        lines.append("legal now:")
        lines += [f"  {command}" for command in _commands(path, state, exc.legal, 12)]
    lines.append("the game file is unchanged")
    _fail(EXIT_REFUSED, "\n".join(lines))


# ----------------------------------------------------------------------------------------------


@app.command()
def new(
    file: Path = typer.Argument(..., help="The game file to create (JSON Lines); never overwritten."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game's PRNG (default: a random one, recorded)."),
    players: tuple[str, str] = typer.Option(("alice", "bob"), "--players", help="The two names in seat order; `bot:greedy` or `bot:random` makes a seat a computer player."),
    first: str = typer.Option("A", "--first", help="Start player: a name, A (first seat), B, or random."),
    board: str = typer.Option("recommended", "--board", help="recommended, random-a, random-b, or a LAYOUT: nine tiles for spaces 1–9, comma separated."),
    components: Optional[Path] = typer.Option(None, "--components", help="A components file (JSON or TOML) with the real card, dog and course values; embedded in the header."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the header line."),
) -> None:
    """Create a game file and show the board.

    Example:  agility new game.jsonl --seed 42 --players alice bob --first random
    """
    with boundary():
        import secrets

        from . import gamefile, rules
        from .components import load_components
        from .verbs import UsageError, prefix_match

        if seed is None:
            seed = secrets.randbelow(2**32)
        if seed < 0:
            raise UsageError("--seed must be a non-negative whole number")
        names = (players[0].strip(), players[1].strip())
        if not all(names) or names[0] == names[1]:
            raise UsageError("--players needs two different names")
        if first.lower() == "random":
            start = rules.random_first(seed, names)
        elif first in names:
            start = first
        elif first.upper() in ("A", "B"):
            start = names["AB".index(first.upper())]
        else:
            raise UsageError(f"--first must be {names[0]}, {names[1]}, A, B or random, not {first!r}")
        if board in ("recommended", "random-a", "random-b"):
            layout = rules.RECOMMENDED_BOARD if board == "recommended" else rules.random_board(seed, board[-1])
        else:
            from .components import TILES

            words = [w.strip() for w in board.split(",") if w.strip()]
            if words and words[0].lower() == "sweep":
                words = words[1:]
            if len(words) != 9:
                raise UsageError(
                    f"--board LAYOUT names the nine tiles of spaces 1–9, comma separated; got {len(words)}: "
                    "e.g. clear_hurdles,flex,clear_tunnels,exchange,break,boost,clear_a_frames,distraction,clear_weave_poles"
                )
            layout = rules.validate_board(["sweep"] + [prefix_match(w, list(TILES[1:]), "tile") for w in words])
        comps = load_components(components) if components else None
        header = gamefile.make_header(seed=seed, players=names, first=start, board=layout, components=comps)
        raw = gamefile.create(file, header)
        # A bot seat that starts, or a first decision without a choice, is made at once.
        game, lines = gamefile.append_moves(file, lambda g: _automatic(g, None))
        if quiet:
            sys.stdout.write(raw.decode() + "".join(line.decode() + "\n" for line in lines))
            return
        _err(f"created {file} (seed {seed}); {start} starts")
        for line in lines:
            sys.stdout.write(line.decode() + "\n")
        sys.stdout.flush()
        _show_board(str(file), game.state)


@app.command()
def show(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="Print the STATE as JSON (INTERFACE.md)."),
    at: Optional[int] = typer.Option(None, "--at", help="Show the game as it was after line N (1 = the header)."),
) -> None:
    """Replay and verify the game, then show the board and what comes next.

    Example:  agility show game.jsonl --at 12
    """
    with boundary():
        from . import gamefile
        from .state import public_state

        if at is not None and at < 1:
            from .verbs import UsageError

            raise UsageError("--at counts lines from 1 (the header)")
        game = gamefile.load(file, upto=at)
        if at is not None and at > game.lines:
            from .verbs import UsageError

            raise UsageError(f"--at {at}: {file} has only {game.lines} lines")
        if as_json:
            _print_json(public_state(game.state))
        else:
            _show_board(str(file), game.state)


@app.command()
def legal(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="A JSON array of {player, argv, text}."),
) -> None:
    """List every legal decision now, as commands you can copy.

    Example:  agility legal game.jsonl --json
    """
    with boundary():
        from . import gamefile, rules, verbs

        game = gamefile.load(file)
        s = game.state
        if as_json:
            _print_json(verbs.legal_json(s))
            return
        if s.winner is not None:
            print(f"The game is over: {s.players[s.winner].name} won. No decision is open.")
            return
        who = s.players[s.to_act].name if s.to_act is not None else "?"
        print(f"{who} to {rules.awaited(s)}:")
        for item in verbs.legal_json(s):
            print(f"  agility move {file} {' '.join(item['argv']):<40}  # {item['text']}")


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def move(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The game file."),
    verb: str = typer.Argument(..., help="play, take, adopt, advance, done, exchange, break, … (see README)."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Assert who you are; refused if the decision is not yours. Also AGILITY_PLAYER."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the appended line(s)."),
) -> None:
    """Check a decision against the rules and append it as one line.

    The line is printed (to mail it) followed by the board.  Decisions with a single legal option
    that follow are recorded at once, and a bot seat makes its decisions at once.

    \b
    Examples:
      agility move game.jsonl play 3 --reward red
      agility move game.jsonl play t07 --reward blue --flex=-2
      agility move game.jsonl adopt golden --course 4
      agility move game.jsonl advance 2B --spare blue
      agility move game.jsonl take 5
      agility move game.jsonl done
    """
    with boundary():
        from . import gamefile, verbs
        from .verbs import Refused

        words = [verb, *ctx.args]
        holder: dict[str, Any] = {}

        def decide(game: Game) -> list[Move]:
            s = game.state
            holder["state"] = s
            if s.winner is not None:
                raise Refused(f"the game is over; {s.players[s.winner].name} won", [], "R34", "game/over")
            who = s.players[s.to_act].name if s.to_act is not None else None
            if as_player is not None and as_player != who:
                raise Refused(
                    f"it is {who}'s decision, not {as_player}'s (--as / AGILITY_PLAYER)", [], "R36", "move/not_your_decision"
                )
            chosen = verbs.parse(s, words)
            return [chosen, *_automatic(game, chosen)]

        try:
            game, lines = gamefile.append_moves(file, decide)
        except Refused as exc:
            if "state" in holder and exc.legal:
                _refusal(str(file), holder["state"], exc)
            raise
        for raw in lines:
            sys.stdout.write(raw.decode() + "\n")
        if not quiet:
            sys.stdout.flush()
            _show_board(str(file), game.state)


def _automatic(game: Game, first: Move | None) -> list[Move]:
    """Decisions that follow ``first`` without a real choice: single legal options and bot seats."""
    from . import rules

    s = game.state.copy() if first is None else rules.apply(game.state, first)
    out: list[Move] = []
    n = game.next_n + (0 if first is None else 1)
    while s.winner is None and len(out) < 10_000:
        legal = rules.legal_moves(s)
        seat = s.to_act
        assert seat is not None
        name = s.players[seat].name
        if len(legal) == 1:
            m = legal[0]
        elif name.startswith("bot:"):
            from . import bots

            m = bots.choose_for_seat(name, s, game.header.seed, n + len(out))
        else:
            break
        out.append(m)
        rules.apply_in_place(s, m)
    return out


@app.command()
def replay(
    file: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="JSON Lines: {line, state} then {line, move, state} per line."),
    to: Optional[int] = typer.Option(None, "--to", help="Stop after line N."),
) -> None:
    """Verify every line (schema, sequence, hash chain, owner, legality, digest) and narrate the game.

    Example:  agility replay game.jsonl --to 40
    """
    with boundary():
        import msgspec

        from . import gamefile
        from .moves import Header
        from .state import public_state

        if to is not None and to < 1:
            from .verbs import UsageError

            raise UsageError("--to counts lines from 1 (the header)")
        data = gamefile.read_bytes(file)
        out = sys.stdout
        if as_json:
            enc = msgspec.json.Encoder()
            for entry in gamefile.verify(data, str(file), upto=to):
                if isinstance(entry, gamefile.Start):
                    out.write(enc.encode({"line": 1, "state": public_state(entry.state)}).decode() + "\n")
                else:
                    move = msgspec.json.decode(entry.raw)
                    out.write(enc.encode({"line": entry.line, "move": move, "state": public_state(entry.after)}).decode() + "\n")
            return
        from . import narrate

        last: State | None = None
        turn = 0
        for item in gamefile.iter_game(data, str(file), upto=to, keep_before=True):
            if isinstance(item, Header):
                first = item.first
                board = ", ".join(f"{i} {t}" for i, t in enumerate(item.board))
                comp = item.components if isinstance(item.components, str) else f"custom set {item.components.name!r}"
                out.write(
                    f"Game {file}: {item.players[0]} vs {item.players[1]}, seed {item.seed}, {first} starts\n"
                    f"  board: {board}\n  components: {comp}\n"
                )
                continue
            assert item.before is not None
            if item.before.turn != turn:
                turn = item.before.turn
                out.write(f"Turn {turn} — {item.before.players[item.before.active].name}\n")
            out.write(f"  {item.line:>4}. {narrate.describe(item.before, item.move, item.after)}\n")
            last = item.after
        if last is None:
            out.write("No decision yet.\n")
        elif last.winner is not None:
            out.write(f"Result: {last.players[last.winner].name} wins. Every line verified.\n")
        else:
            who = last.players[last.to_act].name if last.to_act is not None else "?"
            from . import rules

            out.write(f"Game in progress: {who} to {rules.awaited(last)}. Every line verified.\n")


@app.command()
def bot(
    file: Path = typer.Argument(..., help="The game file."),
    strategy: str = typer.Option("greedy", "--strategy", help="random, greedy, or the search bot: strong (default level), strong1 (quick) … strong3 (deep)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bot's choices (deterministic)."),
    moves_: Optional[int] = typer.Option(None, "--moves", help="Make at most K decisions."),
    until_end: bool = typer.Option(False, "--until-end", help="Play both seats until the game ends."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the appended lines."),
) -> None:
    """Make the decisions of whoever must act with a seeded strategy, appending them like `move`.

    Example:  agility bot game.jsonl --strategy greedy --seed 7 --until-end
    """
    with boundary():
        from . import bots, gamefile
        from .verbs import UsageError, prefix_match

        name = prefix_match(strategy, list(bots.STRATEGIES), "strategy")
        if moves_ is None and not until_end:
            moves_ = 1
        if moves_ is not None and moves_ < 1:
            raise UsageError("--moves must be at least 1")
        limit = moves_ if moves_ is not None else 100_000

        def decide(game: Game) -> list[Move]:
            return bots.play_out(game.state, name, seed, limit)

        game, lines = gamefile.append_moves(file, decide)
        for raw in lines:
            sys.stdout.write(raw.decode() + "\n")
        if not quiet:
            sys.stdout.flush()
            _show_board(str(file), game.state)


@app.command()
def schema(
    components: bool = typer.Option(False, "--components", help="Print the schema of a components file instead."),
) -> None:
    """Print the JSON Schema of a game-file line (or of a components file).

    Example:  agility schema > line.schema.json
    """
    with boundary():
        import msgspec

        if components:
            from .components import components_schema

            doc = components_schema()
        else:
            from .moves import line_schema

            doc = line_schema()
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(doc), indent=2).decode() + "\n")


# EXTRA COMMANDS: further commands are registered below this line.


@app.command("log")
def log_(
    file: Path = typer.Argument(..., help="The game file."),
) -> None:
    """Print the decisions compactly, one line each: n, player, kind, fields (verifying as it goes).

    Works on a game in progress.  On a damaged file the verified decisions are printed, then the
    first bad line is reported (exit 3).

    Example:  agility log game.jsonl | tail -5
    """
    with boundary():
        from . import audit, gamefile

        data = gamefile.read_bytes(file)
        out = sys.stdout
        for row in audit.log_rows(data, str(file)):
            out.write(row + "\n")


@app.command("apply")
def apply_(
    file: Path = typer.Argument(..., help="The game file."),
    lines: Optional[list[str]] = typer.Argument(None, help="Lines mailed by your opponent; none or - reads standard input."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing on success."),
) -> None:
    """Add the lines your opponent mailed, after checking that they continue your copy of the game.

    Mail quoting (>, > >), indentation, CRLF, blank lines and prose around the lines are ignored, and
    a line the mail program wrapped is joined again.  Lines already in the file are skipped; every
    other line must continue the file's last line and verify (hash chain, player, legality,
    digest), else nothing is written (exit 1).  The lines are appended under the file's lock.

    Example:  agility apply game.jsonl < mail.txt

    \b
    Also:
      pbpaste | agility apply game.jsonl -
      agility apply game.jsonl '{"kind":"done","n":7,...}'
    """
    with boundary():
        from . import audit

        if not lines or lines == ["-"]:
            if sys.stdin.isatty():
                _err("agility: paste the mailed lines, then press Ctrl-D")
            texts = [sys.stdin.buffer.read().decode("utf-8", "replace")]
        else:
            texts = [t for t in lines if t != "-"]
        report = audit.apply_lines(file, texts)
        if quiet:
            return
        assert report.game is not None
        width = max(len(name) for name in report.game.header.players)
        if report.applied:
            print(f"applied {len(report.applied)} line{'s' if len(report.applied) > 1 else ''} to {file}:")
            for n, m in report.applied:
                print("  " + audit.log_row(n, m, width).lstrip())
        else:
            print(f"nothing new: {file} already holds every mailed line")
        if report.already and report.applied:
            print(f"skipped {len(report.already)} line(s) already in the file (n={report.already[0]}–{report.already[-1]})")
        if report.normalised:
            print(f"re-encoded line(s) n={', '.join(map(str, report.normalised))} as agility writes them (spacing changed in the mail)")
        if report.ignored:
            _err(f"agility: ignored {len(report.ignored)} line(s) of text that are not game lines")
        print(f"now {audit.status_text(report.game.state)}")


@app.command()
def undo(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Assert who you are; refused if you are not the player acting now. Also AGILITY_PLAYER."),
    all_turn: bool = typer.Option(False, "--all-turn", help="Take back every decision of this turn so far, not only the last."),
) -> None:
    """Take back your last decision in the current turn, if nothing hidden was revealed since.

    Removes the acting player's last decision together with the forced lines recorded after it
    (single legal options, which `move` appends by itself); --all-turn goes back to the turn's
    first decision.  Refused (exit 1, file unchanged) if a card or dog was turned up or the deck
    reshuffled since, and it never removes the opponent's lines or an earlier turn's.  Use it only
    for lines you have not sent yet.

    Example:  agility undo game.jsonl --as alice
    """
    with boundary():
        from . import audit

        report = audit.undo(file, as_player=as_player, all_turn=all_turn)
        width = max(len(name) for name in report.game.header.players)
        print(f"removed {len(report.removed)} line{'s' if len(report.removed) > 1 else ''} from {file}:")
        for line, _raw, m in report.removed:
            print(f"  line {line}: " + audit.log_row(line - 1, m, width).lstrip())
        print(f"now {audit.status_text(report.game.state)}")


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
        from . import audit

        report = audit.repair(file, force=force)
        print(report.text(str(file)))


@app.command()
def hint(
    file: Path = typer.Argument(..., help="The game file."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Assert who you are; refused if the decision now is not yours. Also AGILITY_PLAYER."),
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
        import msgspec

        from . import gamefile, search, verbs
        from .rng import Rng
        from .verbs import UsageError, prefix_match

        name = prefix_match(level, list(search.LEVELS), "level")
        if seconds is not None and seconds <= 0:
            raise UsageError("--seconds must be positive")
        game = gamefile.load(file)
        s = game.state
        if s.to_act is None:
            assert s.winner is not None
            raise UsageError(f"the game is over: {s.players[s.winner].name} won; no decision is open")
        seat = s.to_act
        player = s.players[seat].name
        if as_player is not None and as_player != player:
            raise verbs.Refused(f"it is {player}'s decision now, not {as_player}'s: a hint is for the player to act", [])
        budget = search.LEVELS[name] if seconds is None else search.Budget(seconds=seconds)
        rng = Rng.for_purpose(game.header.seed, f"hint:{game.next_n}")
        analysis = search.analyse(s, seat, rng, budget)

        def item(st: search.MoveStat) -> dict[str, Any]:
            words = verbs.argv(s, st.move)
            return {
                "command": f"agility move {file} {' '.join(words)}",
                "argv": words,
                "move": msgspec.to_builtins(st.move),
                "text": verbs.describe(s, st.move),
                "win_chance": round(st.win_rate, 4),
                "visits": st.visits,
            }

        ranked = [item(st) for st in analysis.moves]
        if as_json:
            _print_json(
                {
                    "player": player,
                    "level": name if seconds is None else None,
                    "simulations": analysis.simulations,
                    "best": ranked[0],
                    "runner_up": ranked[1] if len(ranked) > 1 else None,
                    "ranked": ranked,
                }
            )
            return
        how = "the only legal decision" if analysis.simulations == 0 else f"{analysis.simulations} simulations, {analysis.seconds:.1f} s"
        print(f"hint for {player} ({how}, from {player}'s view only):")
        for label, entry in (("best", ranked[0]), ("runner-up", ranked[1] if len(ranked) > 1 else None)):
            if entry is None:
                continue
            print(f"  {label + ':':<11}{entry['command']}")
            print(f"  {'':<11}# {entry['text']} — win chance {100 * entry['win_chance']:.0f}%")


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
        import time

        from . import bots
        from . import selfplay as sp
        from .verbs import UsageError, prefix_match

        names = list(bots.STRATEGIES)
        comp_bytes = None
        if components is not None:
            import msgspec

            from .components import load_components

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


def main() -> None:
    """Entry point of the ``agility`` script."""
    try:
        app()
    except Exception as exc:  # pragma: no cover - the boundary inside each command catches first
        _err(f"agility: internal error ({type(exc).__name__}: {exc})")
        sys.exit(EXIT_BUG)
