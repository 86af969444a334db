"""A sealed game's deck as the file shows it (R42): positions, their ciphertexts, keys and openings.

:class:`Deck` is the public side — what any verifier knows from the lines: every pass, every
position's ciphertext and the two players' key commitments, the keys published so far, the cards
opened.  :class:`Secrets` is one player's side: everything that player's tool computes from its
seal secret (32 bytes from the operating system, in the key store), which it never writes until the
audit.  A player's keys, permutations and proof nonces are all derived from that secret and a label
naming their use (:class:`DerivedSource`), so a tool recomputes them when it needs them and the
audit (the secret published) recomputes every pass that player wrote.

docs/sealed-deck.md is the specification; this module follows its sections.
"""

from __future__ import annotations

import msgspec
import hashlib

from ...engine.moves import RekeyText, ShuffleText
from ...engine.state import CARD_POSITION, DOG_POSITION
from . import crypto as sc
from . import shuffle
from .crypto import SealError
from ...i18n import N_
from ...said import Said, message_of, said
from .words import pile as pile_word

PILES = ("cards", "dogs")
MAX_WINDOW = 4  # R42: K is at most 4


class DerivedSource(sc.Source):
    """A player's randomness for one use: SHA-512(seal secret ‖ label ‖ counter) (R42).  In format 4
    (``statement_nonces``) a proof's nonces are a keyed hash of its statement under a key derived
    from the same prefix (:meth:`crypto.Source.nonces`), never the next draws of (secret, label)."""

    def __init__(self, secret: bytes, label: bytes, *, statement_nonces: bool = False) -> None:
        self._prefix = hashlib.sha512(b"\0".join([sc.DOMAIN, b"derive", secret, label])).digest()
        self._counter = 0
        self.statement_nonces = statement_nonces

    def nonce_key(self) -> bytes:
        return hashlib.sha512(sc.DOMAIN + b"\0nonce key\0" + self._prefix).digest()

    def bytes64(self) -> bytes:
        self._counter += 1
        return hashlib.sha512(self._prefix + self._counter.to_bytes(8, "big")).digest()


class Pos(msgspec.Struct):
    """One position: its ciphertext, each seat's key commitment and published key, its card once public.

    A position locked by one seat only (a re-keyed hand slot) has the other seat's commitment ``G``
    and key ``1``, published from the start.
    """

    ct: bytes | None  # None: a reshuffle position whose passes are not yet written
    commits: list[bytes | None]
    keys: list[bytes | None]
    gen: str  # the deck generation ("deal", a reshuffle's, a re-keyed hand's): "not seen before" is within it
    card: str | None = None

    def readable_by(self, seat: int) -> bool:
        """Whether ``seat``'s tool can read the card: the other seat's key is published."""
        return self.ct is not None and self.keys[1 - seat] is not None

    @property
    def public(self) -> bool:
        return self.keys[0] is not None and self.keys[1] is not None


def encode_shuffle(p: sc.ShufflePass) -> ShuffleText:
    return ShuffleText(sc.pack_bytes(p.key), sc.pack(p.points), sc.pack_bytes(p.proof))


def decode_shuffle(t: ShuffleText, what: str, count: int, *, binding: bool = False) -> sc.ShufflePass:
    """A shuffle pass as read: its proof the sum proof (64 bytes, format 3) or, ``binding`` (format 4,
    R42), the proof that binds every output (32·(4n + 5) bytes)."""
    key = sc.unpack_points(t.key, said(N_("{what} key"), what=what), 1)[0]
    size = shuffle.proof_bytes(count) if binding else 64
    return sc.ShufflePass(key, sc.unpack_points(t.points, said(N_("{what} points"), what=what), count),
                          _one(t.proof, size, said(N_("{what} proof"), what=what)))


def encode_rekey(p: sc.RekeyPass, key: bytes = b"") -> RekeyText:
    return RekeyText(sc.pack(p.points), sc.pack(p.commits), sc.pack(p.proofs), sc.pack_bytes(key))


