"""The drawn board's fixed look: its palette, the words it draws for game terms, its one style
sheet, and the margins and limits every region of it keeps."""

from __future__ import annotations

from ...i18n import language, name, pgettext
from ..narrate import OBSTACLE_WORDS, obstacle_word

WIDTH = 800  # the picture's width in px (its viewBox is 0 0 800 height)

#: The five cube colours in their fixed order (R1), as in ``components.COLOURS``.
COLOURS: tuple[str, ...] = ("red", "green", "black", "yellow", "blue")
#: Okabe–Ito colours for the cubes: vermillion, bluish green, black, yellow, blue.
CUBE_FILL: dict[str, str] = {
    "red": "#D55E00",
    "green": "#009E73",
    "black": "#000000",
    "yellow": "#F0E442",
    "blue": "#0072B2",
}
#: The letter in each cube, as the text board's short costs (``k`` is black, as in CMYK).
CUBE_LETTER: dict[str, str] = {"red": "r", "green": "g", "black": "k", "yellow": "y", "blue": "b"}
#: The letter's colour: the one of black and white with the better contrast on the cube.
CUBE_INK: dict[str, str] = {"red": "#000000", "green": "#000000", "black": "#FFFFFF", "yellow": "#000000", "blue": "#FFFFFF"}
#: Each seat's colour (Okabe–Ito sky blue and reddish purple), for its dogs and its panel.
SEAT_FILL: tuple[str, str] = ("#56B4E9", "#CC79A7")
SEAT_DARK: tuple[str, str] = ("#1F6E99", "#8E3F6C")

OBSTACLE_TYPES: tuple[str, ...] = ("hurdle", "tunnel", "weave_poles", "a_frame", "open_ground", "pause_box")
OBSTACLE_LABELS: dict[str, str] = OBSTACLE_WORDS  # the words the narration and `agility rules` use
FEATURE_LABELS: dict[str, str] = {"pass": "pass", "minus_one": "\u22121", "featured": "feat"}
CLEAR_TILES: dict[str, str] = {
    "clear_hurdles": "hurdle",
    "clear_tunnels": "tunnel",
    "clear_a_frames": "a_frame",
    "clear_weave_poles": "weave_poles",
}
PHASE_WORDS: dict[str, str] = {
    "play": "play a training card",
    "reward": "choose the card's reward",
    "discard": "discard a card (Intimidation)",
    "break": "declare Break 1 or 2",
    "return": "return a cube (Break)",
    "put_back": "put a card back (Break)",
    "draw": "draw a card (Break)",
    "boost": "choose Boost A or B",
    "distract": "place a +1 marker",
    "rush": "place a Rush marker",
    "slip": "place the Slip tile",
    "inspire": "take an Inspiration cube",
    "dogs": "adopt or move dogs",
    "refill": "refill from the display",
    "prize": "choose a prize token",
}


def phase_words(phase: str) -> str:
    """What the game waits for, in a few words (:data:`PHASE_WORDS`), in the language in use."""
    words = {  # each a verb phrase: the context tells the catalog so
        "play": pgettext("verb", "play a training card"),
        "reward": pgettext("verb", "choose the card's reward"),
        "discard": pgettext("verb", "discard a card (Intimidation)"),
        "break": pgettext("verb", "declare Break 1 or 2"),
        "return": pgettext("verb", "return a cube (Break)"),
        "put_back": pgettext("verb", "put a card back (Break)"),
        "draw": pgettext("verb", "draw a card (Break)"),
        "boost": pgettext("verb", "choose Boost A or B"),
        "distract": pgettext("verb", "place a +1 marker"),
        "rush": pgettext("verb", "place a Rush marker"),
        "slip": pgettext("verb", "place the Slip tile"),
        "inspire": pgettext("verb", "take an Inspiration cube"),
        "dogs": pgettext("verb", "adopt or move dogs"),
        "refill": pgettext("verb", "refill from the display"),
        "prize": pgettext("verb", "choose a prize token"),
    }
    return words.get(phase, phase.replace("_", " "))


def obstacle_label(kind: str) -> str:
    """An obstacle type's words on the picture (``weave poles``), in the language in use."""
    return obstacle_word(kind) if kind in OBSTACLE_LABELS else kind.replace("_", " ")


def feature_label(feature: str) -> str:
    """A dog's feature as the picture marks it (``pass``, ``−1``, ``feat``), in the language in use."""
    english = FEATURE_LABELS.get(feature)
    if english is None:
        return feature
    return english if feature == "minus_one" else name("feature", english)


#: The fonts of a picture in Chinese: the CJK faces of the common systems, then any sans-serif.
CJK_SANS = ('"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei", '
            '"PingFang SC", "Microsoft YaHei", sans-serif')


def page_language() -> str | None:
    """The ``lang`` of a picture or page in the language in use (``zh-CN``); None in English, whose
    pictures carry no ``lang`` (as they always were)."""
    lang = language()
    if lang == "en":
        return None
    return {"zh": "zh-CN", "qps": "qps-ploc"}.get(lang, lang)


def sans() -> str:
    """The sans-serif font stack for the language in use."""
    return CJK_SANS if language() == "zh" else SANS


def legend() -> str:
    """What each cube letter means: ``r red · g green · …`` in the language in use."""
    return " \u00b7 ".join(f"{CUBE_LETTER[c]} {name('colour', c)}" for c in COLOURS)


#: The picture's only style sheet: the look of a cube (the most repeated thing drawn).  Its classes
#: start with ``agc``, so that a page the picture is inlined in neither restyles it nor is restyled.
STYLE = (
    ".agc rect{stroke:#00000055;stroke-width:0.8px}"
    ".agc text{font-family:monospace;font-weight:bold;text-anchor:middle}"
    + "".join(
        f".agc-{CUBE_LETTER[c]} rect{{fill:{CUBE_FILL[c]}}}.agc-{CUBE_LETTER[c]} text{{fill:{CUBE_INK[c]}}}" for c in COLOURS
    )
)

# Layout
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
PAGE = "#FAF8F3"
PANEL = "#FFFFFF"
PANEL_EDGE = "#DDD7CB"
INK = "#222222"
SOFT = "#6B6B6B"
FAINT = "#B9B4AA"
SANS = "sans-serif"
MONO = "monospace"

MAX_SPACES = 16  # at most this many rondel spaces, hand cards and course obstacles are drawn
MAX_HAND = 6
MAX_COURSES = 12
NAME_CHARS = 26  # a player name is clipped to this many characters where it must fit a column
DOG_CHARS = 22
