"""What every command shares: the exit codes, the one error boundary, who is viewing (R39) with the
history check (R41), and the help texts of the common options."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional

import msgspec
import typer

from ..engine.components import Components, ComponentsError, describe_set
from ..engine.notation import Refused, UsageError
from ..engine.rules import RulesError
from ..engine.state import State
from ..record import gamefile, history, keys
from ..engine.moves import line_summary
from ..record.gamefile import Game, GameFileError, decode_line
from ..record.keys import DamagedKeyStore, KeyStoreError
from ..table import session
from ..table.screen import commands_to_copy, show_game, tell
from ..table.session import Viewer
from ..i18n import N_, _, ngettext
from ..said import Said, listing, message_of, os_words, said, tell as told
from ..text import safe_message
from .helptexts import ACCEPT_HELP as ACCEPT_HELP, AS_HELP as AS_HELP, CLUSTER_HELP as CLUSTER_HELP  # re-exported
from .helptexts import GIT_HELP as GIT_HELP, RESTORE_HELP as RESTORE_HELP, REVEAL_HELP as REVEAL_HELP

EXIT_REFUSED = 1


EXIT_USAGE = 2


EXIT_INVALID = 3


EXIT_BUG = 4


def err(message: str) -> None:
    """A message on stderr, made safe: names, paths and mailed text may hold escape sequences.
    On a terminal it is wrapped to the terminal's width (:func:`fit`: at words, a command in
    backticks kept whole); to a pipe or a file it is left as it is, for scripts to match."""
    text = safe_message(message.rstrip("\n"))
    if sys.stderr.isatty():
        import shutil

        text = fit(text, max(shutil.get_terminal_size((80, 24)).columns, 40))
    sys.stderr.write(text + "\n")


def say(message: str) -> None:
    """A note of several lines on stderr (:func:`err`), fitted to 80 columns (:func:`fit`)."""
    err(fit(message))


def fit(message: str, width: int = 80) -> str:
    """``message`` with each line too long for ``width`` columns wrapped at its words, going on
    under its own text (a numbered step under its words).  A command in backticks is never split,
    so that it can be copied whole."""
    import re
    import textwrap

    from ..table.layout import cell_len

    out = []
    for line in message.rstrip("\n").split("\n"):
        if cell_len(line) <= width:
            out.append(line)
            continue
        lead = re.match(r" *(\d+\. )?", line)
        indent = " " * (lead.end() if lead else 0)
        if not line.isascii():  # wide (CJK) characters: wrapped in terminal cells, between two of them
            from ..table.prose import wrap_cells

            out += wrap_cells(line, width, len(indent) or 2)
            continue
        glued = re.sub(r"`[^`]*`", lambda m: m.group().replace(" ", "\0"), line)
        out.append(textwrap.fill(glued, width, subsequent_indent=indent or "  ", break_long_words=False,
                                 break_on_hyphens=False).replace("\0", " "))
    return "\n".join(out)


def output_path(value: Optional[Path]) -> Optional[Path]:
    """A Typer callback for an option naming a file to write: refused at once (exit 2, before any
    work) when it has no file name, is a folder, or its folder is missing (``storage.check_output``)."""
    if value is None:
        return None
    from ..record.storage import check_output

    try:
        return check_output(value, "the path")
    except UsageError as exc:
        raise typer.BadParameter(safe_message(told(message_of(exc)))) from None


def handshake_text(file: Path, raw_line: bytes, sender: Optional[str], raw: bool) -> tuple[str, bool]:
    """What a handshake command (``new``, ``join``, a reveal) prints to send: the armoured block
    that ``agility send`` prints when standard output is a terminal (a raw line of several KB
    breaks in mail programs and fills the screen), the raw line with ``raw`` or to a pipe (scripts
    read it).  Returns the text and whether it is the block."""
    if raw or not sys.stdout.isatty():
        return raw_line.decode() + "\n", False
    from ..table import mailing

    return mailing.outgoing(file, sender).text(), True


def fail(code: int, message: str) -> NoReturn:
    err(message)
    raise typer.Exit(code)


@contextlib.contextmanager
def boundary() -> Iterator[None]:
    """Turn every library error into one clean message on stderr and an exit code."""
    try:
        yield
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        fail(130, _("agility: interrupted"))
    except BrokenPipeError:
        sys.stderr.close()
        raise typer.Exit(0) from None
    except Exception as exc:
        fail(*_error_report(exc))


def _error_report(exc: Exception) -> tuple[int, str]:
    """The exit code and message for an error (the error classes are imported only when needed)."""

    said = told(message_of(exc))  # in the language in use where the message was made to be (said.Said)
    if isinstance(exc, GameFileError):
        return EXIT_INVALID, _("agility: invalid game file: {error}").format(error=exc.told())
    if isinstance(exc, Refused):
        return EXIT_REFUSED, refusal_text(exc) + "\n" + _("the game file is unchanged")
    if isinstance(exc, UsageError):
        return EXIT_USAGE, _("agility: {error}").format(error=said)
    if isinstance(exc, ComponentsError):
        return EXIT_USAGE, _("agility: invalid components file: {error}").format(error=said)
    if isinstance(exc, RulesError):  # a setup's error names its ruling (R7: …), as str(exc) says it
        return EXIT_USAGE, _("agility: {error}").format(error=told(exc.told()) if exc.code.startswith("setup/") else said)
    if isinstance(exc, DamagedKeyStore):  # this machine's own record is wrong: exit 3, naming the file
        return EXIT_INVALID, _("agility: {error}").format(error=said)
    if isinstance(exc, KeyStoreError):
        return EXIT_USAGE, _("agility: {error}").format(error=said)
    if isinstance(exc, FileExistsError):
        return EXIT_USAGE, _("agility: {file} already exists; `new` never overwrites a game (choose another "
                             "name)").format(file=exc.filename)
    if isinstance(exc, OSError):
        return EXIT_USAGE, _("agility: {file}: {error}").format(file=exc.filename or "", error=told(os_words(exc)))
    if type(exc).__name__ in ("SealError", "SecretMismatch") and type(exc).__module__.startswith("agility_cli.record.sealed"):
        # R42: a check of the sealed deck that failed where no line could be named (the verifier
        # names the line and its writer wherever it can): the game cannot go on from this file,
        # which is no bug of this tool (the sealed deck is not imported here to test the class)
        return EXIT_INVALID, (f"agility: invalid game file: the sealed deck does not check ({exc}); the game "
                              "file is unchanged: restore it from your opponent's copy or from git (R42)")
    # A bug; still no traceback for the user.
    return EXIT_BUG, _("agility: internal error ({error}); please report it with the game file").format(
        error=f"{type(exc).__name__}: {exc}")


def print_json(obj: Any) -> None:

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def view_for(game: Game, as_player: Optional[str], reveal: bool = False, state: Optional[State] = None,
            whole: bool = True) -> Viewer:
    """Who is looking (R39; ``session.resolve_viewer``); warns on stderr when --reveal shows hidden cards."""

    try:
        viewer = session.resolve_viewer(game, as_player, reveal=reveal, state=state)
    except session.ViewerError as exc:
        raise UsageError(message_of(exc)) from None
    s = game.state if state is None else state
    if reveal and s.winner is None:
        err(_("agility: warning: --reveal shows every hidden card (both hands, face-down cards, the deck order) "
              "while the game is still being played"))
    if whole:  # the file as it stands, not cut at a line (show --at): compare it with what this machine saw
        history_notice(game)
    return viewer


def history_notice(game: Game) -> None:
    """R41: say on stderr when the file dropped lines this machine saw; else remember what it saw."""

    if not game.hashes:
        return
    if not game.trust.signed:
        session.remember(game)  # where the file is and when it changed (`agility games`)
        return
    rewrite = history.check(game.game_id, game.hashes)
    if rewrite is not None:
        err(_("agility: warning: {what}").format(what=rewrite.message(game.path)))
    else:
        session.remember(game)


def note_components(game: Game | Components) -> None:
    """On stderr, when the game is not played with the shipped component set: which set it is."""

    custom = describe_set(game if isinstance(game, Components) else game.components)
    if custom is not None:
        err(_("agility: note: this game is played with a {set}, not the shipped standard set; check that both "
              "players agreed on it").format(set=custom))


def refusal_text(exc: Any) -> str:
    """``agility: refused: WHY (agility rules R12)``, in the language in use (the guide says what the
    ruling is)."""
    if exc.rule:
        return _("agility: refused: {why} (agility rules {rule})").format(why=told(exc.message), rule=exc.rule)
    return _("agility: refused: {why}").format(why=told(exc.message))


def refuse_with_legal(path: str, state: State, exc: Any) -> NoReturn:
    lines = [refusal_text(exc)]
    if exc.legal:
        lines.append(_("legal now:"))
        lines += [f"  {command}" for command in commands_to_copy(path, state, exc.legal, 12)]
    lines.append(_("the game file is unchanged"))
    fail(EXIT_REFUSED, "\n".join(lines))


def check_line_number(option: str, value: Optional[int]) -> None:
    if value is not None and value < 1:

        raise UsageError(_("{option} counts lines of the file from 1 (line 1 is the header; decision n is line "
                           "n+1)").format(option=option))


def _tell_reveal(lines: list[bytes]) -> None:
    """R40: this command also wrote the creator's seed reveal, which the other player needs too."""
    if lines:
        err(_("your seed secret is revealed (R40): the game has started; the reveal line goes to the other player "
              "with your moves (`agility send` includes it)"))