def decode_rekey(t: RekeyText, what: str, count: int) -> sc.RekeyPass:
    points = sc.unpack_points(t.points, said(N_("{what} points"), what=what), count)
    commits = sc.unpack_points(t.commits, said(N_("{what} commitments"), what=what), count)
    return sc.RekeyPass(points, commits, sc.unpack(t.proofs, 64, said(N_("{what} proofs"), what=what), count))


def _pass(pile: str, name: str) -> Said:
    """``the cards deal-1 pass``, said."""
    return said(N_("the {pile} {name} pass"), pile=pile_word(pile), name=name)


#: R42: a pass or key that its writer's seal secret does not make; a position that opens to no card
NOT_MADE = N_("{what} is not the one its writer's seal secret makes")
NO_CARD = N_("{what} opens to no card of the set (a changed deck)")


def _one(text: str, size: int, what: str) -> bytes:
    return sc.unpack(text, size, what, 1)[0]


class SecretMismatch(SealError):
    """R42: a pass is not the one its writer's seal secret makes.  With a secret published in the
    file (the audit, an abort) its writer cheated; with a secret this machine's key store holds, the
    key store is wrong (a damaged or edited entry, or a key imported for another game), and nobody
    is blamed (``seat``: whose secret it is)."""

    def __init__(self, what: str, message: str, seat: int) -> None:
        super().__init__(what, message)
        self.seat = seat


class OpeningFailed(SealError):
    """R42: published keys open ``position`` to no card of its pile, or to a card seen twice.  The
    keys are proven against their commitments, so a pass before them was false, not the line that
    opened it: the game is aborted (docs/sealed-deck.md, the abort), never refused line by line."""

    def __init__(self, position: str, message: str) -> None:
        super().__init__("position", message)
        self.position = position


def context(game: str, pile: str, name: str) -> bytes:
    """A proof's context: the game id, the pile and the pass (section 4): a proof from another
    game, pile or pass does not check."""
    return b"\0".join([bytes.fromhex(game), pile.encode(), name.encode()])


class Secrets(msgspec.Struct):
    """One seat's secret side, all recomputed from its seal secret: global keys by pass, keys by
    position, and the card behind every position that seat has read."""

    seat: int
    secret: bytes
    globals: dict[str, bytes] = msgspec.field(default_factory=dict)  # pass name → global key
    keys: dict[str, bytes] = msgspec.field(default_factory=dict)  # position → this seat's key
    cards: dict[str, str] = msgspec.field(default_factory=dict)  # position → card, as far as this seat can read
    format: int = 3  # the game's file format: 4 draws every proof's nonces over its statement (R42)

    def source(self, label: str) -> DerivedSource:
        return DerivedSource(self.secret, label.encode(), statement_nonces=self.format >= 4)


