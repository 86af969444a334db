"""A verified game and its lines, as the verifier yields them: :class:`Game`, :class:`Start`,
:class:`Step`, and :class:`Trust` (who may sign what, where the seed came from, R40/R41)."""

from __future__ import annotations

import msgspec
from typing import Any

from . import keys
from .lazy import resolve
from ..engine.components import Components
from ..engine.moves import Header, Move
from ..engine.state import State
from .lines import line_hash



class Step(msgspec.Struct):
    """One verified decision line of a replay."""

    line: int  # 1-based line number in the file
    raw: bytes
    record: Any  # the decoded line Struct
    move: Move | None  # None on a sealed game's keys line (R42, R44): no decision
    before: State | None  # only when asked for (narration); costs a copy per line
    after: State
    hash: str = ""  # SHA-256 (hex) of ``raw``: the next line's ``prev``, computed once by the verifier


class Trust(msgspec.Struct, frozen=True):
    """Who may sign what in a game, and where its seed came from (R40, R41).

    ``keys`` maps each player with a key in the file (the header's and the ``join`` line's) to their
    Ed25519 public key (hex); empty for an unsigned game.  ``joint`` says the seed was drawn by the
    handshake (``creator`` committed, the other player joined) rather than chosen by the creator.
    """

    game_id: str = ""
    keys: dict[str, str] = msgspec.field(default_factory=dict)
    creator: str | None = None
    joint: bool = False

    @property
    def signed(self) -> bool:
        return bool(self.keys)


class Game(msgspec.Struct):
    """A verified game file: its header, the replayed state and the chain's tip.

    For a game started by the handshake (R40) ``header`` is the header as setup used it: the joint
    seed, and the board and start player drawn from it.
    """

    path: str
    header: Header
    components: Components
    state: State
    lines: int  # number of lines, header included
    tip: str  # SHA-256 of the last line's bytes
    trust: Trust  # who may sign what: a game is never built without it (R39's viewer is found by it)
    #: SHA-256 of every line, line 1 first, and who made each (``""`` for the header): the history
    #: this machine compares with what it saw before (``history``, R41)
    hashes: list[str] = msgspec.field(default_factory=list)
    deciders: list[str] = msgspec.field(default_factory=list)
    #: R42: a sealed game's deck (or, read from a checkpoint, its snapshot: ``lazy.Deferred``), and
    #: the state as the file proves it (``state`` is then what this machine's seal secrets read of
    #: it: the state its views start from)
    deck: Any = None
    public: State | None = None
    #: R42 (issue 49): read as a spectator reads it, with no secret of this machine's, because a
    #: secret of its key store does not make its player's later pass and the audit forfeits that
    #: player (``verify.load_bytes``): every later reading of this file here does the same
    spectator: bool = False

    @property
    def sealed(self) -> Any:
        """The sealed deck (R42), a ``record.sealed.seal.Sealed`` or ``None``, decoded on first use
        when a checkpoint kept it.  (Typed ``Any``: the sealed room imports this module, not the
        other way round.)"""
        return resolve(self.deck)

    @property
    def is_sealed(self) -> bool:
        """Whether the game is sealed (R42), without decoding its deck."""
        return self.deck is not None

    def extended(self, state: State, lines: list[bytes], moves: list[Move]) -> Game:
        """This game after ``lines`` (recording ``moves``) were appended, reaching ``state``."""
        assert self.deck is None, "a sealed game is read again after a write (record.changes)"
        return Game(self.path, self.header, self.components, state, self.lines + len(lines), line_hash(lines[-1]),
                    self.trust, self.hashes + [line_hash(raw) for raw in lines],
                    self.deciders + [m.player for m in moves])

    @property
    def written_state(self) -> State:
        """The state the file's lines prove (the public one of a sealed game, R42)."""
        return self.state if self.public is None else self.public

    @property
    def next_n(self) -> int:
        return self.lines  # line k (k ≥ 2) holds decision n = k − 1

    @property
    def game_id(self) -> str:
        """SHA-256 (hex) of the header line: the name the key store files this game's keys under."""
        return self.trust.game_id

    @property
    def seed(self) -> int:
        """The seed setup used (chosen by the creator, or drawn jointly by the handshake)."""
        assert self.header.seed is not None
        return self.header.seed


class Start(msgspec.Struct):
    """The verified header line: the header, its component set and the state before any decision.

    The state is the one each later :class:`Step` advances in place, so read it before going on.
    For a handshake game (R40) it comes after the ``join`` and ``reveal`` lines: ``line`` and ``raw``
    are the last line read before the first decision (1 and the header otherwise), and ``header``
    is the header as setup used it (the joint seed; board and start player drawn from it).
    """

    header: Header
    components: Components
    state: State
    trust: Trust = msgspec.field(default_factory=Trust)
    line: int = 1
    raw: bytes = b""
    sealed: Any = None  # a Sealed, or a checkpoint's lazy.Deferred (decoded when a line is verified)
    #: The chain as the verifier goes on (like ``state``, filled in place as each line is verified):
    #: the SHA-256 of each line from line ``chained + 1`` on, and who made it (``""`` for the header),
    #: so that the game's :attr:`Game.hashes` need no line hashed a second time.  ``chained`` is the
    #: number of lines before them (a checkpoint's prefix) that only :func:`verify.chain_of` can tell.
    hashes: list[str] = msgspec.field(default_factory=list)
    deciders: list[str] = msgspec.field(default_factory=list)
    chained: int = 0
