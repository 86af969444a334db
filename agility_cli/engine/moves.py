"""The game-file format: the header line and one Struct per kind of decision (R35, R36).

Two views of a decision exist and are kept apart:

* a **move** (:class:`Move` subclasses) is what the rules engine generates and applies: the deciding
  player and the decision's own fields;
* a **line** is a move as written in the game file, with the envelope ``n`` (1, 2, … in file order),
  ``prev`` (SHA-256 of the previous line) and ``digest`` (hash of the state after the move).

The line Structs are derived from the move Structs, so the two cannot drift apart.  Every Struct
forbids unknown fields; one decoder, built once, reads any line (a tagged union on ``"kind"``).
No logic lives here.  (No ``from __future__ import annotations``: msgspec would parse each string
annotation when the line decoder is built, about 5 ms of every command's start-up.)
"""

from typing import Annotated, Any, Literal, Union

import msgspec

from ..i18n import N_
from ..said import said

from .components import Colour, Components, Reward

#: The newest file format: 2 adds the seed handshake and signatures (R40, R41): ``"seed": null`` with
#: ``commit`` and ``keys`` in the header, the ``join`` and ``reveal`` lines, and ``sig`` on lines.
#: A file that uses none of them is written as format 1, byte for byte as before.  Format 3 adds the
#: sealed deck (R42): ``sealed`` in the header, ``seal`` on lines, and ``keys`` lines.  Format 4 is a
#: sealed game whose shuffle passes carry a proof that binds every output and whose proof nonces
#: are drawn over their statements (R42, docs/sealed-deck.md section 3); ``new`` writes it.
FORMAT_VERSION = 2
FORMAT_VERSIONS = (1, 2, 3, 4)
#: The rules version new games are played under (R38); every version in RULES_VERSIONS replays.
RULES_VERSION = 2
RULES_VERSIONS = (1, 2)

BoostOption = Literal["action", "cube"]
Token = Literal["flex", "exchange"]


Hex64 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
Signature = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{128}$")]


Packed = Annotated[str, msgspec.Meta(pattern="^[A-Za-z0-9_-]*$", max_length=200_000)]  # base64url, no padding
Position = Annotated[str, msgspec.Meta(pattern="^[#@][0-9]{1,4}$")]  # a sealed position (R42): #n a card, @n a dog
MAX_CARRIED = 400_000  # R42: the longest opponent's line an abort carries (a game line is at most 1 MiB, escaped)


