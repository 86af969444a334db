"""A line of a replay in words: the short label of its decision (:func:`move_label`) and the
sentences telling what changed between the states around it (:func:`narrate_line`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...i18n import _, name as game_name, ngettext, pgettext
from ..narrate import told_short
from ..picture import clean, dog_name, tile_label

_META = {"kind", "n", "prev", "player", "digest", "sig"}
_HIDDEN = "?"


def _face(card: Any) -> str:
    return _("a card face down") if card in (None, _HIDDEN) else clean(card, 16)


def move_label(move: Mapping[str, Any] | None) -> str:
    """A short label of a decision: ``play t07 red flex+1``, ``adopt golden-retriever 3B``,
    ``advance 2B spare blue``, ``distract 1A 2 red`` (obstacles numbered from 1); ``start`` for
    the header.  In the player's words (``打出 t07 红色 弹性+1`` in zh: ``narrate.told_short``)."""
    return told_short(_move_label(move))


def _move_label(move: Mapping[str, Any] | None) -> str:
    if not move:
        return _("start")
    kind = str(move.get("kind", "?"))
    if kind == "keys":  # R42/R44: a line of a sealed game's keys, no decision
        if move.get("abort"):
            return _("abort: the sealed deck failed to open")
        return _("seal secret for the audit") if move.get("audit") else _("keys of the sealed deck")
    if kind == "play":
        text = f"play {_face(move.get('card'))}"
        if move.get("reward"):
            text += f" {clean(move['reward'], 10)}"
        flex = move.get("flex")
        if isinstance(flex, int) and not isinstance(flex, bool) and flex:
            text += f" flex{flex:+d}"
        return text
    if kind in ("discard", "put_back", "take"):
        return f"{kind.replace('_', '-')} {_face(move.get('card'))}"
    if kind == "advance":
        return f"advance {clean(move.get('course', '?'), 8)}" + (f" spare {clean(move['spare'], 10)}" if move.get("spare") else "")
    if kind == "adopt":
        return f"adopt {clean(move.get('dog', '?'), 32)} {clean(move.get('course', '?'), 8)}"
    if kind == "distract":
        ob = move.get("obstacle")
        number = ob + 1 if isinstance(ob, int) and not isinstance(ob, bool) else "?"
        return f"distract {clean(move.get('course', '?'), 8)} {number} {clean(move.get('color', '?'), 10)}"
    if kind == "exchange":
        return f"exchange {clean(move.get('from', '?'), 10)} \u2192 {clean(move.get('to', '?'), 10)}"
    values = [clean(v, 32) for k, v in move.items() if k not in _META and v is not None and not isinstance(v, (dict, list))]
    return " ".join([kind.replace("_", "-"), *values])


