"""Game components as data: training cards, dogs, course boards, action tiles (R1–R7).

The real card, dog and course values of Agility are not public (R6), so the package ships a
*stand-in* set in ``data/standard.json`` that follows R3–R5.  A player who owns the game can write
the real values into a JSON or TOML file of the same shape; :func:`load_components` validates it
(types through msgspec, game constraints here) and reports the first problem with its path, e.g.
``$.dogs[3].cost.purple: unknown colour``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from ..i18n import N_, _name
from ..said import Said, message_of, named, os_words, said, said_in

# R1: the five cube colours, in the fixed order used for cube counts everywhere.
COLOURS: tuple[str, ...] = ("red", "green", "black", "yellow", "blue")
Colour = Literal["red", "green", "black", "yellow", "blue"]

# R2: obstacle types.
OBSTACLE_TYPES: tuple[str, ...] = (
    "hurdle",
    "tunnel",
    "weave_poles",
    "a_frame",
    "open_ground",
    "pause_box",
)
ObstacleType = Literal["hurdle", "tunnel", "weave_poles", "a_frame", "open_ground", "pause_box"]
Feature = Literal["pass", "minus_one", "featured"]
FEATURES: tuple[str, ...] = ("pass", "minus_one", "featured")

# R7: action tiles.  Space 0 is always Sweep.
CORE_TILES: tuple[str, ...] = (
    "clear_hurdles",
    "clear_tunnels",
    "clear_a_frames",
    "clear_weave_poles",
    "flex",
    "exchange",
    "break",
    "boost",
    "distraction",
)
EXTRA_TILES: tuple[str, ...] = ("rush", "intimidation", "inspiration", "slip")
TILES: tuple[str, ...] = ("sweep",) + CORE_TILES + EXTRA_TILES
CLEAR_TILES: dict[str, str] = {
    "clear_hurdles": "hurdle",
    "clear_tunnels": "tunnel",
    "clear_a_frames": "a_frame",
    "clear_weave_poles": "weave_poles",
}

def tile_name(tile: str) -> str:
    """A tile's display name: ``clear_a_frames`` → ``Clear A-Frames``."""
    return " ".join(w.capitalize() for w in tile.split("_")).replace(" A Frames", " A-Frames")


# R29: the pause box costs 4 red.
PAUSE_BOX_COST: dict[str, int] = {"red": 4}


