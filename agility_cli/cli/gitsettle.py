"""Play by git (``--git``): the game file's lines committed and pushed, the remote's pulled and
settled against this copy — a force-push, a rewrite, a fork, a line that does not verify, commits
that are not the game's — each said truly, with what to type next (R41, R42).  The commands that
go by git (``play --git``, ``move --git``, ``join``) call :func:`git_pull` before and
:func:`git_commit_push` after their decision."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import msgspec
import typer

from ..engine.notation import Refused
from ..record import gamefile, history, keys
from ..engine.moves import line_summary
from ..record.gamefile import GameFileError, decode_line
from ..table import session
from ..i18n import N_, _, ngettext
from ..said import Said, listing, message_of, said, tell as told
from .common import EXIT_REFUSED, err, fit, say


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

    from ..engine.view import PUBLIC
    from ..i18n import english

    public = {}
    with english():  # a commit message is read by git and by both players' tools: English
        views = log_views(data, "")

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
