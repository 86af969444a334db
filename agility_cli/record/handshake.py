"""The seed handshake (R40) as the verifier reads it: a header with ``"seed": null`` waits for the
other player's ``join`` and the creator's ``reveal``, and the game is set up from the joint seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
import msgspec

from . import keys
from ..engine import rules
from ..engine.components import Components
from ..engine.moves import LINE_DECODER, Header, JoinLine, RevealLine
from ..engine.state import State
from ..text import safe, shell_command
from ..engine.notation import Refused
from ..i18n import N_
from ..said import Said, said
from .diagnose import chain_error, incomplete_error, sequence_error
from .game import Trust
from .lines import GameFileError, decode_checked, line_hash, line_kind


# ----------------------------------------------------------------------------------------------
# Fair play: the seed handshake (R40) and signed lines (R41).
#
# A handshake game's header has ``"seed": null``, the creator's commitment (``commit``) and key
# (``keys``).  Line 2 is the other player's ``join`` (their key and secret), line 3 the creator's
# ``reveal``; the seed is then derived from both secrets (keys.derive_seed) and the game starts.
# In a signed game (the header holds keys) every line carries a signature (keys.signed_message).


class Pending(msgspec.Struct):
    """A handshake game that has not started yet: what it waits for, and its tip."""

    path: str
    header: Header
    trust: Trust
    joiner: str
    lines: int  # lines so far (1: the header; 2: the header and the join line)
    tip: str  # SHA-256 of the last line
    join: JoinLine | None

    @property
    def creator(self) -> str:
        assert self.trust.creator is not None
        return self.trust.creator

    @property
    def awaiting(self) -> str:
        """``"join"`` (the other player's part) or ``"reveal"`` (the creator's)."""
        return "join" if self.join is None else "reveal"

    @property
    def next_n(self) -> int:
        return self.lines

    def can_reveal_here(self) -> bool:
        """Whether this machine holds what the creator's reveal needs (their secret and key)."""
        return (
            self.awaiting == "reveal"
            and keys.secret(self.trust.game_id, self.creator) is not None
            and keys.signing_key(self.trust.game_id, self.creator) is not None
        )

    def message(self) -> Said:
        if self.join is None and keys.signing_key(self.trust.game_id, self.creator) is None:
            # issue 52: not the creator's machine (the joiner's, most likely): never "send bob the
            # file" to bob himself, but how to join (R40)
            return said(
                N_("the game has not started: {joiner} has not joined it yet.  If you are {joiner}, join it with "
                   "`{join}`, or with `{git}` or `{mail}`, which also send the join back"),
                joiner=self.joiner, join=shell_command(['agility', 'join', self.path]),
                git=shell_command(['agility', 'play', self.path, '--git']),
                mail=f"agility play {shell_command([self.path])} --mail MAILBOX",
            )
        if self.join is None:
            return said(
                N_("the game has not started: waiting for {joiner} to join the seed handshake.  Send {joiner} the "
                   "file {file} (or its first line, saved as a file); they run `{join}` and send back the file or "
                   "the line it prints"),
                joiner=self.joiner, file=safe(self.path), join=shell_command(['agility', 'join', self.path]),
            )
        return said(
            N_("the game has not started: waiting for {creator} to reveal the secret committed to in the header.  "
               "{creator}'s next agility command on this game (e.g. `{show}`) reveals it; this machine does not "
               "hold {creator}'s secret"),
            creator=self.creator, show=shell_command(['agility', 'show', self.path]),
        )


class HandshakePending(Refused):
    """The game has not started (exit 1): the join or the reveal of the seed handshake is awaited."""

    def __init__(self, pending: Pending):
        self.pending = pending
        super().__init__(pending.message(), [], "R40", "handshake/pending")


def _uses_format_2(rec: Header) -> Said | str | None:
    """The first format-2 feature a header uses, if any."""
    if rec.sealed is not msgspec.UNSET and rec.format < 3:
        return said(N_('a sealed deck ("sealed", format 3)'))
    if rec.seed is None:
        return '`"seed": null`'
    if isinstance(rec.board, str):
        return said(N_("a board to be drawn"))
    for name in ("commit", "keys", "sig"):
        if getattr(rec, name) is not msgspec.UNSET:
            return f'`"{name}"`'
    return None


