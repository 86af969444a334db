"""``apply``: mailed lines (found by :mod:`.find`) that continue the file's tip are verified and
appended (R41: never a line in the recipient's name); a line a mail program damaged is taken once
mended, with a note."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .find import Incoming, damage_message, decode_mailed, mail_damage, mail_repairs, mailed_lines, unheld
from .. import gamefile, keys
from ...engine import rules
from ..gamefile import Game, GameFileError, Pending, line_hash
from ...engine.moves import ENCODER, LINE_DECODER, Header, Move, line_summary, summary
from ...engine.state import State
from ...i18n import N_
from ...said import Said, message_of, said
from ...text import quoted, safe, shell_command
from ...engine.notation import Refused, UsageError



def _refuse(message: str, code: str) -> Refused:
    return Refused(message, [], None, code)  # the CLI's boundary adds "the game file is unchanged"


@dataclass
class ApplyReport:
    applied: list[tuple[int, Move]] = field(default_factory=list)  # (n, move)
    keys: list[int] = field(default_factory=list)  # n of mailed keys lines of a sealed game (R44): no decision
    #: the lines this machine's tool wrote at once after the mailed ones (a sealed game's keys or
    #: passes it owes, a forced decision, R44): (n, what the line is)
    own: list[tuple[int, str]] = field(default_factory=list)
    #: the applied lines as verified: (line number, bytes, move, state before, state after), to narrate
    steps: list[tuple[int, bytes, Move, State, State]] = field(default_factory=list)
    already: list[int] = field(default_factory=list)  # n of lines the file held already
    normalised: list[int] = field(default_factory=list)  # n of lines re-encoded canonically
    ignored: list[str] = field(default_factory=list)  # text lines that are not game lines
    game: Game | None = None
    handshake: list[str] = field(default_factory=list)  # "join" / "reveal" lines added (R40)
    reveal: bytes | None = None  # the reveal line this machine made (to send to the other player)
    notes: list[str] = field(default_factory=list)  # what the mail program changed, and was mended or ignored
    from_block: bool = False  # the lines came in an armoured block: the prose around it is the summary


def apply_lines(path: str | Path, texts: list[str], as_player: str | None = None,
                recipient: str | None = None, incoming: Incoming | None = None) -> ApplyReport:
    """Append mailed lines that continue the file's tip; skip those it holds; refuse the rest.

    ``texts`` is raw mail text (one or more strings).  Raises :class:`UsageError` if it holds no
    game line, :class:`Refused` (exit 1, file unchanged) if a line does not fit or does not verify.

    Nobody can move for you, signed or not: a mailed line that is the recipient's own decision
    (not forced by the rules) is refused (R41).  The recipient is ``recipient`` (the viewer, found
    by the caller: the seat whose key is held here, or in an unsigned game the seat this machine
    has played), else ``as_player``, else ``AGILITY_PLAYER``, else the one seat whose key this
    machine holds.  A mail whose new lines decide for both seats is refused whoever receives it.
    A mailed ``join`` line of a game waiting for it is added, and the creator's reveal follows at
    once when this machine holds the creator's secret (R40).
    """
    name = str(path)
    found, ignored = (incoming.found, incoming.ignored) if incoming is not None else mailed_lines("\n".join(texts))
    damaged = incoming.damaged if incoming is not None else []
    if not found and not damaged:
        unread = incoming.unread() if incoming is not None else ""
        if unread:
            raise UsageError(said(N_("no game line in the input (not read: {unread}): paste the lines your opponent "
                                     "mailed (JSON objects starting with {kind}), as arguments or on standard input"),
                                  unread=unread, kind='{"kind": …}'))
        raise UsageError(said(N_("no game line in the input: paste the lines your opponent mailed (JSON objects "
                                 "starting with {kind}), as arguments or on standard input"), kind='{"kind": …}'))
    report = ApplyReport(ignored=ignored, from_block=incoming is not None and incoming.blocks > 0)

    def change(data: bytes) -> tuple[int, bytes] | None:
        report.applied.clear()
        report.keys.clear()
        report.own.clear()
        report.steps.clear()
        report.already.clear()
        report.normalised.clear()
        report.handshake.clear()
        report.reveal = None
        game: Game | Pending
        try:
            game = report.game = gamefile.load_bytes(data, name)
        except gamefile.HandshakePending as exc:  # R40: the join (or the reveal) is still to come
            game = exc.pending
        ours = data.split(b"\n")[:-1]
        block_id = line_hash(ours[0])[:8] if ours else ""
        incoming: dict[int, tuple[bytes, Any]] = {}
        stale: list[tuple[int, str]] = []  # copies of lines the file holds, changed on the way
        forks: dict[int, tuple[bytes, Any]] = {}
        for index, text in enumerate(found, 1):
            decoded = decode_mailed(text, index)
            if decoded is None:
                continue  # a damaged line, kept for the message if the rest does not chain (below)
            text, raw, record = decoded
            if isinstance(record, Header):
                if ENCODER.encode(record) == ours[0] or raw == ours[0]:
                    continue  # the header of this very game: nothing to add
                raise _refuse(said(N_("the mail holds the header of a different game ({theirs}); {file} is {ours}"),
                                   theirs=_game_words(record), file=safe(name), ours=_game_words(game.header)),
                              "apply/other_game")
            n = record.n
            if not isinstance(n, int) or n < 1:
                raise _refuse(said(N_("the {nth} has n={n}; decisions count from 1"), nth=_ordinal(index), n=n),
                              "apply/malformed")
            canon = ENCODER.encode(record)
            if n < game.next_n:
                mine = ours[n]
                if mine in (raw, canon):
                    report.already.append(n)
                    continue
                stale.append((n, text))
                forks.setdefault(n, (raw, record))  # a signed line of the same n, another content: evidence
                continue
            if n in incoming:
                if ENCODER.encode(incoming[n][1]) != canon:
                    raise _refuse(said(N_("the mail holds two different lines n={n}"), n=n), "apply/duplicate")
                continue
            incoming[n] = (raw, record)
        if not incoming or incoming[min(incoming)][1].prev != game.tip:
            if stale:  # nothing new chains to the tip: the copies differ for a reason
                n, text = stale[0]
                damage = mail_damage(text)
                yours = safe(line_summary(LINE_DECODER.decode(ours[n])))
                if damage and not incoming:  # quoted copies of held lines, changed: they add nothing
                    report.notes.append(said(
                        N_("passed over {n} changed copies of lines your file holds (quoted in the mail)")
                        if len(stale) > 1 else
                        N_("passed over {n} changed copy of lines your file holds (quoted in the mail)"), n=len(stale)))
                    return None
                if damage:
                    raise _refuse(said(
                        N_("mailed line n={n} (line {line}) is a copy of your line {line} ({yours}) that your mail "
                           "program changed ({damage}), and the mail holds no new line after it: nothing to add.  Ask "
                           "for `agility send` again: its block reaches you intact"),
                        n=n, line=n + 1, yours=yours, damage=damage), "apply/damaged")
                raw, record = forks[n]
                raise _kept(data, name, raw, n + 1, getattr(record, "player", ""), "apply/diverged", _refuse(said(
                    N_("mailed line n={n} differs from your line {line} (yours: {yours}; mailed: {mailed}): the two "
                       "copies of the game have diverged at line {line}; compare them with `{command}` and agree "
                       "which is right — a game cannot fork"),
                    n=n, line=n + 1, yours=yours, mailed=safe(quoted(text, 60)),
                    command=shell_command(['agility', 'log', name])), "apply/diverged"),
                    said(N_("it differs from line {line} of this file ({yours}): the copies diverged there"),
                         line=n + 1, yours=yours))
        if stale:
            report.notes.append(said(
                N_("ignored {n} quoted copies of lines {lines} that the mail program changed (your file holds them "
                   "already)") if len(stale) > 1 else
                N_("ignored {n} quoted copy of line {lines} that the mail program changed (your file holds them "
                   "already)"), n=len(stale), lines=", ".join(str(n + 1) for n, _ in stale)))
        if not incoming:
            lost = unheld(damaged, block_id, len(ours))  # a block is judged on the lines it adds
            if lost:
                raise UsageError(said(N_("{damage}; or ask for the lines as `{command}` prints them"),
                                      damage=damage_message(lost), command=shell_command(['agility', 'send', name, '--raw'])))
            if not found:
                return None  # a damaged block of lines the file holds: passed over
            if all(decode_mailed(t, i) is None for i, t in enumerate(found, 1)):
                _raise_malformed(found)
            if isinstance(game, Pending):
                raise gamefile.HandshakePending(game)
            return None
        order = sorted(incoming)
        tip_n = game.next_n - 1
        expected = game.next_n
        for n in order:
            if n != expected:
                template = (N_("the mail's line {n} does not follow your file, whose last line is line {tip}: line "
                               "{missing} is missing (a lost mail, or a line the mail program damaged) — ask your "
                               "opponent for `agility send` again, or for the whole game file") if n == expected + 1
                            else N_("the mail's line {n} does not follow your file, whose last line is line {tip}: "
                                    "lines {missing} are missing (a lost mail, or a line the mail program damaged) — "
                                    "ask your opponent for `agility send` again, or for the whole game file"))
                missing = f"{expected + 1}" if n == expected + 1 else f"{expected + 1}–{n}"
                raise _refuse(said(template, n=n + 1, tip=tip_n + 1, missing=missing), "apply/gap")
            expected += 1
        first = incoming[order[0]][1]
        if first.prev != game.tip:
            raw = incoming[order[0]][0]
            raise _kept(data, name, raw, first.n + 1, getattr(first, "player", ""), "apply/diverged",
                        _refuse(_tip_mismatch(first, ours, tip_n), "apply/diverged"),
                        said(N_("it does not follow this file's last line: {why}"), why=_tip_mismatch(first, ours, tip_n)))
        to = recipient or _recipient(as_player, data)
        deciders: set[str] = set()

        def checked() -> bytes:
            """The payload of ``incoming`` after the tip, verified (raises at a bad line)."""
            report.steps.clear()
            report.applied.clear()
            report.keys.clear()
            report.normalised.clear()
            report.handshake.clear()
            deciders.clear()
            # The bytes to write: as sent if canonical (or if the next mailed line chains to them).
            chosen: list[bytes] = []
            for i, n in enumerate(order):
                raw, record = incoming[n]
                canon = ENCODER.encode(record)
                nxt = incoming[order[i + 1]][1] if i + 1 < len(order) else None
                if raw == canon or (nxt is not None and nxt.prev == line_hash(raw) != line_hash(canon)):
                    chosen.append(raw)
                else:
                    chosen.append(canon)
                    report.normalised.append(n)
            payload = b"".join(raw + b"\n" for raw in chosen)
            if isinstance(game, Pending):
                payload = _complete_handshake(data, payload, name, game, report)
            # One verifying pass; the states are copied only around the new lines (for the checks
            # below and for the narration the CLI prints), not at every line of the file.
            before: State | None = None
            sealed = None
            # R42: a sealed game's file read on from this machine's checkpoint before the new lines
            for item in gamefile.verify(data + payload, name, resume=True, resume_at=max(1, game.lines)):
                if isinstance(item, gamefile.Start):
                    before = item.state.copy() if item.line >= game.lines else None
                    sealed = item.sealed
                    continue
                if item.line < game.lines:
                    continue
                if item.line == game.lines:
                    before = item.after.copy()
                    continue
                assert before is not None
                after = item.after.copy()
                if item.move is None:  # a sealed game's keys line (R44): no decision
                    report.keys.append(item.record.n)
                    before = after
                    continue
                report.steps.append((item.line, item.raw, item.move, before, after))
                if sealed is not None:  # R42: what the line itself opened, as its writer decided
                    from ..sealed import verify as sealverify

                    forced = len(rules.legal_moves(sealverify.as_decided(sealed, before))) == 1
                else:
                    forced = len(rules.legal_moves(before)) == 1
                if not forced:
                    deciders.add(item.move.player)
                if len(deciders) == 2:
                    both = sorted(deciders)
                    raise _kept(data, name, item.raw, item.line, item.move.player, "apply/both_seats", _refuse(said(
                        N_("the mail decides for both {a} and {b} (mailed line n={n} is the second player's own "
                           "decision): a mail holds one player's decisions, and nobody can move for the other (R41) "
                           "— ask the sender for their own lines only"), a=safe(both[0]), b=safe(both[1]),
                        n=item.record.n), "apply/both_seats"))
                if item.move.player == to and not forced:
                    raise _kept(data, name, item.raw, item.line, to, "apply/your_decision", _refuse(said(
                        N_("mailed line n={n} is {name}'s own decision ({move}): nobody can move for you, signed or "
                           "not (R41) — {name} makes it here with `{command} …`.  Ask the sender for their own lines "
                           "only (up to their last decision before yours)"), n=item.record.n, name=safe(to),
                        move=safe(summary(item.move)), command=shell_command(['agility', 'move', name])),
                        "apply/your_decision"))
                report.applied.append((item.record.n, item.move))
                before = after
            return payload

        try:
            payload = checked()
        except GameFileError as exc:
            if exc.line is None or exc.line <= game.lines:
                raise
            payload = _aborted(exc, data, name, incoming, order, report) or _mended(exc, incoming, checked, report) or b""
            if not payload:
                n = exc.line - 1
                hint = said(N_("; {hint}"), hint=exc.hint) if exc.hint else ""
                raw, record = incoming.get(n, (b"", None))
                raise _kept(data, name, raw, exc.line, getattr(record, "player", ""), "apply/invalid", _refuse(said(
                    N_("mailed line n={n} (it would be line {line} of {file}) does not verify: {why}{hint}"), n=n,
                    line=exc.line, file=safe(name), why=exc.message, hint=hint),
                    "apply/invalid",
                ), said(N_("it does not verify: {why}"), why=exc.message)) from None
        # R44: what this machine's tool owes now (keys, a reshuffle's pass, a forced decision) is
        # written at once, in the same locked write, so the reply is ready for `agility send`.
        lost = unheld(damaged, block_id, len(ours) + payload.count(b"\n"))
        if lost:  # the rest of the mail is applied; what it lost is said once, with what to ask for
            report.notes.append(damage_message(lost))
        own = gamefile.sealed_followups(data + payload, name)
        for raw in own.splitlines():
            record = LINE_DECODER.decode(raw)
            report.own.append((record.n, line_summary(record)))
        return len(data), payload + own

    # The game as it is after the change, or as it was when every mailed line was already in it.
    report.game = gamefile.update(path, change) or report.game
    if report.game is None:  # R40: a game still waiting for its join or reveal, to which the mail
        # added nothing (a damaged block of lines it holds): HandshakePending says what it waits for
        report.game = gamefile.load_bytes(gamefile.read_bytes(path), name)
    return report


def _kept(data: bytes, name: str, raw: bytes, line: int, writer: Any, code: str, refusal: Refused, why: str = "") -> Refused:
    """``refusal``, the refused line ``raw`` (line ``line`` of the game, by ``writer``) kept first as
    evidence in the data directory (R42, ``record.refused``; ``why``: the reason kept, else the
    refusal's message) — never written into the game file; the refusal then says where it is."""
    if not raw:
        return refusal
    from .. import refused

    game_id = keys.game_id(data)
    refused.keep(game_id, raw, line=line, writer=writer if isinstance(writer, str) else "",
                 reason=why or refusal.message, code=code, via="mail")
    if not refused.has(game_id, raw):
        return refusal
    listing = shell_command(["agility", "show", name, "--refused"])
    return Refused(said(N_("{why}.  The refused line is kept here as evidence: `{listing}`"), why=refusal.message,
                        listing=listing), refusal.legal, refusal.rule, refusal.code)


def _raise_malformed(found: list[str]) -> None:
    """The first mailed line that is no game line, said as what it is."""
    for index, text in enumerate(found, 1):
        try:
            gamefile.decode_line(text.encode(), "mail", index)
        except GameFileError as exc:
            damage = mail_damage(text)
            why = (said(N_("your mail program changed it ({damage}); ask for `agility send` again (its block reaches "
                           "you intact) or for the file as an attachment"), damage=damage) if damage else exc.message)
            raise _refuse(said(N_("the {nth} ({mailed}) is not a valid game line: {why}"), nth=_ordinal(index),
                               mailed=quoted(text, 50), why=why), "apply/malformed") from None


def _aborted(exc: GameFileError, data: bytes, name: str, incoming: dict[int, tuple[bytes, Any]], order: list[int],
             report: ApplyReport) -> bytes | None:
    """R42: the mailed lines before the one whose keys open a position to no card of the set (or to a
    card seen twice), then this tool's abort instead of that line — which is not applied: a pass
    before it was false, and the abort names whose (docs/sealed-deck.md); None for any other fault."""
    from ..sealed.seal import OpeningFailed

    assert exc.line is not None
    n = exc.line - 1
    if not isinstance(exc.cause, OpeningFailed) or n not in incoming:
        return None
    kept = b"".join(incoming[m][0] + b"\n" for m in order if m < n)
    refused = incoming[n][1]
    line = gamefile.abort_reply(data + kept, name, refused, incoming[n][0], exc.cause.position)
    if not line:
        return None
    report.applied[:] = [(m, move) for m, move in report.applied if m < n]
    report.keys[:] = [m for m in report.keys if m < n]
    report.steps[:] = [step for step in report.steps if step[0] <= n]
    cause = message_of(exc.cause)
    _kept(data, name, incoming[n][0], exc.line, refused.player, "apply/aborted", _refuse(said(
        N_("{cause}: a pass of the sealed deck before it was false; your tool aborted the game in its place (R42)"),
        cause=cause), "apply/aborted"))
    record = LINE_DECODER.decode(line.rstrip(b"\n"))
    report.own.append((record.n, line_summary(record)))
    report.notes.append(said(N_("{player}'s line {line} is not applied: {cause} — a pass of the sealed deck before "
                                "it was false; your tool aborts the game and publishes your seal secret, so that "
                                "every machine can name the cheat (R42)"),
                             player=safe(refused.player), line=exc.line, cause=cause))
    return kept + line


def _mended(exc: GameFileError, incoming: dict[int, tuple[bytes, Any]], checked: Callable[[], bytes],
            report: ApplyReport) -> bytes | None:
    """The payload with the mailed line that failed mended as mail programs damage lines, if a
    mended form verifies (signature and chain: then it is the sender's line, noted); else ``None``,
    or a refusal that blames the mail program when the damage shows (never "edited" or "forged")."""
    assert exc.line is not None
    n = exc.line - 1
    if n not in incoming:
        return None
    raw, record = incoming[n]
    text = raw.decode("utf-8", "replace")
    for fixed, what in mail_repairs(text):
        try:
            mended = gamefile.decode_line(fixed.encode(), "mail", n)
        except GameFileError:
            continue
        incoming[n] = (fixed.encode(), mended)
        try:
            payload = checked()
        except GameFileError as later:
            # This line verifies now and a later one does not: mend that one too (a mail program
            # treats every line alike).
            rest = _mended(later, incoming, checked, report) if (later.line or 0) > exc.line else None
            if rest is None:
                continue
            payload = rest
        report.notes.append(said(N_("your mail program changed line {line} ({what}); mended, it verifies"),
                                 line=exc.line, what=what))
        return payload
    incoming[n] = (raw, record)
    damage = mail_damage(text)
    if damage:
        raise _refuse(said(
            N_("your mail program changed the mail's line {line} ({damage}), and it no longer verifies: this is the "
               "mail program, not an edit of the game.  Ask for `agility send` again (its block reaches you intact), "
               "or for the game file as an attachment"), line=exc.line, damage=damage), "apply/damaged") from None
    return None


def _recipient(as_player: str | None, data: bytes) -> str | None:
    """Who receives the mail: ``as_player``, ``AGILITY_PLAYER``, or the one seat whose key is here."""
    if as_player:
        return as_player
    env = os.environ.get("AGILITY_PLAYER")
    if env:
        return env
    held = keys.held_seats(data)
    return held[0] if len(held) == 1 else None


def _complete_handshake(data: bytes, payload: bytes, name: str, before: Pending, report: ApplyReport) -> bytes:
    """Note the handshake lines a mail adds (R40); add the creator's reveal when this machine can make it."""
    after = gamefile.pending_of(data + payload, name)
    if before.join is None and (after is None or after.join is not None):
        report.handshake.append("join")
    if after is None:  # the mail held the reveal as well
        report.handshake.append("reveal")
    elif after.can_reveal_here():
        report.reveal = gamefile.reveal_line(after)
        payload += report.reveal + b"\n"
        report.handshake.append("reveal")
    return payload


def _game_words(header: Header) -> str:
    a, b = quoted(header.players[0]), quoted(header.players[1])
    if header.seed is None:
        return said(N_("seed drawn by handshake, {a} vs {b}"), a=a, b=b)
    return said(N_("seed {seed}, {a} vs {b}"), seed=header.seed, a=a, b=b)


def _tip_mismatch(first: Any, ours: list[bytes], tip_n: int) -> Said:
    """Why the mail's first new line does not follow the file, in lines of the file (one numbering)."""
    line = first.n + 1
    for j, raw in enumerate(ours):
        if line_hash(raw) == first.prev:
            return said(N_("the mail's line {line} does not follow your file: it was written after your line {after}, "
                           "but your file goes on to line {last}: the copies have diverged after line {after}; a game "
                           "cannot fork — agree which lines are right"), line=line, after=j + 1, last=tip_n + 1)
    return said(N_("the mail's line {line} does not follow your file (your last line is line {last}): it follows none "
                   "of your lines — it belongs to another game, or your last line or the mailed line was changed"),
                line=line, last=tip_n + 1)


def _ordinal(i: int) -> Said:
    """``1st mailed line``, ``22nd mailed line``: the ordinal and its words one message (a language
    without English ordinals says it its own way)."""
    last = i % 10 if i % 100 not in (11, 12, 13) else 0
    return said({1: N_("{n}st mailed line"), 2: N_("{n}nd mailed line"), 3: N_("{n}rd mailed line")}.get(
        last, N_("{n}th mailed line")), n=i)
