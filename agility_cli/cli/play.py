"""The commands where the computer thinks: play (the interactive loop), hint and bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional
import typer
import math
import os
import sys

from ..record.gamefile import Game
from ..engine.moves import Move
from ..table.session import Viewer
from ..engine import notation
from ..table import session
from ..record import gamefile
from ..engine.notation import UsageError, prefix_match
from ..i18n import N_, _
from ..said import listing, said
from .application import app
from .common import (
    ACCEPT_HELP,
    AS_HELP,
    REVEAL_HELP,
    after_append,
    boundary,
    decider_view,
    err,
    fail,
    print_json,
    view_for,
)
from ..table.hintview import hint_result, print_hint
from ..table.playloop import play_loop
from ..table.screen import catch_up, shell
from .common import EXIT_USAGE, GIT_HELP, RESTORE_HELP, output_path

#: The shortest wait between two checks of ``play --wait`` (``--every``), in seconds.
MIN_EVERY = 5
#: The longest a hint may think (``--seconds``): an hour.
MAX_SECONDS = 3600
from . import boardwait, distance  # games (and the mail's modules it reads): only for a play without FILE


@app.command(
    help=_(
        "Make the decisions of whoever must act with a seeded strategy, appending them like `move`.\n"
        "\n"
        "Every appended line is told in the replay's sentences, then the board (-q: only the lines).\n"
        "\n"
        "Example:  agility bot game.jsonl --strategy greedy --seed 7 --until-end"
    ),
)
def bot(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    strategy: str = typer.Option("greedy", "--strategy", help=_("random, greedy, or the search bot: strong1 (easy), strong2, strong3 = strong (the default).")),
    seed: int = typer.Option(0, "--seed", help=_("Seed of the bot's choices (deterministic).")),
    moves_: Optional[int] = typer.Option(None, "--moves", help=_("Make at most K decisions.")),
    until_end: bool = typer.Option(False, "--until-end", help=_("Play both seats until the game ends.")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print only the appended lines.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=_(ACCEPT_HELP)),
) -> None:
    with boundary():
        from ..players import bots  # here, not at the top: `play` starts without the bots' modules

        name = prefix_match(strategy, list(bots.STRATEGIES), "strategy")
        if moves_ is None and not until_end:
            moves_ = 1
        if moves_ is not None and moves_ < 1:
            raise UsageError(_("{option} must be at least 1").format(option="--moves"))
        limit = moves_ if moves_ is not None else 100_000

        holder: dict[str, Viewer] = {}
        made = [0, 0]  # decisions made, and whether the game is sealed (R42: one decision a line)

        def decide(game: Game) -> list[Move]:
            viewer = holder["viewer"] = decider_view(game, as_player, "`bot`", accept_rewrite)
            # R41: in a signed game between two people the bot decides only for the seat held here.
            only = viewer.seat if session.two_person_signed(game) else None
            made[1] = game.is_sealed
            seen = bots.seen_in_file(game) if bots.is_search(name) and not game.is_sealed else None  # R39
            return bots.play_out(game.state, name, seed, 1 if made[1] else limit, only, seen)

        while made[0] < limit:
            outcome = session.append(file, decide)
            after_append(file, outcome, holder["viewer"], quiet)
            made[0] += max(1, len(outcome.steps))
            if not made[1] or not outcome.steps or session.decider_now(outcome.game) != holder["viewer"].seat:
                break


@app.command(
    help=_(
        "Play interactively: what happened since your last decision, what bears on it, your choices numbered.\n"
        "\n"
        "On a terminal of 80x24 or more it is a full-screen board: the whole position always on screen,\n"
        "the story since your last decision and your choices (a number and Enter, or the arrows and\n"
        "Enter, or a click; Esc closes help, PgUp/PgDn scroll the story).  --plain, TERM=dumb, a pipe\n"
        "or a smaller terminal play line by line:\n"
        "each decision is one screen that fits the terminal; `board` shows the whole board, and a text\n"
        "taller than the terminal (the board, the news, the end of the game) comes a page at a time\n"
        "(Enter: the next page, q: stop; the end of the game ends with who won and how).  Type a\n"
        "number (1 is the first choice listed), the number and its options (`3 red`, `3 +1`, `5 red\n"
        "blue` for an exchange: a token is spent only when its options are typed), or the words of\n"
        "`agility move` (`play 3 red`).  Other words: help or ? (the current step explained), hint\n"
        "(the row the strong bot would choose), board, news, undo, quit.  Against a bot the whole game\n"
        "is played here; against a person it stops when they must act and says what to send.  One\n"
        "choice a line from standard input, so a pipe can drive it; end of input or Ctrl-C leave the\n"
        "file whole (every decision is written at once).  By mail, one command a turn:\n"
        "`agility play --mail ~/Maildir` reads the opponent's mail, shows it, takes your decision\n"
        "and sends the reply.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility new solo.jsonl --players alice bot:greedy && agility play solo.jsonl\n"
        "  printf '1\\n2 red\\nquit\\n' | agility play solo.jsonl\n"
        "  agility play solo.jsonl --plain\n"
        "  agility play game.jsonl --mail ~/Maildir --to bob@example.org"
    ),
)
def play(
    file: Optional[Path] = typer.Argument(None, metavar="[FILE]", help=_("The game file; none: the game that awaits you (`agility games` lists them).")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    reveal: bool = typer.Option(False, "--reveal", help=_(REVEAL_HELP)),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=_(ACCEPT_HELP)),
    use_git: bool = typer.Option(False, "--git", help=_(GIT_HELP)),
    message: Optional[str] = typer.Option(None, "--mail", metavar="SOURCE", help=_("First apply the opponent's mail from SOURCE — a mailbox (a Maildir folder, an mbox file such as \"$MAIL\", imaps://user@host/INBOX), a saved message, or - (standard input) — then, after your decision, print the reply and send it (see --to).  A mailbox is remembered for the game: a bare `agility play FILE` reads it again.  A mail server's whole exchange (connect, greeting, login, search, fetch, send) has a deadline of AGILITY_MAIL_TIMEOUT seconds (default 60).")),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help=_("Send the reply to ADDRESS (remembered for the game; without it, the address of the mail read is asked once).")),
    reply: Optional[Path] = typer.Option(None, "--reply", callback=output_path, metavar="FILE", help=_("Also write the reply to FILE (and send it as --mail does).")),
    restore: bool = typer.Option(False, "--restore", help=_(RESTORE_HELP)),
    wait: bool = typer.Option(False, "--wait", help=_("By git or a mailbox: check every --every seconds (a fetch, or the mailbox read again) until you have a decision or the game ends; keys your tool owes are sent meanwhile (Ctrl-C stops; the game stays whole).")),
    every: float = typer.Option(30.0, "--every", metavar="SECONDS", help=_("With --wait: seconds between two checks (default 30, at least 5).")),
    offline: bool = typer.Option(False, "--offline", help=_("With no FILE: choose the game awaiting you without reading any mailbox or remote over the network.")),
    plain: bool = typer.Option(False, "--plain", help=_("Line by line, not the full-screen board (for a screen reader; TERM=dumb does the same).")),
    local: bool = typer.Option(False, "--local", help=_("Play here only: no git, no mail (a game file committed in a git clone with a remote is otherwise played by git, as with --git).")),
) -> None:
    with boundary():

        if local:
            _local_alone(use_git, message, wait, restore, to, reply)
        if file is None:
            from . import games

            file, pushed = games.pick_game(message, offline or local)
            use_git = use_git or (pushed and not local)  # issue 52: the other's push waits: played by git
        every = _every(every, wait)
        if not os.path.lexists(file) and not _not_here(file, None if use_git else message or os.environ.get(
                "AGILITY_MAILBOX") or None, as_player, to, wait):
            return
        use_git = use_git or distance.git_forgotten(file, message, use_git, local)  # issue 52: --git forgotten
        source = None if local else distance.mail_source(file, message, use_git)
        _ways(file, use_git, source, restore, wait)
        seen = distance.take_in(file, use_git, source, as_player, accept_rewrite, restore)
        if (distance.git_handshake_done(file, as_player) if use_git else
                source is not None and distance.first_mail_awaited(file, source, as_player, to,
                                                                   every if wait else None)) and not wait:
            return  # issue 52: the handshake's join made and sent, or the other player's awaited, said
        waits = wait and boardwait.before(file, as_player, every, accept_rewrite, use_git, source, to, seen, plain)
        news = session.since_last(file)
        if accept_rewrite:  # R41: accepted here, so not warned about as if it were not
            session.check_history(news.game, accept=True)
        viewer = view_for(news.game, as_player, reveal)
        try:
            by = ("git" if use_git else "mailbox" if distance.is_mailbox(source) else
                  "mail" if source is not None or reply is not None else None)
            player = viewer.name if viewer.plays else None
            far = waits and boardwait.make(file, as_player, every, accept_rewrite, use_git, source, reply, to, seen, player)
            _play_here(file, news, viewer, accept_rewrite, by, plain, far or None)
            if far:
                boardwait.after(far, file, use_git, source)
            if not far or far.unsent:
                distance.send_out(file, use_git, source is not None, reply, player, to, seen)
        except KeyboardInterrupt:
            again = shell("agility", "play", str(file), *(["--as", viewer.name] if viewer.reason == "--as" else []))
            fail(130, f"\nagility: interrupted; the game is saved: go on with `{again}`")


def _ways(file: Path, use_git: bool, source: Optional[str], restore: bool, wait: bool) -> None:
    """``--restore`` needs git, ``--wait`` git or a mailbox (the ``--git`` forgotten counts: issue 52)."""
    if restore and not use_git:
        raise UsageError(_("--restore works by git: add --git ({command})").format(
            command=f"`{shell('agility', 'play', str(file), '--git', '--restore')}`"))
    if wait and not use_git and not distance.is_mailbox(source):
        raise UsageError(_("--wait works by git or a mailbox: add --git or --mail MAILBOX ({command})").format(
            command=f"`{shell('agility', 'play', str(file))} --mail ~/Maildir --wait`"))


def _not_here(file: Path, source: Optional[str], as_player: Optional[str], to: Optional[str], wait: bool) -> bool:
    """``play`` of a file that is not there: the first mail of a game (issue 52) — the invitation
    found in the mailbox is joined — else a usage error with the commands that start one.  True:
    joined with ``--wait``, which waits for the reveal and plays on, as asked."""
    if source is None:
        fail(EXIT_USAGE, _no_game(file))  # a usage error, not an invalid game
    from . import invite

    invite.join_from_mail(file, source, as_player, to)
    return wait and os.path.lexists(file)


def _local_alone(use_git: bool, message: Optional[str], wait: bool, restore: bool, to: Optional[str],
                 reply: Optional[Path]) -> None:
    """``--local`` (issue 52) plays here only: an option that reads or sends with it is refused."""
    given = [name for name, on in (("--git", use_git), ("--mail", message is not None), ("--wait", wait),
                                   ("--restore", restore), ("--to", to is not None), ("--reply", reply is not None))
             if on]
    if given:
        raise UsageError(said(N_("--local plays here only, without git or mail: leave out {options}"),
                              options=listing(given, N_(" and "))))


def _every(every: float, wait: bool) -> float:
    """``--every``: seconds above 0, at most an hour; with ``--wait`` at least :data:`MIN_EVERY`
    (issue 52: a server is not asked more often than that), said when raised."""
    if not (math.isfinite(every) and 0 < every <= 3600):
        raise UsageError(_("{option} is a number of seconds above 0 and at most {most}, not {value}").format(
            option="--every", most=3600, value=f"{every:g}"))
    if wait and every < MIN_EVERY:
        err(_("agility: --every {value}: checking every {n} s, the shortest wait between two checks").format(
            value=f"{every:g}", n=MIN_EVERY))
        return float(MIN_EVERY)
    return every


def _play_here(file: Path, news: session.News, viewer: Viewer, accept_rewrite: bool, by: Optional[str],
               plain: bool, far: Any = None) -> None:
    """The game played here: the full-screen board on a terminal of 80×24 at least (issue 51),
    else (a pipe, --plain, TERM=dumb, a small terminal: said in one line) the line mode.  ``far``:
    the board's wait for the other player (``--wait`` by mail or git: ``boardwait``)."""
    from ..table.board import match

    steps, heading = catch_up(news, viewer.name), news.heading(viewer.name)
    why = match.board_refused(plain)
    if why is not None:
        if why:
            print(why)
        play_loop(file, news.game, viewer, accept_rewrite, steps, heading, by=by)
        if far is not None:
            far.unsent = True  # sent after the loop, as without a wait
        return
    from ..table.board import app as board

    game = match.Match(file, news.game, viewer, accept_rewrite, steps, heading, by)
    game.distance = far
    try:
        board.Board(game).run()
    finally:
        closing = game.closing if far is None else boardwait.ended(far, game.closing)
        if closing:
            sys.stdout.write(closing)
            sys.stdout.flush()


