"""R42's verdict on an abort (docs/sealed-deck.md, the abort): the file before the abort read
again with the writer's published seal secret, and the opponent's line the abort carries read after
it — the very reading the writer's tool made when it refused that line.  An opening of that line
that fails forfeits the opponent (only a pass of theirs can have made the point); every other case
forfeits the writer, whose secret is public now, so the game cannot go on sealed.  Whether the
carried line can be verified at all (form, chain, signature) the verifier checks first: if not, the
abort line is refused as a forged line is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...engine.state import State

from . import game as sealgame
from .abort import live, opening
from .crypto import SealError
from .deck import OpeningFailed
from .seal import Sealed
from .steps import AbortClaim
from ...i18n import N_
from ...said import message_of
from ...said import said as what  # ``said`` here is the verdict's frame, "bob's abort at line 9"

#: R42: an abort over no live opening forfeits its writer
NOT_LIVE = N_("{why} (R42: an abort claims only a live opening of the line it refuses)")

__all__ = ["Reader", "judge"]

#: R42: what reading a file with a carried line and a published secret found (its error, or None),
#: by the SHA-256 of the secret and the bytes: aborts judged over the same line read it once
_READ: dict[bytes, Any] = {}


Reader = Callable[[bytes, dict[str, bytes]], Iterator[Any]]  # record.verify.verify: (data, held) → items


def judge(read: Reader, before: bytes, claim: AbortClaim, names: Sequence[str], error: type[Exception],
          public: Sealed, state: State) -> tuple[int, str]:
    """R42's verdict on the abort ``claim`` (docs/sealed-deck.md, the abort): ``(seat that
    forfeits, why)``.  ``read(data, held)`` verifies a file with the seal secrets ``held``;
    ``before`` is the file up to the abort; ``error`` is the verifier's GameFileError; ``public``
    and ``state`` the deck and state at the abort as the verifier reads them."""
    writer, other = claim.seat, 1 - claim.seat
    said = f"{names[writer]}'s abort at line {claim.line}"
    held = {names[writer]: claim.secret}
    if claim.carried is not None:
        return _judge_carried(read, before, claim, names, error, said)
    if public.dealt and not claim.rekey:  # R42: a claim about no live opening is its writer's forfeit, whatever its secret makes
        why = live(public, state, claim)
        if why is not None:
            return writer, f"{said}: " + what(NOT_LIVE, why=why)
    again: Any = None
    end_state: Any = None
    try:
        for item in read(before, held):
            if again is None:
                again, end_state = item.sealed, item.state
    except error as exc:
        return _earlier(exc, claim, names, said)
    try:
        sealgame.abort_dealt(again, end_state, claim)  # the joiner's first line: its re-key pass, with the secret held
    except OpeningFailed as exc:
        return other, f"{said}: " + what(N_("{why} (read with {name}'s published seal secret): a pass of {other}'s "
                                            "was false"), why=message_of(exc), name=names[writer], other=names[other])
    except SealError as exc:
        return writer, f"{said}: " + what(N_("its seal secret does not make its passes ({why})"), why=message_of(exc))
    why = live(again, end_state, claim)
    if why is not None:
        return writer, f"{said}: " + what(NOT_LIVE, why=why)
    failed = opening(again, end_state, claim)
    if failed is not None:
        return other, f"{said}: " + what(N_("{why}, opened with {name}'s published seal secret: a pass of {other}'s "
                                            "was false"), why=failed, name=names[writer], other=names[other])
    return writer, f"{said}: " + what(N_("position {position} opens soundly (a sound game aborted)"),
                                      position=claim.position)


def _earlier(exc: Any, claim: AbortClaim, names: Sequence[str], said: str) -> tuple[int, str]:
    """The verdict when the file before the abort, read with the published secret, fails at a line:
    an opening that fails there (only a pass of the opponent's can make it, R42) or a pass of the
    writer's that its secret does not make."""
    writer, other = claim.seat, 1 - claim.seat
    if isinstance(exc.cause, OpeningFailed):
        return other, f"{said}: " + what(N_("{why} (line {line}, read with {name}'s published seal secret): a pass of "
                                            "{other}'s was false"), why=message_of(exc.cause), line=exc.line,
                                         name=names[writer], other=names[other])
    return writer, f"{said}: " + what(N_("its seal secret does not make its passes (line {line}: {why})"),
                                      line=exc.line or 1, why=exc.message)


def _judge_carried(read: Reader, before: bytes, claim: AbortClaim, names: Sequence[str], error: type[Exception],
                   said: str) -> tuple[int, str]:
    """R42: the carried line read after the file before the abort, with the published secret held —
    the very reading the writer's tool made when it refused it.  Its opening of the named position
    failing forfeits the opponent; anything else (sound, another position, refused for another
    reason) forfeits the writer.  The carried line's form, chain and signature are checked first
    (:func:`check_carried`, by the verifier)."""
    writer, other = claim.seat, 1 - claim.seat
    assert claim.carried is not None
    data = before + claim.carried + b"\n"
    key = hashlib.sha256(b"%d\0%s\0" % (len(data), claim.secret) + data).digest()
    found = _READ.get(key, False)
    if found is False:  # the same reading gives the same result: a process reads it once (R42)
        found = None
        try:
            for _ in read(data, {names[writer]: claim.secret}):
                pass
        except error as failed:
            found = failed
        if len(_READ) > 64:
            _READ.clear()
        _READ[key] = found
    if found is not None:
        exc = found
        line = getattr(exc, "line", None)
        if line is None or line < claim.line:
            return _earlier(exc, claim, names, said)
        cause = getattr(exc, "cause", None)
        if isinstance(cause, OpeningFailed) and cause.position == claim.position:
            return other, f"{said}: " + what(N_("{other}'s line it refuses opens {why}, read with {name}'s published "
                                                "seal secret: a pass of {other}'s was false"),
                                             other=names[other], why=message_of(cause), name=names[writer])
        if isinstance(cause, OpeningFailed):
            return writer, f"{said}: " + what(N_("the line it refuses fails at position {failed}, not at {position}, "
                                                 "the position it names (R42: an abort names the opening that fails)"),
                                              failed=cause.position, position=claim.position)
        return writer, f"{said}: " + what(N_("the line it refuses is refused for another reason ({why}): it opens "
                                             "nothing that fails (R42)"), why=getattr(exc, "message", None) or str(exc))
    return writer, f"{said}: " + what(N_("the line it refuses opens position {position} soundly (a sound game "
                                         "aborted)"), position=claim.position)
