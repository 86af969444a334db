"""A sealed game's lines, read and written (R42–R44): the setup passes carried by the handshake,
then one :class:`~agility_cli.record.sealed.seal.Sealed` step per line.

:func:`start` builds the deck from a format-3 header; :func:`read_setup` checks the setup passes of
the ``join`` and ``reveal`` lines and of the joiner's first ``keys`` line; :func:`check` reads one
later line; :func:`compose` makes the seal of the line a player's tool is about to write (on copies,
so that nothing changes until the line is written and read back); :func:`prepare` is the state a
player decides in.  The audit is :mod:`agility_cli.record.audit`'s.
"""

from __future__ import annotations

import copy
import os

import msgspec

from ...engine import rules
from ...engine.components import Components
from ...engine.moves import Abort, Header, Move, RekeyText, Seal, SealedSetup
from ...engine.state import State, is_position
from . import abort as sealabort
from . import crypto as sc
from .crypto import SealError
from ...i18n import N_
from ...said import said
from .words import positions
from .deck import Deck, Secrets
from .seal import Draft, OpeningFailed, Sealed
from .steps import AbortClaim, shown_now

#: R42: the window K when the creator names none.
DEFAULT_WINDOW = 2


def new_secret() -> bytes:
    """A player's seal secret: 32 bytes of the operating system's randomness (R42), never a seed."""
    return os.urandom(32)


def start(header: Header, components: Components, game: str, creator: str, held: dict[str, bytes]) -> Sealed:
    """The deck of a format-3 or format-4 game (R42: binding shuffle proofs) after its header's passes
    (``deal-1``), holding ``held``'s secrets."""
    sealed_setup = header.sealed
    assert isinstance(sealed_setup, SealedSetup)
    seats = header.players.index(creator), 1 - header.players.index(creator)
    deck = Deck(game, sealed_setup.window, seats, [c.id for c in components.cards], [d.id for d in components.dogs],
                file_format=header.format)
    for name, secret in held.items():
        deck.hold(Secrets(header.players.index(name), secret, format=header.format))
    deck.setup_shuffle(seats[0], "deal-1", sealed_setup.shuffle, creator)
    return Sealed(deck, header.players)


def first_passes(header: Header, components: Components, game: str, creator: str, secret: bytes) -> SealedSetup:
    """The header's ``sealed`` object, with the creator's ``deal-1`` passes."""
    sealed_setup = header.sealed
    assert isinstance(sealed_setup, SealedSetup)
    seats = header.players.index(creator), 1 - header.players.index(creator)
    deck = Deck(game, sealed_setup.window, seats, [c.id for c in components.cards], [d.id for d in components.dogs],
                file_format=header.format)
    mine = Secrets(seats[0], secret, format=header.format)
    return msgspec.structs.replace(sealed_setup, shuffle=deck.make_setup(mine, "deal-1"))


def read_setup(sealed: Sealed, seat: int, name: str, seal: Seal | None, state: State | None = None) -> None:
    """Check a setup pass: ``deal-2`` (join), ``deal-3`` (reveal), ``deal-4`` (the joiner's keys line).
    The reveal's keys given ahead (section 4) are checked against ``state``, the game's first."""
    if seal is None:
        raise SealError(name, said(N_("the line carries no {name} pass of the sealed deck"), name=name))
    if name == "deal-2":
        sealed.deck.setup_shuffle(seat, name, seal.shuffle, sealed.names[seat])
        return
    sealed.deck.setup_rekey(seat, name, seal.rekey)
    if name == "deal-3" and (seal.ahead or seal.window):
        if state is None:
            raise SealError(name, said(N_("keys given with the re-key pass before the game's state is known")))
        _early(sealed, seat, seal, state)


def _early_positions(sealed: Sealed, state: State) -> tuple[list[str], list[str]]:
    """Section 4: the positions whose keys the creator gives with its re-key pass — the cards shown
    and the joiner's dealt cards (``ahead``), and the joiner's first window (``window``)."""
    joiner = sealed.deck.joiner
    ahead = [q for q in shown_now(state) + state.players[joiner].hand if is_position(q)]
    window = sorted((q for q in state.deck if is_position(q)), key=lambda q: int(q[1:]))[: sealed.deck.window]
    return ahead, window