def _no_game(file: Path) -> str:
    """`agility play` of a file that is not there: the commands that start one."""
    path = str(file)
    return "\n".join([
        f"agility: no game file {path}; start one:",
        "  against a person (a fair seed, made by you both):",
        f"    {shell('agility', 'new', path, '--players', 'YOU', 'THEM')}",
        "  alone, against the strong bot:",
        f"    {shell('agility', 'new', path, '--players', 'YOU', 'bot:strong')}",
        f"then {shell('agility', 'play', path)}",  # each command on a line of its own: whole at 80 columns
    ])


@app.command(
    help=_(
        "Suggest a decision for the player who must act now, from that player's view only.\n"
        "\n"
        "The strong bot searches the decisions open now, guessing the cards the player cannot see\n"
        "(never reading them), and prints its choice as the command to type, with its estimated\n"
        "chance of winning, and the runner-up.  When the search cannot tell the best two apart (their\n"
        "tries within a fair coin's noise: a lead of at most 2·√(tries of both)) it says they are about\n"
        "equal and names no best.  Reproducible unless --seconds is given.\n"
        "\n"
        "Example:  agility hint game.jsonl --as alice"
    ),
)
def hint(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    level: str = typer.Option("strong", "--level", help=_("Search level: strong1 (quick), strong2, strong3 = strong (the default).")),
    seconds: Optional[float] = typer.Option(None, "--seconds", help=_("Think this long (at most 3600) instead of the level's fixed number of simulations (not reproducible).")),
    as_json: bool = typer.Option(False, "--json", help=_("JSON: {player, simulations, best, runner_up, about_equal, ranked}.")),
) -> None:
    with boundary():
        from ..players import search

        name = prefix_match(level, list(search.LEVELS), "level")
        if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):  # nan, inf, 1e308
            raise UsageError(_("{option} is a number of seconds above 0 and at most {most} (an hour), such as 2 or "
                               "0.5, not {value}").format(option="--seconds", most=MAX_SECONDS, value=f"{seconds:g}"))
        game = gamefile.load(file)
        s = game.state
        if s.to_act is None:
            assert s.winner is not None
            raise UsageError(_("the game is over: {name} won; no decision is open").format(
                name=s.players[s.winner].name))
        waiting = session.awaited_text(game)
        if waiting is not None:  # R44: a sealed game paused for a player's keys: no decision is open yet
            raise notation.Refused(waiting, [], "R44", "sealed/waiting")
        seat = s.to_act
        player = s.players[seat].name
        viewer = view_for(game, as_player)
        if viewer.seat != seat:  # R39: the hint would tell the viewer what the player to act holds
            raise notation.Refused(said(N_("it is {player}'s decision now, not {viewer}'s: a hint is for the player "
                                           "to act"), player=player, viewer=viewer.name), [])
        result = hint_result(game, seat, name, seconds)
        if as_json:
            result.pop("seconds")
            print_json(result)
            return
        print_hint(result, file, s)
