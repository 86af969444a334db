"""Click's and Typer's own words, in the language in use: ``--help``'s frame and the usage errors.

Typer (0.28) carries its own copy of Click, whose words are plain English strings; Typer's own
(``Options``, ``Arguments``, ``Commands``, ``[default: …]``, ``[required]``) go through the standard
library's ``gettext``, which :func:`install` points at our catalog.  So:

* the usage line's ``Usage:`` and ``-h, --help``'s line are given by :class:`.application.Command`
  (and ``Group``) in the language in use;
* a help text with wide (CJK) characters is wrapped in terminal cells by :class:`CellFormatter`
  (Click counts characters, and a CJK character takes two cells): a paragraph may be written on
  one line and breaks where the guide's text breaks (between two CJK characters, never inside an
  English word, never before a closing mark); a paragraph after a ``\\b`` line stays as written;
* a usage error, as Click words it, is translated sentence by sentence (:func:`error_text`), the
  user's words in it (an option, a value) kept as they were given.

Every word here is a message of the catalog (marked ``N_`` for the extraction).
"""

from __future__ import annotations

import re
from typing import Any

from typer._click.core import Context as _ClickContext
from typer._click.formatting import HelpFormatter, wrap_text
from typer._click.utils import make_default_short_help

from .. import i18n
from ..i18n import N_, _

#: Typer's own words (typer/core.py marks them with gettext's ``_``) and the help of its completion
#: options, which it writes in English: the catalog translates them.
TYPER_WORDS = (
    N_("Arguments"), N_("Options"), N_("Commands"), N_("default: {default}"), N_("required"),
    N_("env var: {var}"), N_("(dynamic)"), N_("Aborted!"), N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)

# Click's usage errors, as its copy in Typer words them: (pattern of the English, message).  The
# named groups fill the message in; a group named ``message`` is itself translated (nested errors).
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.S), message) for pattern, message in (
        (r"Error: (?P<message>.*)", N_("Error: {message}")),
        (r"Try '(?P<command>.*)' for help\.", N_("Try '{command}' for help.")),
        (r"No such option: (?P<name>\S*) \(Possible options: (?P<options>.*)\)",
         N_("No such option: {name} (possible options: {options})")),
        (r"No such option: (?P<name>.*)", N_("No such option: {name}")),
        (r"Missing argument (?P<name>.*)\.", N_("Missing argument {name}.")),
        (r"Missing option (?P<name>.*)\.", N_("Missing option {name}.")),
        (r"Missing parameter (?P<name>.*)\.", N_("Missing parameter {name}.")),
        (r"Invalid value for (?P<name>'.*?'(?: / '.*?')*): (?P<message>.*)", N_("Invalid value for {name}: {message}")),
        (r"Invalid value: (?P<message>.*)", N_("Invalid value: {message}")),
        (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra argument(s) ({args})")),
        (r"Option (?P<name>'.*') requires an argument\.", N_("Option {name} requires an argument.")),
        (r"Option (?P<name>'.*') requires (?P<n>\d+) arguments\.", N_("Option {name} requires {n} arguments.")),
        (r"Option (?P<name>'.*') does not take a value\.", N_("Option {name} does not take a value.")),
        (r"Argument (?P<name>'.*') takes (?P<n>\d+) values\.", N_("Argument {name} takes {n} values.")),
        (r"(?P<value>.*) is not a valid int(?:eger)?\.", N_("{value} is not a valid integer.")),
        (r"(?P<value>.*) is not a valid float\.", N_("{value} is not a valid number.")),
        (r"(?P<value>.*) is not a valid boolean\. Recognized values: (?P<states>.*)",
         N_("{value} is not a valid boolean; recognised values: {states}")),
        (r"(?P<value>.*) is not in the range (?P<range>.*)\.", N_("{value} is not in the range {range}.")),
        (r"(?P<value>.*) is not one of (?P<choices>.*)\.", N_("{value} is not one of {choices}.")),
        (r"(?:File|Path) (?P<name>'.*') does not exist\.", N_("File {name} does not exist.")),
        (r"Directory (?P<name>'.*') does not exist\.", N_("Directory {name} does not exist.")),
        (r"(?:File|Path) (?P<name>'.*') is a directory\.", N_("{name} is a directory, not a file.")),
        (r"(?:Directory|Path) (?P<name>'.*') is a file\.", N_("{name} is a file, not a directory.")),
        (r"(?:File|Directory|Path) (?P<name>'.*') is not readable\.", N_("{name} cannot be read.")),
        (r"(?:File|Directory|Path) (?P<name>'.*') is not writable\.", N_("{name} cannot be written.")),
        (r"Choose from:", N_("Choose from:")),
    )
)


def install() -> None:
    """Typer's own words through our catalog (its core module calls gettext's ``_``)."""
    import typer.core

    typer.core._ = i18n.gettext  # type: ignore[attr-defined]


def error_text(text: str) -> str:
    """A usage error as Click printed it (``Usage: …``, ``Try '…' for help.``, ``Error: …``), in
    the language in use: each line that Click words is translated, the rest kept."""
    if i18n.language() == i18n.ENGLISH:
        return text
    return "\n".join(_sentence(line) for line in text.split("\n"))


def _sentence(line: str) -> str:
    for pattern, message in _ERRORS:
        found = pattern.fullmatch(line)
        if found:
            values = found.groupdict()
            if "message" in values:
                values["message"] = _sentence(values["message"])
            return _(message).format(**values)
    return line


# ---------------------------------------------------------------------------------------------
# Help in terminal cells


