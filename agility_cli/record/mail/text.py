"""A mail part's bytes as the text a reader sees: the declared charset decoded as mail programs
mean it (:func:`decode_text`), ``format=flowed`` unwrapped (:func:`unflow`, RFC 3676), and HTML
turned into text (:func:`html_to_text`, defused first so that the work stays linear).

Used by :mod:`agility_cli.record.mail.read`, which walks the messages and MIME parts.  Stdlib only.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

from ...i18n import N_
from ...said import said

__all__ = ["decode_text", "html_to_text", "unflow"]


# ----------------------------------------------------------------------------------------------
# Charsets


# The labels that mean Western European text; like browsers (WHATWG Encoding), they are read as
# windows-1252, whose 0x80–0x9F are the curly quotes, dashes and € that mail programs send under
# the name iso-8859-1.  Bytes windows-1252 leaves undefined are kept as latin-1 would.
_WESTERN = frozenset({
    "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "ibm819",
    "windows-1252", "cp1252", "x-cp1252", "iso-ir-100", "csisolatin1",
})
_ASCII = frozenset({"", "us-ascii", "ascii", "us", "ansi_x3.4-1968", "iso646-us", "unknown-8bit", "x-unknown", "default"})


def _cp1252_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x80, 0xA0):
        try:
            table[code] = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            pass
    return table


_CP1252_HIGH = _cp1252_table()


def _windows_1252(raw: bytes) -> str:
    return raw.decode("latin-1").translate(_CP1252_HIGH)


def decode_text(raw: bytes, charset: str | None) -> tuple[str, list[str]]:
    """``raw`` decoded as the ``charset`` a mail part declares, with notes on what went wrong.

    ``iso-8859-1`` and its aliases are read as windows-1252 (as browsers do); no charset, or
    ``us-ascii``, with bytes beyond ASCII, is read as UTF-8 if it is valid UTF-8, else as
    windows-1252 (noted); an unknown charset is read as UTF-8 (noted); bytes that do not decode
    are replaced by U+FFFD (noted).
    """
    label = (charset or "").strip().strip('"').lower()
    shown = label[:40]
    if label in _ASCII:
        if raw.isascii():
            return raw.decode("ascii"), []
        try:
            return raw.decode("utf-8"), []
        except UnicodeDecodeError:
            note = (said(N_("its text, declared as {charset}, is not valid UTF-8: it was read as windows-1252"),
                         charset=shown) if label else
                    said(N_("its text, with no charset declared, is not valid UTF-8: it was read as windows-1252")))
            return _windows_1252(raw), [note]
    if label in _WESTERN:
        return _windows_1252(raw), []
    try:
        codec = codecs.lookup(label).name
    except LookupError:
        text = raw.decode("utf-8", "replace")
        notes: list[str] = [said(N_('its charset "{charset}" is unknown: it was read as UTF-8'), charset=shown)]
        if "\ufffd" in text:
            notes.append(said(N_("bytes that are not valid UTF-8 were replaced by U+FFFD")))
        return text, notes
    try:
        return raw.decode(codec), []
    except LookupError:  # a codec that is not a text encoding ("base64", "zlib", …)
        text = raw.decode("utf-8", "replace")
        return text, [said(N_('its charset "{charset}" is not a text encoding: it was read as UTF-8'), charset=shown)]
    except UnicodeError:
        pass
    try:
        text = raw.decode(codec, "replace")
    except UnicodeError:  # a codec that refuses whatever the error handler (e.g. "undefined")
        text = raw.decode("utf-8", "replace")
    return text, [said(N_("some bytes are not valid {charset}: they were replaced by U+FFFD"), charset=shown)]


# ----------------------------------------------------------------------------------------------
# format=flowed (RFC 3676)


def unflow(text: str, *, delsp: bool) -> str:
    """Text sent as ``format=flowed`` (RFC 3676) with its soft line breaks undone.

    Per line (``\\n``-separated; a ``\\r`` before it is dropped): the leading ``>`` are counted and
    removed (the quote depth, §4.5), then one leading space (space-stuffing, §4.4).  A line whose
    content ends in a space is *flowed*: it joins the next line, its trailing space deleted when
    ``delsp`` (``DelSp=yes``, §4.2), kept otherwise.  The signature separator ``-- `` is never
    flowed and ends any paragraph before it; a flowed line followed by a line of a different quote
    depth is taken as fixed (§4.5).  Each paragraph comes out as one line, prefixed with its quote
    marks and a space (``> text``, ``>> text``) when quoted.  A final newline is kept.
    """
    ends_with_newline = text.endswith("\n")
    if ends_with_newline:
        text = text[:-1]
    out: list[str] = []
    paragraph: list[str] = []
    depth_of_paragraph = 0

    def emit() -> None:
        body = "".join(paragraph)
        prefix = ">" * depth_of_paragraph
        out.append(prefix + (" " if prefix and body else "") + body)
        paragraph.clear()

    for line in text.split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        content = line.lstrip(">")
        depth = len(line) - len(content)
        if content.startswith(" "):
            content = content[1:]
        if paragraph and depth != depth_of_paragraph:
            emit()  # a flowed line followed by another quote depth is fixed
        signature = content == "-- "
        if signature and paragraph:
            emit()
        depth_of_paragraph = depth
        if content.endswith(" ") and not signature:
            paragraph.append(content[:-1] if delsp else content)
            continue
        paragraph.append(content)
        emit()
    if paragraph:
        emit()
    return "\n".join(out) + ("\n" if ends_with_newline else "")


# ----------------------------------------------------------------------------------------------
# HTML


_BLOCK_TAGS = frozenset({
    "p", "div", "pre", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "thead", "tbody", "tfoot",
    "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "article", "header", "footer",
    "address", "center", "form", "fieldset", "figure", "main", "nav", "aside", "details", "summary",
})
_HIDDEN_TAGS = frozenset({"script", "style", "title", "template", "head"})
_VOID_TAGS = frozenset({"br", "hr", "img", "wbr", "meta", "link", "input", "col", "area", "base", "source"})
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")


class _HtmlText(HTMLParser):
    """Text of an HTML document as a browser would show it, line breaks kept as ``\\n``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.at_line_start = True
        self.hidden = 0
        self.pre = 0

    def newline(self) -> None:
        while self.chunks and self.chunks[-1].endswith(" "):
            self.chunks[-1] = self.chunks[-1].rstrip(" ")
            if not self.chunks[-1]:
                self.chunks.pop()
            else:
                break
        self.chunks.append("\n")
        self.at_line_start = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.hidden = 0  # an unclosed <title> or <head> hides nothing of the body
        if tag in _HIDDEN_TAGS:
            self.hidden += 1
        elif tag == "br":
            self.newline()
        elif tag in _BLOCK_TAGS:
            if not self.at_line_start:
                self.newline()
            if tag == "pre":
                self.pre += 1
        elif tag in ("td", "th") and not self.at_line_start:
            self.chunks.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":  # </br> is a line break to browsers
            self.newline()
        elif tag in _HIDDEN_TAGS:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCK_TAGS:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if not self.at_line_start:
                self.newline()

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            data = data.replace("\xa0", " ")
            if data:
                self.chunks.append(data)
                self.at_line_start = data.endswith("\n")
            return
        data = _HTML_SPACE.sub(" ", data).replace("\xa0", " ")  # &nbsp; after collapsing: it stays
        if self.at_line_start:
            data = data.lstrip(" ")
        if data:
            self.chunks.append(data)
            self.at_line_start = False


