"""The refused lines a person reads (R42; issue 49): ``agility show FILE --refused`` (a list),
``--refusal K`` (one whole), and the line ``show`` adds about the last one.  What is kept, and
where, is ``record.refused``'s; every field of a kept line came from the opponent (the raw line,
the writer it names) or quotes it (the reason), so each is made safe for the terminal here."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..engine.notation import UsageError
from ..record import refused
from ..text import safe, shell_command


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
    text = safe(" ".join(text.split()), None)
    return text if len(text) <= width else text[: width - 1] + "…"


def last_line(game_id: str, path: str) -> list[str]:
    """What ``show`` says of the last refused line (each line within 80 columns), or nothing."""
    found = refused.last(game_id)
    if found is None:
        return []
    count, e = found
    who = _clip(e.writer or "an unnamed writer", 30)
    more = f" ({count} kept)" if count > 1 else ""
    return [f"A line from {who} was refused here{more}:",
            f"  line {e.line}, {when(e.at)}, by {_clip(e.via, 6)}",
            f"  why: {_clip(e.reason, 73)}",
            f"  all of them: {shell_command(['agility', 'show', path, '--refused'])}"]


def listing(game_id: str, path: str) -> list[str]:
    """``show --refused``: one row a kept line, the first refused first (80 columns)."""
    found = refused.kept(game_id)
    name = _clip(Path(path).name, 30)
    if not found:
        return [f"No refused line of {name} is kept here: none was refused on this machine."]
    s = "s" if len(found) > 1 else ""
    out = [f"{len(found)} refused line{s} of {name} kept as evidence (at most {refused.MAX_KEPT} a game):"]
    for k, e in enumerate(found, 1):
        out.append(f"{k:>3}. line {e.line} from {_clip(e.writer or '?', 20)}, {when(e.at)}, by {_clip(e.via, 6)}")
        out.append(f"     {_clip(e.reason, 75)}")
    out.append(f"One whole: {shell_command(['agility', 'show', path, '--refusal', '1'])}")
    return out


def pick(game_id: str, k: int) -> refused.Evidence:
    """The ``k``-th kept line (1 = the first refused); a ``k`` out of range is a usage error."""
    found = refused.kept(game_id)
    if not 1 <= k <= len(found):
        have = f"1 to {len(found)}" if found else "none is kept"
        raise UsageError(f"--refusal {k}: no such refused line ({have}); `agility show FILE --refused` lists them")
    return found[k - 1]


def whole(e: refused.Evidence, k: int, count: int) -> list[str]:
    """``show --refusal K``: every field of one kept line, the raw line last, made safe."""
    import textwrap

    why = textwrap.wrap(safe(" ".join(e.reason.split()), None), 69) or [""]
    return [f"Refused line {k} of {count}, kept as evidence:",
            f"  line:    {e.line} of the game",
            f"  writer:  {safe(e.writer or '?', 40)} (as the line names it)",
            f"  came by: {safe(e.via, 40)}",
            f"  when:    {when(e.at)}",
            f"  code:    {safe(e.code, 60)}",
            f"  why:     {why[0]}", *(f"           {row}" for row in why[1:]),
            f"  sha256:  {safe(e.sha256, 64)}",
            "  the line as received" + (f" (cut at {refused.MAX_RAW} bytes)" if e.cut else "") + ":",
            safe(e.raw, None)]
