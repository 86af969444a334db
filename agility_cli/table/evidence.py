"""The refused lines a person reads (R42; issue 49): ``agility show FILE --refused`` (a list),
``--refusal K`` (one whole), and the line ``show`` adds about the last one.  What is kept, and
where, is ``record.refused``'s; every field of a kept line came from the opponent (the raw line,
the writer it names) or quotes it (the reason), so each is made safe for the terminal here."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..engine.notation import UsageError
from ..i18n import _, ngettext, pgettext
from ..record import refused
from ..said import recall
from ..text import safe, shell_command
from .layout import cell_len
from .prose import wrap_prose


def when(at: float) -> str:
    """``2026-12-06 02:30 UTC``: when a line was refused, in one time zone for both players."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def as_json(e: refused.Evidence, k: int, *, whole: bool) -> dict[str, Any]:
    """One kept line as ``show --refused --json`` lists it (``whole``: with the raw line)."""
    out: dict[str, Any] = {"k": k, "line": e.line, "writer": e.writer, "reason": e.reason, "code": e.code,
                           "via": e.via, "at": e.at, "sha256": e.sha256}
    if whole:
        out["raw"] = e.raw
        out["cut"] = e.cut
    return out


def summary(game_id: str) -> dict[str, Any] | None:
    """``show --json``'s ``"refused"``: how many lines are kept and the last one, or None."""
    found = refused.last(game_id)
    if found is None:
        return None
    count, e = found
    return {"count": count, "last": as_json(e, count, whole=False)}


def _clip(text: str, width: int) -> str:
    """``text`` on one line within ``width`` terminal cells (a CJK character takes two), made safe."""
    text = safe(" ".join(text.split()), None)
    if cell_len(text) <= width:
        return text
    while cell_len(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _via(e: refused.Evidence) -> str:
    """How the line came (``mail``, ``git``): the transport's word in the language in use."""
    via = _clip(e.via, 6)
    return {"mail": pgettext("came by", "mail"), "git": pgettext("came by", "git")}.get(via, via)


def _why(e: refused.Evidence) -> str:
    """Why a line was refused, in the language in use (kept in English, read back: said.recall)."""
    return recall(" ".join(e.reason.split()))


def last_line(game_id: str, path: str) -> list[str]:
    """What ``show`` says of the last refused line (each line within 80 columns), or nothing."""
    found = refused.last(game_id)
    if found is None:
        return []
    count, e = found
    who = _clip(e.writer or _("an unnamed writer"), 30)
    head = (_("A line from {writer} was refused here ({n} kept):") if count > 1
            else _("A line from {writer} was refused here:")).format(writer=who, n=count)
    why = _("why: {why}").format(why="")
    return [head,
            "  " + _("line {line}, {when}, by {via}").format(line=e.line, when=when(e.at), via=_via(e)),
            "  " + why + _clip(_why(e), 78 - cell_len(why)),
            "  " + _("all of them: {command}").format(command=shell_command(['agility', 'show', path, '--refused']))]


def listing(game_id: str, path: str) -> list[str]:
    """``show --refused``: one row a kept line, the first refused first (80 columns)."""
    found = refused.kept(game_id)
    name = _clip(Path(path).name, 30)
    if not found:
        return [_("No refused line of {file} is kept here: none was refused on this machine.").format(file=name)]
    out = [ngettext("{n} refused line of {file} kept as evidence (at most {most} a game):",
                    "{n} refused lines of {file} kept as evidence (at most {most} a game):",
                    len(found)).format(n=len(found), file=name, most=refused.MAX_KEPT)]
    for k, e in enumerate(found, 1):
        out.append(f"{k:>3}. " + _("line {line} from {writer}, {when}, by {via}").format(
            line=e.line, writer=_clip(e.writer or '?', 20), when=when(e.at), via=_via(e)))
        out.append(f"     {_clip(_why(e), 75)}")
    out.append(_("One whole: {command}").format(command=shell_command(['agility', 'show', path, '--refusal', '1'])))
    return out


def pick(game_id: str, k: int) -> refused.Evidence:
    """The ``k``-th kept line (1 = the first refused); a ``k`` out of range is a usage error."""
    found = refused.kept(game_id)
    if not 1 <= k <= len(found):
        have = _("1 to {n}").format(n=len(found)) if found else _("none is kept")
        raise UsageError(_("--refusal {k}: no such refused line ({have}); `{command}` lists them").format(
            k=k, have=have, command="agility show FILE --refused"))
    return found[k - 1]


def whole(e: refused.Evidence, k: int, count: int) -> list[str]:
    """``show --refusal K``: every field of one kept line, the raw line last, made safe."""
    why = wrap_prose(safe(_why(e), None), 69, 0) or [""]
    fields = [(_("line:"), _("{line} of the game").format(line=e.line)),
              (_("writer:"), _("{writer} (as the line names it)").format(writer=safe(e.writer or '?', 40))),
              (_("came by:"), _via(e) if e.via in ("mail", "git") else safe(e.via, 40)),
              (_("when:"), when(e.at)),
              (_("code:"), safe(e.code, 60)),
              (_("why:"), why[0])]
    wide = max(cell_len(label) for label, _value in fields) + 1
    rows = [f"  {label}{' ' * (wide - cell_len(label))}{value}" for label, value in fields]
    rows += [" " * (2 + wide) + row for row in why[1:]]
    return [_("Refused line {k} of {count}, kept as evidence:").format(k=k, count=count),
            *rows,
            f"  sha256:{' ' * max(1, wide - 7)}{safe(e.sha256, 64)}",
            "  " + (_("the line as received (cut at {n} bytes):").format(n=refused.MAX_RAW) if e.cut
                    else _("the line as received:")),
            safe(e.raw, None)]
