"""The game state: plain slotted classes, mutated only by :mod:`agility_cli.engine.rules`.

Cube counts are 5-vectors in the order of :data:`~agility_cli.engine.components.COLOURS`.  Cards and dogs
are referred to by id; the immutable component data lives in :class:`Catalog`, shared by every copy
of a state.  :func:`canonical` gives the encoding whose hash is each line's ``digest``, and
:func:`public_state` the STATE object of INTERFACE.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from .components import COLOURS, Components, Dog, TrainingCard

if TYPE_CHECKING:
    from .ruleset import Ruleset

NO_CUBES: tuple[int, ...] = (0, 0, 0, 0, 0)


def vec(cost: Mapping[Any, int]) -> tuple[int, ...]:
    """A cost as a 5-vector in COLOURS order (``cost.get(colour, 0)`` for each, looped in C: setup
    makes one for each obstacle and dog of a game)."""
    return tuple(map(cost.get, COLOURS, _ZEROS))


_ZEROS = (0,) * len(COLOURS)


def as_dict(v: tuple[int, ...] | list[int]) -> dict[str, int]:
    """A 5-vector as ``{colour: count}`` with zero counts left out."""
    return {c: n for c, n in zip(COLOURS, v) if n}


def cubes_words(cubes: Sequence[int] | Mapping[Any, int], empty: str = "nothing") -> str:
    """``2 blue, 1 black`` from a 5-vector or a mapping (which keeps its own order, e.g. a dog card's)."""
    pairs = cubes.items() if isinstance(cubes, Mapping) else zip(COLOURS, cubes)
    parts = [f"{n} {c}" for c, n in pairs if n]
    return ", ".join(parts) if parts else empty


class Catalog:
    """Lookups over one component set, built once per game and shared by all its states."""

    __slots__ = ("components", "cards", "dogs", "dog_cost", "open_ground_cost")

    def __init__(self, components: Components) -> None:
        self.components = components
        self.cards: dict[str, TrainingCard] = {c.id: c for c in components.cards}
        self.dogs: dict[str, Dog] = {d.id: d for d in components.dogs}
        self.dog_cost: dict[str, tuple[int, ...]] = {d.id: vec(d.cost) for d in components.dogs}
        self.open_ground_cost = vec(components.open_ground_cost)


class ObstacleState(msgspec.Struct, array_like=True, gc=False):
    """An obstacle in play: its type, printed cost, +1 markers (R20) and Rush marker (R21).

    The state classes are msgspec Structs encoded as arrays, so that :func:`canonical` runs in C;
    their field order is part of the digest of rules version 1 and must not change.
    """

    type: str
    cost: tuple[int, ...]
    plus: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0, 0])
    rush: bool = False

    def copy(self) -> ObstacleState:
        return ObstacleState(self.type, self.cost, self.plus[:], self.rush)


class CourseState(msgspec.Struct, array_like=True):
    """A course in play.  ``position`` is the index of the obstacle the dog faces (R26)."""

    # Field order is the canonical (digest) encoding of rules version 1: do not reorder.
    id: str
    owner: int | None = None  # seat
    dog: str | None = None
    position: int = 0
    slipped: bool = False  # R24: at most one Slip per course per game
    obstacles: list[ObstacleState] = msgspec.field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.dog is not None and self.position >= len(self.obstacles)

    def copy(self) -> CourseState:
        return CourseState(self.id, self.owner, self.dog, self.position, self.slipped, [o.copy() for o in self.obstacles])


class PlayerState(msgspec.Struct, array_like=True):
    name: str
    cubes: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0, 0])
    flex: int = 0
    exchange: int = 0
    hand: list[str] = msgspec.field(default_factory=list)
    hand_size: int = 3
    dogs: list[str] = msgspec.field(default_factory=list)
    turns: int = 0
    must_discard: bool = False  # R22/R36: an Intimidation discard is awaited from this player

    def copy(self) -> PlayerState:
        return PlayerState(
            self.name,
            self.cubes[:],
            self.flex,
            self.exchange,
            self.hand[:],
            self.hand_size,
            self.dogs[:],
            self.turns,
            self.must_discard,
        )


#: R42: in a sealed game a training card not yet opened is ``#n`` (position n of the sealed deck,
#: numbered on across reshuffles) and a dog ``@n``; component ids never start with either sign.
CARD_POSITION, DOG_POSITION = "#", "@"


def is_position(card: str) -> bool:
    """Whether ``card`` is a sealed position rather than a card or dog id (R42)."""
    return card[:1] in (CARD_POSITION, DOG_POSITION)


