"""Lines of styled text laid out in terminal cells the way rich lays them out: cell widths, word
wrapping, cutting short with ``…``, cells set in columns that shrink.  Imports no rich module.

A line is a list of ``(text, style)`` segments (:data:`Line`); the text board (``render.py``) is
made of them.  Widths are terminal cells: :func:`cell_len` is ``len`` for ASCII, and otherwise
counts East Asian wide characters as 2 and combining marks as 0; ``▶ ✓ · …`` are one cell, as in
rich.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

#: One styled run of text: ``(text, style)``, the style a rich style string or ``""``.
Segment = tuple[str, str]
#: One output line: segments left to right, no newline.
Line = list[Segment]


# --------------------------------------------------------------------------------------------
# Cells and lines

_CHAR_CELLS: dict[str, int] = {"▶": 1, "✓": 1, "·": 1, "…": 1}  # the board's MARK and DONE, its dot, "…"


def _char_cells(ch: str) -> int:
    cells = _CHAR_CELLS.get(ch)
    if cells is None:
        import unicodedata

        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            cells = 0
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            cells = 2
        else:
            cells = 1
        _CHAR_CELLS[ch] = cells
    return cells


def cell_len(text: str) -> int:
    """Terminal cells taken by ``text``."""
    if text.isascii():
        return len(text)
    return sum(map(_char_cells, text))


def line_len(line: Line) -> int:
    """Terminal cells taken by a line."""
    return sum(cell_len(text) for text, _ in line)


def text_of(line: Line) -> str:
    """The plain text of a line (or of any run of segments)."""
    return "".join(text for text, _ in line)


def _padded(line: Line, width: int) -> Line:
    """``line`` followed by blanks up to ``width`` cells."""
    missing = width - line_len(line)
    return line + [(" " * missing, "")] if missing > 0 else list(line)


def _indented(lines: Iterable[Line], cells: int = 2) -> list[Line]:
    lead = (" " * cells, "")
    return [[lead, *line] for line in lines]


def _rstrip(line: Line) -> Line:
    """The line without trailing blanks (nothing trailing in piped or mailed output)."""
    end = len(line)
    while end and not line[end - 1][0].rstrip():
        end -= 1
    if end == 0:
        return []
    text, style = line[end - 1]
    stripped = text.rstrip()
    if len(stripped) == len(text) and end == len(line):
        return line
    return [*line[: end - 1], (stripped, style)]


def _slice(line: Line, start: int, stop: int) -> Line:
    """Characters ``start:stop`` of the line's text, styles kept."""
    out: Line = []
    offset = 0
    for text, style in line:
        end = offset + len(text)
        if end > start and offset < stop:
            out.append((text[max(start - offset, 0) : stop - offset], style))
        offset = end
        if offset >= stop:
            break
    return out


_WORD = re.compile(r"\s*\S+\s*")


def _chop(word: str, width: int) -> list[str]:
    """``word`` cut into pieces of at most ``width`` cells."""
    pieces, piece, used = [], "", 0
    for ch in word:
        cells = _char_cells(ch) if not ch.isascii() else 1
        if piece and used + cells > width:
            pieces.append(piece)
            piece, used = "", 0
        piece += ch
        used += cells
    pieces.append(piece)
    return pieces


def _breaks(text: str, width: int, fold: bool) -> list[int]:
    """Where to break ``text`` to fit ``width`` cells: greedy by words (a word keeps its trailing
    blanks); a word wider than a line is folded or, without ``fold``, gets a line of its own.
    The same choices as rich's ``divide_line``."""
    breaks: list[int] = []
    used = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group()
        word_cells = cell_len(word.rstrip())
        if used + word_cells <= width:
            used += cell_len(word)
        elif word_cells > width:
            pieces = _chop(word, width) if fold else [word]
            for piece in pieces[:-1]:
                if start:
                    breaks.append(start)
                start += len(piece)
            if start:
                breaks.append(start)
            used = cell_len(pieces[-1])
        elif used and start:
            breaks.append(start)
            used = cell_len(word)
    return breaks


