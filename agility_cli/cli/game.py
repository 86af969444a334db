"""The commands of a game's life: new, show, legal, move, replay, log, undo, repair."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import msgspec
import typer

from .application import app
from .common import (
    handshake_text,
    ACCEPT_HELP,
    after_append,
    AS_HELP,
    boundary,
    check_line_number,
    decider_view,
    err,
    GIT_HELP,
    key_home,
    note_components,
    print_json,
    refuse_with_legal,
    REVEAL_HELP,
    say,
    view_for,
)
from .gitsettle import git_commit_push, git_pull
from ..i18n import N_, _, english, ngettext
from ..said import Said, tell as told
from ..engine import notation, rules
from ..engine.components import describe_set
from ..engine.moves import Move
from ..engine.notation import Refused, UsageError
from ..engine.state import public_state
from ..engine.view import seat_view
from ..record import gamefile, history, refused
from ..record.gamefile import Game
from ..table import evidence, session
from ..table.screen import catch_up, terminal_size, board_hints, legal_rows, paged, shell, show_board, show_game, tell, wrap80
from ..text import safe, shell_command

#: The width of replay's story written to a pipe or a file (a terminal gets its own width): what a
#: mail, a pager or a diff of two stories shows whole (issue 52).  ``--json`` is for programs.
PIPE_WIDTH = 80

if TYPE_CHECKING:  # the modules of the other commands are imported by them (start-up time)
    from ..table import newgame

# ----------------------------------------------------------------------------------------------


@app.command(
    help=_(
        "Create a game file and show the board.\n"
        "\n"
        "Without --seed, between two people, the seed is drawn jointly (fair play) and the deck is\n"
        "sealed: shuffled by both players' tools and encrypted, so that no hidden card can be read even\n"
        "by a modified client (--deck seed draws it from the joint seed instead).  The file holds your\n"
        "commitment and key; send it to the other player, who runs `agility join FILE`; your next\n"
        "command on the game reveals your secret, both tools deal the deck, and the game starts.\n"
        "Against a bot the seed is drawn here (this machine deals every card), and your lines are\n"
        "signed: play it with `agility play FILE`.  --seed N fixes the seed (demos, tests, one screen):\n"
        "an unsigned game; by mail, send what `agility send FILE` prints.  --to mails the invitation\n"
        "itself: the other player's `agility play FILE --mail MAILBOX` joins and mails the join back.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility new game.jsonl --players alice bob         # sealed, by mail or git\n"
        "  agility new g.jsonl --players alice bob --to bob@example.org --mail ~/Mail\n"
        "  agility new game.jsonl --players alice bob --deck seed  # deck from the seed\n"
        "  agility new solo.jsonl --players alice bot:strong  # against the computer\n"
        "  agility new game.jsonl --seed 42 --players alice bob --first random"
    ),
)
def new(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file to create (JSON Lines); never overwritten.")),
    seed: Optional[int] = typer.Option(None, "--seed", help=_("Seed of the game's PRNG (default: a random one, recorded).")),
    players: tuple[str, str] = typer.Option(("alice", "bob"), "--players", help=_("The two names in seat order; a seat named `bot:random`, `bot:greedy`, `bot:strong` (or the easier `bot:strong1`, `bot:strong2`) is a computer player.")),
    first: str = typer.Option("A", "--first", help=_("Start player: a name, A (first seat), B, or random.")),
    board: str = typer.Option("recommended", "--board", help=_("recommended, random-a, random-b, or a LAYOUT: nine tiles for spaces 1–9, comma separated.")),
    components: Optional[Path] = typer.Option(None, "--components", help=_("A components file (JSON or TOML) with the real card, dog and course values; embedded in the header.")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print only the header line.")),
    raw: bool = typer.Option(False, "--raw", help=_("Print the header line to mail as it is, not the block `send` prints (as to a pipe).")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_("Whose seat you are (also AGILITY_PLAYER; default: the first player): your key is made for that seat.")),
    deck: Optional[str] = typer.Option(None, "--deck", help=_("Between two people: sealed (the default: shuffled jointly and encrypted, so no client can read a hidden card, whatever code it runs; file format 4, binding shuffle proofs) or seed (the deck drawn from the joint seed: smaller files and no waits, but a modified client can compute every hand; format 2).")),
    window: int = typer.Option(2, "--window", help=_("A sealed game's window K, 0-4: the most upcoming cards of its own a modified client could read early; larger means fewer waits for the other player's keys.")),
    to: Optional[str] = typer.Option(None, "--to", metavar="ADDRESS", help=_("Between two people: mail the invitation to ADDRESS (as `play --mail` sends its replies) instead of printing it; remembered for the game.")),
    mailbox: Optional[str] = typer.Option(None, "--mail", metavar="MAILBOX", help=_("With --to: the mailbox the other player's mail comes to (a Maildir, an mbox, imaps://user@host/INBOX), remembered: a bare `agility play FILE` reads it.")),
) -> None:
    with boundary():
        from ..table import newgame

        from . import invite

        if to is not None:
            invite.check_address(to)
        if mailbox is not None and to is None:
            raise UsageError(_("--mail MAILBOX goes with --to ADDRESS: the mailbox where the other player's "
                               "answer to the mailed invitation comes"))
        if mailbox is not None:
            invite.check_mailbox(mailbox)
        plan = newgame.plan(seed=seed, players=players, first=first, board=board, components=components,
                            as_player=as_player, deck=deck, window=window)
        if plan.components is not None:
            note_components(plan.components)
        if to is not None and not plan.handshake:
            raise UsageError(_("--to mails the invitation of a game between two people with a seed drawn "
                               "jointly (no --seed, no bot)"))
        if plan.handshake:
            made_raw = newgame.create_fair(file, plan)
            if to is not None:
                creator, names = plan.creator or plan.names[0], plan.names
                invite.mail_invitation(file, creator, names[1] if creator == names[0] else names[0], to, mailbox)
                return
            _created_fair(file, plan, made_raw, quiet, raw)
            return
        made = newgame.create(file, plan)
        if as_player in plan.names and len(plan.humans) == 2 and not made.game.trust.signed and made.game.hashes:
            history.learn_seat(made.game.hashes[0], as_player)  # R41: said, a seat is its machine's (issue 50)
        if quiet:
            sys.stdout.write("".join(line.decode() + "\n" for line in [made.header_line, *made.lines]))
            return
        _created(file, plan, made)


def _created_fair(file: Path, plan: newgame.Plan, raw: bytes, quiet: bool, raw_line: bool = False) -> None:
    """``new`` of a fair game: what to send (the block ``send`` prints, on a terminal; the header
    line itself with ``--raw``, ``-q`` or to a pipe), and the steps of the handshake (R40)."""
    creator, names = plan.creator, plan.names
    other = names[1] if creator == names[0] else names[0]
    text, block = handshake_text(file, raw, creator, raw_line or quiet)
    sys.stdout.write(text)
    if quiet:
        return
    path = safe(str(file))
    send = shell_command(['agility', 'send', str(file)])
    what = _("the block above, as it is") if block else _("what `{command}` prints").format(command=send)
    if plan.window is not None:
        head = _("created {file}: a fair game, {creator} (you) vs {other}; the seed is drawn jointly (R40), the deck "
                 "sealed (R42, window {window}).")
    else:
        head = _("created {file}: a fair game, {creator} (you) vs {other}; the seed is drawn jointly (R40).")
    steps = _(
        "  1. send {other} the file {file}: by mail, {what} (`new --to ADDRESS` mails it itself); by git, commit and "
        "push it\n"
        "  2. {other} runs `{play_mail}` (or `{play_git}`), which joins and sends the join back (`{join}` joins only)\n"
        "  3. your next `{play}` reveals your secret, and the game starts\n"
        "  your key for this game is kept in {home}; back it up with `{export}`")
    say(head.format(file=path, creator=creator, other=other, window=plan.window) + "\n" + steps.format(
        other=other, file=path, what=what, play_mail=shell_command(['agility', 'play', str(file), '--mail', 'MAILBOX']),
        play_git=shell_command(['agility', 'play', str(file), '--git']), join=shell_command(['agility', 'join', str(file)]),
        play=shell_command(['agility', 'play', str(file)]), home=safe(key_home()),
        export=shell_command(['agility', 'key', 'export', str(file)])))


def _created(file: Path, plan: newgame.Plan, made: newgame.Created) -> None:
    """``new`` of a game that has started: what was decided at once, the board, what to do next."""
    game, names = made.game, plan.names
    if len(plan.humans) == 1:  # a solo game: who plays whom, who starts, and where the file is, in a line
        human = plan.humans[0]
        bot = names[1] if names[0] == human else names[0]
        err(_("created {file}: you ({human}) against {bot}, {first} starts (seed {seed})").format(
            file=safe(str(file.resolve())), human=safe(human), bot=safe(bot), first=safe(game.header.first),
            seed=game.header.seed))
    else:
        said = _("created {file} (seed {seed}); {first} starts").format(file=file, seed=game.header.seed,
                                                                         first=game.header.first)
        if game.trust.signed:
            said += _("; your lines are signed")
        if plan.host_signs:  # R42: a sealed deck needs two players' tools; the host deals here, and says so
            said += _("; the deck is not sealed (this machine deals every card, as it plays the bot)")
        err(said)
    viewer = view_for(game, plan.creator)
    tell(made.steps, viewer)
    show_board(str(file), game.state, viewer)
    if len(plan.humans) == 2:  # a --seed game between two people, by mail
        sender = viewer.name if viewer.seat is not None else names[0]
        other = names[1] if sender == names[0] else names[0]
        err(_("by mail: send {other} the game so far — `{send}` prints it; {other} runs `{apply}` and pastes it (that "
              "creates their copy)").format(other=other, send=shell('agility', 'send', str(file), '--as', sender),
                                            apply=shell('agility', 'apply', file.name, '-')))
    else:
        err(_("play it: {command}").format(command=shell('agility', 'play', str(file))))


@app.command(
    help=_(
        "Replay and verify the game; say what the opponent did since your last decision; show the board.\n"
        "\n"
        "Everything is shown as one player sees it (their own hand, not the opponent's).  On a\n"
        "terminal, a text taller than it goes through your pager ($PAGER, else less -R).  A line of\n"
        "the opponent's that was refused here is named below the board (--refused: all of them).\n"
        "\n"
        "Example:  agility show game.jsonl --at 12"
    ),
)
def show(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_json: bool = typer.Option(False, "--json", help=_("Print the state as one JSON object, as the viewer sees it (players, courses, board, display …).")),
    at: Optional[int] = typer.Option(None, "--at", help=_("Show the game as it was after line N of the file (1 = the header); a finished, audited sealed game: every card named.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    reveal: bool = typer.Option(False, "--reveal", help=_(REVEAL_HELP)),
    refused_lines: bool = typer.Option(False, "--refused", help=_("List the opponent's lines this machine refused, kept as evidence (who, when, why).")),
    refusal: Optional[int] = typer.Option(None, "--refusal", metavar="K", help=_("Print the K-th refused line whole (--refused lists them).")),
) -> None:
    with boundary():
        if refused_lines or refusal is not None:
            _show_refused(file, as_json, refusal)
            return
        check_line_number("--at", at)
        news = session.since_last(file, upto=at)
        game = news.game
        if at is not None and at > game.lines:

            raise UsageError(_("--at {at}: {file} has only {n} lines").format(at=at, file=file, n=game.lines))
        # R39/R42: a moment of a finished, audited sealed game is seen whole, as the game is
        viewer = view_for(news.whole or game, as_player, reveal, whole=at is None)
        if as_json:
            out = session.state_json(game, viewer.view_seat)
            out["viewer"] = viewer.name
            out["complete_view"] = viewer.complete
            kept = evidence.summary(game.game_id)  # R42: the last refused line, when one was
            if kept is not None:
                out["refused"] = kept
            print_json(out)
            return
        steps = catch_up(news, viewer.name)
        with paged():  # issue 32: taller than the terminal, through a pager
            if steps:
                tell(steps, viewer, news.heading(viewer.name))
            show_game(str(file), game, viewer)
            for row in evidence.last_line(game.game_id, str(file)):
                print(row)


def _show_refused(file: Path, as_json: bool, k: Optional[int]) -> None:
    """``show --refused`` and ``--refusal K`` (R42): the lines refused here, kept as evidence; read
    by the game id in the file's first line, so a damaged file's are listed too."""
    from ..record import keys

    game_id = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    if k is None:
        found = refused.kept(game_id)
        if as_json:
            print_json([evidence.as_json(e, i, whole=False) for i, e in enumerate(found, 1)])
        else:
            sys.stdout.write("".join(row + "\n" for row in evidence.listing(game_id, str(file))))
        return
    chosen = evidence.pick(game_id, k)
    if as_json:
        print_json(evidence.as_json(chosen, k, whole=True))
        return
    sys.stdout.write("".join(row + "\n" for row in evidence.whole(chosen, k, len(refused.kept(game_id)))))


@app.command(
    help=_(
        "List your legal decisions now, grouped, as `agility move` words (fits 80 columns).\n"
        "\n"
        "Only the viewer's own decisions are listed; when the opponent must act, it says whose\n"
        "decision it is and what (R39).  --json: every decision as {player, argv, text}.\n"
        "\n"
        "Example:  agility legal game.jsonl --json"
    ),
)
def legal(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_json: bool = typer.Option(False, "--json", help=_("A JSON array of {player, argv, text}.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    reveal: bool = typer.Option(False, "--reveal", help=_(REVEAL_HELP)),
) -> None:
    with boundary():

        game = gamefile.load(file)
        s = game.state
        viewer = view_for(game, as_player, reveal)
        waiting = session.awaited_text(game)  # R44: a sealed game paused for a player's keys
        mine = s.winner is None and waiting is None and (viewer.complete or s.to_act == viewer.seat)
        if as_json:
            print_json(notation.legal_json(s) if mine else [])
            return
        if s.winner is not None:
            print(_("The game is over: {name} won. No decision is open.").format(name=s.players[s.winner].name))
            return
        if waiting is not None:
            print(told(waiting))
            return

        assert s.to_act is not None
        who = safe(s.players[s.to_act].name)
        out: list[str] = []
        custom = describe_set(game.components)
        if custom is not None:
            out.append(_("(a {set})").format(set=custom))
        if not mine:
            out.append(_("[{view}] It is {name}'s decision: {name} to {what}.").format(
                view=viewer.label(), name=who, what=told(rules.awaited(s))))
            out += [f"  {hint}" for hint in board_hints(str(file), s, viewer)[1:]]
        else:
            out.append(_("[{view}] {name} to {what} — one command a decision; options go after its words (play 3 "
                         "red +1):").format(view=viewer.label(), name=who, what=told(rules.awaited(s))))
        sys.stdout.write("".join(wrap80(line) for line in out))
        if mine:
            sys.stdout.write(legal_rows(str(file), s))


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    help=_(
        "Check a decision against the rules and append it as one line.\n"
        "\n"
        "Then every appended line is told in the replay's sentences (decisions with a single legal\n"
        "option that follow are recorded at once, and a bot seat makes its whole turn at once), and\n"
        "the board is shown.  -q prints only the raw lines; `agility send FILE` prints what to mail.\n"
        "\n"
        "\b\n"
        "Verbs.  A verb, colour, dog or tile may be shortened (a dog by any word\n"
        "of its name: husky).  CARD: a card's number or id (t07).  COURSE: a\n"
        "course id (4A) or #N, the Nth course on the board.  Obstacles count\n"
        "from 1 along the course.\n"
        "  play CARD [--reward COLOUR] [--flex N]  play a card; --flex=-2 shifts back\n"
        "  play CARD COLOUR [+N|-N]                the same, shorter\n"
        "  reward COLOUR                           the reward, after the action\n"
        "  adopt DOG --course COURSE               adopt a dog from the display\n"
        "  advance COURSE [--spare COLOUR]         a dog clears the obstacle it faces\n"
        "  done                                    end adopting and moving dogs\n"
        "  take CARD                               a display card (refill, Break)\n"
        "  exchange FROM TO                        spend an Exchange token\n"
        "  break 1|2, return COLOUR                the Break tile: declare, return,\n"
        "  put-back CARD, draw                       put back, draw (or take CARD)\n"
        "  boost-action, boost-cube COLOUR         the Boost tile: option A or B\n"
        "  distract COURSE OBSTACLE COLOUR         Distraction: a +1 marker\n"
        "  rush COURSE                             Rush: a Rush marker\n"
        "  slip COURSE AFTER                       Slip: open ground after AFTER\n"
        "  inspire COLOUR                          take an Inspiration cube\n"
        "  discard CARD                            Intimidation: discard a card\n"
        "  prize flex|exchange                     choose a prize token\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility move game.jsonl play 3 --reward red\n"
        "  agility move game.jsonl play t07 --reward blue --flex=-2\n"
        "  agility move game.jsonl adopt golden --course 4A\n"
        "  agility move game.jsonl advance 2B --spare blue\n"
        "  agility move game.jsonl take 5\n"
        "  agility move game.jsonl done"
    ),
)
def move(
    ctx: typer.Context,
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    verb: str = typer.Argument(..., metavar="VERB", help=_("The decision's verb (list below), then its words.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print only the appended line(s), for machines and mail.")),
    accept_rewrite: bool = typer.Option(False, "--accept-rewrite", help=_(ACCEPT_HELP)),
    use_git: bool = typer.Option(False, "--git", help=_(GIT_HELP)),
) -> None:
    with boundary():

        words = [verb, *ctx.args]
        holder: dict[str, Any] = {}
        if use_git:
            git_pull(file, accept=accept_rewrite)

        def decide(game: Game) -> list[Move]:
            viewer = holder["viewer"] = decider_view(game, as_player, "`move`", accept_rewrite)
            ended = session.verdict_of(game)
            if ended is not None and ended[0] is not None and game.state.winner is None:  # R42: an abort ended it
                raise Refused(_aborted(game, ended[0], ended[1]), [], "R42", "sealed/aborted")
            holder["state"] = game.state
            chosen = notation.parse(game.state, words)
            return [chosen, *session.automatic(game, chosen)]

        try:
            out = session.append(file, decide)
        except Refused as exc:
            if "state" in holder and exc.legal:
                refuse_with_legal(str(file), holder["state"], exc)
            raise
        after_append(file, out, holder["viewer"], quiet)
        if use_git:
            git_commit_push(file, holder["viewer"].name)


@app.command(
    help=_(
        "Verify every line (schema, sequence, hash chain, owner, legality, digest) and narrate the game.\n"
        "\n"
        "The narration and --json show the game as one player sees it (R39); once the game is over,\n"
        "every view is complete (a sealed game, once both seal secrets are published: every card of\n"
        "every line named).  Lines are numbered as in the file (line 1 is the header).  On a terminal,\n"
        "a story taller than it goes through your pager ($PAGER, else less -R).\n"
        "\n"
        "Example:  agility replay game.jsonl --to 40"
    ),
)
def replay(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_json: bool = typer.Option(False, "--json", help=_("JSON Lines: {line, state} then {line, move, state} per line.")),
    to: Optional[int] = typer.Option(None, "--to", help=_("Stop after line N of the file (1 = the header).")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    reveal: bool = typer.Option(False, "--reveal", help=_(REVEAL_HELP)),
) -> None:
    with boundary():

        check_line_number("--to", to)
        data = gamefile.read_revealed(file)
        # The viewer is found on the game as it stands (the last line), as for `show`.
        game = gamefile.load_bytes(data, str(file))
        viewer = view_for(game, as_player, reveal)
        if not as_json and (viewer.revealed or not viewer.complete):
            err(_("agility: replay as {view}").format(view=viewer.label()))
        from ..table.replay import story as replaying

        lines = (replaying.json_lines if as_json else replaying.story)(data, str(file), viewer.view_seat, to, game)
        if not as_json:  # each sentence within the terminal's width; to a pipe, 80 columns (issue 52)
            lines = replaying.wrapped(lines, terminal_size()[0] if sys.stdout.isatty() else PIPE_WIDTH)
        if as_json:
            for line in lines:
                sys.stdout.write(line + "\n")
            return
        with paged():
            for line in lines:
                sys.stdout.write(line + "\n")


@app.command(
    "log",
    help=_(
        "Print the decisions compactly, one a line: line number, player, decision (verifying as it goes).\n"
        "\n"
        "Numbers are lines of the file (line 1 is the header), as in `show --at`, `replay --to`,\n"
        "`undo` and every narration.  A card played or discarded face down by the opponent shows\n"
        "as such (R39).  Works on a game in progress.  On a damaged file the verified decisions are\n"
        "printed, then the first bad line is reported (exit 3).  On a terminal, a log taller than it\n"
        "goes through your pager ($PAGER, else less -R).\n"
        "\n"
        "Example:  agility log game.jsonl | tail -5"
    ),
)
def log_(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    reveal: bool = typer.Option(False, "--reveal", help=_(REVEAL_HELP)),
) -> None:
    with boundary():

        from ..table import logview

        data = gamefile.read_revealed(file)
        views = logview.log_views(data, str(file))
        if views.header is None or views.state is None:
            assert views.error is not None
            raise views.error
        hashes, deciders = gamefile.chain_of(data, views.lines)
        game = gamefile.Game(str(file), views.header, gamefile.header_components(views.header), views.state,
                             views.lines, views.tip, views.trust, hashes, deciders)
        note_components(game)
        sealed = None
        if views.error is None and views.header.sealed is not msgspec.UNSET:
            # R42: a sealed game's verdict (an abort, a failed audit) and the format-3 warning need
            # its deck: read from this machine's checkpoint when it covers the file
            sealed = gamefile.load(file)
            session.warn_sum_only(sealed)
        viewer = view_for(game, as_player, reveal)
        rows = views.rows[viewer.view_seat]
        found = session.verdict_of(sealed) if sealed is not None else None
        if found is not None:
            said = _("verdict: {name} wins: {why}").format(name=found[0], why=found[1]) if found[0] else \
                _("verdict: {why}").format(why=found[1])  # R42
            rows = [*rows, said]
        if rows:
            with paged():
                sys.stdout.write("\n".join(rows) + "\n")
                sys.stdout.flush()
        if views.error is not None:
            raise views.error


@app.command(
    help=_(
        "Take back your last decision in the current turn, if nothing hidden was revealed since.\n"
        "\n"
        "Removes the acting player's last decision together with the forced lines recorded after it\n"
        "(single legal options, which `move` appends by itself); --all-turn goes back to the turn's\n"
        "first decision.  Refused (exit 1, file unchanged) if a card or dog was turned up or the deck\n"
        "reshuffled since, and it never removes the opponent's lines or an earlier turn's.  Use it only\n"
        "for lines you have not sent yet.  The lines taken back are told as the replay tells them\n"
        "(numbered as lines of the file), then the board.\n"
        "\n"
        "Example:  agility undo game.jsonl"
    ),
)
def undo(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
    all_turn: bool = typer.Option(False, "--all-turn", help=_("Take back every decision of this turn so far, not only the last.")),
) -> None:
    with boundary():

        viewer = view_for(gamefile.load(file), as_player)
        if not viewer.plays:

            raise UsageError(_("this machine holds no key of this game: undo takes back only your own decisions"))
        from ..record import repair as repair_

        report = repair_.undo(file, actor=viewer.name, all_turn=all_turn)
        session.remember(report.game, accept=True)  # this machine's own change: it never raises the alarm
        viewer = view_for(report.game, viewer.name, whole=False)
        print(ngettext("removed {n} line from {file}:", "removed {n} lines from {file}:", len(report.removed)).format(
            n=len(report.removed), file=safe(str(file))))
        for (line, raw, m), (before, after) in zip(report.removed, report.states):
            step = session.Step(line, raw, m, before, after)
            print(_("  line {line}: {sentence}").format(line=line, sentence=session.sentence(step, viewer.view_seat)))
        show_game(str(file), report.game, viewer, now=True)


@app.command(
    help=_(
        "Remove an incomplete last line left by an interrupted write, keeping a backup FILE.bak.\n"
        "\n"
        "Every line before it is verified first.  A last line that is complete but lacks its newline\n"
        "gets the newline instead (no decision is lost).  Any other damage is reported (exit 3) and\n"
        "left alone; exit 0 with a note when there is nothing to repair.\n"
        "\n"
        "Example:  agility repair game.jsonl"
    ),
)
def repair(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    force: bool = typer.Option(False, "--force", help=_("Overwrite an existing FILE.bak.")),
) -> None:
    with boundary():

        from ..record import repair as repair_

        report = repair_.repair(file, force=force)
        print(report.text(str(file)))


def _aborted(game: Game, winner: str, why: str) -> Said:
    """R42: the refusal of a decision after an abort ended the game: the verdict in English for a
    program, told in the language in use (``why``, the verdict as :func:`session.verdict_of` says it)."""
    with english():
        found = session.verdict_of(game)
    return Said(f"the game is over: {winner} wins ({found[1] if found else why})",
                N_("the game is over: {name} wins ({why})"), {"name": winner, "why": why})
