"""Untrusted text meets the terminal and the shell here, and names are checked here.

Player names, component names and ids, mailed lines, file paths and fields of a forged line come
from people who may not be friendly.  Three functions stand between them and the user:

* :func:`safe` makes a string harmless to print: C0/C1 control characters, DEL, and the Unicode
  bidirectional overrides and isolates are shown escaped (``\\x1b``, ``\\u202e``), so a name cannot
  clear the screen, plant an OSC 8 link, move the cursor to print a fake "applied" message, or
  reorder the text around it; a long value is clipped with an ellipsis and a note of its length.
  :func:`safe_message` does the same for a whole multi-line message (its newlines kept).
* :func:`shell_command` builds a command shown "to copy" with :func:`shlex.join`, so a path with
  blanks works when pasted and a component id like ``8A$(touch PWNED)`` runs nothing.
* :func:`check_name` and :func:`confusable` refuse names that cannot be shown or told apart: empty,
  too long, with control or bidi characters, not in Unicode NFC; two player names that look alike
  (``alice`` and ``аlice`` with a Cyrillic ``а``).

Stdlib only, imported by the error boundary: keep it cheap.
"""

from __future__ import annotations

import re
import shlex
import unicodedata

#: Default clip length of :func:`safe` (characters).
LIMIT = 200
#: Longest player name (characters).
PLAYER_NAME_MAX = 40
#: Longest component or dog name (characters).
COMPONENT_NAME_MAX = 60

# C0 controls, DEL, C1 controls; the bidi embeddings/overrides (U+202A–U+202E), isolates
# (U+2066–U+2069) and marks (U+200E, U+200F, U+061C); line/paragraph separators; a BOM.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)
_UNSAFE_BUT_NEWLINE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def has_unsafe(text: str) -> bool:
    """Whether ``text`` holds a character :func:`safe` would escape."""
    return _UNSAFE.search(text) is not None


def safe(text: str, limit: int | None = LIMIT) -> str:
    """``text`` made harmless for a terminal: unsafe characters escaped, clipped to ``limit``.

    The clipping is done first, so a huge value costs no more than its first ``limit``
    characters.  ``limit=None`` keeps the whole text.
    """
    if limit is not None and len(text) > limit:
        return _UNSAFE.sub(_escape, text[:limit]) + f"… ({len(text)} characters)"
    return _UNSAFE.sub(_escape, text)


def quoted(text: str, limit: int | None = 60) -> str:
    """A value quoted for a message: ``'alice'``, escaped and clipped."""
    return "'" + safe(text, limit) + "'"


def safe_message(message: str, line_limit: int = 4000) -> str:
    """A whole message made safe: every line as :func:`safe` would (newlines kept), each line
    clipped to ``line_limit`` characters (a last guard against a huge value left unclipped)."""
    if not _UNSAFE_BUT_NEWLINE.search(message) and max(map(len, message.split("\n")), default=0) <= line_limit:
        return message
    return "\n".join(safe(line, line_limit) for line in message.split("\n"))


def shell_command(argv: list[str]) -> str:
    """A command to copy and paste into a POSIX shell: every word quoted as needed (``shlex.join``),
    then made safe to print (a control character cannot be pasted anyway)."""
    return safe(shlex.join(argv), None)


def shell_word(word: str) -> str:
    """One word quoted for the shell, for prose such as ``sed -i … FILE``."""
    return safe(shlex.quote(word), None)


# ----------------------------------------------------------------------------------------------
# Names


_INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def check_name(value: str, what: str, limit: int = PLAYER_NAME_MAX) -> str:
    """``value`` if it is a usable name; else raise :class:`ValueError` saying why.

    Refused: empty or blank, longer than ``limit`` characters, leading or trailing blanks, control
    or bidi characters (which could rewrite the terminal or reorder text), or not in Unicode NFC
    (two spellings of one name would then be different names).
    """
    if not value.strip():
        raise ValueError(f"{what} is empty")
    if len(value) > limit:
        raise ValueError(f"{what} {quoted(value, 30)} is {len(value)} characters long; at most {limit}")
    if has_unsafe(value) or any(unicodedata.category(ch) in _INVISIBLE for ch in value):
        raise ValueError(f"{what} {quoted(value, 30)} holds control or invisible characters")
    if value != value.strip():
        raise ValueError(f"{what} {quoted(value, 30)} begins or ends with a blank")
    if unicodedata.normalize("NFC", value) != value:
        raise ValueError(f"{what} {quoted(value, 30)} is not in Unicode normal form NFC; type it again plainly")
    return value


# Letters of other scripts that look like Latin ones (Cyrillic and Greek), mapped to the Latin letter
# they are mistaken for.  Applied after NFKC and casefold, so only lower case is needed.
_HOMOGLYPHS = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r", "л": "n", "ө": "o", "ү": "y", "ұ": "y",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j", "μ": "u",
    # Latin look-alikes among themselves, and digits
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ο": "o", "0": "o", "1": "l", "|": "l",
})


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, case folded, look-alike letters of other scripts and marks
    dropped, ``i``/``l`` folded together; two names with one skeleton are too easily confused."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_HOMOGLYPHS)
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    text = "".join(ch for ch in text if not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Pd"))
    return text.replace("rn", "m").replace("vv", "w").replace("i", "l")


def confusable(a: str, b: str) -> bool:
    """Whether two names look alike (``alice`` / ``аlice``, ``Bob`` / ``bob``, ``b0b`` / ``bob``)."""
    return a != b and skeleton(a) == skeleton(b) or a == b


def check_players(names: tuple[str, str] | list[str]) -> None:
    """Two player names that can be shown and told apart; else :class:`ValueError` saying why."""
    for seat, name in zip("AB", names):
        check_name(name, f"player name {seat}", PLAYER_NAME_MAX)
    if confusable(names[0], names[1]):
        raise ValueError(
            f"the player names {quoted(names[0])} and {quoted(names[1])} look alike; choose names that differ plainly"
        )