def wrap(line: Line, width: int, *, fold: bool = True, indent: int = 0) -> list[Line]:
    """Word-wrap a line to ``width`` cells (continuation lines start at the left margin, or
    ``indent`` cells in).  A word wider than ``width`` is folded onto more lines or, without
    ``fold`` (the rule inside a table column), cut short with ``…``."""
    if indent:  # unless that would fold a word (a path to copy) that fits the whole width
        first = _breaks(text_of(line), width, fold)[:1]
        tail = _slice(line, first[0], sum(len(text) for text, _ in line)) if first else []
        if not first or any(width - indent < cell_len(word) <= width for word in text_of(tail).split()):
            return wrap(line, width, fold=fold)
        rest = wrap(tail, width - indent, fold=fold)
        return [_rstrip(_slice(line, 0, first[0])), *([(" " * indent, ""), *part] for part in rest)]
    breaks = _breaks(text_of(line), width, fold)
    if breaks:
        bounds = [0, *breaks, sum(len(text) for text, _ in line)]
        lines = [_rstrip(_slice(line, a, b)) for a, b in pairwise(bounds)]
    else:
        lines = [line]
    if not fold:
        lines = [_ellipsis(part, width) if line_len(part) > width else part for part in lines]
    return lines


def _ellipsis(line: Line, width: int) -> Line:
    """The first ``width - 1`` cells of the line and ``…``."""
    out: Line = []
    room = width - 1
    for text, style in line:
        cells = cell_len(text)
        if cells > room:
            text, cells = _cut(text, room), room
        out.append((text, style))
        room -= cells
        if room <= 0:
            break
    text, style = out[-1] if out else ("", "")
    return [*out[:-1], (text + "…", style)]


def _cut(text: str, cells: int) -> str:
    """The longest start of ``text`` within ``cells`` cells, blank-padded to exactly ``cells``."""
    used = 0
    for i, ch in enumerate(text):
        width = 1 if ch.isascii() else _char_cells(ch)
        if used + width > cells:
            return text[:i] + " " * (cells - used)
        used += width
    return text + " " * (cells - used)


# --------------------------------------------------------------------------------------------
# Columns


def _ratio_reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """rich's ``ratio_reduce``: take ``total`` off ``values`` in proportion to ``ratios``."""
    ratios = [ratio if top else 0 for ratio, top in zip(ratios, maximums)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining, out = total, []
    for ratio, top, value in zip(ratios, maximums, values):
        if ratio and total_ratio > 0:
            cut = min(top, round(ratio * remaining / total_ratio))
            out.append(value - cut)
            remaining -= cut
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _shrink(widths: list[int], max_width: int) -> list[int]:
    """Column widths cut down to ``max_width`` in total the way a rich table shrinks its wrappable
    columns: the widest first, down to the next widest, then evenly."""
    excess = sum(widths) - max_width
    while excess > 0:
        widest = max(widths)
        second = max((w for w in widths if w != widest), default=0)
        ratios = [1 if w == widest else 0 for w in widths]
        shrunk = _ratio_reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
        if shrunk == widths:  # no progress: cut evenly
            shrunk = _ratio_reduce(excess, [1] * len(widths), widths, widths)
            excess = 0
        widths = shrunk
        excess = excess and sum(widths) - max_width
    return widths


def _columns(rows: list[list[Line]], width: int | None) -> list[Line]:
    """Cells in columns one blank apart, each as wide as its widest cell; wider than ``width`` in
    all, the columns shrink evenly and cut their cells short with ``…`` (a rich grid's last
    resort)."""
    if not rows:
        return []
    widths = [max(line_len(row[k]) for row in rows) + 1 for k in range(len(rows[0]))]
    widths[-1] -= 1  # no blank after the last column
    if width is not None and sum(widths) > width:
        widths = _ratio_reduce(sum(widths) - width, [1] * len(widths), widths, widths)
        return [
            [part for cell, w in zip(row, widths[:-1]) for part in _padded(_crop(cell, w - 1), w)]
            + _crop(row[-1], widths[-1])
            for row in rows
        ]
    return [[part for cell, w in zip(row, widths[:-1]) for part in _padded(cell, w)] + row[-1] for row in rows]


def _crop(line: Line, width: int) -> Line:
    if line_len(line) <= width:
        return line
    return _ellipsis(line, width) if width > 0 else []


def _fit(line: Line, width: int) -> list[Line]:
    """A line of a table cell, wrapped to ``width`` (long words cut short with ``…``) if need be."""
    return wrap(line, width, fold=False) if line_len(line) > width else [line]