class Sealing:
    """What the engine keeps of a sealed game (R42): where the next reshuffle's positions start,
    the number and reward proven for each position played face down (R31), and the reshuffles
    made since the record layer last looked.

    The engine moves positions as it moves cards; the record layer opens them (``record/sealed``).
    """

    __slots__ = ("next_card", "claims", "made")

    def __init__(
        self,
        next_card: int,
        claims: dict[str, TrainingCard] | None = None,
        made: list[tuple[list[str], list[str]]] | None = None,
    ) -> None:
        self.next_card = next_card
        self.claims: dict[str, TrainingCard] = {} if claims is None else claims
        #: reshuffles not yet sealed by the record layer: (the new positions, the discards they hold)
        self.made: list[tuple[list[str], list[str]]] = [] if made is None else made

    def copy(self) -> Sealing:
        return Sealing(self.next_card, dict(self.claims), [(a[:], b[:]) for a, b in self.made])

    def positions(self, count: int) -> list[str]:
        """``count`` fresh training-card positions (a reshuffle's new deck, R13)."""
        out = [f"{CARD_POSITION}{n}" for n in range(self.next_card, self.next_card + count)]
        self.next_card += count
        return out


class State:
    """Everything a game is at one moment.  Built by ``rules.setup``, changed by ``rules.apply``."""

    __slots__ = (
        "cat",
        "rules",
        "rng",
        "board",
        "marker",
        "deck",
        "discard",
        "display",
        "dog_deck",
        "dog_display",
        "inspiration",
        "players",
        "courses",
        "start",
        "active",
        "turn",
        "phase",
        "winner",
        "finisher",
        "final_turn",
        "tiebreak",
        "first_three",
        "first_finish",
        "prizes",
        "card",
        "reward",
        "sweep",
        "in_mini",
        "minis",
        "adopted",
        "moved",
        "paid",
        "pending",
        "put_back",
        "boost_card",
        "reveals",
        "last_tile",
        "known",
        "unseen",
        "sealing",
    )

    cat: Catalog
    rules: Ruleset  # the rulings of the game's rules version (R38); not part of the digest
    rng: int
    board: tuple[str, ...]
    marker: int
    deck: list[str]  # index 0 is the top
    discard: list[str]  # the end is the top; Break puts cards at index 0 (the bottom)
    display: list[str]
    dog_deck: list[str]
    dog_display: list[str]
    inspiration: list[str]  # R23: cube colours still on the Inspiration tile
    players: list[PlayerState]
    courses: list[CourseState]
    start: int
    active: int
    turn: int
    phase: str
    winner: int | None
    finisher: int | None  # R34: the start player who finished first without the Tiebreak marker
    final_turn: bool
    tiebreak: int | None
    first_three: int | None
    first_finish: int | None
    prizes: list[tuple[int, str]]  # R32/R33 prize choices waiting, in order
    card: str | None  # the card played this (mini-)turn; its reward comes after the action (R12)
    reward: str | None
    sweep: bool
    in_mini: bool
    minis: int  # mini-turns earned and not yet begun (R30)
    adopted: bool  # R25: at most one adoption a turn
    moved: bool  # a dog moved in step 5, so step 4 (adopt) is over
    paid: list[int]  # R27: paid non-feature clears this turn, by course slot
    pending: int  # Break: how many more returns / put-backs / draws
    put_back: int  # Break: how many cards were put back (so drawn)
    boost_card: str | None
    reveals: int  # how many times hidden or random information came out (undo stops there)
    last_tile: str | None
    # R39, what each seat may know (kept beside the state, not part of the digest):
    known: list[list[str]]  # by seat: cards in that hand the opponent saw arrive (from the display)
    unseen: list[list[str]]  # by seat: cards in the discard pile that seat did not see (face down)
    sealing: Sealing | None  # R42: a sealed game's positions; None in every other game (not digested)

    def copy(self) -> State:
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.deck, s.discard, s.display = self.deck[:], self.discard[:], self.display[:]
        s.dog_deck, s.dog_display, s.inspiration = self.dog_deck[:], self.dog_display[:], self.inspiration[:]
        s.players = [p.copy() for p in self.players]
        s.courses = [c.copy() for c in self.courses]
        s.prizes, s.paid = self.prizes[:], self.paid[:]
        s.known = [self.known[0][:], self.known[1][:]]
        s.unseen = [self.unseen[0][:], self.unseen[1][:]]
        if self.sealing is not None:
            s.sealing = self.sealing.copy()
        return s

    def card_data(self, card: str) -> TrainingCard:
        """The printed card ``card``; in a sealed game a face-down position's proven number and
        reward (R42: the line that played it proved them, not the card)."""
        data = self.cat.cards.get(card)
        if data is None and self.sealing is not None:
            data = self.sealing.claims.get(card)
        if data is None:
            raise KeyError(card)
        return data

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def to_act(self) -> int | None:
        """The seat that must make the next decision (R36), or None once the game is over."""
        if self.winner is not None:
            return None
        if self.prizes:
            return self.prizes[0][0]
        if self.phase == "discard" and not self.players[self.active].must_discard:
            return 1 - self.active  # R36 (rules version 2): the opponent discards at once
        return self.active

    def feature(self, course: CourseState, obstacle: ObstacleState) -> str | None:
        """The dog's feature on this obstacle (R4, R26); never on a pause box (R27)."""
        if course.dog is None or obstacle.type == "pause_box":
            return None
        return self.cat.dogs[course.dog].features.get(obstacle.type)  # type: ignore[call-overload, no-any-return]