def key_home() -> str:

    return str(keys.home())


def decider_view(game: Game, as_player: Optional[str], what: str, accept_rewrite: bool) -> Viewer:
    """The viewer, who must be the one to decide now (R39, R41), on a history this machine accepts."""

    try:
        viewer = session.resolve_viewer(game, as_player)
    except session.ViewerError as exc:
        raise UsageError(message_of(exc)) from None
    session.require_decider(game, viewer, what)
    session.check_history(game, accept=accept_rewrite)
    return viewer


def after_append(file: Path, out: Any, viewer: Viewer, quiet: bool) -> None:
    """What `move` and `bot` print after appending: the raw lines (-q), or the story and the board."""

    session.remember(out.game, [st.move for st in out.steps])
    if quiet:
        sys.stdout.write("".join(raw.decode() + "\n" for raw in [*out.handshake, *(st.raw for st in out.steps)]))
        return
    _tell_reveal(out.handshake)
    # The decider's view (in a game at one screen the player to act is someone else now).
    after = view_for(out.game, viewer.name if viewer.plays else None, whole=False)
    tell(out.steps, after)
    show_game(str(file), out.game, after)


def _git_failed(exc: Exception, note: str = "") -> NoReturn:
    """A git step that failed: what git said, fitted on stderr, and exit 1 (the game file may hold
    lines written before: only ``note`` says what became of them)."""
    say(_("agility: {error}").format(error=told(message_of(exc))) + note)
    raise typer.Exit(EXIT_REFUSED)