def _defuse(html: str, declarations: bool = True) -> str:
    """``html`` with each ``<`` that cannot open markup written ``&lt;``, in one linear pass.

    Python 3.11's :class:`html.parser.HTMLParser` rescans to the end of the input for every ``<``
    that has no ``>`` before the next ``<`` (``<a<a<a…`` takes minutes for 200 KB), and raises on
    a marked section like ``<![ x``.  Such a ``<`` is shown as text by browsers, and so it is here.
    Comments are kept when they end.  With ``declarations=False`` every ``<!`` is text (the
    fallback when the parser still fails).
    """
    out: list[str] = []
    last = 0
    next_gt = -2  # the position of the next ">" (-1: there is none left; -2: not looked for yet)
    comments_end = True  # False once a "<!--" was found with no "-->" after it
    i = html.find("<")
    while i != -1:
        following = html.find("<", i + 1)
        if html.startswith("<!--", i) and declarations:
            end = html.find("-->", i + 4) if comments_end else -1
            if end != -1:
                i = html.find("<", end + 3)
                continue
            comments_end = False
            escape = True
        else:
            if next_gt != -1 and next_gt <= i:
                next_gt = html.find(">", i + 1)
            escape = next_gt == -1 or (following != -1 and following < next_gt)
            if not escape and html.startswith("<!", i):
                # A marked section must be "<![" and a name ("<![CDATA[", "<![if …]>").
                escape = not declarations or (html.startswith("<![", i) and not html[i + 3 : i + 4].isalpha())
        if escape:
            out.append(html[last:i])
            out.append("&lt;")
            last = i + 1
        i = following
    out.append(html[last:])
    return "".join(out)


def html_to_text(html: str) -> str:
    """The text of an HTML mail part as a reader sees it, with the standard library's parser.

    Tags are dropped; ``<br>`` ends a line, and block elements (``<p>``, ``<div>``, ``<pre>``, list
    items, table rows, …) start and end one; runs of white space collapse to one space, as in a
    browser, except inside ``<pre>``; ``&nbsp;`` becomes a plain space (the mail program wrote it
    so that the spaces it stands for show); entities (``&quot;``, ``&amp;``, ``&#39;`` …) are
    unescaped; ``<script>``, ``<style>``, ``<head>`` and ``<title>`` are not shown; comments vanish.
    """
    for declarations in (True, False):
        parser = _HtmlText()
        try:
            parser.feed(_defuse(html, declarations))
            parser.close()
        except (AssertionError, ValueError, AttributeError, IndexError):
            continue  # a declaration the parser trips on: again, with every "<!" taken as text
        text = "".join(parser.chunks).strip("\n")
        return text + "\n" if text else ""
    return html  # not reached in practice: with no declaration left the parser does not fail
