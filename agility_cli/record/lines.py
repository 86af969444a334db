"""The line format of a game file (R35): limits, encoding and hashes, the header, and decoding one
line, with a message that says what is wrong with it and how to fix it."""

from __future__ import annotations

import hashlib
import re
from itertools import accumulate
from collections.abc import Sequence
from typing import Any
import msgspec

from ..engine.components import Components, ComponentsError, standard_components, validate
from ..engine.moves import ENCODER, KINDS, LINE_DECODER, RULES_VERSION, Header, line_summary
from ..i18n import N_, _, _name
from ..said import Said, message_of, said, said_in, tell
from ..text import PATH_LIMIT, quoted, safe, safe_message, shell_command, shell_word


#: The largest game file read (a finished game is about 100 KB; a header with an embedded
#: component set about 30 KB).  Anything larger is refused, as is anything not a regular file.
MAX_FILE_BYTES = 64 << 20


#: The longest line read.
MAX_LINE_BYTES = 1 << 20


#: The deepest JSON nesting a line may have (a header with a component set needs 6).
MAX_DEPTH = 32


class GameFileError(Exception):
    """The game file is invalid (exit 3).  ``line`` is the 1-based line number, when known."""

    def __init__(self, path: str, line: int | None, message: str, hint: str | None = None):
        # Field values of a hostile file reach these messages: made safe to print here, once.  A
        # message made of a said.Said stays one (translated where a person reads it, :meth:`told`)
        # when it was safe already; what a person reads is made safe again where it is printed.
        self.path = path
        self.line = line
        self.message = _safe_said(message)
        self.hint = None if hint is None else _safe_said(hint)
        #: the sealed deck's fault behind the error, when there is one (R42: an abort's verdict
        #: tells a false pass of the abort's writer from an opening that fails)
        self.cause: Exception | None = None
        where = f"{safe(path, PATH_LIMIT)}, line {line}" if line else safe(path, PATH_LIMIT)
        super().__init__(f"{where}: {self.message}" + (f"\n  hint: {self.hint}" if self.hint else ""))


    def told(self) -> str:
        """The error as a person reads it, in the language in use: ``FILE, line N: WHAT`` and the
        hint (the English of ``str(error)`` stays what programs and the evidence read)."""
        path = safe(self.path, PATH_LIMIT)
        where = _("{file}, line {line}").format(file=path, line=self.line) if self.line else path
        text = _("{where}: {what}").format(where=where, what=tell(self.message))
        return text + ("\n  " + _("hint: {hint}").format(hint=tell(self.hint)) if self.hint else "")


def sentences(first: str, *then: str) -> str:
    """Sentences said one by one and joined (``A.  B``; in Chinese with no spaces): a long message
    in parts, each part a message of the catalog that a translator (and the pseudo-locale, which
    lengthens each message at its end) reads whole."""
    if not then:
        return first
    return said(N_("{sentence}  {then}"), sentence=first, then=sentences(*then))


_MESSAGE_LINE_LIMIT = 40_000  # a header restored "byte for byte" in a hint is ~30 KB


def _safe_said(message: str) -> str:
    text = safe_message(message, _MESSAGE_LINE_LIMIT)
    return message if isinstance(message, Said) and text == str(message) else text


def line_hash(raw: bytes) -> str:
    """SHA-256 (hex) of a line's bytes without its newline: the next line's ``prev``."""
    return hashlib.sha256(raw).hexdigest()


def encode_line(record: msgspec.Struct) -> bytes:
    return ENCODER.encode(record)


def header_components(header: Header, path: str = "header") -> Components:
    """The component set a header names (``"standard"``) or embeds (R6)."""
    if isinstance(header.components, str):
        if header.components != "standard":
            raise GameFileError(
                path, 1, said(N_("unknown component set {name}"), name=quoted(header.components)),
                said(N_("use \"standard\" or embed the set in the header")),
            )
        return standard_components()
    try:
        return validate(header.components)
    except ComponentsError as exc:
        raise GameFileError(path, 1, said(N_("the embedded component set is invalid: {error}"),
                                          error=message_of(exc))) from None