def git_pull(file: Path, *, restore: bool = False, accept: bool = False, ask: bool = False) -> None:
    """``--git``, before any decision is shown: refuse a half-done git operation, commit the lines
    the tool wrote and nothing committed, ``git fetch``, then settle the two copies of the game
    (:func:`gitsync.survey`): take the longer, push what the remote lacks, put back what it lost
    (``restore``, or the one-word answer ``restore`` when ``ask`` and standard input is a terminal:
    ``play``), or say how the copies forked and what to type."""
    from ..record import gitsync  # only for --git (start-up time)

    try:
        problem = gitsync.unfinished(gitsync.repository(file))
        if problem is not None:
            say(_("agility: {error}").format(error=told(problem)))
            raise Refused(said(N_("by git: a git operation is half done (see above)")), [], None, "git/unfinished")
        _commit_written(file)
        before = gamefile.read_bytes(file) if file.exists() else b""
        game_id = keys.game_id(before) if before.count(b"\n") else ""  # as the history record files it
        rec = history.load(game_id)
        found = gitsync.survey(file, rec.tip, rec.upstream)
        if found is None:
            return
        _settle(file, found, before, game_id, restore, accept, ask)
    except gitsync.GitError as exc:
        _git_failed(exc)


def _commit_written(file: Path) -> None:
    """Lines the tool wrote on a plain command (its keys, R44) and nothing committed: committed
    first, so that what the remote holds can be taken in around them."""
    from ..record import gitsync

    if not file.exists():
        return
    data = gamefile.read_bytes(file)
    head = gitsync.copy_at(gitsync.repository(file), "HEAD", file.name)
    if head is not None and data != head and data.startswith(head):
        _commit(file, data, head.count(b"\n") + 1)


