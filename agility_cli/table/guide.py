"""The rules of Agility for players: topics, one-line board hints and help at each step.

The text is package data, ``data/guide.md`` (rules version 2: R12 reward after the action, R36
Intimidation discard at once, R13 reshuffle the moment the deck runs out), and this module is its
only reader.  Its format:

- an optional preamble (an HTML comment and the ``# `` title line of the guide);
- one topic per ``## ID — Title`` heading.  ``ID`` is the stable topic id (``[a-z0-9_]+``) that
  ``agility rules ID`` and links use; a tile's topic id is the tile id of R7 (``components.TILES``);
  the first topic is the overview;
- in a tile's topic, the line after the heading is ``<!-- hint: … -->``: the one-line hint
  (at most 60 characters) shown on the board next to each card (:func:`tile_hint`);
- the body is plain Markdown (paragraphs, ``-`` and ``1.`` lists, ``code``, ``**bold**``, fences);
- the ``rulings`` topic lists the ruling ids that messages cite, one ``-`` item each:
  ``- **R21**: One sentence. → `agility rules rush` `` (:func:`ruling`); ``agility rules R21``
  shows that item (:func:`find`).  Ruling ids appear nowhere else in the guide.

In another language the guide is ``data/guide.<lang>.md`` where there is one (``guide.zh.md``: the
same topics, rulings and commands; one paragraph a line), chosen by :func:`agility_cli.i18n.language`,
and wrapped in terminal cells (:func:`wrap_cells`).

``python -m agility_cli.table.guide > docs/guide.md`` writes the web version (:func:`markdown`);
a test keeps ``docs/guide.md`` equal to it.  Light to import: standard library only, so that the
board and the play loop can ask for hints without loading anything else.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import i18n
from ..i18n import N_
from .layout import cell_len

HINT_WIDTH = 60  # a tile hint fits beside a card on an 80-column board


@dataclass(frozen=True)
class Topic:
    """One section of the guide: ``id`` as typed (``boost``), ``title``, ``text`` (Markdown)."""

    id: str
    title: str
    text: str


class TopicError(LookupError):
    """A word names no topic, or several; the message says which topics there are."""


@dataclass(frozen=True)
class _Guide:
    title: str
    topics: tuple[Topic, ...]
    hints: dict[str, str]
    rulings: dict[str, tuple[str, str]]  # "R21" → (its sentence, the topic id that explains it)


_HEADING = re.compile(r"^## ([a-z0-9_]+) — (\S.*)$")
_HINT = re.compile(r"^<!-- hint: (.+?) -->$")
_COMMENT = re.compile(r"^<!--.*?-->$")


def _parse(source: str) -> _Guide:
    """Split ``data/guide.md`` into topics (see the module docstring for the format)."""
    title = ""
    topics: list[Topic] = []
    hints: dict[str, str] = {}
    current: tuple[str, str] | None = None
    body: list[str] = []
    in_comment = False

    def close() -> None:
        if current is not None:
            topics.append(Topic(current[0], current[1], "\n".join(body).strip("\n")))

    for line in source.splitlines():
        if current is None and in_comment:  # the preamble's comment may span lines
            in_comment = "-->" not in line
            continue
        heading = _HEADING.match(line)
        if heading:
            close()
            current, body = (heading[1], heading[2].strip()), []
            continue
        if current is None:
            if line.startswith("<!--") and "-->" not in line:
                in_comment = True
            elif line.startswith("# "):
                title = line[2:].strip()
            elif line.startswith("## "):
                raise ValueError(f"guide.md: a topic heading must read '## id — Title': {line!r}")
            continue
        hint = _HINT.match(line)
        if hint and not body:
            hints[current[0]] = hint[1]
        elif not _COMMENT.match(line):
            body.append(line)
    close()
    ids = [t.id for t in topics]
    if len(set(ids)) != len(ids):
        raise ValueError(f"guide.md: a topic id is used twice: {ids}")
    rulings_topic = next((t for t in topics if t.id == RULINGS), None)
    rulings = _parse_rulings(rulings_topic.text, set(ids)) if rulings_topic else {}
    return _Guide(title, tuple(topics), hints, rulings)


RULINGS = "rulings"  # the topic that lists the ruling ids
_RULING_ID = re.compile(r"^r(\d{1,3})$")
_RULING_ITEM = re.compile(r"^- \*\*(R\d+)\*\*: (.+?) → `agility rules ([a-z0-9_]+)`$")


def _parse_rulings(text: str, ids: set[str]) -> dict[str, tuple[str, str]]:
    """The items of the rulings topic: ``- **R21**: sentence → `agility rules rush` ``, an item's
    continuation lines indented."""
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith("- "):
            items.append(line)
        elif items and line.startswith("  ") and line.strip():
            items[-1] += " " + line.strip()
    rulings: dict[str, tuple[str, str]] = {}
    for item in items:
        m = _RULING_ITEM.match(item)
        if not m:
            raise ValueError(f"guide.md: a ruling reads '- **R1**: Sentence. → `agility rules TOPIC`': {item!r}")
        if m[1] in rulings or m[3] not in ids:
            raise ValueError(f"guide.md: ruling {m[1]} is listed twice or names no topic: {item!r}")
        rulings[m[1]] = (m[2], m[3])
    return rulings


def _guide() -> _Guide:
    """The guide in the language in use: ``data/guide.<lang>.md`` where there is one (``guide.zh.md``,
    the same topics, rulings and commands in the players' terms), else ``data/guide.md``."""
    return _read(_source_name(i18n.language()), i18n.language() == i18n.PSEUDO)


def _source_name(lang: str) -> str:
    data = Path(__file__).resolve().parent.parent / "data"
    return f"guide.{lang}.md" if lang != i18n.ENGLISH and (data / f"guide.{lang}.md").is_file() else "guide.md"


@lru_cache(maxsize=4)
def _read(name: str, pseudo: bool = False) -> _Guide:
    source = (Path(__file__).resolve().parent.parent / "data" / name).read_text(encoding="utf-8")
    return _pseudo(_parse(source)) if pseudo else _parse(source)


def _pseudo(g: _Guide) -> _Guide:
    """The English guide in the pseudo-locale (``--lang qps``): every title, hint, ruling and line of
    prose through :func:`i18n.pseudo`; code blocks, commands and ids as they are."""
    def text(body: str) -> str:
        out, fenced = [], False
        for line in body.splitlines():
            fenced ^= line.startswith("```")
            out.append(line if fenced or line.startswith("```") else i18n.pseudo(line))
        return "\n".join(out)

    return _Guide(
        i18n.pseudo(g.title),
        tuple(Topic(t.id, i18n.pseudo(t.title), text(t.text)) for t in g.topics),
        {k: i18n.pseudo(v) for k, v in g.hints.items()},
        {k: (i18n.pseudo(sentence), topic) for k, (sentence, topic) in g.rulings.items()},
    )


def topics() -> list[Topic]:
    """Every topic of the guide, in reading order (the overview first)."""
    return list(_guide().topics)


def title() -> str:
    """The guide's title."""
    return _guide().title


_SMALL_WORDS = frozenset({"a", "an", "and", "by", "each", "of", "step", "the", "what"})


def _title_words(topic: Topic) -> set[str]:
    """The words of a title, and the parts of hyphenated ones: ``Pause box and mini-turns`` →
    ``pause, box, and, mini-turns, mini, turns`` (of its English title, in another language)."""
    title = topic.title if _source_name(i18n.language()) == "guide.md" else _english_title(topic.id)
    words = set(re.findall(r"[a-z0-9+]+(?:-[a-z0-9+]+)*", title.lower()))
    return (words | {part for w in words for part in w.split("-")}) - _SMALL_WORDS


def _english_title(topic_id: str) -> str:
    """A topic's English title: in another language, its words still find the topic (the
    translated guide keeps commands such as ``agility rules mini``)."""
    return next((t.title for t in _read("guide.md").topics if t.id == topic_id), "")


def ruling(rule_id: str) -> tuple[str, str]:
    """The sentence that explains a ruling id that messages cite (``R21``) and the id of the topic
    that says more (``rush``).  Raises :class:`TopicError` for an id the guide does not list."""
    rulings = _guide().rulings
    key = rule_id.strip().upper()
    if key not in rulings:
        raise TopicError(i18n._("no ruling {rule} in the guide; rulings: {span} ({command})").format(
            rule=repr(rule_id.strip()), span=_span(list(rulings)), command=f"agility rules {RULINGS}"))
    return rulings[key]


def _span(rule_ids: list[str]) -> str:
    return f"{rule_ids[0]}–{rule_ids[-1]}" if rule_ids else "none"


def find(word: str) -> Topic:
    """The topic named by ``word``: its exact id, else an unambiguous prefix of an id or of a word
    of a title (``boost``, ``mini``, ``pause``, ``tie``).  A ruling id (``R21``, as messages cite
    it) gives a short topic: that ruling's line and the topic to read.  Raises :class:`TopicError`
    otherwise."""
    all_topics = _guide().topics
    key = word.strip().lower()
    as_id = key.replace("-", "_").replace(" ", "_")
    as_word = key.replace("_", "-")
    if not key:
        raise TopicError(i18n._("name a topic; topics: {topics}").format(topics=_ids(all_topics)))
    if _RULING_ID.match(key):
        rule_id = key.upper()
        sentence, topic_id = ruling(rule_id)
        more = next(t for t in all_topics if t.id == topic_id)
        more_text = i18n._("More: {command} ({title}).").format(command=f"`agility rules {topic_id}`", title=more.title)
        return Topic(key, i18n._("Ruling {rule_id}").format(rule_id=rule_id), f"**{rule_id}**: {sentence}\n\n{more_text}")
    for topic in all_topics:
        if topic.id == as_id:
            return topic
    if not key.isascii():  # a Chinese title has no blanks between words: any part of it names it
        return _by_title_part(word, key, all_topics)
    exact = [t for t in all_topics if as_word in _title_words(t)]
    if len(exact) == 1:
        return exact[0]
    found = [
        t
        for t in all_topics
        if t.id.startswith(as_id) or any(w.startswith(as_word) for w in _title_words(t))
    ]
    if len(found) == 1:
        return found[0]
    if found:
        raise TopicError(i18n._("{word} could mean several topics: {topics}; type more letters").format(
            word=repr(word), topics=_ids(found)))
    import difflib

    words = sorted({t.id for t in all_topics} | {w for t in all_topics for w in _title_words(t)})
    close = difflib.get_close_matches(as_id, words, 1, 0.6)
    guess = ""
    if close and close[0] != key:
        try:
            guess = find(close[0]).id
        except TopicError:
            guess = close[0]
    if guess:
        raise TopicError(i18n._("no topic {word}; did you mean {guess}? topics: {topics}").format(
            word=repr(word), guess=guess, topics=_ids(all_topics)))
    raise TopicError(i18n._("no topic {word}; topics: {topics}").format(word=repr(word), topics=_ids(all_topics)))


def _by_title_part(word: str, key: str, all_topics: tuple[Topic, ...]) -> Topic:
    """The topic whose title holds ``key`` (``静止箱``, ``额外回合``): the one whose title is it,
    else the only one whose title contains it."""
    found = [t for t in all_topics if key in t.title.lower()]
    exact = [t for t in found if t.title.lower() == key]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    if found:
        raise TopicError(i18n._("{word} could mean several topics: {topics}; type more letters").format(
            word=repr(word), topics=_ids(found)))
    raise TopicError(i18n._("no topic {word}; topics: {topics}").format(word=repr(word), topics=_ids(all_topics)))


def _ids(ts: tuple[Topic, ...] | list[Topic]) -> str:
    return ", ".join(t.id for t in ts)


def tile_hint(tile_id: str) -> str:
    """One line (at most 60 characters) on what a tile does, for the board:
    ``Boost: turn up the deck's top card; its tile or a cube``."""
    try:
        return _guide().hints[tile_id]
    except KeyError:
        raise ValueError(f"no tile {tile_id!r}") from None


def feature_hint() -> str:
    """One line on the feature marks of the board (R4, R26, R27)."""
    return "pass = free, -1 = one cube less, feat = full cost; any number a turn"


# What the game waits for in each phase of the engine (rules.py), for `?`/`help` in a play loop.
_PHASES: dict[str, tuple[str, str]] = {
    "play": (
        N_(
            "Play one card from your hand. The marker moves forward by its number and the tile it "
            "reaches is resolved: an action that can be carried out must be. Flex tokens let you "
            "resolve a space that many spaces before or after it instead. A Clear tile moves your dogs "
            "past their obstacle of its kind free, +1 markers and all. You take one of the card's two "
            "rewards after the action (or name it now). In a mini-turn the card is played face down, "
            "and the mini-turn ends with the reward."
        ),
        "turn",
    ),
    "reward": (
        N_(
            "Choose which of the two rewards of the card you just played to take: each is a number of "
            "cubes of one colour, shown on the card. The action is done, so you choose knowing what it "
            "brought."
        ),
        "turn",
    ),
    "discard": (
        N_(
            "Intimidation: your opponent's action shrinks your hand. Discard one card of your choice, "
            "face down (only you know which). You have taken a Flex token, and your hand size is now 2."
        ),
        "intimidation",
    ),
    "break": (
        N_(
            "Break: say how many cards you want to change, 1 or 2. You return that many cubes, put that "
            "many cards from your hand at the bottom of the discard pile, then draw as many, each from "
            "the deck or the display."
        ),
        "break",
    ),
    "return": (
        N_(
            "Break: return a cube, the colour of your choice (one decision a cube)."
        ),
        "break",
    ),
    "put_back": (
        N_(
            "Break: choose a card from your hand to put back, face down, at the bottom of the discard pile."
        ),
        "break",
    ),
    "draw": (
        N_(
            "Break: draw a card, either the top card of the deck (only you will see it) or one of the "
            "face-up display cards."
        ),
        "break",
    ),
    "boost": (
        N_(
            "Boost turned up a card. Choose A, resolve the tile on the space with that card's number "
            "(the marker stays where it is), or B, take one cube of a colour shown on that card."
        ),
        "boost",
    ),
    "distract": (
        N_(
            "Distraction: choose an obstacle on a course where your opponent has a dog (the one it faces "
            "or one further along, not a pause box) and a colour of its printed cost. It will cost that "
            "dog one cube more of that colour."
        ),
        "distraction",
    ),
    "rush": (
        N_(
            "Rush: choose an opposing dog; a Rush marker goes on the obstacle it faces. Until it is "
            "cleared your opponent cannot adopt and may move only a dog with a Rush marker ahead: "
            "their other dogs stay put, free feature clears included. Clear tiles still move them all."
        ),
        "rush",
    ),
    "slip": (
        N_(
            "Slip: choose a course where your opponent has a dog and the obstacle after which an open "
            "ground tile goes: ahead of the dog, between two obstacles. It becomes an ordinary obstacle "
            "of that course."
        ),
        "slip",
    ),
    "inspire": (
        N_(
            "Inspiration: take one of the cubes still on the tile, the colour you like."
        ),
        "inspiration",
    ),
    "dogs": (
        N_(
            "Adopt a dog, move your dogs, or say done. Adopt at most one dog a turn, before any dog "
            "moves: pay its cost and put it on a free course. Each dog may make one paid clear of an "
            "obstacle that is not a feature obstacle (the pause box included) and any number of clears "
            "of its feature obstacles (pass, -1, feat). After done come the mini-turns earned by pause "
            "boxes, then the refill."
        ),
        "dogs",
    ),
    "refill": (
        N_(
            "Refill your hand from the face-up display, one card at a time, up to your hand size. Each "
            "card taken is replaced from the deck at once."
        ),
        "turn",
    ),
    "prize": (
        N_(
            "You won a prize: choose a Flex token or an Exchange token. The prizes go to the first player "
            "to adopt three dogs and to the first to finish a course (who also takes the Tiebreak marker)."
        ),
        "prizes",
    ),
    "over": (
        N_(
            "The game is over; no decision is open. agility replay FILE tells the whole game and "
            "verifies every line."
        ),
        "prizes",
    ),
}


def phase_help(phase: str) -> str:
    """A short paragraph on the step the game waits for (``State.phase``, or ``prize``/``reward``),
    ending with the ``agility rules`` topic that says more.  An unknown phase gets the turn's steps."""
    text, topic = _PHASES.get(phase, (N_("Each turn goes through a fixed series of steps."), "turn"))
    said = i18n._(text)
    if phase in ("dogs", "refill"):
        said = i18n._("{step} An Exchange token can be spent at any decision of your own turn.").format(step=said)
    return i18n._("{step} More: {command}").format(step=said, command=f"agility rules {topic}")


# ---------------------------------------------------------------------------------------------
# Rendering: plain text for a terminal or a pipe, Markdown for docs/guide.md.

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+(.*)$")


def _inline(text: str) -> str:
    """Markdown inline marks → plain text (code spans first, so that ``*`` inside them stays).
    A one-word code span is quoted (say "done"), unless it is an option or a number (``-1``);
    a longer one (a command) stands as it is."""
    parts = _CODE.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = _ITALIC.sub(r"\1", _BOLD.sub(r"\1", parts[i]))
    for i in range(1, len(parts), 2):
        if " " not in parts[i] and not parts[i].startswith("-"):
            parts[i] = f'"{parts[i]}"'
    return "".join(parts)


def to_plain(text: str, width: int = 80) -> str:
    """A Markdown body as plain text wrapped to ``width``: paragraphs filled, list items with a
    hanging indent, code blocks indented as they are."""
    width = max(width, 30)
    out: list[str] = []
    lines = text.splitlines()
    i = 0

    def fill(words: str, first: str, rest: str) -> None:
        out.append(_fill(_inline(words), width, first, rest))

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
            i += 1
            continue
        if line.startswith("```"):
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                out.append("    " + lines[i])
                i += 1
            i += 1
            continue
        item = _ITEM.match(line)
        if item:
            indent, mark, words = item[1], item[2], item[3]
            lead = indent + ("- " if mark in "-*" else mark + " ")
            i += 1
            while i < len(lines) and lines[i].strip() and not _ITEM.match(lines[i]) and lines[i].startswith(" "):
                words += " " + lines[i].strip()
                i += 1
            fill(words, lead, " " * len(lead))
            continue
        words = line.strip()
        i += 1
        while i < len(lines) and lines[i].strip() and not _ITEM.match(lines[i]) and not lines[i].startswith("```"):
            words += " " + lines[i].strip()
            i += 1
        fill(words, "", "")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


# A unit of wrapping: a run of blanks, one wide (CJK) character with the closing punctuation that
# must not begin a line, or a run of other characters (an English word, a command's word).
_WIDE = "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
_HAS_WIDE = re.compile(f"[{_WIDE}]")
_OPENING = "“‘（《「『【"  # never ends a line
_CLOSING = "，。、；：！？）》」』】”’…·%"  # never begins one
_UNIT = re.compile(rf"\s+|[{_OPENING}]*(?:[{_WIDE}]|[^\s{_WIDE}]+?(?=[\s{_WIDE}]|$))[{_CLOSING}]*")


def _fill(text: str, width: int, first: str, rest: str) -> str:
    """``text`` filled to ``width``: by :mod:`textwrap` unless it holds wide characters, else in
    terminal cells, where a line may also break between two CJK characters (:func:`wrap_cells`)."""
    if _HAS_WIDE.search(text):
        return wrap_cells(text, width, first, rest)
    return textwrap.fill(
        text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False,
    )


def wrap_cells(text: str, width: int, first: str = "", rest: str = "") -> str:
    """``text`` filled to ``width`` terminal cells (a CJK character is two): a line breaks at a
    blank or between two CJK characters, never inside an English word or a character, and a
    closing mark (``，。）``) never begins a line.  A word wider than a line stands alone."""
    lines: list[str] = []
    line, used = first, cell_len(first)
    for unit in _UNIT.findall(" ".join(text.split())):
        if unit.isspace():
            if used > cell_len(rest) and used + 1 <= width:
                line, used = line + " ", used + 1
            continue
        cells = cell_len(unit)
        if used + cells > width and line.strip():
            lines.append(line.rstrip())
            line, used = rest, cell_len(rest)
        line, used = line + unit, used + cells
    lines.append(line.rstrip())
    return "\n".join(lines)


def topic_plain(topic: Topic, width: int = 80) -> str:
    """A topic as plain text: its title underlined (as wide as it is, in terminal cells), then its body."""
    return f"{topic.title}\n{'=' * cell_len(topic.title)}\n\n{to_plain(topic.text, width)}"


def contents(width: int = 80) -> str:
    """The short table of contents ``agility rules`` prints before the overview."""
    from ..engine.components import TILES

    game = [t for t in _guide().topics if t.id not in TILES]
    tiles = [t for t in _guide().topics if t.id in TILES]
    pad = max(len(t.id) for t in game)
    lines = [i18n._("Topics: agility rules TOPIC (its first letters are enough), or --all")]
    lines += [f"  {t.id:<{pad}}  {t.title}" for t in game]
    lines.append("")
    lines.append(_fill(i18n._("The action tiles: {ids}").format(ids=", ".join(t.id for t in tiles)), width, "", "  "))
    return "\n".join(lines)


def markdown() -> str:
    """The whole guide as one Markdown page (``docs/guide.md``): contents with links, then every
    topic with an anchor named by its id."""
    from ..engine.components import TILES

    g = _guide()
    out = [
        "<!-- Generated from agility_cli/data/guide.md by `python -m agility_cli.table.guide > docs/guide.md`;"
        " edit that file, not this one. -->",
        "",
        f"# {g.title}",
        "",
        "The same text is in the tool: `agility rules` lists the topics, `agility rules TOPIC` prints one"
        " (the first letters of its id or of a word of its title are enough: `agility rules mini`), and"
        " `agility rules --all` prints them all.",
        "",
        "## Contents",
        "",
    ]
    game = [t for t in g.topics if t.id not in TILES]
    tiles = [t for t in g.topics if t.id in TILES]
    out += [f"- [{t.title}](#{t.id}) — `agility rules {t.id}`" for t in game]
    out.append("- The action tiles: " + ", ".join(f"[{t.title}](#{t.id})" for t in tiles))
    ids = {t.id for t in g.topics}

    def link(m: re.Match[str]) -> str:  # `agility rules boost` → a link to the Boost section
        return f"[{m[0]}](#{m[1]})" if m[1] in ids else m[0]

    for t in g.topics:
        out += ["", f'<a id="{t.id}"></a>', "", f"## {t.title}", "", _RULES_REF.sub(link, t.text)]
    return "\n".join(out) + "\n"


_RULES_REF = re.compile(r"`agility rules ([a-z_]+)`")


if __name__ == "__main__":  # pragma: no cover - `python -m agility_cli.table.guide > docs/guide.md`
    import sys

    sys.stdout.write(markdown())