def _has_wide(text: str) -> bool:
    from ..table.guide import _HAS_WIDE

    return not text.isascii() and bool(_HAS_WIDE.search(text))


def _cells(text: str) -> int:
    from ..table.layout import cell_len

    return cell_len(text)


def _joined(lines: list[str]) -> str:
    """A paragraph's lines as one: no blank between two wide characters (Chinese puts none, also
    where two messages meet: ``_(AS_HELP) + " " + _("Unsigned: …")``)."""
    from ..table.guide import _WIDE

    return re.sub(rf"(?<=[{_WIDE}])\s+(?=[{_WIDE}])", "", " ".join(line.strip() for line in lines))


def wrap_help(text: str, width: int, first: str = "", rest: str = "") -> str:
    """Click's ``wrap_text(…, preserve_paragraphs=True)``, in terminal cells where a paragraph
    holds wide characters, and with a line kept as written (after ``\\b``) folded when it is wider
    than the terminal (``width`` + 2: a longer language's example).  An English text that needs
    neither is Click's, as it always was."""
    paragraphs: list[tuple[int, bool, list[str]]] = []
    for block in re.split(r"\n\s*\n", text.expandtabs()):
        lines = [line for line in block.split("\n") if line.strip() or line == "\b"]
        if not lines:
            continue
        indent = len(lines[0]) - len(lines[0].lstrip())
        raw = lines[0].strip() == "\b"
        paragraphs.append((indent, raw, lines[1:] if raw else lines))
    too_wide = any(_cells(first + line) > width + 2 for _indent, raw, lines in paragraphs if raw for line in lines)
    if not too_wide and not _has_wide(text):
        return wrap_text(text, width, initial_indent=first, subsequent_indent=rest, preserve_paragraphs=True)
    from ..table.guide import wrap_cells

    out = []
    for indent, raw, lines in paragraphs:
        extra = " " * indent
        if raw:
            body = [line[indent:] if not line[:indent].strip() else line.lstrip() for line in lines]
            out.append("\n".join(_folded((first if i == 0 else rest) + extra + line, width + 2)
                                 for i, line in enumerate(body)))
        elif _has_wide("".join(lines)):
            out.append(wrap_cells(_joined(lines), width, first + extra, rest + extra))
        else:
            out.append(wrap_text(" ".join(line.strip() for line in lines), width, first + extra, rest + extra))
    return "\n\n".join(out)


_EXTRA = re.compile(r"\s+\[([^\[\]]*)\]$")


def _folded(line: str, width: int) -> str:
    """A line kept as written unless it is wider than ``width`` cells: then it goes on in lines
    indented two more than its own."""
    if _cells(line) <= width:
        return line
    from ..table.guide import wrap_cells

    indent = " " * (len(line) - len(line.lstrip()))
    return wrap_cells(line.strip(), width, indent, indent + "  ")


class CellFormatter(HelpFormatter):
    """Click's help formatter, measuring in terminal cells where a text holds wide characters."""

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        self.write(wrap_help(text, self.width, indent, indent))
        self.write("\n")

    def write_heading(self, heading: str) -> None:
        """``Options:``, or ``选项：`` (a wide colon after wide characters)."""
        self.write(f"{'':>{self.current_indent}}{heading}{'：' if _has_wide(heading) else ':'}\n")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        prefix = usage_prefix() if prefix is None else prefix
        if not _has_wide(prefix):
            super().write_usage(prog, args, prefix)
            return
        lead = f"{' ' * self.current_indent}{prefix}{prog} "
        indent = " " * _cells(lead)
        if self.width - self.current_indent >= _cells(lead) + 20:
            self.write(wrap_text(args, self.width - self.current_indent, initial_indent=lead, subsequent_indent=indent)
                       if args else lead.rstrip())
        else:
            self.write(lead + "\n" + wrap_text(args, self.width, initial_indent=" " * 4, subsequent_indent=" " * 4))
        self.write("\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = list(rows)
        if not any(_has_wide(second) for _first, second in rows):
            super().write_dl(rows, col_max, col_spacing)
            return
        # Typer's "  [默认：30]" at the end of a Chinese help: in the text's own brackets, which never
        # part from what they hold at a line's end
        rows = [(first, _EXTRA.sub(r"（\1）", second) if _has_wide(second) else second) for first, second in rows]
        first_col = min(max(_cells(first) for first, _second in rows), col_max) + col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if _cells(first) <= first_col - col_spacing:
                self.write(" " * (first_col - _cells(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = wrap_help(second, max(self.width - first_col - 2, 10)).splitlines() or [""]
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n" if line else "\n")


def usage_prefix() -> str:
    """``Usage: `` in the language in use (no blank after a wide colon: ``用法：``)."""
    word = _("Usage:")
    return word if word.endswith("：") else word + " "


class Context(_ClickContext):
    """A command's context, its help written by :class:`CellFormatter`."""

    formatter_class = CellFormatter


def short_help(text: str, limit: int) -> str:
    """A command's line in ``agility --help``'s list, from its help as shown: Click's summary of an
    English text; for one with wide characters, the first sentence (to ``。``), cut to ``limit``
    cells with ``…``."""
    if not _has_wide(text):
        return make_default_short_help(text, limit)
    first = text.split("\n\n")[0]
    lines = [line for line in first.split("\n") if line.strip() != "\b"]
    sentence = _joined(lines)
    end = sentence.find("。")
    if end != -1:
        sentence = sentence[: end + 1]
    if _cells(sentence) <= limit:
        return sentence
    cut = ""
    for ch in sentence:
        if _cells(cut + ch) > limit - 1:
            break
        cut += ch
    return cut.rstrip() + "…"


install()
