"""The language the tool speaks: gettext catalogs, the language chosen, and the game's names.

Every layer may import this module (it sits at the ground, beside :mod:`.text`); it uses the
standard library only and reads nothing at import: the catalog is opened the first time a message
is translated.

**Which language.** As gettext chooses it: the first of ``LANGUAGE`` (a colon-separated list, each
tried in turn), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, a language being ``zh_CN.UTF-8``,
``zh_CN`` or ``zh`` (``C`` and ``POSIX`` mean English).  ``AGILITY_LANG`` overrides them, and the
global option ``agility --lang`` overrides that (:func:`set_language`).  A language with no catalog
falls back to English with no error; an override (``AGILITY_LANG``, ``--lang``) that names no
catalog gives English too.  ``qps`` is the pseudo-locale (:func:`pseudo`): every message bracketed
and lengthened by a third, so that English text which escaped the catalog, and a screen that breaks
with longer words, stand out.

**Catalogs.** ``locale/<lang>/LC_MESSAGES/agility.po`` and its compiled ``agility.mo``, both in the
package; the standard library's :mod:`gettext` reads the ``.mo``.  ``docs/translating.md`` says how
a catalog is extracted (Babel, ``babel.cfg``), translated, compiled and tested.

**Messages.** ``_("text")`` translates a message, ``ngettext(singular, plural, n)`` one whose form
depends on a number (the catalog's plural rule chooses; Chinese has one form), and ``N_`` only marks
a string for extraction.  A message with values in it is translated *before* they are filled in:
``_("{n} cards left").format(n=3)``; a placeholder is never translated.

**Names.** :func:`name` gives the players' word for a thing of the game: a dog, an action tile, an
obstacle, a cube colour or a course feature (each kind a message context; :data:`NAMES` lists them
all for the extraction).  Card ids (``t17``), course ids (``4B``) and colour letters stay as they are,
and a name the catalog does not know (a components file's own dog) is shown as it is written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:  # gettext itself is imported when the first message is translated (start-up time)
    from gettext import NullTranslations

__all__ = [
    "DOMAIN", "ENGLISH", "LOCALE_DIR", "NAMES", "PSEUDO", "N_", "_", "available", "catalog_path",
    "gettext", "language", "name", "ngettext", "npgettext", "pgettext", "pseudo", "reset", "set_language",
]

DOMAIN = "agility"
#: Where the catalogs are: ``<lang>/LC_MESSAGES/agility.mo``.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The language of the source text, and the fallback.
ENGLISH = "en"
#: The pseudo-locale (``--lang qps``): see :func:`pseudo`.
PSEUDO = "qps"
#: The environment variables gettext reads, in its order.
GETTEXT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: str | None = None  # --lang (set_language), above every variable
_resolved: str | None = None  # the language in use, once known
_translations: NullTranslations | None = None


def set_language(code: str | None) -> str:
    """Choose the language (``--lang``): ``zh``, ``zh_CN.UTF-8``, ``en``, ``qps``; ``None`` goes back
    to the environment.  Returns the language now in use (``en`` for one without a catalog)."""
    global _chosen
    _chosen = code.strip() if code and code.strip() else None
    reset()
    return language()


class english:  # noqa: N801 - used as ``with i18n.english():``, like a function
    """Within ``with english():`` every message is English whatever the language chosen: the
    human text a program reads (``--json``'s ``text``) is never translated."""

    def __enter__(self) -> None:
        global _chosen, _resolved, _translations
        self._saved = (_chosen, _resolved, _translations)
        _chosen, _resolved, _translations = ENGLISH, None, None

    def __exit__(self, *exc: object) -> None:
        global _chosen, _resolved, _translations
        _chosen, _resolved, _translations = self._saved


def reset() -> None:
    """Forget the language resolved and the catalog read (the environment changed: tests)."""
    global _resolved, _translations
    _resolved, _translations = None, None


def _override() -> str | None:
    if _chosen:
        return _chosen
    value = os.environ.get("AGILITY_LANG", "").strip()
    return value or None


def _catalog_language(code: str) -> str | None:
    """The catalog that serves ``code`` (``zh_CN.UTF-8`` → ``zh``), by gettext's own search."""
    import gettext

    found = gettext.find(DOMAIN, str(LOCALE_DIR), languages=[code])
    return Path(found).parent.parent.name if found else None


def language() -> str:
    """The language in use: a catalog's name (``zh``), :data:`PSEUDO` or :data:`ENGLISH`."""
    global _resolved
    if _resolved is None:
        override = _override()
        if override is not None:
            wanted = [override]
        else:  # gettext's order: the first variable set decides; LANGUAGE may list several
            value = next((os.environ[v] for v in GETTEXT_VARIABLES if os.environ.get(v)), "")
            wanted = [w for w in value.split(":") if w]
        resolved = ENGLISH
        for code in wanted:
            if code.split(".")[0].split("@")[0] in ("C", "POSIX"):
                break
            if code.lower() == PSEUDO:
                resolved = PSEUDO
                break
            catalog = _catalog_language(code)
            if catalog is not None:
                resolved = catalog
                break
        _resolved = resolved
    return _resolved


def available() -> list[str]:
    """The languages the tool speaks: English, every compiled catalog, and the pseudo-locale."""
    catalogs = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return [ENGLISH, *catalogs, PSEUDO]


def catalog_path(lang: str, suffix: str = ".mo") -> Path:
    """The file of a language's catalog: ``locale/zh/LC_MESSAGES/agility.mo`` (or ``.po``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


# ---------------------------------------------------------------------------------------------
# The pseudo-locale

# A placeholder a message fills in later ({name}, {n:>3}, %s, %(name)s, %d) or a command to copy
# (`agility rules boost`): never altered.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([a-z_]+\))?[-#0 +]?\d*(?:\.\d+)?[sdirf%]|`[^`]*`")
# A line's indent and list mark stay outside the brackets: "  - text", "1. text".
_LEAD = re.compile(r"^(\s*(?:[-*] |\d+\. )?)(.*)$")
_ACCENTED = str.maketrans("aeiouyAEIOUYcnsCNS", "áéíóúýÁÉÍÓÚÝçñšÇÑŠ")
# An example's line of a help text: a command to copy, then maybe a comment ("  # against a bot").
_EXAMPLE = re.compile(r"^((?:agility|printf|pbpaste) .*?)(\s+#\s+)?((?<=# ).*)?$")
# A help text's one example after its label: "Example:  agility schema > line.schema.json".
_LABELLED = re.compile(r"^(\S[^:]*:  )((?:agility|printf|pbpaste) .*)$")
PSEUDO_OPEN = "⟦"
PSEUDO_CLOSE = "⟧"


def pseudo(message: str) -> str:
    """``message`` in the pseudo-locale: letters accented, lengthened by a third (``~``), each line
    bracketed ``⟦…⟧`` (its indent and list mark outside); placeholders and `code` are kept as they
    are, so the message still fills in and a command can still be copied.
    ``"Play a card"`` → ``"⟦Pláy á çárd~~~~⟧"``."""
    if not message:
        return message
    lines = []
    for line in message.split("\n"):
        if not line.strip() or line == "\b":  # a blank line, or Click's "keep these lines" mark
            lines.append(line)
            continue
        lead, line = _LEAD.match(line).groups()  # type: ignore[union-attr]  # the pattern always matches
        command = _EXAMPLE.match(line) if lead.isspace() else None  # an example: a command to copy
        if command:
            comment = command.group(3)
            lines.append(lead + command.group(1) + (command.group(2) + pseudo(comment) if comment else ""))
            continue
        labelled = _LABELLED.match(line)
        if labelled:
            lines.append(lead + pseudo(labelled.group(1).rstrip()) + "  " + labelled.group(2))
            continue
        parts = _PLACEHOLDER.split(line)
        holders = _PLACEHOLDER.findall(line)
        text = "".join(
            part.translate(_ACCENTED) + (holders[i] if i < len(holders) else "") for i, part in enumerate(parts)
        )
        visible = sum(len(p) for p in parts)
        lines.append(f"{lead}{PSEUDO_OPEN}{text}{_padding(-(-visible // 3))}{PSEUDO_CLOSE}")
    return "\n".join(lines)


def _padding(n: int) -> str:
    """``n`` characters lengthening a pseudo-locale message: ``~``, a blank every tenth, so that a long
    message still wraps where a terminal's width asks (a run of 80 ``~`` would not)."""
    return "".join(" " if k % 10 == 9 and k != n - 1 else "~" for k in range(n))


def _pseudo_translations() -> NullTranslations:
    """The pseudo-locale as a gettext translation: every message through :func:`pseudo`."""
    import gettext

    class Pseudo(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return pseudo(message)

        def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
            return pseudo(msgid1 if n == 1 else msgid2)

        def pgettext(self, context: str, message: str) -> str:
            return pseudo(message)

        def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
            return pseudo(msgid1 if n == 1 else msgid2)

    return Pseudo()


def _catalog() -> NullTranslations:
    global _translations
    if _translations is None:
        import gettext

        lang = language()
        if lang == PSEUDO:
            _translations = _pseudo_translations()
        elif lang == ENGLISH:
            _translations = gettext.NullTranslations()
        else:
            _translations = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True)
    return _translations


# ---------------------------------------------------------------------------------------------
# Messages


def gettext(message: str) -> str:
    """``message`` in the language in use (itself where the catalog has no translation)."""
    return _catalog().gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n``, in the language in use."""
    return _catalog().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, told apart by ``context`` from the same English words
    meaning another thing (``pgettext("dog deck", "deck {deck}")``: the dogs' deck, not the
    training deck)."""
    return _catalog().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` told apart by ``context`` (:func:`pgettext`)."""
    return _catalog().npgettext(context, singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark for extraction only"
    """Mark ``message`` for the catalog without translating it now (a table of texts)."""
    return message


# ---------------------------------------------------------------------------------------------
# The game's names


def _name(kind: str, english: str) -> tuple[str, str]:  # marks a name for extraction (kind = context)
    return kind, english


#: Every name of the game the catalog translates, as ``(kind, English)``; :func:`name` looks them
#: up with the kind as the message context.  The English words are the project's (components.py,
#: the board's short obstacle names and feature marks); a test checks that the shipped components'
#: dogs, every tile, obstacle type, colour and feature are here.
NAMES: tuple[tuple[str, str], ...] = (
    # the dogs of the shipped set (data/standard.json)
    _name("dog", "Golden Retriever"), _name("dog", "Dutch Shepherd"), _name("dog", "Siberian Husky"),
    _name("dog", "Mighty Mutt"), _name("dog", "Border Collie"), _name("dog", "Australian Shepherd"),
    _name("dog", "Belgian Malinois"), _name("dog", "Jack Russell Terrier"),
    _name("dog", "Shetland Sheepdog"), _name("dog", "Papillon"), _name("dog", "Standard Poodle"),
    _name("dog", "Labrador Retriever"), _name("dog", "German Shepherd"), _name("dog", "Whippet"),
    _name("dog", "Pembroke Welsh Corgi"),
    # the action tiles (components.tile_name)
    _name("tile", "Sweep"), _name("tile", "Clear Hurdles"), _name("tile", "Clear Tunnels"),
    _name("tile", "Clear A-Frames"), _name("tile", "Clear Weave Poles"), _name("tile", "Flex"),
    _name("tile", "Exchange"), _name("tile", "Break"), _name("tile", "Boost"),
    _name("tile", "Distraction"), _name("tile", "Rush"), _name("tile", "Intimidation"),
    _name("tile", "Inspiration"), _name("tile", "Slip"),
    # the obstacle types, by their full names and by the board's short ones
    _name("obstacle", "Hurdle"), _name("obstacle", "Tunnel"), _name("obstacle", "A-Frame"),
    _name("obstacle", "Weave Poles"), _name("obstacle", "Open Ground"), _name("obstacle", "Pause Box"),
    _name("obstacle", "hurdle"), _name("obstacle", "tunnel"), _name("obstacle", "a-frame"),
    _name("obstacle", "weave"), _name("obstacle", "open"), _name("obstacle", "pause"),
    # the cube colours
    _name("colour", "red"), _name("colour", "green"), _name("colour", "black"),
    _name("colour", "yellow"), _name("colour", "blue"),
    # a dog's features on a course (the board's marks)
    _name("feature", "pass"), _name("feature", "-1"), _name("feature", "feat"),
    _name("feature", "minus one"), _name("feature", "featured"),
    # course features
    _name("course", "Paw Prints"), _name("course", "Finish Line"), _name("course", "course"),
)

KINDS = frozenset(kind for kind, _english in NAMES)


def name(kind: str, english: str) -> str:
    """The players' word for a thing of the game in the language in use: ``name("dog", "Golden
    Retriever")`` → ``黄金猎犬`` in zh.  ``kind`` is ``dog``, ``tile``, ``obstacle``, ``colour``,
    ``feature`` or ``course``; a name the catalog does not know (a components file's own) is given
    back as it is (in the pseudo-locale, bracketed like any other text)."""
    if kind not in KINDS:
        raise ValueError(f"no kind of name {kind!r}; kinds: {', '.join(sorted(KINDS))}")
    return _catalog().pgettext(kind, english)
