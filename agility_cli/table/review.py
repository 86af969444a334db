"""The post-game review (``agility analyse``): the search's verdict on every decision, chess-style.

At each decision the search is run once, from the deciding player's own view (R39: what they could
know then), and ranks the decisions that were open.  The decision's **loss** is Q(best) − Q(played):
the search's estimate of the decider's chance to win after its own best choice, less its estimate
after the decision played — both from that one search, so the luck of a later Break or Boost draw
is never scored as a blunder.  Marks are thresholds on the loss:

=============  ==========
inaccuracy     ≥ 5 points
mistake        ≥ 10 points
blunder        ≥ 20 points
=============  ==========

A decision with a single legal option has no loss.  Mid-game, only the viewer's own past decisions
are reviewed.  Each decision's search has its own random stream (the seed and the line), so a
review is reproducible for one budget and seed, and decisions can be searched in parallel
(``jobs``) with the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine import rules
from ..engine.moves import Play
from ..engine.rng import Rng
from ..players import search
from ..record import gamefile
from .narrate import short

THRESHOLDS: dict[str, float] = {"blunder": 0.20, "mistake": 0.10, "inaccuracy": 0.05}
DEFAULT_SIMULATIONS = 60


@dataclass
class Verdict:
    """The search's verdict on the decision on ``line``."""

    line: int
    player: str
    played: str
    best: str
    chance: float  # Q(best): the decider's chance to win after the best decision, by the search
    chance_played: float  # Q(played)
    loss: float
    mark: str | None
    forced: bool


@dataclass
class Review:
    """Every decision reviewed, and a summary per player."""

    simulations: int
    seed: int
    verdicts: list[Verdict] = field(default_factory=list)

    def summary(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for v in self.verdicts:
            entry = out.setdefault(v.player, {"decisions": 0, "marks": {k: 0 for k in THRESHOLDS}, "loss": 0.0})
            entry["decisions"] += 1
            entry["loss"] += v.loss
            if v.mark:
                entry["marks"][v.mark] += 1
        for entry in out.values():
            entry["average_loss"] = round(entry.pop("loss") / max(entry["decisions"], 1), 4)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"simulations": self.simulations, "seed": self.seed, "thresholds": THRESHOLDS,
                "decisions": [asdict(v) for v in self.verdicts], "summary": self.summary()}

    def to_analysis(self, players: list[str]) -> dict[str, Any]:
        """The shape the HTML replay's win-chance graph reads (``table.replay.graph``)."""
        points = []
        for v in self.verdicts:
            other = players[1] if v.player == players[0] else players[0]
            note = f"{v.played}; best {v.best}" if v.mark else v.played
            points.append({"line": v.line, "win": {v.player: v.chance_played, other: round(1 - v.chance_played, 4)},
                           "mark": v.mark, "by": v.player, "note": note})
        return {"players": players, "points": points}


def mark_of(loss: float) -> str | None:
    """The mark a loss earns (the largest threshold it reaches)."""
    return next((mark for mark, limit in THRESHOLDS.items() if loss >= limit), None)


def _verdict(data: bytes, path: str, line: int, sims: int, seed: int, held: dict[str, bytes] | None = None) -> Verdict:
    """One decision's verdict (the file replayed up to it: what a worker process does); ``held``:
    a finished sealed game's published seal secrets, so that every decider's cards are open (R42)."""
    step = None
    for item in gamefile.verify(data, path, upto=line, keep_before=True, held=held):
        if not isinstance(item, gamefile.Start) and item.line == line:
            step = item
    assert step is not None
    return _judge(step, sims, seed)


def _judge(step: gamefile.Step, sims: int, seed: int) -> Verdict:
    """The verdict on the decision of ``step`` (its state before, as its decider saw it)."""
    line = step.line
    assert step.before is not None and step.move is not None
    before, played = step.before, step.move
    seat = before.to_act
    assert seat is not None
    legal = rules.legal_moves(before)
    found = search.analyse(before, seat, Rng.for_purpose(seed, f"review:{line}"), search.Budget(sims=sims))
    best = found.best
    mine = next((st for st in found.moves if st.move == played), None)
    if mine is None:  # a mini-turn's deck top (R31): the search knew it only by its reward and shift
        mine = next((st for st in found.moves if isinstance(st.move, Play) and isinstance(played, Play)
                     and (st.move.reward, st.move.flex) == (played.reward, played.flex)), best)
    top = best  # the search's own choice: the most visited, the least noisy estimate
    loss = 0.0 if len(legal) == 1 else max(0.0, top.win_rate - mine.win_rate)
    return Verdict(line, played.player, short(played), short(top.move), round(top.win_rate, 4),
                   round(mine.win_rate, 4), round(loss, 4), mark_of(loss), len(legal) == 1)


def _batch(args: tuple[bytes, str, list[int], int, int, dict[str, bytes] | None]) -> list[Verdict]:
    data, path, lines, sims, seed, held = args
    return [_verdict(data, path, line, sims, seed, held) for line in lines]


def decision_lines(data: bytes, path: str, only: str | None = None) -> list[int]:
    """The lines of the decisions to review (only ``only``'s, when given)."""
    return [item.line for item in gamefile.verify(data, path)
            if not isinstance(item, gamefile.Start) and item.move is not None
            and (only is None or item.move.player == only)]


def review(data: bytes, path: str, *, sims: int = DEFAULT_SIMULATIONS, seed: int = 0, only: str | None = None,
           jobs: int = 1, progress: Callable[[int, int], None] | None = None,
           held: dict[str, bytes] | None = None) -> Review:
    """The verdict on every decision of the file (only ``only``'s, mid-game), in order; ``held``:
    a finished sealed game's published seal secrets (R42)."""
    lines = decision_lines(data, path, only)
    out = Review(sims, seed)
    if jobs <= 1 or len(lines) < 8:  # one reading of the file, each decision judged as it comes
        wanted = set(lines)
        for item in gamefile.verify(data, path, keep_before=True, held=held):
            if not isinstance(item, gamefile.Start) and item.line in wanted:
                out.verdicts.append(_judge(item, sims, seed))
                if progress:
                    progress(len(out.verdicts), len(lines))
        return out
    chunks = [lines[i::jobs * 4] for i in range(jobs * 4)]
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for chunk, verdicts in zip(chunks, pool.map(_batch, [(data, path, c, sims, seed, held) for c in chunks])):
            out.verdicts += verdicts
            done += len(chunk)
            if progress:
                progress(done, len(lines))
    out.verdicts.sort(key=lambda v: v.line)
    return out