class Reward(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of a training card's two rewards: ``count`` cubes (1–3) of ``color`` (R3)."""

    color: Colour
    count: int


class TrainingCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A training card (R3): the marker moves ``number`` spaces; the player takes one reward."""

    id: str
    number: int
    rewards: tuple[Reward, Reward]


class Dog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A dog card (R4): breed, adoption cost, and a feature for each obstacle type it is good at."""

    id: str
    name: str
    cost: dict[Colour, int]
    features: dict[ObstacleType, Feature] = {}


class CourseObstacle(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A printed obstacle of a course (R5)."""

    type: ObstacleType
    cost: dict[Colour, int]


class Course(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side of a course board: five obstacles from paw prints to finish (R5)."""

    id: str
    obstacles: tuple[CourseObstacle, ...]


class CourseBoard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A double-sided course board (R5): two courses, of which at most one is in play."""

    id: str
    sides: tuple[Course, Course]


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole component set.  ``name`` is recorded in every game header that uses it."""

    name: str
    cards: tuple[TrainingCard, ...]
    dogs: tuple[Dog, ...]
    boards: tuple[CourseBoard, ...]
    open_ground_cost: dict[Colour, int]
    description: str = ""


class ComponentsError(ValueError):
    """A components file is unreadable or breaks a rule of R1–R7; the message names the path."""


N_CARDS = 39  # R3
N_DOGS = 15  # R4
N_BOARDS = 8  # R5
COURSE_LENGTH = 5  # R5


def _check_cost(cost: Mapping[Any, int], path: str, *, allow_empty: bool = False) -> None:
    if not cost and not allow_empty:
        raise ComponentsError(said(N_("{path}: a cost needs at least one cube"), path=path))
    for colour, n in cost.items():
        if not 1 <= n <= 9:
            raise ComponentsError(said(N_("{path}: cube count {n} is outside 1–9"), path=f"{path}.{colour}", n=_count(n)))


#: Card, course and board ids: a letter or digit, then letters, digits, ``_`` or ``-`` — words a
#: shell passes through unchanged and ``agility move`` reads back as exactly that id.
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}")
#: Dog ids are matched in lower case, with ``_`` read as ``-`` (``agility move FILE adopt golden``).
DOG_ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
DESCRIPTION_MAX = 2000
#: The largest components file read (the standard set is about 15 KB).
MAX_COMPONENTS_BYTES = 1 << 20


def _check_id(value: str, path: str, what: str, pattern: re.Pattern[str], seen: dict[str, str]) -> None:
    """An id a typed command can name unambiguously (R6 custom sets; item "hints that do something
    else"): the pattern, no two ids of a kind equal but for case, and — for cards and courses —
    not all digits, since a number names a card by its value and a course by its slot 1–6."""
    from ..text import quoted

    if not pattern.fullmatch(value):
        rule = (
            N_("lower-case letters, digits and '-', starting with a letter or digit, at most 32 characters")
            if pattern is DOG_ID_PATTERN
            else N_("letters, digits, '_' and '-', starting with a letter or digit, at most 16 characters")
        )
        raise ComponentsError(said(N_("{path}: {what} id {value} is not a valid id ({rule})"), path=path,
                                   what=_kind(what), value=quoted(value, 40), rule=said(rule)))
    if what in ("card", "course") and value.isdigit():
        meaning = N_("a card's number") if what == "card" else N_("a course slot")
        raise ComponentsError(said(
            N_("{path}: {what} id {value} is all digits, which `agility move` reads as {meaning}; add a letter"),
            path=path, what=_kind(what), value=repr(value), meaning=said(meaning)))
    key = value.lower()
    if key in seen:
        same = said(N_("repeated")) if seen[key] == value else said(N_("the same as {other} but for case"),
                                                                     other=repr(seen[key]))
        raise ComponentsError(said(N_("{path}: {what} id {value} is {same}; ids of a kind must differ in more than case"),
                                   path=path, what=_kind(what), value=repr(value), same=same))
    seen[key] = value


def _kind(what: str) -> Said:
    """A kind of id (``card``, ``dog``, ``board``, ``course``) as a message says it, in its language."""
    return said_in(_KINDS[what])


#: The kinds of id, each a word with its context (a board here is a course board, not a position).
_KINDS = {"card": _name("component", "card"), "dog": _name("component", "dog"), "board": _name("component", "board"),
          "course": _name("component", "course")}


def _check_text(value: str, path: str, what: str, limit: int) -> None:
    from ..text import check_name

    try:
        check_name(value, what, limit)
    except ValueError as exc:
        raise ComponentsError(said(N_("{path}: {error}"), path=path, error=message_of(exc))) from None


def validate(comp: Components) -> Components:
    """Check the game constraints of R3–R5 that types alone cannot express, and that every id and
    name can be typed and shown safely (see :func:`_check_id`, :func:`agility_cli.text.check_name`).

    Raises :class:`ComponentsError` naming the first bad field by its JSON path.
    """
    from ..text import COMPONENT_NAME_MAX, has_unsafe

    _check_text(comp.name, "$.name", said(N_("the component set's name")), COMPONENT_NAME_MAX)
    if len(comp.description) > DESCRIPTION_MAX or has_unsafe(comp.description.replace("\n", " ")):
        raise ComponentsError(said(
            N_("{path}: at most {n} characters, with no control characters but line breaks"), path="$.description",
            n=DESCRIPTION_MAX))
    if len(comp.cards) != N_CARDS:
        raise ComponentsError(said(N_("{path}: the training deck has {n} cards (R3), found {found}"), path="$.cards",
                                   n=N_CARDS, found=len(comp.cards)))
    ids: dict[str, str] = {}
    for i, card in enumerate(comp.cards):
        path = f"$.cards[{i}]"
        _check_id(card.id, f"{path}.id", "card", ID_PATTERN, ids)
        if not 1 <= card.number <= 9:
            raise ComponentsError(said(N_("{path}: {n} is outside 1–9 (R3)"), path=f"{path}.number", n=_count(card.number)))
        for j, reward in enumerate(card.rewards):
            if not 1 <= reward.count <= 3:
                raise ComponentsError(said(N_("{path}: {n} is outside 1–3 (R3)"), path=f"{path}.rewards[{j}].count",
                                           n=_count(reward.count)))
        if card.rewards[0].color == card.rewards[1].color:
            # A decision names the reward by its colour, so the two must differ.
            raise ComponentsError(said(N_("{path}: both rewards are {colour}; they must differ"), path=f"{path}.rewards",
                                       colour=named("colour", card.rewards[0].color)))
    if len(comp.dogs) != N_DOGS:
        raise ComponentsError(said(N_("{path}: the dog deck has {n} dogs (R4), found {found}"), path="$.dogs", n=N_DOGS,
                                   found=len(comp.dogs)))
    ids = {}
    for i, dog in enumerate(comp.dogs):
        path = f"$.dogs[{i}]"
        _check_id(dog.id, f"{path}.id", "dog", DOG_ID_PATTERN, ids)
        if not dog.name:
            raise ComponentsError(said(N_("{path}: a dog needs a breed name"), path=f"{path}.name"))
        _check_text(dog.name, f"{path}.name", said(N_("a dog's name")), COMPONENT_NAME_MAX)
        _check_cost(dog.cost, f"{path}.cost")
        if "pause_box" in dog.features:
            raise ComponentsError(said(N_("{path}: no dog has a feature on the pause box (R4)"),
                                       path=f"{path}.features.pause_box"))
    if len(comp.boards) != N_BOARDS:
        raise ComponentsError(said(N_("{path}: there are {n} course boards (R5), found {found}"), path="$.boards",
                                   n=N_BOARDS, found=len(comp.boards)))
    # `adopt WORD` names a dog by id or breed name: a breed that reads as another dog's id would
    # make the printed command adopt the wrong one.
    for i, dog in enumerate(comp.dogs):
        slug = dog.name.lower().replace(" ", "-")
        if slug in ids and ids[slug] != dog.id:
            raise ComponentsError(said(N_("{path}: the breed {name} reads as the id of another dog ({other})"),
                                       path=f"$.dogs[{i}].name", name=repr(dog.name), other=repr(ids[slug])))
    ids = {}
    board_ids: dict[str, str] = {}
    for b, board in enumerate(comp.boards):
        _check_id(board.id, f"$.boards[{b}].id", "board", ID_PATTERN, board_ids)
        for s, course in enumerate(board.sides):
            path = f"$.boards[{b}].sides[{s}]"
            _check_id(course.id, f"{path}.id", "course", ID_PATTERN, ids)
            if len(course.obstacles) != COURSE_LENGTH:
                raise ComponentsError(said(N_("{path}: a course has {n} obstacles (R5), found {found}"),
                                           path=f"{path}.obstacles", n=COURSE_LENGTH, found=len(course.obstacles)))
            pauses = [o for o in course.obstacles if o.type == "pause_box"]
            if len(pauses) != 1:
                raise ComponentsError(said(N_("{path}: a course has exactly one pause box (R5), found {found}"),
                                           path=f"{path}.obstacles", found=len(pauses)))
            for k, obstacle in enumerate(course.obstacles):
                opath = f"{path}.obstacles[{k}].cost"
                _check_cost(obstacle.cost, opath)
                if obstacle.type == "pause_box" and dict(obstacle.cost) != PAUSE_BOX_COST:
                    raise ComponentsError(said(N_("{path}: the pause box costs 4 red (R29), found {cost}"), path=opath,
                                               cost=dict(obstacle.cost)))
    _check_cost(comp.open_ground_cost, "$.open_ground_cost")
    return comp


def _decode_error(exc: msgspec.ValidationError | msgspec.DecodeError, source: str) -> ComponentsError:
    text = str(exc)
    # msgspec says "... - at `$.dogs[3].cost`"; turn it into "$.dogs[3].cost: ..." to match ours.
    if " - at `" in text:
        message, _, where = text.partition(" - at `")
        where = where.rstrip("`")
        # A bad mapping key comes as "... - at `key` in `$.dogs[3].cost`".
        if where.startswith("key` in `"):
            where, key = where.removeprefix("key` in `"), said(N_("bad key: {error}"), error=_decoder_said(message))
            return ComponentsError(said(N_("{source}: {path}: {error}"), source=source, path=where, error=key))
        return ComponentsError(said(N_("{source}: {path}: {error}"), source=source, path=where,
                                    error=_decoder_said(message)))
    if isinstance(exc, msgspec.ValidationError):  # msgspec names no path for the top level
        return ComponentsError(said(N_("{source}: {path}: {error}"), source=source, path="$", error=_decoder_said(text)))
    return ComponentsError(said(N_("{path}: {error}"), path=source, error=_decoder_said(text)))


#: The decoder's own words (msgspec's), each as a message of ours: the English is its, word for word.
_DECODER_WORDS = (
    (re.compile(r"Expected `(?P<wanted>[^`]*)`, got `(?P<found>[^`]*)`"), N_("Expected `{wanted}`, got `{found}`")),
    (re.compile(r"Object missing required field `(?P<field>[^`]*)`"), N_("Object missing required field `{field}`")),
    (re.compile(r"Object contains unknown field `(?P<field>[^`]*)`"), N_("Object contains unknown field `{field}`")),
    (re.compile(r"Invalid enum value (?P<value>.*)"), N_("Invalid enum value {value}")),
    (re.compile(r"Input data was truncated"), N_("Input data was truncated")),
    (re.compile(r"JSON is malformed: invalid character \(byte (?P<byte>\d+)\)"),
     N_("JSON is malformed: invalid character (byte {byte})")),
)


def _decoder_said(message: str) -> str:
    """A message of the decoder told in the language in use where it is one we know, else as it is."""
    for pattern, template in _DECODER_WORDS:
        found = pattern.fullmatch(message)
        if found is not None:
            return said(template, **found.groupdict())
    return message


def decoder_said(text: str) -> str:
    """msgspec's words about any JSON document we read (``Expected `object`, got `array` - at
    `$[0]``), told in the language in use where they are words we know, the English as msgspec's."""
    message, sep, where = text.partition(" - at `")
    told = _decoder_said(message)
    if not sep or told == message and not isinstance(told, Said):
        return told if not sep else text
    return said(N_("{error} - at `{path}`"), error=told, path=where.rstrip("`"))


_MAX_DIGITS = 30
#: A run of more than _MAX_DIGITS digits (or digit separators), anywhere, in every base TOML has
#: (``0x``, ``0o``, ``0b``: a 3,700-digit hex number is no smaller a problem): one linear scan.
_LONG_NUMBER = re.compile(rb"[0-9_]{%d,}|0[xXoObB][0-9A-Fa-f_]{%d,}" % (_MAX_DIGITS + 1, _MAX_DIGITS + 1))


def _count(n: int) -> str:
    """A count as a message shows it: a number no count comes near is said by its size, never
    printed whole (30 hex digits are 37 decimal ones)."""
    return str(n) if -10**6 < n < 10**6 else said(N_("a number of {n} digits"), n=len(str(abs(n))))


def parse_components(data: bytes, *, source: str = "components", toml: bool = False) -> Components:
    """Decode and validate a components set from JSON (or TOML) bytes."""
    if toml and _LONG_NUMBER.search(data):
        # The standard library's TOML reader converts a number before anything checks it: bound it
        # first (Python refuses a conversion of more than 4,300 digits with a ValueError).
        raise ComponentsError(said(N_("{path}: a number of more than {n} digits; no count of a component is that large"),
                                   path=source, n=_MAX_DIGITS))
    try:
        if toml:
            comp = msgspec.toml.decode(data, type=Components)
        else:
            comp = msgspec.json.decode(data, type=Components)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise _decode_error(exc, source) from None
    except (ValueError, RecursionError) as exc:  # the TOML reader's own errors (tomllib.TOMLDecodeError)
        raise ComponentsError(said(N_("{path}: not a valid TOML file ({error})"), path=source, error=exc)) from None
    try:
        return validate(comp)
    except ComponentsError as exc:
        raise ComponentsError(said(N_("{path}: {error}"), path=source, error=message_of(exc))) from None


def load_components(path: str | Path) -> Components:
    """Read a user's components file (``.json`` or ``.toml``) and validate it (R6).

    Only a regular file of at most :data:`MAX_COMPONENTS_BYTES` is read (not a FIFO, which would
    hang, nor a device such as ``/dev/zero``, which never ends).
    """
    from ..text import safe

    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ComponentsError(said(N_("{path}: cannot read the components file ({error})"), path=safe(str(p)),
                                   error=os_words(exc))) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ComponentsError(said(N_("{path}: not a regular file; a components file is a JSON or TOML file"),
                                       path=safe(str(p))))
        if info.st_size > MAX_COMPONENTS_BYTES:
            raise ComponentsError(said(N_("{path}: {size} bytes; a components file is at most {n} bytes"),
                                       path=safe(str(p)), size=info.st_size, n=MAX_COMPONENTS_BYTES))
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(MAX_COMPONENTS_BYTES + 1)
    except OSError as exc:
        raise ComponentsError(said(N_("{path}: cannot read the components file ({error})"), path=safe(str(p)),
                                   error=os_words(exc))) from None
    finally:
        os.close(fd)
    if len(data) > MAX_COMPONENTS_BYTES:
        raise ComponentsError(said(N_("{path}: a components file is at most {n} bytes"), path=safe(str(p)),
                                   n=MAX_COMPONENTS_BYTES))
    return parse_components(data, source=safe(str(p)), toml=p.suffix.lower() == ".toml")


@functools.cache
def standard_components() -> Components:
    """The stand-in component set shipped with the package (R6)."""
    # A plain path, not importlib.resources: that import alone costs more than the whole read.
    data = (Path(__file__).parent.parent / "data" / "standard.json").read_bytes()
    return parse_components(data, source="standard components")


def fingerprint(comp: Components) -> str:
    """A short fingerprint of a component set: the first 12 hex digits of the SHA-256 of its
    canonical JSON encoding.  Two sets with one fingerprint have the same values (R6)."""
    cached = _FINGERPRINTS.get(id(comp))
    if cached is not None and cached[0] is comp:
        return cached[1]
    value = hashlib.sha256(msgspec.json.encode(comp)).hexdigest()[:12]
    if len(_FINGERPRINTS) > 64:
        _FINGERPRINTS.clear()
    _FINGERPRINTS[id(comp)] = (comp, value)  # the set is kept alive, so its id is not reused
    return value


_FINGERPRINTS: dict[int, tuple[Components, str]] = {}


def is_standard(comp: Components) -> bool:
    """Whether ``comp`` is exactly the shipped standard set (named or embedded)."""
    return comp is standard_components() or comp == standard_components()


def describe_set(comp: Components) -> str | None:
    """``None`` for the shipped set; else ``custom component set 'NAME' (fingerprint F)``, for every
    view of a game played with another set, so that no player trusts it unawares."""
    if is_standard(comp):
        return None
    from ..text import quoted

    return f"custom component set {quoted(comp.name, 60)} (fingerprint {fingerprint(comp)})"


def components_schema() -> dict[str, object]:
    """JSON Schema of a components file."""
    return msgspec.json.schema(Components)
