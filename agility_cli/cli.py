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
        from . import __version__ as number
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
    from .text import safe_message

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
    from .text import shell_command

    shown = [shell_command(["agility", "move", path, *verbs.argv(state, m)]) for m in legal[:limit]]
    if len(legal) > limit:
        shown.append(f"… {len(legal) - limit} more: {shell_command(['agility', 'legal', path])}")
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


def _note_components(game: Game) -> None:
    """On stderr, when the game is not played with the shipped component set: which set it is."""
    from .components import describe_set

    custom = describe_set(game.components)
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
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Which of the players you are (default: the first); your key is made for that seat. Also AGILITY_PLAYER."),
) -> None:
    """Create a game file and show the board.

    Without --seed, between two people, the seed is drawn jointly (fair play): the file holds your
    commitment and key; send it to the other player, who runs `agility join FILE`; your next command
    on the game reveals your secret and the game starts.  Against a bot the seed is drawn here, and
    your lines are signed.  --seed N fixes the seed (demos, tests, one screen): an unsigned game.

    \b
    Examples:
      agility new game.jsonl --players alice bob            # fair game by mail or git
      agility new game.jsonl --seed 42 --players alice bob --first random
    """
    with boundary():
        import secrets

        from . import gamefile, rules
        from .components import load_components
        from .verbs import UsageError, prefix_match

        if seed is not None and seed < 0:
            raise UsageError("--seed must be a non-negative whole number")
        from .text import check_players

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
            from .text import quoted

            raise UsageError(f"--first must be {names[0]}, {names[1]}, A, B or random, not {quoted(first)}")
        layout: tuple[str, ...] | str
        if board in ("random-a", "random-b") and handshake:
            layout = board  # drawn from the joint seed at the reveal
        elif board in ("recommended", "random-a", "random-b"):
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
        creator = as_player if as_player is not None else (humans[0] if humans else None)
        if (handshake or host_signs) and as_player is not None and as_player not in humans:
            raise UsageError(f"--as {as_player!r}: you are one of the human players ({', '.join(humans) or 'none'})")
        header = gamefile.make_header(seed=seed, players=names, first=start if start != "random" else names[0],
                                      board=layout if isinstance(layout, tuple) else rules.RECOMMENDED_BOARD,
                                      components=comps)
        if handshake:
            import msgspec

            from .text import safe, shell_command

            assert creator is not None
            header = msgspec.structs.replace(header, first=start, board=layout)
            _game, raw, _lines = gamefile.create_signed(file, header, creator, handshake=True)
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
        if host_signs and creator is not None:  # R41: the host signs, the bot seat's lines too
            created, raw, lines = gamefile.create_signed(file, header, creator, handshake=False,
                                                         decide=lambda g: _automatic(g, None))
            assert created is not None
            game = created
        else:
            game, raw, lines = gamefile.create(file, header, lambda g: _automatic(g, None))
        _note_components(game)
        if quiet:
            sys.stdout.write(raw.decode() + "\n" + "".join(line.decode() + "\n" for line in lines))
            return
        signed = "; your lines are signed" if game.trust.signed else ""
        _err(f"created {file} (seed {seed}); {game.header.first} starts{signed}")
        for line in lines:
            sys.stdout.write(line.decode() + "\n")
        sys.stdout.flush()
        _show_board(str(file), game.state)


def _key_home() -> str:
    from . import keys

    return str(keys.home())


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
        from .components import describe_set
        from .text import safe, shell_command

        who = s.players[s.to_act].name if s.to_act is not None else "?"
        custom = describe_set(game.components)
        if custom is not None:
            print(f"(a {custom})")
        print(f"{safe(who)} to {rules.awaited(s)}:")
        for item in verbs.legal_json(s):
            print(f"  {shell_command(['agility', 'move', str(file), *item['argv']]):<55}  # {safe(item['text'])}")


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

            m = bots.choose_for_seat(name, s, game.seed, n + len(out))
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
        for item in gamefile.verify(data, str(file), upto=to, keep_before=True):
            if isinstance(item, gamefile.Start):
                from .components import describe_set
                from .gamefile import header_components
                from .text import safe

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
            if item.before.turn != turn:
                turn = item.before.turn
                out.write(f"Turn {turn} — {safe(item.before.players[item.before.active].name)}\n")
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
    strategy: str = typer.Option("greedy", "--strategy", help="random or greedy."),
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


