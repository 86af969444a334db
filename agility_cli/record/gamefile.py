"""The game file's public API (R35-R41), gathered from the modules that implement it.

The only file I/O of the game: read and verify a game file, create one, append lines safely.

A game file is JSON Lines (R35, INTERFACE.md).  Reading it re-derives the state line by line and
verifies each line in a fixed order — JSON, schema, ``n`` sequence, ``prev`` hash chain, the
decision's owner, signature (R41), legality, ``digest`` — stopping at the first bad line with
:class:`GameFileError` (exit code 3), whose message names the line and says what is wrong and,
where it can, what would fix it.  State is never read from the file, only replayed.

The diagnostics look around the bad line where that tells more: a wrong ``n`` is named a dropped,
moved or duplicated line or a fork (two lines with one ``n``, both named, after a git merge); a
broken ``prev`` names the line likely edited (a changed header breaks line 2), or one that was
only re-formatted; git conflict markers, CRLF endings, a byte-order mark, mail quoting, two lines
glued together and an incomplete last line each get their own message and fix.

Appends (``append_moves``) hold an exclusive ``flock`` on the file while they re-read and verify
it, make the decision on the state just verified, write whole lines and fsync: two ``agility
move`` runs at the same moment are serialised — the second decides on top of the first's line (or
is refused, exit 1) — so they never land on one tip.
``update`` does the same for the other changes (``apply``, ``undo``, ``repair``): under the lock,
cut the file to a verified prefix and/or append, verify the result, fsync.

Fair play (the section at the end; bytes in docs/fair-play.md): a header with ``"seed": null``
starts with the seed handshake (R40) — line 2 the other player's ``join``, line 3 the creator's
``reveal`` — and the game is set up from the joint seed after it; until then reading the file
raises :class:`HandshakePending` (exit 1) saying what is awaited, and the creator's machine adds
the reveal by itself on its next read or append.  A header with ``keys`` makes a signed game:
every line's signature is verified (:func:`_check_signature`) and every appended line signed
(:class:`_Signer`), or refused with :class:`CannotSign` when this machine holds no fitting key."""

from .lines import (  # noqa: F401
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    MAX_DEPTH,
    GameFileError,
    line_hash,
    encode_line,
    header_components,
    make_header,
    decode_line,
    sealed_header,
)
from .storage import (  # noqa: F401
    WriteError,
    read_bytes,
    write_new,
    write_backup,
    locked,
    GAME_FILE,
)
from .game import (  # noqa: F401
    Step,
    Trust,
    Game,
    Start,
)
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..engine.state import State
    from .audit import Audit, Verdict
from .verify import (  # noqa: F401
    iter_game,
    recent_lines,
    verify,
    load_bytes,
    finished_game,
    chain_of,
    pending_of,
    trust_of,
    fairness_text,
)
from .changes import (  # noqa: F401
    load,
    read_revealed,
    sealed_followups,
    abort_reply,
    create,
    render_lines,
    append_moves,
    update,
    pending_reveal,
    reveal_line,
    create_signed,
    join,
)
from .handshake import (  # noqa: F401
    Pending,
    HandshakePending,
)
from .signing import (  # noqa: F401
    CannotSign,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LINE_BYTES",
    "MAX_DEPTH",
    "GameFileError",
    "WriteError",
    "line_hash",
    "encode_line",
    "header_components",
    "make_header",
    "decode_line",
    "Step",
    "Trust",
    "Game",
    "Start",
    "iter_game",
    "recent_lines",
    "verify",
    "load_bytes",
    "finished_game",
    "chain_of",
    "read_bytes",
    "load",
    "read_revealed",
    "sealed_followups",
    "abort_reply",
    "create",
    "write_new",
    "write_backup",
    "locked",
    "render_lines",
    "append_moves",
    "update",
    "Pending",
    "HandshakePending",
    "CannotSign",
    "pending_reveal",
    "reveal_line",
    "create_signed",
    "pending_of",
    "join",
    "trust_of",
    "fairness_text",
    "audit",
    "GAME_FILE",
    "sealed_header",
    "whole_game_secrets",
    "whole_lines",
    "whole_cards",
    "named_state",
    "verdict",
]


def audit(data: bytes, path: str, game: Game) -> "Audit | None":
    """R42: the audit of a finished sealed game (``record.audit``, imported only for one)."""
    if not game.is_sealed:
        return None
    from .audit import audit as audit_sealed

    return audit_sealed(data, path, game)


def verdict(game: Game, *, here: bool = True) -> "Verdict | None":
    """R42: the verdict of a finished sealed game (``record.audit.verdict``; ``here``: as this
    machine's player is told it, their own keys not sent said so), else None."""
    if not game.is_sealed:
        return None
    from .audit import verdict as verdict_of

    return verdict_of(game, here=here)


def keys_unsent(game: Game) -> int | None:
    """R42: this machine's seat whose audit keys are in the file but not sent yet
    (``record.audit.unsent_keys``), else None."""
    if not game.is_sealed:
        return None
    from .audit import unsent_keys

    return unsent_keys(game)


def published_secrets(game: Game) -> dict[str, bytes] | None:
    """R42: both seal secrets of a finished, audited sealed game (``record.audit``), else None."""
    if not game.is_sealed:
        return None
    from .audit import published_secrets as secrets_of

    return secrets_of(game)


def whole_lines(data: bytes, path: str, held: dict[str, bytes], *, upto: int | None = None,
                keep_before: bool = False) -> "Iterator[Start | Step]":
    """R39/R42: a finished, audited sealed game's lines with every card named (``record.audit``)."""
    from .audit import whole_lines as lines_of

    return lines_of(data, path, held, upto=upto, keep_before=keep_before)


def whole_cards(data: bytes, path: str, game: Game) -> dict[str, str] | None:
    """R39/R42: every position of a finished, audited sealed game and its card, else None."""
    if not game.is_sealed:
        return None
    from .audit import whole_cards as cards_of

    return cards_of(data, path, game)


def named_state(state: "State", cards: dict[str, str]) -> "State":
    """R39/R42: ``state`` with every position it shows named by ``cards`` (a copy)."""
    from .sealed.seal import named  # only for a sealed game (start-up time)

    return named(state, cards)


def whole_game_secrets(data: bytes, path: str) -> dict[str, bytes] | None:
    """R39/R42: the secrets to read every line of a file with when telling the whole game: both
    published ones once a sealed game is finished and audited (every card open, as every view is
    then complete), else ``None`` (this machine's own, as :func:`verify` finds them).  A damaged
    file is no finished game: ``None``, and the caller's own verification reports its bad line."""
    if not sealed_header(data):
        return None
    try:
        return published_secrets(load_bytes(data, path))
    except GameFileError:
        return None