def _early(sealed: Sealed, seat: int, seal: Seal, state: State) -> None:
    if seat != sealed.deck.creator:
        raise SealError("deal-3", said(N_("keys given with a re-key pass that is not the creator's")))
    ahead, window = _early_positions(sealed, state)
    sealed.early = []
    for given, allowed, kind in ((seal.ahead, ahead, "ahead"), (seal.window, window, "window")):
        if [q for q, _ in given] != allowed[: len(given)] or (kind == "ahead" and len(given) != len(allowed)):
            raise SealError("deal-3", said(N_("the re-key pass's {kind} keys are for {given}, not for {allowed} (R42)"),
                                           kind=kind, given=positions([q for q, _ in given]),
                                           allowed=positions(allowed, none=True)))
        for q, text in given:
            pile = sealed.deck.pile_of(q)
            rekey = sealed.deck.setup[pile]["deal-3"]
            assert isinstance(rekey, sc.RekeyPass)
            what = said(N_("the key for position {position}"), position=q)
            key = sc.unpack(text, 32, what, 1)[0]
            sc.check_key(key, rekey.commits[int(q[1:])], what)
            sealed.early.append((q, key))


def deal(sealed: Sealed, state: State, *, aborting: bool = False) -> None:
    """The deal done (deal-4 read): the creator's early keys published.  On an abort line a
    position they open to no card is what the abort is about (R42): the rest waits, unpublished."""
    try:
        take_early(sealed, state)
    except OpeningFailed:
        if not aborting:
            raise


def abort_dealt(sealed: Sealed, state: State, claim: AbortClaim) -> None:
    """R42: the deal of an abort line that is the joiner's first (its re-key pass, deal-4) read
    again on a deck read with the abort's secret held; an opening that fails raises OpeningFailed."""
    if claim.rekey and not sealed.dealt:
        read_setup(sealed, sealed.deck.joiner, "deal-4", Seal(rekey=claim.rekey))
        take_early(sealed, state)


def take_early(sealed: Sealed, state: State) -> None:
    """Once the deck is dealt (deal-4), publish the creator's keys its re-key pass gave ahead."""
    creator = sealed.deck.creator
    for q, key in sealed.early:
        sealed.deck.publish(q, creator, key)
    sealed.early = []


def make_setup(sealed: Sealed, seat: int, name: str, state: State | None = None) -> Seal:
    """The seal of a setup line as seat ``seat``'s tool writes it; the reveal's (``deal-3``, given
    the game's first state) with the creator's keys for the first cards and the joiner's first
    window, so that neither player waits for another line before its first decision (section 4)."""
    mine = sealed.deck.mine[seat]
    made = sealed.deck.make_setup(mine, name)
    if name == "deal-2":
        return Seal(shuffle=made)  # type: ignore[arg-type]
    if name != "deal-3" or state is None:
        return Seal(rekey=made)  # type: ignore[arg-type]
    keys = {pile: sealed.deck.setup_keys(mine, pile) for pile in ("cards", "dogs")}
    ahead, window = _early_positions(sealed, state)

    def given(qs: list[str]) -> list[tuple[str, str]]:
        return [(q, sc.pack_bytes(keys[sealed.deck.pile_of(q)][int(q[1:])])) for q in qs]

    return Seal(rekey=made, ahead=given(ahead), window=given(window))  # type: ignore[arg-type]


def check(sealed: Sealed, state: State, author: int, n: int, move: Move | None, seal: Seal | None) -> None:
    """Read line ``n`` (its seal, and its decision if any) into ``state`` and the deck; the decision
    must be legal in what the line proves.  Raises SealError or rules.IllegalMove."""
    sealed.line = n
    if move is None and seal is None:
        raise SealError("seal", said(N_("a line of a sealed game with no seal")))
    if sealed.aborts:  # R42: after an abort, only the other seat's seal secret (docs/sealed-deck.md)
        first = next(iter(sealed.aborts.values()))
        if move is not None or seal is None or seal.audit is None or seal != Seal(audit=seal.audit):
            raise SealError("abort", said(N_("{name} aborted the game at line {line}: only the other player's seal "
                                             "secret may follow (an audit line, R42)"),
                                          name=sealed.names[first.seat], line=first.line))
        sealed.take_audit(state, author, seal, None)
        return
    aborting = seal is not None and seal.abort is not None
    carried = aborting and seal is not None and seal.abort is not None and seal.abort.line is not None
    if aborting:
        assert seal is not None and seal.abort is not None
        # the abort alone; an older abort on the joiner's first line may carry its re-key pass
        # (deal-4) before it — one that carries the refused line has that pass in it (R42)
        if move is not None or seal != Seal(abort=seal.abort, rekey=seal.rekey if not sealed.dealt and not carried else {}):
            raise SealError("abort", said(N_("an abort line carries nothing but its abort (and, as the joiner's first "
                                             "line, its re-key pass: R42)")))
    if not sealed.dealt and not carried:
        # the joiner's re-key pass comes first: its line, or an abort that carries it (the joiner's
        # own, or the creator's over the joiner's refused first line: a re-key pass only its writer
        # can prove, R42)
        if (author != sealed.deck.joiner and not aborting) or move is not None:
            raise SealError("deal-4", said(N_("the deck is not dealt yet: {name}'s re-key pass comes first"),
                                           name=sealed.names[sealed.deck.joiner]))
        read_setup(sealed, sealed.deck.joiner, "deal-4", seal)
        deal(sealed, state, aborting=aborting)
    if aborting:
        assert seal is not None and seal.abort is not None
        sealabort.take_abort(sealed, state, author, seal.abort, seal.rekey)
        return
    public = sealed.before(state, author, move, seal, None)
    if public is not None:
        if public != move:
            raise SealError("slot", said(N_("the decision does not name the slot the hand's re-keying gives its card")))
        rules.apply_in_place(state, public)
    sealed.after(state, author, seal, None)


