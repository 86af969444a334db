"""Messages that are English where a program reads them and translated where a person does.

A refusal the engine builds (``card t07 is not in your hand``) is read by programs too: the
verifier writes it into a game file's error, a sealed game's verdict (``show --json``) and the
evidence kept of a refused line, all in English whatever the language.  So the engine never
translates: it builds a :class:`Said`, a ``str`` holding the English text, which also keeps its
message (marked for the catalog with ``N_``) and its values.  Where the text is shown to a person,
:func:`tell` translates it: the message through the catalog, then its values, each a ``Said`` or a
game's name (:func:`named`) in turn.  Anything else (a plain ``str``, a ``Said`` glued into an
f-string) is shown as it is.

It sits at the ground beside :mod:`.i18n` (every layer may use it) and reads nothing at import.

**Typing.** :func:`typed_names` gives the words of every catalog for a game's name (``红色`` for
red, ``黄金猎犬`` for the Golden Retriever), so that ``agility move`` reads them in any language.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterable

from . import i18n
from .i18n import N_

__all__ = ["Said", "either", "listing", "named", "os_words", "recall", "said", "said_in", "tell", "typed", "typed_names"]


class Said(str):
    """English text (the ``str`` itself) with its message and values, to translate where shown."""

    template: str
    params: dict[str, Any]
    kind: str | None  # a game's name (i18n.name's kind), or "list" (params["items"], joined)

    def __new__(cls, english: str, template: str, params: dict[str, Any], kind: str | None = None) -> "Said":
        self = super().__new__(cls, english)
        self.template, self.params, self.kind = template, params, kind
        return self

    def __getnewargs__(self) -> tuple[str, str, dict[str, Any], str | None]:  # type: ignore[override]  # copied
        return str(self), self.template, self.params, self.kind


def said(template: str, /, **params: Any) -> Said:
    """``template`` (marked ``N_``) filled in with ``params``: English now, translated by :func:`tell`."""
    return Said(template.format(**params), template, params)


def said_in(marked: tuple[str, str], /, **params: Any) -> Said:
    """:func:`said` with a message context, marked ``_name(context, message)`` (the extraction's
    keyword for a message with its context): ``said_in(_name("verb", "edited by hand"))``, where
    "hand" is no hand of cards."""
    context, template = marked
    return Said(template.format(**params), template, params, "context:" + context)


def typed(word: str, chinese: str | None) -> Said:
    """A word to type (``done``), shown in zh with the Chinese word read for it too (``done（完成）``)."""
    return Said(word, word, {"zh": chinese}, "typed")


def named(kind: str, english: str) -> Said:
    """A game's name (``named("colour", "red")``): English now, the players' word where shown."""
    return Said(english, english, {}, kind)


def listing(items: Iterable[Any], sep: str = ", ") -> Said:
    """Items joined by ``sep`` (``", "``, or :func:`either`'s ``" or "``), each told where shown."""
    items = list(items)
    return Said(sep.join(str(i) for i in items), sep, {"items": items}, "list")


def either(items: Iterable[Any]) -> Said:
    """``red or blue``: the items joined by the language's "or"."""
    return listing(items, N_(" or "))


def tell(text: Any) -> str:
    """``text`` for a person, in the language in use (:class:`Said`), else as it is."""
    if not isinstance(text, Said):
        return text if isinstance(text, str) else str(text)
    if text.kind == "list":
        sep = text.template if text.template == ", " else i18n._(text.template)
        return sep.join(tell(i) for i in text.params["items"])
    if text.kind == "typed":  # a word to type, with the Chinese word typed for it too (in zh)
        alias = text.params.get("zh")
        return f"{text.template}（{alias}）" if alias and i18n.language() == "zh" else str(text)
    if text.kind is not None and text.kind.startswith("context:"):
        return i18n.pgettext(text.kind[8:], text.template).format(
            **{k: tell(v) if isinstance(v, Said) else v for k, v in text.params.items()})
    if text.kind is not None:
        return i18n.name(text.kind, text.template) if text.kind in i18n.KINDS else str(text)
    return i18n._(text.template).format(**{k: tell(v) if isinstance(v, Said) else v for k, v in text.params.items()})


#: The longest text :func:`recall` reads back (a verdict's reason is far shorter).
RECALL_LIMIT = 2000
_PLACEHOLDER = r"\{(\w+)\}"
#: The values a message quotes as written: a game line in the log's words (``alice: play t07 red``)
_AS_WRITTEN = frozenset({"line", "move", "yours", "mailed"})
_WORDS = re.compile(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}")  # English words, not a name or an id


@functools.cache
def _catalog_messages() -> tuple[tuple[tuple[int, str, str, str | None, str, Any], ...], frozenset[str]]:
    """The catalogs' messages as :func:`recall` reads them: those with placeholders (literal
    characters, literal start, literal end, context, message, pattern), the most literal first;
    and those of several words without any."""
    import gettext

    langs = [lang for lang in i18n.available() if lang not in (i18n.ENGLISH, i18n.PSEUDO)]
    if not langs:
        return (), frozenset()
    with open(i18n.catalog_path(langs[0]), "rb") as f:
        ids = [k for k in gettext.GNUTranslations(f)._catalog if isinstance(k, str) and k]  # type: ignore[attr-defined]
    out, plain = [], set()
    for key in ids:
        context, _sep, message = key.rpartition("\x04")
        parts = re.split(_PLACEHOLDER, message)
        literal, names = parts[0::2], parts[1::2]
        if any("{" in p or "}" in p for p in literal):
            continue
        if not names:
            if (" " in message and not context) or context in ("pile", "line kind"):  # "cards", "join"
                plain.add(key)
            continue
        if not any(c.isalpha() or c == "[" for p in literal for c in p):  # "{a}: {b}" would match anything
            continue
        pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P={p})" if p in parts[1:i:2] else f"(?P<{p}>.+?)"
                          for i, p in enumerate(parts))
        out.append((sum(len(p) for p in literal), literal[0], literal[-1], context or None, message,
                    re.compile(pattern, re.S)))
    return tuple(sorted(out, key=lambda t: -t[0])), frozenset(plain)