class ShuffleText(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """R42: a shuffle pass as written: the key's commitment, the locked points in their new order,
    the sum proof (docs/sealed-deck.md section 3), each base64url."""

    key: Packed
    points: Packed
    proof: Packed


class RekeyText(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """R42: a re-key pass as written: per position the new point, the key's commitment, the proof.
    ``key`` (a normalising or reshuffle pass) is the commitment of the global key it takes off
    together with its proof; empty when that key is a setup pass's."""

    points: Packed
    commits: Packed
    proofs: Packed
    key: Packed = ""


class MixText(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """R42: a normalising pass as written: every point brought under one fresh key (its commitment
    ``key``), in place, each with its proof; the writer's own locks are taken off on the way."""

    key: Packed
    points: Packed
    proofs: Packed


class PassesText(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """R42: the passes of one step of a hand re-keying or of a reshuffle (docs/sealed-deck.md
    sections 6 and 7): a normalising pass, a shuffle pass, a re-key pass, as the step needs."""

    mix: MixText | None = None
    shuffle: ShuffleText | None = None
    rekey: RekeyText | None = None


class Claim(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """R31/R42: a face-down play's proven number and rewards: an OR proof that the slot holds one
    of the cards printed so, without saying which."""

    slot: Position
    number: int
    rewards: tuple[Reward, Reward]
    proof: Packed


class Abort(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """R42: an abort — the writer's seal secret, published at once because ``position`` opened to
    no card of its pile (or to a card seen twice).  ``line`` is the opponent's refused line, carried
    whole as evidence (signed by the opponent), whose opening of ``position`` failed; absent when the
    abort replaces the writer's own decision.  ``key`` (older aborts, before ``line``) is the
    opponent's key for that position when the file did not hold it (it came in the refused line)."""

    secret: Hex64
    position: Position
    key: Packed | None = None
    line: Annotated[str, msgspec.Meta(max_length=MAX_CARRIED)] | None = None


class Seal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """R42: what a line of a sealed game (format 3) carries for the deck: passes, keys, a claim.

    ``open`` are the writer's keys for positions opened before its decision is applied, ``then``
    those for positions its decision draws, ``window`` its keys released to the opponent's
    window; ``remask`` and ``unmask`` the two steps that let a player read a card it drew from the
    opponent's window; ``want`` asks for window keys (a pause, R44); ``hand`` re-keys the writer's hand
    before a face-down decision; ``reshuffle`` is the writer's step of a reshuffle's passes, and
    ``ahead`` its keys for the cards that step lets it open at once (a new deck's display refill);
    ``audit`` is the writer's seal secret, published at the end for the audit; ``abort`` publishes
    it at once when an opening failed (docs/sealed-deck.md).
    """

    shuffle: dict[str, ShuffleText] = {}
    rekey: dict[str, RekeyText] = {}
    open: list[tuple[Position, Packed]] = []
    then: list[tuple[Position, Packed]] = []
    window: list[tuple[Position, Packed]] = []
    remask: list[tuple[Position, Packed]] = []
    unmask: list[tuple[Position, Packed]] = []
    want: int = 0
    hand: PassesText | None = None
    reshuffle: PassesText | None = None
    ahead: list[tuple[Position, Packed]] = []
    claim: Claim | None = None
    audit: Hex64 | None = None
    abort: Abort | None = None


class SealedSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """R42: a format-3 header's sealed deck: the window K (at most 4), a nonce that names the game,
    and the creator's first shuffle pass of each pile (``cards``, ``dogs``)."""

    window: int
    nonce: Hex64
    shuffle: dict[str, ShuffleText] = {}


class Header(msgspec.Struct, frozen=True, kw_only=True, tag="game", tag_field="kind", forbid_unknown_fields=True):
    """Line 1 of a game file (R35): everything setup needs, so a file replays on its own.

    Format 2 (R40, R41), all optional and omitted when absent:

    * ``seed`` is ``null`` when it is drawn jointly by the handshake; ``commit`` is then the
      SHA-256 (hex) of the creator's secret, and ``board`` may be ``"random-a"``/``"random-b"`` and
      ``first`` ``"random"``, resolved from the joint seed once it is known;
    * ``keys`` maps the creator (or the host of a bot game) to their Ed25519 public key (hex): the
      game is signed, and the header carries the creator's ``sig`` as its last member.
    """

    format: int
    rules: int
    seed: int | None
    players: tuple[str, str]
    first: str
    board: Union[tuple[str, ...], str]
    components: Union[str, Components]
    commit: Hex64 | msgspec.UnsetType = msgspec.UNSET
    keys: dict[str, Hex64] | msgspec.UnsetType = msgspec.UNSET
    sealed: SealedSetup | msgspec.UnsetType = msgspec.UNSET  # format 3 (R42)
    sig: Signature | msgspec.UnsetType = msgspec.UNSET


class JoinLine(msgspec.Struct, frozen=True, kw_only=True, tag="join", tag_field="kind", forbid_unknown_fields=True):
    """R40: the second player joins a handshake game (decision n=1): their public key and secret.

    The secret is sent in the clear: the joiner has seen only the creator's commitment.
    """

    n: int
    prev: str
    player: str
    key: Hex64
    secret: Hex64
    seal: Seal | msgspec.UnsetType = msgspec.UNSET  # format 3 (R42): the joiner's shuffle passes
    sig: Signature | msgspec.UnsetType = msgspec.UNSET  # required on reading (R41); unset only while signing


class RevealLine(msgspec.Struct, frozen=True, kw_only=True, tag="reveal", tag_field="kind", forbid_unknown_fields=True):
    """R40: the creator reveals the secret committed to in the header (n=2); the game starts."""

    n: int
    prev: str
    player: str
    secret: Hex64
    seal: Seal | msgspec.UnsetType = msgspec.UNSET  # format 3 (R42): the creator's re-key passes
    sig: Signature | msgspec.UnsetType = msgspec.UNSET  # required on reading (R41); unset only while signing


class KeysLine(msgspec.Struct, frozen=True, kw_only=True, tag="keys", tag_field="kind", forbid_unknown_fields=True):
    """R42/R44: a sealed game's line with no decision: passes and keys the other player awaits,
    written by a player's tool without asking the player anything."""

    n: int
    prev: str
    player: str
    seal: Seal
    digest: str
    sig: Signature | msgspec.UnsetType = msgspec.UNSET


HANDSHAKE_LINES: tuple[type[msgspec.Struct], ...] = (JoinLine, RevealLine)


class Move(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", forbid_unknown_fields=True):
    """A decision, made by ``player`` (R36)."""

    player: str


class Discard(Move, frozen=True, tag="discard"):
    """R22/R36: the intimidated player discards a card face down.

    Rules version 2: at once, when the tile resolves, before the active player goes on;
    version 1: first thing in the intimidated player's next turn.
    """

    card: str


class Play(Move, frozen=True, tag="play"):
    """R12/R14/R31: play ``card``; ``flex`` shifts the space resolved.

    ``reward`` is the colour taken after the action.  Under rules version 2 it may be ``None``:
    the reward is then a decision of its own (:class:`ChooseReward`) once the action is done;
    a colour named here is an early, binding choice.  Version 1 always names it.
    """

    card: str
    reward: Colour | None
    flex: int = 0


class ChooseReward(Move, frozen=True, tag="reward"):
    """R12 step 3 (rules version 2): take the ``color`` reward of the card played, after the action."""

    color: Colour


class Break(Move, frozen=True, tag="break"):
    """R18: declare how many cubes (1 or 2) to return and cards to put back."""

    count: int


class Return(Move, frozen=True, tag="return"):
    """R18: return one cube of ``color`` to the supply."""

    color: Colour


class PutBack(Move, frozen=True, tag="put_back"):
    """R18: put ``card`` from hand on the bottom of the discard pile, face down."""

    card: str


class Draw(Move, frozen=True, tag="draw"):
    """R18: draw the top card of the training deck into hand (Break only)."""


class Take(Move, frozen=True, tag="take"):
    """R12 step 6 / R18: take ``card`` from the training display into hand (R13 refills it)."""

    card: str


class BoostAction(Move, frozen=True, tag="boost_action"):
    """R19 option A: resolve the tile at the boost card's number."""


class BoostCube(Move, frozen=True, tag="boost_cube"):
    """R19 option B: take one cube of a colour shown on the boost card."""

    color: Colour


class Distract(Move, frozen=True, tag="distract"):
    """R20: put a +1 marker of ``color`` on obstacle index ``obstacle`` of ``course``."""

    course: str
    obstacle: int
    color: Colour


class Rush(Move, frozen=True, tag="rush"):
    """R21: put a Rush marker on the obstacle the opponent's dog on ``course`` faces."""

    course: str


class Slip(Move, frozen=True, tag="slip"):
    """R24: insert an open ground tile into ``course`` before obstacle index ``gap``."""

    course: str
    gap: int


class Inspire(Move, frozen=True, tag="inspire"):
    """R23: take the cube of ``color`` from the Inspiration tile."""

    color: Colour


class Exchange(Move, frozen=True, tag="exchange"):
    """R15: spend an Exchange token to turn all cubes of one colour into another."""

    from_: Colour = msgspec.field(name="from")
    to: Colour


class Adopt(Move, frozen=True, tag="adopt"):
    """R25: adopt ``dog`` from the dog display onto the unclaimed ``course``."""

    dog: str
    course: str


class Advance(Move, frozen=True, tag="advance"):
    """R26–R28: the dog on ``course`` clears the obstacle it faces; ``spare`` is the minus-one colour."""

    course: str
    spare: Colour | None = None


class Done(Move, frozen=True, tag="done"):
    """R12: end steps 4–5 (adopting and moving dogs); mini-turns and the refill follow."""


class Prize(Move, frozen=True, tag="prize"):
    """R32/R33: choose the prize token."""

    token: Token


MOVE_TYPES: tuple[type[Move], ...] = (
    Discard,
    Play,
    ChooseReward,
    Break,
    Return,
    PutBack,
    Draw,
    Take,
    BoostAction,
    BoostCube,
    Distract,
    Rush,
    Slip,
    Inspire,
    Exchange,
    Adopt,
    Advance,
    Done,
    Prize,
)


def kind_of(cls: type[Move]) -> str:
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def _line_type(cls: type[Move]) -> type[msgspec.Struct]:
    """The line Struct of a move kind: kind, n, prev, player, the move's fields, digest."""
    own: list[Any] = []
    for field in msgspec.structs.fields(cls):
        if field.name == "player":
            continue
        spec: tuple[Any, ...]
        if field.encode_name != field.name:
            spec = (field.name, field.type, msgspec.field(name=field.encode_name))
        else:
            spec = (field.name, field.type)
        own.append(spec)
    fields: list[Any] = [
        ("n", int), ("prev", str), ("player", str), *own,
        ("seal", Seal | msgspec.UnsetType, msgspec.UNSET),  # format 3 (R42)
        ("digest", str),
        # R41: the signature, the line's last member; absent in an unsigned game.
        ("sig", Signature | msgspec.UnsetType, msgspec.UNSET),
    ]
    return msgspec.defstruct(
        cls.__name__ + "Line",
        fields,
        kw_only=True,
        frozen=True,
        tag=kind_of(cls),
        tag_field="kind",
        forbid_unknown_fields=True,
        module=__name__,
    )


LINE_TYPES: dict[type[Move], type[msgspec.Struct]] = {cls: _line_type(cls) for cls in MOVE_TYPES}
globals().update({line.__name__: line for line in LINE_TYPES.values()})  # named here, as pickle finds them
MOVE_OF_LINE: dict[type[msgspec.Struct], type[Move]] = {line: move for move, line in LINE_TYPES.items()}
MOVE_FIELDS: dict[type[Move], tuple[str, ...]] = {cls: cls.__struct_fields__ for cls in MOVE_TYPES}
KINDS: dict[str, type[Move]] = {kind_of(cls): cls for cls in MOVE_TYPES}

AnyLine = Union[(Header, JoinLine, RevealLine, KeysLine, *LINE_TYPES.values())]  # type: ignore[valid-type]

#: The one decoder for every line of a game file.
LINE_DECODER: msgspec.json.Decoder[Any] = msgspec.json.Decoder(AnyLine)
ENCODER = msgspec.json.Encoder()


def line_to_move(line: msgspec.Struct) -> Move:
    """The move a decoded line records (the envelope dropped)."""
    cls = MOVE_OF_LINE[type(line)]
    return cls(**{name: getattr(line, name) for name in MOVE_FIELDS[cls]})


def move_to_line(move: Move, n: int, prev: str, digest: str) -> msgspec.Struct:
    """The line that records ``move`` as decision ``n`` (unsigned: a signature is added to its bytes)."""
    cls = type(move)
    values = {name: getattr(move, name) for name in MOVE_FIELDS[cls]}
    return LINE_TYPES[cls](n=n, prev=prev, digest=digest, **values)


def move_fields(move: Move) -> dict[str, Any]:
    """The decision's own fields, by their JSON names (for narration and ``legal --json``)."""
    return {k: v for k, v in msgspec.to_builtins(move).items() if k not in ("kind", "player")}


def fields_text(move: Move) -> str:
    """A decision's own fields as ``key=value`` (JSON names; a zero Flex and a missing spare left out)."""
    parts = []
    for key, value in move_fields(move).items():
        if value is None or (key == "flex" and value == 0):
            continue
        if key == "flex":
            value = f"{value:+d}"
        parts.append(f"{key}={value}")
    return " ".join(parts)


def decision_text(move: Move) -> str:
    """``play card=t07 reward=red`` — the kind and the fields (diagnostics)."""
    return f"{kind_of(type(move))} {fields_text(move)}".rstrip()


def summary(move: Move) -> str:
    """``alice: play card=t07 reward=red`` — the decider, the kind and the fields (diagnostics)."""
    return f"{move.player}: {decision_text(move)}"


def line_summary(record: Any) -> str:
    """``alice: play card=t07 reward=red`` for any decoded line after the header (diagnostics)."""
    if isinstance(record, JoinLine):
        return f"{record.player}: join"
    if isinstance(record, RevealLine):
        return f"{record.player}: reveal"
    if isinstance(record, KeysLine):
        if record.seal.abort is not None:  # R42
            return said(N_("{player}: abort (sealed deck: position {position} did not open to a card; {player}'s "
                           "seal secret published)"), player=record.player, position=record.seal.abort.position)
        if record.seal.audit is not None:
            return said(N_("{player}: keys (sealed deck: {player}'s seal secret, for the audit)"), player=record.player)
        return said(N_("{player}: keys (sealed deck)"), player=record.player)
    return summary(line_to_move(record))


def line_schema() -> dict[str, Any]:
    """JSON Schema of one game-file line (header or decision)."""
    return msgspec.json.schema(AnyLine)