def check_fair_header(path: str, raw: bytes, rec: Header) -> Trust:
    """R40/R41: the header's handshake and key fields are consistent and its signature verifies."""
    gid = keys.game_id(raw)
    feature = _uses_format_2(rec)
    edited = said(N_("the header was edited; restore it from git or the opponent's copy"))
    if feature is not None and rec.format < 2:
        raise GameFileError(path, 1, said(N_("format 1 has no {feature} (format 2 does)"), feature=feature), edited)
    players = tuple(rec.players)
    if rec.seed is None:
        if rec.commit is msgspec.UNSET or rec.keys is msgspec.UNSET:
            raise GameFileError(path, 1, said(N_('"seed": null (a seed drawn by handshake) needs the creator\'s "commit" '
                                                 'and "keys"')), edited)
        if isinstance(rec.board, str) and rec.board not in ("random-a", "random-b"):
            raise GameFileError(path, 1, said(N_("board {board} is neither a layout nor random-a / random-b"),
                                              board=repr(rec.board)), edited)
        if rec.first not in players and rec.first != "random":
            raise GameFileError(path, 1, said(N_('start player {player} is neither a player nor "random"'),
                                              player=repr(rec.first)), edited)
    else:
        if rec.commit is not msgspec.UNSET:
            raise GameFileError(path, 1, said(N_('a "commit" with a fixed seed: a handshake header has "seed": null')),
                                edited)
        if isinstance(rec.board, str):
            raise GameFileError(path, 1, said(N_("board {board}: with a fixed seed the header lists the ten tiles"),
                                              board=repr(rec.board)), edited)
    if rec.keys is msgspec.UNSET:
        if rec.sig is not msgspec.UNSET:
            raise GameFileError(path, 1, said(N_('a "sig" in a header without "keys": there is no key to check it with')),
                                edited)
        return Trust(gid)
    if len(rec.keys) != 1 or next(iter(rec.keys)) not in players:
        raise GameFileError(path, 1, said(N_('"keys" in the header holds exactly one player\'s key (the creator\'s)')),
                            edited)
    creator, key = next(iter(rec.keys.items()))
    if rec.sig is msgspec.UNSET:
        raise GameFileError(path, 1, said(N_("the header is not signed: a header with keys carries {name}'s signature "
                                             "(R41)"), name=creator), edited)
    _verify_own(path, 1, raw, creator, key, said(N_("the header")))
    return Trust(gid, {creator: key}, creator if rec.seed is None else None, rec.seed is None)


def _verify_own(path: str, lineno: int, raw: bytes, player: str, key: str, what: str) -> None:
    """Raise unless ``raw``'s signature is ``player``'s (``key``)."""
    message = keys.signed_message(raw)
    if message is None:
        raise GameFileError(
            path, lineno, said(N_("bad signature on {what}: \"sig\" must be the line's last member, written `{sig}` "
                                  "just before the closing brace"), what=what, sig=',"sig":"<128 hex digits>"'),
            said(N_("the line was re-formatted or edited after it was signed; restore it byte for byte")),
        )
    record = LINE_DECODER.decode(raw)
    if not keys.verify(key, message, record.sig):
        raise GameFileError(
            path, lineno, said(N_("bad signature on {what}: it is not signed with {name}'s key (R41)"),
                               what=what, name=player),
            said(N_("the line was changed after {name} signed it, or written by someone else; restore it from "
                    "{name}'s copy or from git"), name=player),
        )


def check_envelope(path: str, lineno: int, raw: bytes, lines: Sequence[bytes], prev: str, prev_record: Any) -> Any:
    """A line after the game's start, decoded: not a header nor a handshake line, its ``n`` and its
    ``prev`` in order (the first checks of every later line, sealed or not)."""
    record = decode_checked(path, lineno, raw, lines)
    if isinstance(record, Header):
        raise GameFileError(path, lineno, said(N_("a second game header")),
                            said(N_("a file holds exactly one game; delete line {line}"), line=lineno))
    if isinstance(record, (JoinLine, RevealLine)):
        raise misplaced_handshake(path, lineno, record)
    if record.n != lineno - 1:
        raise sequence_error(path, lineno, raw, record, lines)
    if record.prev != prev:
        raise chain_error(path, lineno, record, lines, prev_record)
    return record