@app.command()
def join(
    file: Path = typer.Argument(..., help="The game file the other player created and sent you."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Assert who you are (the player who joins). Also AGILITY_PLAYER."),
) -> None:
    """Join a fair game: add your key and secret to the seed handshake (the second player's part).

    The creator committed to a secret of theirs in the header; you add a secret of your own, and the
    seed is derived from both once the creator reveals theirs, so neither of you chooses it.  Send
    the printed line (or the file) back.  Run by the creator after the join, it reveals their secret.

    Example:  agility join game.jsonl --as bob
    """
    with boundary():
        from . import gamefile
        from .text import safe, shell_command

        path = safe(str(file))
        kind, raw, pending = gamefile.join(file, as_player)
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
        from . import gamefile, keys
        from .text import safe

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
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help="Whose key, when this machine holds both. Also AGILITY_PLAYER."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the key file here (mode 0600; never overwritten) instead of standard output."),
) -> None:
    """Export your key for this game (and your handshake secret, until it is revealed) as a key file.

    Keep the key file private: whoever holds it can sign lines in your name in this game.

    Example:  agility key export game.jsonl -o alice-game.key
    """
    with boundary():
        from . import gamefile, keys
        from .text import safe, shell_command
        from .verbs import UsageError

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
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
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
        from . import gamefile, keys
        from .text import safe
        from .verbs import UsageError

        path = safe(str(file))
        data = gamefile.read_bytes(file)
        trust = gamefile.trust_of(data, str(file))
        try:
            doc = keys.read_key_file(keyfile.read_bytes())
        except keys.KeyStoreError as exc:
            raise UsageError(f"{safe(str(keyfile))}: {exc}") from None
        if doc["game"] != trust.game_id:
            raise UsageError(f"{safe(str(keyfile))} holds a key for another game, not {path}")
        player = doc["player"]
        if trust.keys.get(player) != doc["public_key"]:
            raise UsageError(f"{safe(str(keyfile))} holds a key for {safe(player)} that {path} does not name (the file "
                             f"has {', '.join(trust.keys) or 'no keys'})")
        keys.store(trust.game_id, player, signing_key=doc["signing_key"], secret=doc.get("secret"))
        print(f"imported {player}'s key for {path} into {safe(str(keys.home()))}")


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
        def note(start: gamefile.Start) -> None:
            from .components import describe_set

            custom = describe_set(start.components)
            if custom is not None:
                _err(f"agility: note: this game is played with a {custom}, not the shipped standard set")

        for row in audit.log_rows(data, str(file), note):
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
            from .gamefile import MAX_FILE_BYTES
            from .verbs import UsageError

            mail = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            if len(mail) > MAX_FILE_BYTES:
                raise UsageError(f"the input is more than {MAX_FILE_BYTES >> 20} MiB: not a mail of game lines")
            texts = [mail.decode("utf-8", "replace")]
        else:
            texts = [t for t in lines if t != "-"]
        from .text import safe

        report = audit.apply_lines(file, texts)
        if report.game is not None:
            _note_components(report.game)
        if quiet:
            return
        assert report.game is not None
        width = max(len(name) for name in report.game.header.players)
        if report.handshake:  # R40: the join (and the reveal that followed it) of the seed handshake
            print(f"added the seed handshake's {' and '.join(report.handshake)} line{'s' if len(report.handshake) > 1 else ''}"
                  f"{': the game has started' if 'reveal' in report.handshake else ''}")
            if report.reveal is not None:
                print(f"send this line (your reveal) to the other player:\n{report.reveal.decode()}")
        if report.applied:
            print(f"applied {len(report.applied)} line{'s' if len(report.applied) > 1 else ''} to {safe(str(file))}:")
            for n, m in report.applied:
                print("  " + audit.log_row(n, m, width).lstrip())
        elif not report.handshake:
            print(f"nothing new: {safe(str(file))} already holds every mailed line")
        if report.already and report.applied:
            print(f"skipped {len(report.already)} line(s) already in the file (n={report.already[0]}–{report.already[-1]})")
        if report.normalised:
            print(f"re-encoded line(s) n={', '.join(map(str, report.normalised))} as agility writes them (spacing changed in the mail)")
        if report.ignored:
            shown = "".join(f"\n  {safe(line, 72)}" for line in report.ignored[:8])
            more = f"\n  … and {len(report.ignored) - 8} more" if len(report.ignored) > 8 else ""
            _err(f"agility: ignored {len(report.ignored)} line(s) of text that are not game lines:{shown}{more}")
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

        from .text import safe

        report = audit.undo(file, as_player=as_player, all_turn=all_turn)
        width = max(len(name) for name in report.game.header.players)
        print(f"removed {len(report.removed)} line{'s' if len(report.removed) > 1 else ''} from {safe(str(file))}:")
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
def selfplay(
    games: int = typer.Option(100, "--games", "-n", help="How many games to play."),
    strategy: str = typer.Option("greedy", "--strategy", help="Strategy A: random or greedy."),
    vs: str = typer.Option("random", "--vs", help="Strategy B: random or greedy."),
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
        from . import guide

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
    from . import guide

    return [t.id for t in guide.topics() if t.id.startswith(incomplete.lower())]


def _width() -> int:
    """The terminal's width (80 when piped, unless COLUMNS says otherwise), at most 100."""
    import shutil

    return min(shutil.get_terminal_size((80, 24)).columns, 100)


def main() -> None:
    """Entry point of the ``agility`` script."""
    try:
        app()
    except Exception as exc:  # pragma: no cover - the boundary inside each command catches first
        _err(f"agility: internal error ({type(exc).__name__}: {exc})")
        sys.exit(EXIT_BUG)