def _span(first: int, last: int) -> Said:
    """``lines 78-83``: a said span of lines (English in a commit message, told on a screen)."""
    return said(N_("line {line}"), line=first) if first == last else \
        said(N_("lines {first}-{last}"), first=first, last=last)


def _whose(data: bytes, first: int, last: int) -> Said:
    """``lines 78-83 (alice's)``: lines ``first``..``last`` of a copy and who made them."""
    from ..table import session

    players = session.decision_players(data)
    names = list(dict.fromkeys(p for p in players[first - 2:last - 1] if p))
    span = _span(first, last)
    return said(N_("{span} ({names}'s)"), span=span, names=listing(names, N_(" and "))) if names else span


def _settle(file: Path, found: Any, before: bytes, game_id: str, restore: bool, accept: bool, ask: bool = False) -> None:
    from ..record import gitsync

    name, path = file.name, str(file)
    ours, theirs, common = found.ours, found.theirs, found.common
    n_ours, n_theirs = ours.count(b"\n"), theirs.count(b"\n")
    again = f"agility play {path} --git"
    head = _head(file)
    if found.joined:
        first = n_ours + 1
        say(_("agility: {file} held two forks of the game joined by a git merge (a union merge driver?): lines "
              "{first}-{last} came from the remote and stay there; your side is its first {n} lines").format(
            file=name, first=first, last=first + found.joined - 1, n=n_ours))
    if found.kind == "mend":
        gitsync.settle(file, ours, f"agility: {name} as your side of a merge that joined two forks")
        say(_("agility: {file} is your side again (lines 1-{n}), committed on top").format(file=name, n=n_ours))
    elif found.kind == "behind":
        _refuse_unverified(file, ours, theirs, game_id)
        done = gitsync.settle(file, theirs, f"agility: {name} as the remote has it (the other player's lines)")
        say(pulled_text(before, theirs, name) + ("" if done != "commit" else
            _(" (taken by a new commit on top of the remote: your own commits are kept)")))
    elif found.kind == "restore":
        lost = _whose(ours, common + 1, n_ours)
        where = _(" (found in commit {commit})").format(commit=found.source[:12]) if found.source else ""
        if not (restore or accept) and ask and sys.stdin.isatty():
            say(_("agility: {lines} of {file} are gone from the remote's copy; they still follow it{where}.").format(
                lines=told(lost), file=name, where=where))
            restore = _answer(_("Type restore to put them back as a new commit on top of the remote "
                                "(anything else stops):") + "\n> ") == "restore"
        if restore:
            gitsync.settle(file, ours, f"agility: {lost} of {name} put back on top of the remote")
            say(_("agility: {lines} of {file} put back{where}, as a new commit on top of the remote").format(
                lines=told(lost), file=name, where=where))
        elif accept:
            gitsync.settle(file, theirs, f"agility: {name} as the remote has it ({lost} accepted as dropped)")
            say(_("agility: {file} is the remote's copy now; {lines} stay in git's history{where}").format(
                file=name, lines=told(lost), where=where))
        else:
            how = (_("the other player's force-push or a rollback dropped them from the remote")
                   if found.dropped_upstream else _("your copy lost them (a rebase, a reset or a checkout)"))
            say(_("agility: {lines} of {file} are gone: {how}.  They still follow the remote's copy ({n} lines){where}.  "
                  "Put them back, as a new commit on top of the remote:\n  `{restore}`\nor take the remote's copy as "
                  "it is:\n  `{accept}`").format(lines=told(lost), file=name, how=how, n=n_theirs, where=where,
                                                 restore=f"{again} --restore", accept=f"{again} --accept-rewrite"))
            raise Refused(said(N_("by git: {span} missing from the remote (see above)"),
                               span=_span(common + 1, n_ours)), [], None, "git/restore")
    elif found.kind == "fork":
        _fork(file, found, restore, accept)
    history.note_upstream(game_id, gitsync.hashes(theirs))  # what the upstream holds, as settled
    settled = found.kind in ("restore", "fork", "mend") and _head(file) != head  # this tool's own commit
    if gitsync.game_unpushed(file) or (settled and gitsync.unpushed(gitsync.repository(file))):
        _push_and_tell(file, "")  # a commit on top (--restore, --accept-rewrite, a mend), or game lines
    else:
        _others_unpushed(file)