def make_header(
    *,
    seed: int,
    players: tuple[str, str],
    first: str,
    board: tuple[str, ...],
    components: Components | None,
    rules: int = RULES_VERSION,
) -> Header:
    """The header of a game whose seed is chosen by its creator (format 1: no keys, no handshake)."""
    return Header(
        format=1,
        rules=rules,
        seed=seed,
        players=players,
        first=first,
        board=board,
        components="standard" if components is None else components,
    )


_KIND_NAMES = ", ".join(["game", *KINDS])


HEX64_RE = re.compile(r"[0-9a-f]{64}")


_CONFLICT_MARKERS = (b"<<<<<<<", b"|||||||", b"=======", b">>>>>>>")


class _Peek(msgspec.Struct):
    """The envelope of a line, read leniently (for diagnostics that look at other lines)."""

    kind: Any = None
    n: Any = None
    prev: Any = None
    player: Any = None


_PEEK_DECODER = msgspec.json.Decoder(_Peek)


def peek_line(raw: bytes) -> _Peek | None:
    try:
        return _PEEK_DECODER.decode(raw)
    except msgspec.DecodeError:
        return None


def sealed_header(data: bytes) -> bool:
    """R42: whether the first line of ``data`` is a sealed game's header (a first look, unverified)."""
    end = data.find(b"\n")
    return b'"sealed":' in (data if end == -1 else data[:end])


def peek_n(raw: bytes) -> Any:
    p = peek_line(raw)
    return None if p is None else p.n


def snippet(raw: bytes, limit: int = 40) -> str:
    return quoted(raw[: limit * 4].decode("utf-8", "replace"), limit)


#: What msgspec says of a line's JSON (``JSON is malformed: invalid character (byte 5)``), each
#: shape a message of the catalog; what none matches is kept as msgspec said it.
_MALFORMED_REASONS = {
    "invalid character": N_("invalid character"),
    "trailing characters": N_("trailing characters"),
    "trailing comma in array": N_("trailing comma in array"),
    "trailing comma in object": N_("trailing comma in object"),
    "invalid number": N_("invalid number"),
    "invalid escape character in string": N_("invalid escape character in string"),
    "invalid utf-8 sequence": N_("invalid utf-8 sequence"),
    "unexpected character": N_("unexpected character"),
    "unexpected end of input": N_("unexpected end of input"),
    "object keys must be strings": N_("object keys must be strings"),
}


def msgspec_said(text: str) -> str:
    """msgspec's English words about a line's JSON as a said message (translated where shown),
    the same English; a shape this table does not know is kept as it is."""
    found: Said | None = None
    if mm := re.fullmatch(r"JSON is malformed: (.*?)(?: \(byte (\d+)\))?", text, re.S):
        reason_text = mm.group(1)
        reason: str = reason_text
        if reason_text in _MALFORMED_REASONS:
            reason = said(_MALFORMED_REASONS[reason_text])
        elif ex := re.fullmatch(r"expected (.*)", reason_text, re.S):
            reason = said(N_("expected {what}"), what=ex.group(1))
        found = (said(N_("JSON is malformed: {reason} (byte {byte})"), reason=reason, byte=mm.group(2))
                 if mm.group(2) else said(N_("JSON is malformed: {reason}"), reason=reason))
    elif text == "Input data was truncated":
        found = said(N_("Input data was truncated"))
    return found if found is not None and str(found) == text else text


