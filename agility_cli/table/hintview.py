"""The strong bot's advice (R39: from the seat's own view only): ``agility hint`` and ``hint``
inside ``agility play`` — the search's best decisions, their chances and how sure it is."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from ..engine import notation, rules
from ..i18n import N_, _, english
from .layout import cell_len
from .prose import wrap_cells
from ..engine.rng import Rng
from ..engine.state import State
from ..record.gamefile import Game
from ..text import safe, safe_message, shell_command
from . import choices
from .choices import Row

if TYPE_CHECKING:
    from ..players import search


def _analyse(game: Game, seat: int, level: str, seconds: float | None) -> search.Analysis:
    from ..players import bots, search  # the search only for a hint: play's start-up without it

    budget = search.LEVELS[level] if seconds is None else search.Budget(seconds=seconds)
    seen = () if game.is_sealed else bots.seen_in_file(game).seen(seat)  # R39: the seat's own view
    return search.analyse(game.state, seat, Rng.for_purpose(game.seed, f"hint:{game.next_n}"), budget, seen)


def hint_result(game: Game, seat: int, level: str, seconds: float | None) -> dict[str, Any]:
    """The strong bot's suggestion for ``seat`` (who must act), from that seat's view only (R39):
    ``agility hint``.  Reproducible unless ``seconds``.  ``ranked`` is ordered as the search ranks:
    by how often it tried each decision (``visits``), not by the estimated ``win_chance``."""
    s = game.state
    analysis = _analyse(game, seat, level, seconds)

    def item(st: search.MoveStat) -> dict[str, Any]:
        words = notation.argv(s, st.move)
        return {
            "command": shell_command(["agility", "move", game.path, *words]),
            "argv": words,
            "move": msgspec.to_builtins(st.move),
            "text": text[st.move],  # JSON: English in every language
            "win_chance": round(st.win_rate, 4),
            "visits": st.visits,
        }

    with english():
        text = {st.move: choices.describe(s, st.move) for st in analysis.moves}
    ranked = [item(st) for st in analysis.moves]
    return {
        "player": s.players[seat].name,
        "level": level if seconds is None else None,
        "simulations": analysis.simulations,
        "seconds": analysis.seconds,
        "best": ranked[0],
        "runner_up": ranked[1] if len(ranked) > 1 else None,
        "about_equal": analysis.close,  # the best two within the search's noise (search.about_equal)
        "ranked": ranked,
    }


RANKING = N_("best = the one the search tried most; fewer tries make a less sure chance")


def _close(first: int, second: int, sims: int) -> str:
    """The line of a hint whose best two are about equal (``search.about_equal``)."""
    return _("about equal: tried in {first} and {second} of {sims} simulations, within the search's "
             "noise; either is as good as the search can tell").format(first=first, second=second, sims=sims)


def _labels(close: bool) -> tuple[str, str]:
    """The words before the two decisions a hint names: a best and a runner-up, or, when the search
    cannot tell them apart, two of equal rank."""
    return (_("either:"), _("or:")) if close else (_("best:"), _("runner-up:"))


def _hint_head(player: str, sims: int, seconds: float) -> str:
    how = _("the only legal decision") if sims == 0 else _("{sims} simulations, {seconds} s").format(
        sims=sims, seconds=f"{seconds:.1f}")
    return _("hint for {name} ({how}, from {name}'s view only):").format(name=player, how=how)


def _chance(win_rate: float, visits: int, sims: int) -> str:
    if sims == 0:
        return _("the only choice")
    return _("win chance {percent}% (tried in {visits} of {sims} simulations)").format(
        percent=f"{100 * win_rate:.0f}", visits=visits, sims=sims)


def print_hint(result: dict[str, Any], file: Path, state: State | None = None) -> None:
    """``agility hint``: the best two decisions as commands to copy, what each does said from ``state``."""
    said = {tuple(notation.argv(state, m)): choices.describe(state, m) for m in rules.legal_moves(state)} if state is not None else {}
    player = safe(result["player"])
    sims = result["simulations"]
    print(_hint_head(player, sims, result["seconds"]))
    close = bool(result.get("about_equal"))
    entries = [(label, e) for label, e in zip(_labels(close), (result["best"], result["runner_up"])) if e]
    if close:  # more simulations may tell them apart: --seconds thinks longer
        print("\n".join(_prose(_close(result["best"]["visits"], result["runner_up"]["visits"], sims)
                                + _(" (--seconds 5 thinks longer)"), 78)))
    for label, entry in entries:
        print(f"  {_pad(label)}{entry['command']}")
        print(safe_message(f"  {'':<11}# {said.get(tuple(entry.get('argv', ())), entry['text'])}"))
        print(f"  {'':<11}# {_chance(entry['win_chance'], entry['visits'], sims)}")
    if not close and len(entries) == 2 and entries[1][1]["win_chance"] > entries[0][1]["win_chance"]:
        print(f"  ({_(RANKING)})")


def print_play_hint(game: Game, rows: list[Row], width: int = 80) -> None:
    """``hint`` inside ``agility play``: what to type for the best decision and the runner-up (the
    row's number and its options, as the menu numbers them), what each does, and its chance."""
    print("\n".join(play_hint_lines(game, rows, width)))


def play_hint_lines(game: Game, rows: list[Row], width: int = 80) -> list[str]:
    """The lines of :func:`print_play_hint`, each within ``width`` and made safe."""
    s = game.state
    assert s.to_act is not None
    analysis = _analyse(game, s.to_act, "strong", None)
    sims = analysis.simulations
    out = [_hint_head(safe(s.players[s.to_act].name), sims, analysis.seconds)]
    picks = analysis.moves[:2]
    close = analysis.close
    if close:
        out += _prose(_close(picks[0].visits, picks[1].visits, sims), width - 2)
    typed = [" ".join(choices.typed_words(s, rows, st.move)) for st in picks]
    pad = max(len(t) for t in typed)
    for label, st, words in zip(_labels(close), picks, typed):
        out.append(f"  {_pad(label)}" + _("type {words}").format(words=f"{words:<{pad}}") + f"  {choices.brief(s, st.move)}")
        out.append(f"  {'':<11}{_chance(st.win_rate, st.visits, sims)}")
    if not close and len(picks) == 2 and picks[1].win_rate > picks[0].win_rate:
        out.append(f"  ({_(RANKING)})")
    return [safe_message(line if cell_len(line) <= width else _cut(line, width - 1) + "…") for line in out]


def _prose(text: str, width: int) -> list[str]:
    """A hint's sentence two columns in, going on four in, within ``width`` (terminal cells when it
    holds wide characters; else as :mod:`textwrap` always wrapped it)."""
    if cell_len(text) != len(text):
        return wrap_cells("  " + text, width, 4)
    return textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="    ")


def _pad(label: str, cells: int = 11) -> str:
    """A hint's label (``best:``) padded to ``cells`` terminal cells."""
    return label + " " * max(cells - cell_len(label), 0)


def _cut(line: str, cells: int) -> str:
    """The first ``cells`` terminal cells of ``line`` (a CJK character is two)."""
    out, used = [], 0
    for ch in line:
        used += cell_len(ch)
        if used > cells:
            break
        out.append(ch)
    return "".join(out)