class Deck:
    """The public side of a sealed game's two piles (R42), built line by line by the verifier."""

    def __init__(self, game: str, window: int, seats: tuple[int, int], cards: list[str], dogs: list[str],
                 file_format: int = 3) -> None:
        if not 0 <= window <= MAX_WINDOW:
            raise SealError("window", said(N_("the window is {window}; R42 allows 0 to {most}"), window=window, most=MAX_WINDOW))
        self.game = game
        self.format = file_format  # R42: 4 has binding shuffle proofs and nonces over the statement
        self.window = window
        self.creator, self.joiner = seats
        self.ids = {"cards": list(cards), "dogs": list(dogs)}
        self.tables = {pile: sc.card_points(game, pile, self.ids[pile]) for pile in PILES}
        self.points = {pile: list(self.tables[pile]) for pile in PILES}  # in component order
        self.point_of = {pile: {c: p for p, c in self.tables[pile].items()} for pile in PILES}
        self.pos: dict[str, Pos] = {}
        self.seen: dict[tuple[str, str], set[str]] = {}  # (pile, generation) → cards opened
        self.setup: dict[str, dict[str, sc.ShufflePass | sc.RekeyPass]] = {pile: {} for pile in PILES}
        self.mine: dict[int, Secrets] = {}  # the seats whose secret this machine holds (or the audit gave)
        self.remasked: dict[str, tuple[bytes, bytes, int]] = {}  # position → (Y, R, holder) to unmask (section 8)

    @property
    def binding(self) -> bool:
        """R42: whether every shuffle pass carries the proof that binds every output (format 4)."""
        return getattr(self, "format", 3) >= 4

    # ---------------------------------------------------------------------------------------
    # The setup passes (section 4): deal-1 … deal-4 for each pile

    def pile_of(self, position: str) -> str:
        return "dogs" if position.startswith(DOG_POSITION) else "cards"

    def setup_shuffle(self, seat: int, name: str, texts: dict[str, ShuffleText], writer: str = "") -> None:
        """Pass ``deal-1`` (the creator's) or ``deal-2`` (the joiner's), both piles; ``writer`` names
        the player refused when a pass's proof does not check."""
        for pile in PILES:
            if pile not in texts:
                raise SealError(name, said(N_("the line has no {name} pass of the {pile}"), name=name, pile=pile_word(pile)))
            before = self.points[pile] if name == "deal-1" else self._points(pile, "deal-1")
            p = decode_shuffle(texts[pile], _pass(pile, name), len(before), binding=self.binding)
            shuffle.check_shuffle(context(self.game, pile, name), before, p, binding=self.binding, writer=writer)
            self._check_mine(seat, pile, name, p, before)
            self.setup[pile][name] = p

    def setup_rekey(self, seat: int, name: str, texts: dict[str, RekeyText]) -> None:
        """Pass ``deal-3`` (the creator's) or ``deal-4`` (the joiner's); after deal-4 the piles are
        positions ``#0…`` and ``@0…``."""
        for pile in PILES:
            if pile not in texts:
                raise SealError(name, said(N_("the line has no {name} pass of the {pile}"), name=name, pile=pile_word(pile)))
            before = self._points(pile, "deal-2" if name == "deal-3" else "deal-3")
            global_pass = self.setup[pile]["deal-1" if name == "deal-3" else "deal-2"]
            assert isinstance(global_pass, sc.ShufflePass)
            p = decode_rekey(texts[pile], _pass(pile, name), len(before))
            sc.check_rekey(context(self.game, pile, name), before, global_pass.key, p)
            self._check_mine(seat, pile, name, p, before)
            self.setup[pile][name] = p
        if name == "deal-4":
            for pile in PILES:
                r3, r4 = self.setup[pile]["deal-3"], self.setup[pile]["deal-4"]
                assert isinstance(r3, sc.RekeyPass) and isinstance(r4, sc.RekeyPass)
                sign = DOG_POSITION if pile == "dogs" else CARD_POSITION
                for i, ct in enumerate(r4.points):
                    commits: list[bytes | None] = [None, None]
                    commits[self.creator], commits[self.joiner] = r3.commits[i], r4.commits[i]
                    self.pos[f"{sign}{i}"] = Pos(ct, commits, [None, None], "deal")
                for s in self.mine.values():
                    self._setup_keys(s, pile)

    def _points(self, pile: str, name: str) -> list[bytes]:
        p = self.setup[pile].get(name)
        if p is None:
            raise SealError(name, said(N_("the {name} pass of the {pile} is missing"), name=name, pile=pile_word(pile)))
        return p.points

    def make_setup(self, s: Secrets, name: str) -> dict[str, ShuffleText] | dict[str, RekeyText]:
        """The pass ``name`` of both piles as seat ``s`` writes it (recomputed from its secret)."""
        out: dict[str, ShuffleText | RekeyText] = {}
        for pile in PILES:
            p, _ = self._compute(s, pile, name)
            out[pile] = encode_shuffle(p) if isinstance(p, sc.ShufflePass) else encode_rekey(p)
        return out  # type: ignore[return-value]

    def _compute(self, s: Secrets, pile: str, name: str) -> tuple[sc.ShufflePass | sc.RekeyPass, list[bytes]]:
        s.format = getattr(self, "format", 3)  # a seat's passes as this game's format makes them (R42)
        ctx, src = context(self.game, pile, name), s.source(f"{pile}/{name}")
        if name in ("deal-1", "deal-2"):
            before = self.points[pile] if name == "deal-1" else self._points(pile, "deal-1")
            p, k, _ = shuffle.shuffle_pass(ctx, before, src, binding=self.binding)
            s.globals[f"{pile}/{name}"] = k
            return p, [k]
        before = self._points(pile, "deal-2" if name == "deal-3" else "deal-3")
        global_key = s.globals.get(f"{pile}/{'deal-1' if name == 'deal-3' else 'deal-2'}")
        if global_key is None:
            self._compute(s, pile, "deal-1" if name == "deal-3" else "deal-2")
            global_key = s.globals[f"{pile}/{'deal-1' if name == 'deal-3' else 'deal-2'}"]
        r, keys = sc.rekey_pass(ctx, before, global_key, src)
        return r, keys

    def _check_mine(self, seat: int, pile: str, name: str, p: sc.ShufflePass | sc.RekeyPass, before: list[bytes]) -> None:
        """With the writer's secret at hand (its own machine, or the audit), the pass must be the one
        its secret makes: the audit's check that every pass was shuffled and keyed honestly."""
        s = self.mine.get(seat)
        if s is None:
            return
        mine, _ = self._compute(s, pile, name)
        if mine != p:
            raise SecretMismatch(name, said(NOT_MADE, what=_pass(pile, name)), seat)

    def secret_mismatch(self, seat: int, secret: bytes) -> str | None:
        """R42's audit of a published seal secret against its writer's setup passes (the shuffle and
        the re-key of both piles, which that secret alone makes): what does not match, or None."""
        s = Secrets(seat, secret)
        own = ("deal-1", "deal-3") if seat == self.creator else ("deal-2", "deal-4")
        for pile in PILES:
            for name in own:
                recorded = self.setup[pile].get(name)
                if recorded is not None and self._compute(s, pile, name)[0] != recorded:
                    return said(N_("the seal secret it published does not make its {pile} {name} pass"), pile=pile_word(pile), name=name)
        return None

    def setup_keys(self, s: Secrets, pile: str) -> list[bytes]:
        """Seat ``s``'s key for each position of ``pile``, from its re-key pass (deal-3 or deal-4)."""
        _, keys = self._compute(s, pile, "deal-3" if s.seat == self.creator else "deal-4")
        return keys

    def _setup_keys(self, s: Secrets, pile: str) -> None:
        sign = DOG_POSITION if pile == "dogs" else CARD_POSITION
        for i, k in enumerate(self.setup_keys(s, pile)):
            s.keys[f"{sign}{i}"] = k

    def hold(self, s: Secrets) -> None:
        """This machine holds (or the audit published) seat ``s.seat``'s secret."""
        s.format = getattr(self, "format", 3)  # its nonces as the game's format draws them (R42)
        self.mine[s.seat] = s
        for pile in PILES:
            if "deal-4" in self.setup[pile]:
                self._setup_keys(s, pile)
        for position, p in self.pos.items():
            self.learn(position, p)

    # ---------------------------------------------------------------------------------------
    # Keys and openings (section 3)

    def get(self, position: str) -> Pos:
        p = self.pos.get(position)
        if p is None:
            raise SealError("position", said(N_("position {position} is not in the sealed deck"), position=position))
        return p

    def publish(self, position: str, seat: int, key: bytes) -> None:
        """``seat`` publishes its key for ``position``: checked against its commitment."""
        p = self.get(position)
        commit = p.commits[seat]
        if commit is None:  # a reshuffle position the seat has not locked for good yet (section 7)
            raise SealError("key", said(N_("position {position} is not sealed yet (its passes are not written)"), position=position))
        if p.keys[seat] is not None:
            raise SealError("key", said(N_("the key for position {position} was published before"), position=position))
        p.keys[seat] = sc.check_key(key, commit, said(N_("the key for position {position}"), position=position))
        mine = self.mine.get(seat)
        if mine is not None and mine.keys.get(position) not in (None, key):
            raise SecretMismatch("key", said(NOT_MADE, what=said(N_("the key for position {position}"), position=position)), seat)
        self.learn(position, p)

    def open_public(self, position: str, public_elsewhere: set[str]) -> str:
        """The card of a position with both keys published (R42): a card of the pile, not seen
        before in its generation and not shown anywhere else now."""
        p = self.get(position)
        if p.card is not None:
            return p.card
        pile = self.pile_of(position)
        assert p.ct is not None and p.keys[0] is not None and p.keys[1] is not None
        seen = self.seen.setdefault((pile, p.gen), set())
        try:
            card = sc.open_card(p.ct, [p.keys[0], p.keys[1]], self.tables[pile], seen | public_elsewhere,
                                said(N_("position {position}"), position=position))
        except SealError as exc:
            raise OpeningFailed(position, message_of(exc)) from None
        seen.add(card)
        p.card = card
        for s in self.mine.values():
            s.cards[position] = card
        return card

    def learn(self, position: str, p: Pos) -> None:
        """Each held seat reads every position it can (the other seat's key published)."""
        for s in self.mine.values():
            if position in s.cards or p.ct is None or not p.readable_by(s.seat):
                continue
            own = s.keys.get(position)
            other = p.keys[1 - s.seat]
            if own is None or other is None:
                continue
            card = self.tables[self.pile_of(position)].get(sc.unlock(p.ct, own, other))
            if card is None:
                raise OpeningFailed(position, said(NO_CARD, what=said(N_("position {position}"), position=position)))
            s.cards[position] = card

    def holder_point(self, position: str, holder: int) -> tuple[bytes, bytes]:
        """A position under ``holder``'s key alone (the other key taken off) and that key's commitment."""
        p = self.get(position)
        other = p.keys[1 - holder]
        commit = p.commits[holder]
        if p.ct is None or other is None or commit is None:
            raise SealError("position", said(N_("position {position} is not readable by its holder"), position=position))
        return sc.unlock(p.ct, other), commit

    def add_holder_only(self, position: str, holder: int, point: bytes, commit: bytes, gen: str) -> None:
        """A position locked by ``holder`` alone (a re-keyed hand slot, section 6)."""
        keys: list[bytes | None] = [None, None]
        commits: list[bytes | None] = [None, None]
        keys[1 - holder], commits[1 - holder] = sc.ONE, sc.BASE
        commits[holder] = commit
        self.pos[position] = Pos(point, commits, keys, gen)

    def add_sealed(self, position: str, ct: bytes, commits: list[bytes], gen: str) -> None:
        """A position's ciphertext, once its last pass is written; a key published with an earlier
        pass (a reshuffle's ``ahead``, checked against the same commitment) is kept."""
        old = self.pos.get(position)
        keys = [k if old is not None and old.commits[s] == commits[s] else None
                for s, k in enumerate(old.keys if old is not None else [None, None])]
        self.pos[position] = Pos(ct, list(commits), keys, gen)

    def add_unsealed(self, position: str, gen: str) -> None:
        """A reshuffle's position, whose passes are still to be written."""
        self.pos[position] = Pos(None, [None, None], [None, None], gen)

    def window_of(self, seat: int, deck: list[str]) -> list[str]:
        """The deck positions in ``seat``'s window: the other key released, its own not (R42).  A
        reshuffle's position joins it with the other seat's last pass (section 7)."""
        return [q for q in deck if (p := self.pos.get(q)) is not None
                and p.keys[1 - seat] is not None and p.keys[seat] is None]

    def free(self, deck: list[str]) -> list[str]:
        """The deck positions with no key published that a seat could release a key for: sealed, or
        a reshuffle's position whose passes one seat has finished."""
        return [q for q in deck if (p := self.pos.get(q)) is not None and p.keys[0] is None and p.keys[1] is None
                and (p.ct is not None or p.commits[0] is not None or p.commits[1] is not None)]

    def draw_order(self, deck: list[str], active: int) -> list[str]:
        """The order the engine draws in (section 5): the active seat's window, the free positions,
        then the opponent's window, each lowest first; unsealed positions last."""
        def number(q: str) -> int:
            return int(q[1:])

        mine, free, theirs = self.window_of(active, deck), self.free(deck), self.window_of(1 - active, deck)
        rest = [q for q in deck if q not in set(mine) | set(free) | set(theirs)]
        return sorted(mine, key=number) + sorted(free, key=number) + sorted(theirs, key=number) + sorted(rest, key=number)