def _describe_decode_error(exc: Exception, raw: bytes) -> tuple[Said, Said]:
    """What a msgspec validation error means for a game-file line, and what would fix it: said
    messages (English where programs read them, translated where a person does); msgspec's own
    words that no shape here matches are kept as they are."""
    text = str(exc)
    m = re.fullmatch(r"(.*?)(?: - at `\$\.?(.*)`)?", text, re.S)
    core, where = (m.group(1), m.group(2)) if m else (text, None)
    peek = peek_line(raw)
    kind = peek.kind if peek is not None and isinstance(peek.kind, str) else None
    what = said(N_("a {kind} line"), kind=quoted(kind)) if kind else said(N_("the line"))
    schema = said(N_("`agility schema` prints the format"))
    at: str = said(N_(" (at `{where}`)"), where=where) if where else ""
    if mm := re.match(r"Object contains unknown field `(.*)`", core, re.S):
        field = safe(mm.group(1), 60)
        return (
            said(N_("unknown field `{field}` in {what}{at}"), field=field, what=what, at=at),
            said(N_("the fields of each kind of line are fixed; remove `{field}` or restore the line as it was "
                    "written ({schema})"), field=field, schema=schema),
        )
    if mm := re.match(r"Object missing required field `(.*)`", core):
        field = mm.group(1)
        hint = (said(N_("every {kind} line has `{field}`: the line was cut short or edited; restore it from the "
                        "opponent's copy or from git ({schema})"), kind=quoted(kind), field=field, schema=schema)
                if kind else
                said(N_("every such line has `{field}`: the line was cut short or edited; restore it from the "
                        "opponent's copy or from git ({schema})"), field=field, schema=schema))
        return said(N_("missing field `{field}` in {what}{at}"), field=field, what=what, at=at), hint
    if where == "kind" and core.startswith("Invalid value"):
        return (
            said(N_("unknown kind of line {value}"), value=core[len("Invalid value "):]),
            said(N_("known kinds: {kinds}"), kinds=_KIND_NAMES),
        )
    if mm := re.match(r"Expected `(.*?)`(?:, got `(.*)`)?", core):
        got: str = said(N_(", got {type}"), type=mm.group(2)) if mm.group(2) else ""
        if where:
            return (
                said(N_("wrong type for `{field}` in {what}: expected {expected}{got}"), field=where, what=what,
                     expected=mm.group(1), got=got),
                said(N_("the value was edited; {schema}"), schema=schema),
            )
        return (said(N_("wrong type: a line must be a JSON {expected}{got}"), expected=mm.group(1), got=got),
                said(N_("each line is one JSON object; {schema}"), schema=schema))
    if mm := re.match(r"Invalid enum value (.*)", core):
        return (said(N_("invalid value {value} for `{field}` in {what}"), value=mm.group(1), field=where, what=what),
                said(N_("the value was edited; {schema}"), schema=schema))
    return (said(N_("{error}{at} in {what}"), error=core, at=at, what=what),
            said(N_("the line was edited or damaged; {schema}"), schema=schema))


def _conflict_error(path: str, lineno: int, lines: Sequence[bytes]) -> GameFileError:
    """A git conflict marker: name the block and both sides, and say how to keep one."""
    marker = lines[lineno - 1][:7].decode("ascii", "replace")
    start = lineno
    # Find the block this marker belongs to: from <<<<<<< to >>>>>>>.
    for k in range(lineno, 0, -1):
        if lines[k - 1].startswith(b"<<<<<<<"):
            start = k
            break
    base = mid = end = None
    for k in range(start, len(lines) + 1):
        raw = lines[k - 1]
        if raw.startswith(b"|||||||") and base is None and mid is None:
            base = k  # diff3 style: the common ancestor's lines follow, up to =======
        if raw.startswith(b"=======") and mid is None:
            mid = k
        if raw.startswith(b">>>>>>>"):
            end = k
            break
    sides: str = ""
    if mid is not None and end is not None and mid > start:
        ours_end = (base if base is not None else mid) - 1
        ours = said(N_("lines {first}–{last}"), first=start + 1, last=ours_end) if ours_end > start else said(N_("nothing"))
        theirs = said(N_("lines {first}–{last}"), first=mid + 1, last=end - 1) if end - 1 > mid else said(N_("nothing"))
        ancestor: str = ""
        if base is not None:
            ancestor = (
                said(N_(", and lines {first}–{last} are the common ancestor's (diff3 style, from the `|||||||` line)"),
                     first=base, last=mid - 1)
                if mid - 1 > base else said(N_(", and line {line} marks the (empty) common ancestor"), line=base)
            )
        sides = said(N_(" (the conflict spans lines {first}–{last}: one side is {ours}, the other {theirs}{ancestor})"),
                     first=start, last=end, ours=ours, theirs=theirs, ancestor=ancestor)
    return GameFileError(
        path,
        lineno,
        said(N_("git conflict marker {marker}: a git merge of two copies of the game that went on separately left "
                "both sides in the file{sides}"), marker=repr(marker), sides=sides),
        conflict_hint(path),
    )