def _players(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    players = state.get("players")
    return [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []


def _courses(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    courses = state.get("courses")
    return [c for c in courses if isinstance(c, dict)] if isinstance(courses, list) else []


_COLOURS = ("red", "green", "black", "yellow", "blue")


def _cubes_words(pairs: Iterable[tuple[str, int]]) -> str:
    return _(", ").join(f"{n} {game_name('colour', c)}" for c, n in pairs)


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _num(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def narrate_line(before: Mapping[str, Any] | None, move: Mapping[str, Any] | None, after: Mapping[str, Any],
                 dog_names: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Sentences telling a line, from its decision and the states around it: what was decided,
    then what changed (marker, cubes, tokens, hand size, adoptions, dogs advancing, +1 and Rush
    markers, Slip tiles, the winner).  Only what the two states show is said."""
    names = dog_names or {}
    if before is None or not move:
        players = [clean(p.get("name", "?"), 40) for p in _players(after)]
        first = clean(after.get("active", "?"), 40)
        vs = _(" vs ").join(players) if players else _("the players")
        board = after.get("board")
        tiles = _(", ").join(f"{i} {tile_label(str(t))}" for i, t in enumerate(board)) if isinstance(board, list) else ""
        out = [_("The game begins: {players}; {first} starts.").format(players=vs, first=first)]
        if tiles:
            out.append(_("Action board: {tiles}.").format(tiles=tiles))
        return tuple(out)
    player = clean(move.get("player", "?"), 40)
    if move.get("kind") == "keys":  # R42/R44: no decision; said as the terminal's story says it
        if move.get("abort"):
            said = _("{name}'s tool aborts the game: a position does not open to a card; {name}'s seal secret is published.")
        elif move.get("audit"):
            said = _("{name}'s tool publishes {name}'s seal secret for the audit.")
        else:
            said = _("{name}'s tool sends keys of the sealed deck, without asking {name} anything.")
        out = [said.format(name=player)]
    else:
        out = [_("{name}: {decision}.").format(name=player, decision=move_label(move))]
    m0, m1 = before.get("marker"), after.get("marker")
    spaces = after.get("board")
    if m0 != m1 and isinstance(m1, int) and isinstance(spaces, list) and 0 <= m1 < len(spaces):
        out.append(pgettext("verb", "The marker moves from {start} to {end} ({tile}).").format(start=m0, end=m1, tile=tile_label(str(spaces[m1]))))
    by_name = {str(p.get("name")): p for p in _players(before)}
    for p in _players(after):
        name = str(p.get("name"))
        q = by_name.get(name)
        if q is None:
            continue
        c0, c1 = _map(q.get("cubes")), _map(p.get("cubes"))
        gains = [(c, _num(c1.get(c)) - _num(c0.get(c))) for c in _COLOURS]
        parts = []
        if any(d > 0 for _c, d in gains):
            parts.append(_("gains {cubes}").format(cubes=_cubes_words((c, d) for c, d in gains if d > 0)))
        if any(d < 0 for _c, d in gains):
            parts.append(_("pays {cubes}").format(cubes=_cubes_words((c, -d) for c, d in gains if d < 0)))
        for token in ("flex", "exchange"):
            d = _num(p.get(token)) - _num(q.get(token))
            if d:
                word = game_name("tile", "Flex" if token == "flex" else "Exchange")
                said = (ngettext("gains {n} {token} token", "gains {n} {token} tokens", abs(d)) if d > 0 else
                        ngettext("spends {n} {token} token", "spends {n} {token} tokens", abs(d)))
                parts.append(said.format(n=abs(d), token=word))
        if _num(p.get("hand_size")) != _num(q.get("hand_size")):
            parts.append(_("hand size {before} \u2192 {after}").format(before=_num(q.get('hand_size')), after=_num(p.get('hand_size'))))
        if parts:
            out.append(_("{name} {changes}.").format(name=clean(name, 40), changes=_("; ").join(parts)))
    old = {str(c.get("id")): c for c in _courses(before)}
    for c in _courses(after):
        cid = str(c.get("id"))
        o = old.get(cid)
        if o is None:
            continue
        dog = c.get("dog")
        obs0, obs1 = _seq(o.get("obstacles")), _seq(c.get("obstacles"))
        length = len(obs1)
        if dog is not None and o.get("dog") is None:
            out.append(_("{name} adopts {dog} onto course {course}.").format(
                name=clean(c.get('owner', '?'), 40), dog=clean(dog_name(str(dog), names), 40), course=clean(cid, 8)))
        p0, p1 = _num(o.get("position")), _num(c.get("position"))
        if dog is not None and p1 > p0:
            who = clean(dog_name(str(dog), names), 40)
            if p1 >= length:
                out.append(_("{dog} finishes course {course}.").format(dog=who, course=clean(cid, 8)))
            else:
                out.append(_("{dog} advances on {course}: {cleared}/{total} cleared.").format(
                    dog=who, course=clean(cid, 8), cleared=p1, total=length))
        if len(obs1) > len(obs0):
            out.append(_("An open ground tile is slipped into course {course}.").format(course=clean(cid, 8)))
        elif len(obs1) == len(obs0):
            for k, (a, b) in enumerate(zip(obs0, obs1)):
                if not isinstance(a, dict) or not isinstance(b, dict):
                    continue
                pa, pb = _map(a.get("plus")), _map(b.get("plus"))
                added = [(col, _num(pb.get(col)) - _num(pa.get(col))) for col in _COLOURS]
                if any(d > 0 for _c, d in added):
                    what = _cubes_words((col, d) for col, d in added if d > 0)
                    out.append(_("A +1 marker ({cubes}) goes on obstacle {n} of course {course}.").format(
                        cubes=what, n=k + 1, course=clean(cid, 8)))
                if b.get("rush") and not a.get("rush"):
                    out.append(_("A Rush marker goes on obstacle {n} of course {course}.").format(n=k + 1, course=clean(cid, 8)))
    if after.get("winner") is not None and before.get("winner") is None:
        out.append(_("{name} wins the game.").format(name=clean(after['winner'], 40)))
    verdict = after.get("verdict")
    if isinstance(verdict, Mapping) and verdict.get("kind") == "forfeit" and not isinstance(before.get("verdict"), Mapping):
        out.append(_("{name} forfeits the game: {reason}.").format(name=clean(verdict.get('player'), 40), reason=clean(verdict.get('reason'), 300)))
    elif isinstance(verdict, Mapping) and verdict.get("kind") == "pending" and not isinstance(before.get("verdict"), Mapping):
        # R42: the audit still waits for a player's keys (never "audited" while it does)
        out.append(_("The win stands once the audit passes: {reason}.").format(reason=clean(verdict.get('reason'), 300)))
    return tuple(out)