def _head(file: Path) -> str:
    from ..record import gitsync

    return gitsync.git(gitsync.repository(file), "rev-parse", "HEAD", check=False).stdout.strip()


def _refuse_unverified(file: Path, ours: bytes, theirs: bytes, game_id: str) -> None:
    """By git (R41, R42): the remote's new lines are verified before they are taken in.  A line of
    theirs that does not verify is refused: nothing is taken in or committed, the game file and the
    branch stay as they were, the line is kept as evidence in the data directory (``record.refused``)
    and the game waits for a valid line from its writer."""
    try:
        gamefile.load_bytes(theirs, str(file))
    except gamefile.HandshakePending:
        return
    except GameFileError as exc:
        line = exc.line or 0
        if line <= ours.count(b"\n") or not game_id:
            return  # not a new line of the remote's: the game's own read says what is wrong
        from ..record import refused

        raw = theirs.split(b"\n")[line - 1]
        who = (session.decision_players(theirs)[line - 2:line - 1] or [""])[0]
        refused.keep(game_id, raw, line=line, writer=who, reason=said(N_("it does not verify: {why}"), why=exc.message),
                     code="git/invalid", via="git")
        say((_("agility: the remote's line {line} of {file} ({name}'s) does not verify: {error}.  Nothing was taken "
               "in: {file} and your branch are as they were, and the line is kept here as evidence (`{command}`).  "
               "The game waits for a valid line from {name}") if who else
             _("agility: the remote's line {line} of {file} does not verify: {error}.  Nothing was taken in: {file} "
               "and your branch are as they were, and the line is kept here as evidence (`{command}`).  The game "
               "waits for a valid line")).format(line=line, file=file.name, name=who, error=told(exc.message),
                                                 command=f"agility show {file} --refused"))
        raise Refused(said(N_("by git: the remote's line {line} does not verify (see above)"), line=line), [], None,
                      "git/invalid") from None


def _answer(prompt: str) -> str:
    """One word typed at a terminal ("" at the end of input)."""
    try:
        return input(fit(prompt)).strip().lower()
    except EOFError:
        return ""


def kept_side(ours: bytes, theirs: bytes, common: int, ours_pushed_first: bool) -> tuple[bool, str]:
    """Which of two forked copies the rules keep (DECISIONS "Forks"): the one the other player
    has built on (lines of both players after the fork), else the one pushed first; in a sealed
    game never one that drops lines after which keys were released.  Whether ours, and why."""
    from ..table import session

    def built_on(data: bytes) -> bool:
        return len({p for p in session.decision_players(data)[common - 1:] if p}) > 1

    def released(data: bytes) -> bool:  # R42: a line beyond the fork that gives keys away
        for raw in data.split(b"\n")[common:]:
            try:
                seal = msgspec.json.decode(raw).get("seal") if raw.strip() else None
            except (msgspec.DecodeError, AttributeError):
                continue
            if isinstance(seal, dict) and any(seal.get(k) for k in ("open", "then", "window", "ahead")):
                return True
        return False

    keys_ours, keys_theirs = released(ours), released(theirs)
    if keys_ours != keys_theirs:
        return keys_ours, said(N_("keys were released after them (a sealed game never drops those)"))
    mine, remote = built_on(ours), built_on(theirs)
    if mine != remote:
        return mine, said(N_("the other player built on them"))
    return ours_pushed_first, said(N_("they were pushed first")) if ours_pushed_first else \
        said(N_("they were pushed first (yours never were)"))