def misplaced_handshake(path: str, lineno: int, record: Any) -> GameFileError:
    kind = "join" if isinstance(record, JoinLine) else "reveal"
    return GameFileError(
        path, lineno, said(N_("a {kind} line here: the seed handshake (R40) is line 2 (join) and line 3 (reveal) of "
                              "a game whose header has \"seed\": null, and nowhere else"), kind=repr(kind)),
        said(N_("delete line {line}, or restore the file from git or the opponent's copy"), line=lineno),
    )


def _handshake_line(
    path: str, data: bytes, lines: Sequence[bytes], start: int, lineno: int, kind: type[Any]
) -> tuple[bytes, Any, int] | None:
    """The raw line at ``start``, decoded (must be ``kind``), and where the next line starts; None at the end."""
    size = len(data)
    if start >= size:
        return None
    end = data.find(b"\n", start)
    raw = data[start:] if end == -1 else data[start:end]
    try:
        record = decode_checked(path, lineno, raw, lines)
    except GameFileError as exc:
        if end == -1:
            raise incomplete_error(path, lineno, raw, exc) from None
        raise
    if end == -1:
        raise incomplete_error(path, lineno, raw, None)
    if not isinstance(record, kind):
        found = (said(N_("the header")) if isinstance(record, Header)
                 else said(N_("a {kind} line"), kind=repr(record.__struct_config__.tag)))
        want = said(N_("the second player's `join`")) if kind is JoinLine else said(N_("the creator's `reveal`"))
        raise GameFileError(
            path, lineno,
            said(N_("line {line} of a handshake game (\"seed\": null) must be {want} (R40), found {found}"),
                 line=lineno, want=want, found=found),
            said(N_("the seed handshake comes first: line 2 `join` (agility join), line 3 `reveal`; restore the file "
                    "from git or the opponent's copy")),
        )
    if record.n != lineno - 1:
        raise GameFileError(path, lineno, said(N_("expected n={n} on the {kind} line, found n={found}"),
                                               n=lineno - 1, kind=line_kind(kind.__struct_config__.tag), found=record.n),
                            said(N_("the line was edited; it must hold n={n}"), n=lineno - 1))
    return raw, record, size if end == -1 else end + 1