class Composed(msgspec.Struct):
    """A line's seal and decision as the writer's tool makes them, and the state they lead to."""

    seal: Seal
    move: Move | None
    state: State


def compose(sealed: Sealed, state: State, author: int, n: int, move: Move | None, *, want: int = 0) -> Composed:
    """The seal and recorded decision of line ``n`` by ``author`` (whose secret the deck holds),
    worked out on copies: the decision ``move`` is in the author's own terms (the cards it reads)."""
    trial = copy.deepcopy(sealed)
    s = state.copy()
    trial.line = n
    if trial.aborts:  # R42: after the other's abort, this seat's tool publishes its seal secret
        assert move is None
        seal = Seal(audit=trial.deck.mine[author].secret.hex())
        trial.take_audit(s, author, seal, None)
        return Composed(seal, None, s)
    draft = Draft(trial.deck.mine[author], want=want)
    setup_seal = None
    if not trial.dealt:
        setup_seal = make_setup(trial, author, "deal-4")
        read_setup(trial, author, "deal-4", setup_seal)
        take_early(trial, s)
        draft.mine = trial.deck.mine[author]
    public = trial.before(s, author, move, None, draft)
    if public is not None:
        rules.apply_in_place(s, public)
    trial.after(s, author, None, draft)
    seal = draft.seal()
    if setup_seal is not None:
        seal = msgspec.structs.replace(seal, rekey=setup_seal.rekey)
    return Composed(seal, public, s)


def compose_abort(sealed: Sealed, state: State, author: int, n: int, position: str, key: bytes | None = None,
                  rekey: dict[str, RekeyText] | None = None, *, carried: bytes | None = None) -> Composed:
    """The seal of line ``n``: ``author``'s abort over ``position``, whose opening failed (R42) —
    its seal secret published at once, with the opponent's line this tool refused carried whole
    (``carried``: the evidence, whose keys open the position).  Without it the abort replaces the
    author's own decision; before the deal it then carries the joiner's own re-key pass (deal-4).
    ``key`` and ``rekey`` make the older form (the refused line's key and re-key pass), kept for
    the tests of files written before the carried line."""
    trial = copy.deepcopy(sealed)
    s = state.copy()
    trial.line = n
    if carried is not None:
        abort = Abort(secret=trial.deck.mine[author].secret.hex(), position=position, line=carried.decode())
        sealabort.take_abort(trial, s, author, abort)
        return Composed(Seal(abort=abort), None, s)
    if not trial.dealt:
        if rekey is None:
            assert author == trial.deck.joiner
            rekey = make_setup(trial, author, "deal-4").rekey
        read_setup(trial, trial.deck.joiner, "deal-4", Seal(rekey=rekey))
        deal(trial, s, aborting=True)
    rekey = rekey or {}
    abort = Abort(secret=trial.deck.mine[author].secret.hex(), position=position,
                  key=None if key is None else sc.pack_bytes(key))
    seal = Seal(abort=abort, rekey=rekey)
    sealabort.take_abort(trial, s, author, abort)
    return Composed(seal, None, s)


def prepare(sealed: Sealed, state: State, author: int) -> tuple[Sealed, State]:
    """The deck and state as ``author`` decides in them: its owed keys published (and what they
    open turned up, a wipe made, R13), on copies.  When the result still awaits the other seat
    (R44), the author's tool writes a keys line first."""
    trial = copy.deepcopy(sealed)
    s = state.copy()
    if trial.dealt:
        trial.publish_owed(s, author)
    return trial, s