def conflict_hint(path: str) -> str:
    """How to keep one side of a forked game with git, from any directory (a game cannot fork).

    ``:2:./FILE`` names the path from the current directory (``:2:FILE`` would be read from the
    top of the work tree); the side copies go to the temporary directory, not into the work tree;
    during a rebase git's "ours" is the branch being rebased onto, so the sides swap.
    """
    q = shell_word(path)
    tmp = "${TMPDIR:-/tmp}"
    here = path if path.startswith(("/", "./", "../")) else "./" + path  # relative to where you are
    ours = shell_command(["git", "show", ":2:" + here])
    theirs = shell_command(["git", "show", ":3:" + here])
    return sentences(
        said(N_("a game cannot fork, so keep one side.")),
        said(N_("Look at each, outside the work tree: `{look_ours}` and `{look_theirs}` (during a rebase the two "
                "swap: \"ours\" is the branch you rebase onto, \"theirs\" your own commits); then `{keep}` (or "
                "`--theirs`) and `{add}`."),
             look_ours=f"{ours} > \"{tmp}/ours.jsonl\" && agility replay \"{tmp}/ours.jsonl\"",
             look_theirs=f"{theirs} > \"{tmp}/theirs.jsonl\" && agility replay \"{tmp}/theirs.jsonl\"",
             keep=f"git checkout --ours -- {q}", add=f"git add {q}"),
        said(N_("After a merge that completed (a merge driver or `merge=union` joined both), take one parent's copy "
                "instead: `{first}` (yours) or `{second}` (the merged branch's)."),
             first=f"git checkout HEAD^1 -- {q}", second=f"git checkout HEAD^2 -- {q}"),
        said(N_("The player whose side is dropped makes those decisions again on top of the kept side")))


def decode_checked(path: str, lineno: int, raw: bytes, lines: Sequence[bytes] | None = None) -> Any:
    """Decode one line, or raise :class:`GameFileError` saying what is wrong with its bytes."""
    if raw[:1] == b"{" and raw[-1:] == b"}" and len(raw) <= MAX_LINE_BYTES:
        # The common case, checked once: a line that opens and closes an object is none of the
        # damaged lines below (a conflict marker, a blank line, CRLF, a byte-order mark, mail quoting)
        try:
            if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH or not _too_deep(raw):
                return LINE_DECODER.decode(raw)
        except msgspec.DecodeError:
            pass  # said below, with what is wrong
    if raw.startswith(_CONFLICT_MARKERS):
        raise _conflict_error(path, lineno, lines if lines is not None else [raw] * lineno)
    if len(raw) > MAX_LINE_BYTES:
        raise GameFileError(
            path, lineno, said(N_("the line is {n} bytes long; a game line is at most {limit} bytes"), n=len(raw),
                               limit=MAX_LINE_BYTES),
            said(N_("this is not a line agility wrote: restore it from the opponent's copy or from git")),
        )
    if not raw.strip():
        if lineno == 1:
            raise GameFileError(path, 1, said(N_("line 1 is blank: the game header is missing")),
                                said(N_("the first line of a game file is its header; restore it, or create a game "
                                        "with `agility new`")))
        raise GameFileError(path, lineno, said(N_("blank line")),
                            said(N_("a game file has no blank lines: delete line {line}"), line=lineno))
    if raw.endswith(b"\r") and raw.lstrip().startswith(b"{"):
        raise GameFileError(
            path, lineno, said(N_("the line ends with a carriage return (Windows CRLF line endings)")),
            said(N_("the file was converted by an editor, a mail program or git (core.autocrlf); convert it back "
                    "with `{sed}` (or `{dos2unix}`), and keep git from converting it again with `*.jsonl -text` in "
                    ".gitattributes"), sed=f"sed -i 's/\\r$//' {shell_word(path)}", dos2unix=f"dos2unix {shell_word(path)}"),
        )
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raise GameFileError(
            path, 1, said(N_("the file starts with a byte-order mark (saved as \"UTF-8 with BOM\")")),
            said(N_("remove the first three bytes: `{command}`"),
                 command=f"sed -i '1s/^\\xEF\\xBB\\xBF//' {shell_word(path)}"),
        )
    if raw.lstrip().startswith(b">"):
        raise GameFileError(
            path, lineno, said(N_("the line is quoted mail text (it starts with '>')")),
            said(N_("add lines from a mail with `agility apply FILE`, which removes the quoting; delete this line")),
        )
    if _too_deep(raw):
        raise GameFileError(
            path, lineno, said(N_("is not valid JSON for a game line: it is nested more than {depth} levels deep"),
                               depth=MAX_DEPTH),
            said(N_("this is not a line agility wrote: restore it from the opponent's copy or from git")),
        )
    try:
        return LINE_DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        message, hint = _describe_decode_error(exc, raw)
        raise GameFileError(path, lineno, said(N_("does not match the format: {error}"), error=message), hint) from None
    except msgspec.DecodeError as exc:
        raise _json_error(path, lineno, raw, exc) from None
    except RecursionError:  # pragma: no cover - _too_deep rejects such lines first
        raise GameFileError(path, lineno, said(N_("is not valid JSON for a game line: it is nested too deeply"))) from None