_ENCODER = msgspec.msgpack.Encoder()


def canonical(s: State) -> bytes:
    """The canonical encoding of a state: every field that can differ between two games."""
    return _ENCODER.encode(
        (
            s.rng,
            s.board,
            s.marker,
            s.deck,
            s.discard,
            s.display,
            s.dog_deck,
            s.dog_display,
            s.inspiration,
            s.players,
            s.courses,
            (s.start, s.active, s.turn, s.phase, s.winner, s.finisher, s.final_turn, s.tiebreak),
            (s.first_three, s.first_finish, s.prizes, s.card, s.reward, s.sweep, s.in_mini, s.minis),
            (s.adopted, s.moved, s.paid, s.pending, s.put_back, s.boost_card, s.reveals),
        )
    )


def digest(s: State) -> str:
    """The ``digest`` of a line: SHA-256 (hex) of :func:`canonical`."""
    return hashlib.sha256(canonical(s)).hexdigest()


def card_json(cat: Catalog, card_id: str) -> dict[str, Any]:
    if card_id == HIDDEN or is_position(card_id):  # R42/R43: a sealed card the viewer cannot open
        return {"id": None, "hidden": True}
    card = cat.cards[card_id]
    return {
        "id": card.id,
        "number": card.number,
        "rewards": [{"color": r.color, "count": r.count} for r in card.rewards],
    }


def dog_json(cat: Catalog, dog_id: str) -> dict[str, Any]:
    if dog_id == HIDDEN or is_position(dog_id):  # R43: a sealed game's dog being turned up
        return {"id": None, "hidden": True}
    dog = cat.dogs[dog_id]
    return {"id": dog.id, "name": dog.name, "cost": dict(dog.cost), "features": dict(dog.features)}


def _name(s: State, seat: int | None) -> str | None:
    return None if seat is None else s.players[seat].name


HIDDEN = "?"  # a card the viewer may not know (``view.HIDDEN``; R39)


def components_json(comp: Components) -> dict[str, Any]:
    """Which component set the game is played with: its name, whether it is the shipped standard
    set, and its fingerprint (R6), so that no view hides a custom set."""
    from .components import fingerprint, is_standard

    return {"name": comp.name, "standard": is_standard(comp), "fingerprint": fingerprint(comp)}


def public_state(s: State) -> dict[str, Any]:
    """The STATE object of INTERFACE.md (plus a few extra fields) of a state or a seat's view.

    In a view (``view.seat_view``, R39) a hand lists only the cards the viewer may know and
    ``hand_count`` says how many are held; the deck order appears only in a complete view.
    """
    cat = s.cat
    complete_deck = HIDDEN not in s.deck and not any(c[:1] == "#" for c in s.deck)  # R42: positions are not cards
    out = {
        "status": "finished" if s.winner is not None else "playing",
        "rules": s.rules.version,
        "components": components_json(cat.components),
        "winner": _name(s, s.winner),
        "to_act": _name(s, s.to_act),
        "active": s.players[s.active].name,
        "turn": s.turn,
        "phase": "prize" if s.prizes and s.winner is None else s.phase,
        "mini_turn": s.in_mini,
        "mini_turns_left": s.minis,
        "final_turn": s.final_turn,
        "marker": s.marker,
        "board": list(s.board),
        "display": [card_json(cat, c) for c in s.display],
        "deck_size": len(s.deck),
        "discard_size": len(s.discard),
        "dog_display": [dog_json(cat, d) for d in s.dog_display],
        "dog_deck_size": len(s.dog_deck),
        "inspiration": list(s.inspiration),
        "tiebreak": _name(s, s.tiebreak),
        "current_card": None if s.card is None or s.card == HIDDEN else card_json(cat, s.card),
        "current_card_face_down": s.card == HIDDEN,
        "reward": s.reward,
        "boost_card": None if s.boost_card is None else card_json(cat, s.boost_card),
        "players": [
            {
                "name": p.name,
                "cubes": dict(zip(COLOURS, p.cubes)),
                "flex": p.flex,
                "exchange": p.exchange,
                "hand": [card_json(cat, c) for c in p.hand if c != HIDDEN],
                "hand_count": len(p.hand),
                "hand_size": p.hand_size,
                "must_discard": p.must_discard,
                "dogs": list(p.dogs),
                "turns": p.turns,
            }
            for p in s.players
        ],
        "courses": [
            {
                "id": c.id,
                "owner": _name(s, c.owner),
                "dog": c.dog,
                "position": c.position,
                "finished": c.finished,
                "obstacles": [
                    {
                        "type": o.type,
                        "cost": as_dict(o.cost),
                        "plus": as_dict(o.plus),
                        "feature": s.feature(c, o),
                        "rush": o.rush,
                    }
                    for o in c.obstacles
                ],
            }
            for c in s.courses
        ],
    }
    if complete_deck:  # a complete view (``--reveal``, or the game is over): the deck order too
        out["deck"] = list(s.deck)
    return out