def _fork(file: Path, found: Any, restore: bool, accept: bool) -> None:
    """Two copies that really forked: whose lines stand on each side, which the rules keep (the one
    the other player built on, else the first pushed), and the commands."""
    from ..record import gitsync

    name, path = file.name, str(file)
    ours, theirs, common = found.ours, found.theirs, found.common
    n_ours, n_theirs = ours.count(b"\n"), theirs.count(b"\n")
    keep_ours, why = kept_side(ours, theirs, common, found.dropped_upstream)
    a, b = _whose(ours, common + 1, n_ours), _whose(theirs, common + 1, n_theirs)
    if keep_ours and restore:
        gitsync.settle(file, ours, f"agility: the fork of {name} settled: your {a} kept on top of the remote")
        say(_("agility: your {ours} of {file} kept as a new commit on top of the remote; its {theirs} stay in git's "
              "history").format(ours=told(a), file=name, theirs=told(b)))
        return
    if not keep_ours and accept:
        gitsync.settle(file, theirs, f"agility: the fork of {name} settled: the remote's {b} kept")
        say(_("agility: the remote's {theirs} of {file} kept; your {ours} stay in git's history").format(
            theirs=told(b), file=name, ours=told(a)))
        return
    command = f"agility play {path} --git " + ("--restore" if keep_ours else "--accept-rewrite")
    forked = _("agility: the two copies of {file} forked after line {line}: yours has {ours}, the remote's {theirs}; "
               "nothing was merged.").format(file=name, line=common, ours=told(a), theirs=told(b))
    rules = (_("The rules keep yours: {why} (the remote's stay in git's history).") if keep_ours else
             _("The rules keep the remote's: {why} (yours stay in git's history).")).format(why=told(why))
    keep = _("Keep them, as a new commit on top of the remote:") + f"\n  `{command}`"
    say(_("{sentence}  {then}").format(sentence=forked, then=_("{sentence}  {then}").format(sentence=rules, then=keep)))
    raise Refused(said(N_("by git: the copies forked after line {line} (see above)"), line=common), [], None,
                  "git/fork")


def _others_unpushed(file: Path) -> None:
    """Commits the upstream lacks that hold no line of the game (made by hand, of another file):
    never pushed for the player (they are the player's own business), but said, with the command."""
    from ..record import gitsync

    folder = gitsync.repository(file)
    ahead = gitsync.unpushed(folder) if gitsync.has_upstream(folder) else []
    if ahead:
        say(ngettext("agility: note: {n} commit of yours ({first}) holds no new line of {file}: not pushed (agility "
                     "pushes the game's lines only).  Push it yourself:",
                     "agility: note: {n} commits of yours ({first}, …) hold no new line of {file}: not pushed "
                     "(agility pushes the game's lines only).  Push them yourself:", len(ahead)).format(
            n=len(ahead), first=ahead[0][:12], file=file.name) + "\n  `git push`")


def _push_and_tell(file: Path, span: str) -> None:  # span: a said span of lines (_span), or ""
    """``git push`` and say only what git did: "pushed" once the upstream holds HEAD, else the
    commits it lacks and the command that sends them."""
    from ..record import gitsync, history as _history

    what = _("{span} of {file}").format(span=told(span), file=file.name) if span else \
        _("the commits of {file}").format(file=file.name)
    if not gitsync.has_upstream(gitsync.repository(file)):  # issue 52: never "pushed" with nowhere to push
        say((_("agility: committed {what}; not pushed:").format(what=what) if span else _("agility: not pushed:")) + " " +
            _("your branch has no upstream (a repository without a remote?).  Name the shared "
              "repository once, then push:") + "\n  `git remote add origin URL`\n  `git push -u origin HEAD`")
        return
    left = gitsync.push(file)
    if left:
        said = ngettext("the remote does not hold {n} commit of yours yet ({first}): not pushed.  Your next `{again}` "
                        "pushes it, or now:", "the remote does not hold {n} commits of yours yet ({first}): not pushed."
                        "  Your next `{again}` pushes them, or now:", len(left)).format(
            n=len(left), first=left[0][:12], again=f"agility play {file} --git")
        say((_("agility: committed {what}, but {said}").format(what=what, said=said) if span else
             _("agility: {error}").format(error=said)) + "\n  `git push`")
        return
    data = gamefile.read_bytes(file)
    if data.count(b"\n"):
        _history.note_upstream(keys.game_id(data), gitsync.hashes(data))
    err(_("agility: pushed {what}").format(what=what) if not span else
        _("agility: committed and pushed {what}").format(what=what))