def check_handshake(
    path: str,
    data: bytes,
    lines: Sequence[bytes],
    header: Header,
    header_raw: bytes,
    comps: Components,
    trust: Trust,
    start: int,
    upto: int | None,
    on_setup: Any = None,
) -> tuple[Header, State, Trust, int, int, bytes, Any]:
    """Verify the join (line 2) and reveal (line 3) lines and start the game from the joint seed (R40).

    Returns the header as setup uses it, the state, the trust (with the joiner's key), the line
    number and start offset of what follows, the last raw line and its record.  Raises
    :class:`HandshakePending` when the file (or ``upto``) ends before the reveal.  ``on_setup(lineno,
    record[, state])`` reads a sealed game's setup passes on the join and the reveal (R42), the
    reveal's with the game's first state.
    """
    creator = trust.creator
    assert creator is not None and header.commit is not msgspec.UNSET
    joiner = header.players[1] if header.players[0] == creator else header.players[0]

    def pending(join: JoinLine | None, lines_so_far: int, tip_raw: bytes) -> HandshakePending:
        t = trust if join is None else Trust(trust.game_id, {**trust.keys, join.player: join.key}, creator, True)
        return HandshakePending(Pending(path, header, t, joiner, lines_so_far, line_hash(tip_raw), join))

    def before_start() -> Refused:
        return Refused(
            said(N_("line {line} is part of the seed handshake (line 1 the header, 2 the join, 3 the reveal): the "
                    "game starts after line 3, so there is no state to show before it"), line=upto),
            [], "R40", "handshake/before_start",
        )

    if upto is not None and upto < 2:
        raise before_start()
    got = _handshake_line(path, data, lines, start, 2, JoinLine)
    if got is None:
        raise pending(None, 1, header_raw)
    join_raw, join, start = got
    if join.prev != line_hash(header_raw):
        raise chain_error(path, 2, join, lines, header)
    if join.player != joiner:
        raise GameFileError(path, 2, said(N_("the join line is {player}'s, but the player who joins is {joiner} "
                                             "({creator} created the game)"),
                                          player=repr(join.player), joiner=repr(joiner), creator=creator),
                            said(N_("the line was edited; restore it")))
    if join.key == trust.keys[creator]:
        raise GameFileError(path, 2, said(N_("{joiner} joined with {creator}'s own key"), joiner=joiner, creator=creator),
                            said(N_("each player has a key of their own")))
    if join.sig is msgspec.UNSET:
        raise GameFileError(path, 2, said(N_("the join line is not signed: {joiner} signs it with the key it announces "
                                             "(R41)"), joiner=joiner),
                            said(N_("restore the line from git or the joiner's copy")))
    _verify_own(path, 2, join_raw, joiner, join.key, said(N_("{name}'s join line"), name=joiner))
    if on_setup is not None:
        on_setup(2, join)
    trust = Trust(trust.game_id, {**trust.keys, joiner: join.key}, creator, True)
    if upto is not None and upto < 3:
        if start < len(data):
            raise before_start()
        raise pending(join, 2, join_raw)
    got = _handshake_line(path, data, lines, start, 3, RevealLine)
    if got is None:
        raise pending(join, 2, join_raw)
    reveal_raw, reveal, start = got
    if reveal.prev != line_hash(join_raw):
        raise chain_error(path, 3, reveal, lines, join)
    if reveal.player != creator:
        raise GameFileError(path, 3, said(N_("the reveal line is {player}'s, but {creator} created the game and "
                                             "reveals the secret"), player=repr(reveal.player), creator=creator),
                            said(N_("the line was edited; restore it")))
    if keys.commitment(reveal.secret) != header.commit:
        raise GameFileError(
            path, 3,
            said(N_("the secret {creator} reveals does not match the commitment in the header (SHA-256 {found}…, "
                    "committed {committed}…): the seed cannot be drawn (R40)"),
                 creator=creator, found=keys.commitment(reveal.secret)[:12], committed=header.commit[:12]),
            said(N_("a reveal must disclose the very secret committed to at `agility new`; restore line 3 from "
                    "{creator}'s copy or git, or start a new game"), creator=creator),
        )
    if reveal.sig is msgspec.UNSET:
        raise GameFileError(path, 3, said(N_("the reveal line is not signed by {creator} (R41)"), creator=creator),
                            said(N_("restore the line from git or the creator's copy")))
    _verify_own(path, 3, reveal_raw, creator, trust.keys[creator], said(N_("{name}'s reveal line"), name=creator))
    resolved = resolved_header(header, trust.game_id, reveal.secret, join.secret)
    try:
        state = rules.setup(resolved, comps)
    except rules.RulesError as exc:
        raise GameFileError(path, 3, said(N_("the header cannot start a game: {error}"), error=exc.told()),
                            said(N_("the header was edited; restore it from git or the opponent's copy"))) from None
    if on_setup is not None:
        on_setup(3, reveal, state)
    return resolved, state, trust, 3, start, reveal_raw, reveal


def resolved_header(header: Header, game_id: str, creator_secret: str, joiner_secret: str) -> Header:
    """The header with what the joint seed draws (R40): the seed, a random board, a random start player."""
    seed = keys.derive_seed(game_id, creator_secret, joiner_secret)
    board = rules.random_board(seed, header.board[-1]) if isinstance(header.board, str) else header.board
    first = header.first
    if first not in header.players:  # "random" (R10), checked with the header
        first = rules.random_first(seed, header.players)
    return msgspec.structs.replace(header, seed=seed, board=board, first=first)
