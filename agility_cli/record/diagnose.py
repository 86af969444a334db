"""What the first bad line of a damaged file is: a fork, a dropped, moved, copied or edited line,
an illegal decision, an incomplete last line — each named with its fix."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from ..engine import rules
from ..engine.moves import ENCODER, LINE_DECODER, Move, decision_text, summary
from ..engine.state import State
from ..i18n import N_, _name
from ..said import listing, said, said_in
from ..text import safe, shell_command, shell_word
from .lines import GameFileError, HEX64_RE, line_hash, line_text, peek_line, peek_n, sentences, snippet


def _whose(lines: Sequence[bytes], first: int, last: int) -> str:
    """``alice's and bob's``: who made lines ``first``..``last`` (as their lines say, unverified)."""
    names: list[str] = []
    for raw in lines[first - 1:last]:
        peek = peek_line(raw)
        who = peek.player if peek is not None and isinstance(peek.player, str) else None
        if who is not None and safe(who) not in names:
            names.append(safe(who))
    if not names:
        return said(N_("nobody's"))
    if len(names) == 2:  # the game's two players
        return said(N_("{first}'s and {second}'s"), first=names[0], second=names[1])
    return listing([said(N_("{name}'s"), name=n) for n in names], N_(" and "))


def sequence_error(path: str, lineno: int, raw: bytes, record: Any, lines: Sequence[bytes]) -> GameFileError:
    """Line ``lineno`` holds the wrong ``n``: say whether a line was dropped, moved, copied or forked."""
    expected = lineno - 1
    n = record.n
    total = len(lines)
    if isinstance(n, int) and 1 <= n < expected:
        j = n + 1  # every line before this one was verified, so decision n is on line n + 1
        if lines[j - 1] == raw and (lineno == total or peek_n(lines[lineno]) == expected):
            return GameFileError(
                path, lineno, said(N_("line {line} is an exact copy of line {j} (decision n={n}): a line was "
                                      "duplicated"), line=lineno, j=j, n=n),
                said(N_("delete line {line}"), line=lineno),
            )
        k = lineno  # the second branch: lines lineno..k, numbered n, n+1, ...
        while k < total and peek_n(lines[k]) == n + (k + 1 - lineno):
            k += 1
        first = line_text(LINE_DECODER.decode(lines[j - 1]))
        rest: str = said(N_("; lines after {line} belong to neither"), line=k) if k < total else ""
        q = shell_word(path)
        forked = said(N_("decision n={n} appears twice, on line {j} (`{first}`) and on line {line} (`{second}`): the "
                         "game has forked — two copies went on separately from line {before} and were then joined "
                         "(e.g. by a git merge)"), n=n, j=j, first=first, line=lineno, second=line_text(record),
                      before=j - 1)
        if lines[j - 1] == raw:
            forked = said(N_("{forked}{same}"), forked=forked,
                          same=said(N_(" (both branches begin with the same decision)")))
        return GameFileError(
            path, lineno, forked,
            sentences(
                said(N_("keep one branch: the first is lines {j}–{end} ({first_whose}), the second lines {line}–{k} "
                        "({second_whose}){rest}."), j=j, end=lineno - 1, first_whose=_whose(lines, j, lineno - 1),
                     line=lineno, k=k, second_whose=_whose(lines, lineno, k), rest=rest),
                said(N_("By git, `{play}` keeps your side and says which one the rules keep."),
                     play=f"agility play {q} --git"),
                said_in(_name("verb", "By hand, after the merge commit: `{yours}` (your side) or `HEAD^2` (the merged "
                              "one); while the merge is open: `{ours}` or `--theirs` (a rebase swaps them); or delete "
                              "lines {line}–{k} to keep the first, lines {j}–{end} to keep the second."), yours=f"git checkout HEAD^1 -- {q}",
                     ours=f"git checkout --ours -- {q}", line=lineno, k=k, j=j, end=lineno - 1),
                said(N_("The player whose branch is dropped makes those decisions again"))),
        )
    if isinstance(n, int) and n > expected:
        later = next((L for L in range(lineno + 1, total + 1) if peek_n(lines[L - 1]) == expected), None)
        if later is not None:
            return GameFileError(
                path, lineno,
                said(N_("lines are out of order: line {line} holds decision n={n}, but n={expected} comes first and "
                        "is on line {later}"), line=lineno, n=n, expected=expected, later=later),
                said(N_("put the lines back in order of n (swap lines {line} and {later} if only those two moved)"),
                     line=lineno, later=later),
            )
        missing = f"n={expected}" if n == expected + 1 else f"n={expected}–{n - 1}"
        count = n - expected
        dropped = (said(N_("decision {missing} is missing: {count} lines were dropped between line {before} and line "
                           "{line} (which holds n={n})"), missing=missing, count=count, before=lineno - 1, line=lineno,
                        n=n) if count > 1 else
                   said(N_("decision {missing} is missing: {count} line was dropped between line {before} and line "
                           "{line} (which holds n={n})"), missing=missing, count=count, before=lineno - 1, line=lineno,
                        n=n))
        return GameFileError(
            path, lineno, dropped,
            said(N_("restore the missing line(s) in their place, from git history (`git log -p`), a backup or the "
                    "opponent's copy")),
        )
    return GameFileError(
        path, lineno, said(N_("expected decision n={expected}, found n={n}"), expected=expected, n=n),
        said(N_("decisions are numbered 1, 2, 3, … in file order: this line must hold n={expected}"), expected=expected),
    )


def chain_error(
    path: str, lineno: int, record: Any, lines: Sequence[bytes], prev_record: Any
) -> GameFileError:
    """Line ``lineno``'s ``prev`` is not the hash of the line before it: say which line was likely edited."""
    previous = lineno - 1
    try:
        canonical = ENCODER.encode(prev_record)
    except Exception:  # pragma: no cover
        canonical = b""
    if canonical and line_hash(canonical) == record.prev:
        what = said(N_("the header (line 1)")) if previous == 1 else said(N_("line {line}"), line=previous)
        return GameFileError(
            path, lineno,
            said(N_("broken hash chain: {what} was re-formatted — its content is unchanged but its bytes are not "
                    "(spaces, escapes or key order), so its hash no longer matches line {line}'s prev"), what=what,
                 line=lineno),
            said(N_("restore line {line} byte for byte as: {text}"), line=previous, text=canonical.decode()),
        )
    if previous == 1:
        return GameFileError(
            path, 2,
            said(N_("line 2 does not continue the header: the header was changed (line 1: seed, players, board, "
                    "start player or components differ from those the game was played with)")),
            said(N_("restore the original header line from git or the opponent's copy; if line 1 is right, then "
                    "line 2's prev was edited")),
        )
    if not isinstance(record.prev, str) or not HEX64_RE.fullmatch(record.prev):
        return GameFileError(
            path, lineno, said(N_("broken hash chain: prev {prev} is not a SHA-256 (64 hex digits)"),
                               prev=snippet(record.prev.encode())),
            said(N_("line {line}'s prev was edited; it must be the SHA-256 of line {previous}"), line=lineno,
                 previous=previous),
        )
    for j in range(1, len(lines) + 1):
        if j != previous and line_hash(lines[j - 1]) == record.prev:
            return GameFileError(
                path, lineno,
                said(N_("broken hash chain: line {line} was written after line {j}, not after line {previous}"),
                     line=lineno, j=j, previous=previous),
                said(N_("lines were moved, inserted or renumbered; restore the original order")),
            )
    return GameFileError(
        path, lineno,
        said(N_("broken hash chain: line {line}'s prev ({prev}…) is not the hash of line {previous} ({hash}…): "
                "line {previous} was likely edited after line {line} was written (or line {line}'s prev was "
                "edited)"), line=lineno, prev=record.prev[:12], previous=previous,
             hash=line_hash(lines[previous - 1])[:12]),
        said(N_("compare line {previous} with the opponent's copy or git history (`git diff`) and restore it"),
             previous=previous),
    )