_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?')  # a string (its escapes), to its end or the line's


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\x02\x02")  # an opening bracket 1, a closing one 2


_STEP = {1: 1, 2: -1}


def _too_deep(raw: bytes) -> bool:
    """Whether the JSON in ``raw`` nests deeper than :data:`MAX_DEPTH` (msgspec would recurse
    once per level and, at about a thousand, fail with ``RecursionError``).  Cheap for ordinary
    lines: only a line with many brackets is scanned, strings removed first, and the depth is
    followed in C (a header with an embedded component set holds some 400 brackets)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    steps = _STRINGS.sub(b"", raw).translate(_BRACKET_STEPS, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, steps)), default=0) > MAX_DEPTH


def decode_line(raw: bytes, path: str = "line", lineno: int = 1) -> Any:
    """Decode one line (header or decision) or raise :class:`GameFileError` saying what is wrong."""
    return decode_checked(path, lineno, raw)


def _json_error(path: str, lineno: int, raw: bytes, exc: Exception) -> GameFileError:
    binary = b"\x00" in raw
    if not binary:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            binary = True
    if lineno == 1 and (binary or not raw.lstrip().startswith(b"{")):
        what = said(N_("binary data")) if binary else said(N_("not JSON (it starts with {start})"), start=snippet(raw))
        return GameFileError(
            path, 1, said(N_("this is not an agility game file: line 1 is {what}"), what=what),
            said(N_("a game file is JSON Lines whose first line is the game header; create one with "
                    "`agility new FILE --seed N`")),
        )
    if binary:
        return GameFileError(path, lineno,
                             said(N_("the line is not text (invalid UTF-8 or NUL bytes): the file is damaged")),
                             said(N_("restore the line from the opponent's copy or from git (`git diff`)")))
    if raw.count(b'{"kind":') > 1:
        return GameFileError(
            path, lineno, said(N_("is not valid JSON: it looks like two lines glued together (an interrupted write "
                                  "followed by another line)")),
            said(N_("split the line before the second `{{\"kind\"` and delete the incomplete first part")),
        )
    text = str(exc)
    near = ""
    if mm := re.search(r"\(byte (\d+)\)", text):
        pos = int(mm.group(1))
        near = snippet(raw[max(0, pos - 15):pos + 15])
    error = said(N_("it is cut short (a bracket or quote is not closed)")) if "truncated" in text else msgspec_said(text)
    return GameFileError(
        path, lineno, said(N_("is not valid JSON: {error} near {text}"), error=error, text=near) if near else
        said(N_("is not valid JSON: {error}"), error=error),
        said_in(_name("verb", "the line was damaged or edited by hand; restore it from the opponent's copy or from "
                      "git (`git diff`)")),
    )


def line_text(record: Any) -> str:
    """``alice: play card=t07 reward=red`` for a decoded line after the header (diagnostics), made safe."""
    return safe(line_summary(record))


#: The kinds of line a message names in words (``bob's join line``): the seed handshake's lines
_LINE_KINDS = {"join": _name("line kind", "join"), "reveal": _name("line kind", "reveal")}


def line_kind(tag: str) -> Said | str:
    """A line's kind (``join``, ``reveal``) as a message names it: English where a program reads
    it, the players' word where a person does (``said.said_in``)."""
    marked = _LINE_KINDS.get(tag)
    return said_in(marked) if marked is not None else tag