def recall(english: str, depth: int = 8) -> str:
    """English text kept as words (a sealed game's verdict as a checkpoint keeps it, R42) told in
    the language in use: read back into the catalog's message it was made of, the most specific one
    that matches it whole, and each of its values in turn; a text no message matches is shown as
    it is.  Names and ids in it stay as they were written.  A text longer than any verdict the
    tool writes (:data:`RECALL_LIMIT`) is shown as it is: matching is never asked to search a
    hostile one."""
    if i18n.language() == i18n.ENGLISH or depth <= 0 or not english or len(english) > RECALL_LIMIT:
        return english
    templates, plain = _catalog_messages()
    if english in plain:
        return i18n._(english)
    for kind in ("pile", "line kind"):  # a word of the sealed deck's messages: "cards", "join"
        if f"{kind}\x04{english}" in plain:
            return i18n.pgettext(kind, english)
    for _n, start, end, context, message, pattern in templates:
        if not (english.startswith(start) and english.endswith(end)):
            continue
        found = pattern.fullmatch(english)
        if found is None:
            continue
        values = {k: v if k in _AS_WRITTEN else recall(v, depth - 1) if " " in v or k in ("pile", "tag") else v
                  for k, v in found.groupdict().items()}  # a name stays as written
        if any(told == v and _WORDS.search(v) and k not in _AS_WRITTEN
               for k, v, told in zip(found.groupdict(), found.groupdict().values(), values.values())):
            continue  # words no message makes: another message, or the text as it is
        told = i18n.pgettext(context, message) if context else i18n._(message)
        return told.format(**values)
    return english


#: The system's words for the errors a file or a folder meets (as the C library says them in
#: English), said in the player's language where they are these very words
_OS_WORDS = {
    "ENOSPC": N_("No space left on device"), "EDQUOT": N_("Disk quota exceeded"), "EACCES": N_("Permission denied"),
    "EPERM": N_("Operation not permitted"), "EROFS": N_("Read-only file system"), "EIO": N_("Input/output error"),
    "ENOENT": N_("No such file or directory"), "EISDIR": N_("Is a directory"), "ENOTDIR": N_("Not a directory"),
    "EEXIST": N_("File exists"), "EFBIG": N_("File too large"), "ENAMETOOLONG": N_("File name too long"),
    "ELOOP": N_("Too many levels of symbolic links"), "ETXTBSY": N_("Text file busy"),
}


def os_words(exc: OSError) -> Any:
    """What the system said of ``exc`` (its ``strerror``): a :class:`Said` where it is the C
    library's English for a file's usual errors (told in the player's language), else as it is."""
    import errno

    words = exc.strerror or str(exc)
    code = errno.errorcode.get(exc.errno or 0, "")
    english = _OS_WORDS.get(code)
    return said(english) if english is not None and words == english else words


def message_of(exc: BaseException) -> Any:
    """An error's message, a :class:`Said` when it was made of one (``str(exc)`` would lose it)."""
    message = getattr(exc, "message", None)
    if isinstance(message, Said):
        return message
    if exc.args and isinstance(exc.args[0], Said):
        return exc.args[0]
    return str(exc)


@functools.cache
def typed_names(kind: str) -> dict[str, tuple[str, ...]]:
    """Every catalog's words for each name of ``kind`` (``{"red": ("红色",)}``), with the short ones
    a player types: a word's part before a bracket (``Mighty Mutt（混种犬）`` → also ``混种犬``), and
    a colour's first character (``红``).  The same in every language: a Chinese colour is read even
    when the tool speaks English."""
    import gettext
    import re

    out: dict[str, list[str]] = {}
    for lang in i18n.available():
        if lang in (i18n.ENGLISH, i18n.PSEUDO):
            continue
        catalog = gettext.translation(i18n.DOMAIN, str(i18n.LOCALE_DIR), languages=[lang], fallback=True)
        for k, english in i18n.NAMES:
            if k != kind:
                continue
            word = catalog.pgettext(kind, english)
            if word == english:
                continue
            words = out.setdefault(english, [])
            words.append(word)
            words += [w for w in re.split(r"[（）()]", word) if w.strip() and w != word]
            if kind == "colour" and word.endswith("色"):
                words.append(word[:-1])
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}