def illegal_error(path: str, lineno: int, state: State, move: Move, reason: str) -> GameFileError:
    legal = rules.legal_moves(state)
    shown = "; ".join(decision_text(m) for m in legal[:12])
    more = f"; … {len(legal) - 12} more" if len(legal) > 12 else ""
    return GameFileError(
        path, lineno, said(N_("illegal decision ({decision}): {why}"), decision=safe(summary(move)), why=reason),
        said(N_("legal there: {shown}{more}.  The line was edited or written by a different rules version"),
             shown=shown, more=more),
    )


def incomplete_error(path: str, lineno: int, raw: bytes, problem: GameFileError | None) -> GameFileError:
    if problem is None:
        return GameFileError(
            path, lineno, said(N_("the last line has no newline at the end (the line itself is complete and verifies)")),
            said(N_("`{command}` adds the missing newline"), command=shell_command(["agility", "repair", path])),
        )
    if lineno == 1:
        return GameFileError(
            path, 1, said(N_("incomplete or foreign line 1: no newline at the end, and not a valid game header "
                             "({error})"), error=problem.message),
            said(N_("this is not an agility game file, or its header was cut short: restore it from git or a "
                    "backup, or create a game with `agility new FILE --seed N`")),
        )
    return GameFileError(
        path, lineno,
        said(N_("incomplete last line ({n} bytes, no newline at the end): a write was interrupted or the file was "
                "cut short ({error})"), n=len(raw), error=problem.message),
        said(N_("`{command}` removes it, keeping a backup {backup}; the decision it held is then made again"),
             command=shell_command(["agility", "repair", path]), backup=shell_word(path + ".bak")),
    )


class Lines(Sequence[bytes]):
    """A file's lines (without newlines), split on first use: only diagnostics look around."""

    __slots__ = ("_data", "_list")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._list: list[bytes] | None = None

    def _split(self) -> list[bytes]:
        if self._list is None:
            self._list = self._data.split(b"\n")
            if self._data.endswith(b"\n"):
                self._list.pop()
        return self._list

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        return self._split()[index]

    def __len__(self) -> int:
        return len(self._split())