def pulled_text(before: bytes, after: bytes, name: str) -> str:
    """What a pull did to the game file, in true words: new lines at its end, or (a rewritten
    history: the remote's copy is shorter or differs in lines already here) what it changed."""
    came = after.count(b"\n") - before.count(b"\n")
    if came > 0 and after.startswith(before):
        return ngettext("agility: git brought {n} new line of {file}", "agility: git brought {n} new lines of {file}",
                        came).format(n=came, file=name)
    if came < 0:
        return ngettext("agility: git made {file} {n} line shorter: the remote's copy was rewritten (a force-push), "
                        "and lines this machine had are gone from it", "agility: git made {file} {n} lines shorter: "
                        "the remote's copy was rewritten (a force-push), and lines this machine had are gone from it",
                        -came).format(n=-came, file=name)
    return _("agility: git changed lines of {file} that were already here: the remote's copy was rewritten (a "
             "force-push)").format(file=name)


def _commit(file: Path, data: bytes, first: int, player: str = "") -> str | None:
    """Commit lines ``first``.. of the game file with a message naming the player and the decisions
    as the viewer-neutral log does (a face-down card is "a card face down"); the span, or None."""
    from ..record import gitsync

    rows = data.split(b"\n")[:-1]
    lines = rows[first - 1:]
    if not lines:
        return None
    last = first + len(lines) - 1
    span = _span(first, last)
    if not player:
        from ..table import session

        deciders = session.decision_players(data)
        player = deciders[-1] if deciders else ""
    try:
        said = "; ".join(_public_summaries(data, first, min(last, first + 5))) + ("; …" if len(lines) > 6 else "")
    except gamefile.HandshakePending:  # R40: the join before the reveal (issue 52: play --git joins)
        said = "the join of the seed handshake"
    gitsync.commit(file, f"agility: {player}, {span} of {file.name}: {said}")
    return span


def _public_summaries(data: bytes, first: int, last: int) -> list[str]:
    """Lines ``first``..``last`` told as ``agility log`` tells them to nobody in particular."""
    from ..table.logview import log_views

    public = {}
    views = log_views(data, "")
    from ..engine.view import PUBLIC

    for row in views.rows[PUBLIC]:
        number, rest = row.split(None, 1)
        who, what = (rest.split(None, 1) + [""])[:2]
        public[int(number)] = f"{who}: {what.strip()}"
    rows = data.split(b"\n")
    out = []
    for k in range(first, last + 1):
        if k in public:
            out.append(public[k])
            continue
        if k == 1:  # the header, no decision: a first commit of the game by --git (no KeyError)
            out.append("the new game")
            continue
        try:
            out.append(line_summary(decode_line(rows[k - 1])))
        except (GameFileError, IndexError):
            out.append("a line")
    return out


def git_commit_push(file: Path, player: str) -> None:
    """``--git``: commit the game's lines the last commit does not hold — this command's, and any
    the tool wrote on an earlier plain command (its keys, written by ``show``: R44) — with a message
    naming the player and the lines, push, and say "pushed" only when the upstream holds them."""
    from ..record import gitsync

    try:
        data = gamefile.read_bytes(file)
        span = _commit(file, data, gitsync.committed_lines(file) + 1, player)
        if span is None and not gitsync.game_unpushed(file):
            _others_unpushed(file)  # issue 52: a commit of another file is the player's to push: said
            return
        _push_and_tell(file, span or "")
    except gitsync.GitError as exc:
        _git_failed(exc, _(" (your lines are in {file}, committed or not: nothing is lost)").format(file=file.name))
