"""The post-game review (``agility analyse``): the search's verdict on every decision, chess-style.

At each decision, from the deciding player's own view (R39: what they could know then), the review
draws ``worlds`` samples of the hidden cards — weighted by what the opponent's recorded plays say of
them (:mod:`players.belief`) — runs the tree search over those worlds to rank the decisions that
were open, and then values the decision played and the search's two most visited on **the same
worlds with the same rollout seeds** (:mod:`players.paired`): the decision's chance is the mean
result after it, and the **loss** is Q(best) − Q(played), the best being the one of highest value.
A world that is lucky for one decision is lucky for the other, so the difference is not the noise
of two samples, and the luck of a later Break or Boost draw is never scored as a blunder.  Within a
turn, the worlds of a decision go on to the next decision of the same seat when nothing hidden or
random happened between (``carried``): the chance after the first and the chance before the second
are read on the same worlds.  Chances go through the calibration map (:mod:`players.calibrate`)
when the package ships one.  Marks are thresholds on the loss:

=============  ==========
inaccuracy     ≥ 5 points
mistake        ≥ 10 points
blunder        ≥ 20 points
=============  ==========

**A mark only beyond the search's own noise.**  The loss has a one-sided 99 % interval from the
paired differences world by world (:func:`paired.near_end`).  A mark is given at once only where
the interval's near end is beyond the mark's threshold; where the loss reaches a threshold but its
near end does not, the review takes a second, longer look at that decision (``LONGER`` times the
simulations and the worlds, on worlds of its own) and marks by that look's near end.  Otherwise the
decision is about equal to the best, as ``agility hint`` says of two decisions it cannot tell apart.

**The review never contradicts the hint.**  Where a mark is in question, the review asks the hint
as the player could have asked it (the strong level's budget, the same view, the same stream as
``agility hint`` at that line): a decision the hint called the best, or about equal to the best, is
marked only when the longer look confirms it, and the verdict then says so (``hint`` and ``looked``).

A decision with a single legal option (a forced step, R41: the tool may record it) has no loss and
is not counted among a player's decisions in the summary.  Mid-game, only the viewer's own past decisions
are reviewed.  Each decision's worlds and search have their own random stream (the seed and the
line), the worlds are carried only within a turn, and each turn's decisions are one task of
:func:`batch.run_batch` (``jobs`` processes here, or a Dask ``cluster``): a review is reproducible
for one budget and seed, the same wherever it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, Literal

import msgspec

from ..engine import rules
from ..engine.components import decoder_said
from ..i18n import N_, _
from ..said import listing, said
from ..engine.moves import Move, Play
from ..engine.rng import Rng
from ..engine.state import State
from ..players import batch, calibrate, paired, search
from ..players.belief import Tracker
from ..record import gamefile
from ..text import quoted, shell_command
from .narrate import short, told_short

THRESHOLDS: dict[str, float] = {"blunder": 0.20, "mistake": 0.10, "inaccuracy": 0.05}
DEFAULT_SIMULATIONS = 120  # the tree search's, at each decision: more than a bot's in play (80)
DEFAULT_WORLDS = 64  # the common worlds the played and the best decisions are valued on
LONGER = 4  # the longer look at a decision whose mark is in question: this many times the simulations and worlds
HINT_LEVEL = search.DEFAULT_LEVEL  # the level `agility hint` advises at by default


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
    carried: bool = False  # valued on the worlds of the decision before (the same turn, nothing hidden between)
    low: float = 0.0  # the near end of the loss's one-sided 99 % interval (:func:`paired.near_end`)
    looked: int = 0  # the simulations of the longer look the values are from (0: none was taken)
    hint: str | None = None  # what the hint said of the played decision, where a mark was in question: "best", "about equal"


@dataclass
class Review:
    """Every decision reviewed, and a summary per player."""

    simulations: int
    seed: int
    verdicts: list[Verdict] = field(default_factory=list)
    worlds: int = DEFAULT_WORLDS
    #: which file was reviewed (:func:`game_mark`): an analysis file is checked against the game
    #: it is given with (layout 4)
    game: dict[str, Any] | None = None

    def summary(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for v in self.verdicts:
            entry = out.setdefault(v.player, {"decisions": 0, "forced": 0, "marks": {k: 0 for k in THRESHOLDS},
                                              "loss": 0.0})
            if v.forced:  # a step with one legal option (R41: the tool may record it) is no decision
                entry["forced"] += 1
                continue
            entry["decisions"] += 1
            entry["loss"] += v.loss
            if v.mark:
                entry["marks"][v.mark] += 1
        for entry in out.values():
            entry["average_loss"] = round(entry.pop("loss") / max(entry["decisions"], 1), 4)
        return out

    def to_json(self) -> dict[str, Any]:
        doc = {"version": ANALYSIS_VERSION, "simulations": self.simulations, "worlds": self.worlds, "seed": self.seed,
               "thresholds": THRESHOLDS,
               "decisions": [asdict(v) for v in self.verdicts], "summary": self.summary()}
        if self.game is not None:
            doc["game"] = self.game
        return doc

    def to_analysis(self, players: list[str]) -> dict[str, Any]:
        """The shape the HTML replay's win-chance graph reads (``table.replay.graph``)."""
        points = []
        for v in self.verdicts:
            other = players[1] if v.player == players[0] else players[0]
            note = verdict_note(v)
            points.append({"line": v.line, "win": {v.player: v.chance_played, other: round(1 - v.chance_played, 4)},
                           "mark": v.mark, "by": v.player, "note": note})
        return {"players": players, "points": points}


# ----------------------------------------------------------------------------------------------
# The analysis file (``analyse --out``), read back by ``export --html --analysis``: input like any
# other (it may come from anyone), so it is decoded into typed Structs with limits, never as a
# free-form document: every number bounded, every text and list capped, an unknown key refused.

#: The analysis file's layout: 4 (``"game"``: the SHA-256 of the reviewed file's first and last
#: lines and its number of lines, :func:`game_mark`); 3 added each decision's "low", "looked" and
#: "hint", the summary's "forced"; 2 added "worlds" and each decision's "carried".  Files of layouts
#: 1 to 3 (or without "version") still load: their decisions read as not carried, with no longer
#: look and no hint, and are checked against the game by their players and lines only.
ANALYSIS_VERSION = 4
MAX_ANALYSIS_BYTES = 16 << 20
_Chance = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
_Line = Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]
_Text = Annotated[str, msgspec.Meta(max_length=400)]
_Mark = Literal["inaccuracy", "mistake", "blunder"]


class _VerdictIn(msgspec.Struct, forbid_unknown_fields=True):
    line: _Line
    player: _Text
    played: _Text
    best: _Text
    chance: _Chance
    chance_played: _Chance
    loss: Annotated[float, msgspec.Meta(ge=-1.0, le=1.0)]
    mark: _Mark | None
    forced: bool
    carried: bool = False
    low: Annotated[float, msgspec.Meta(ge=-1.0, le=1.0)] = 0.0
    looked: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)] = 0
    hint: Literal["best", "about equal"] | None = None


class _SummaryIn(msgspec.Struct, forbid_unknown_fields=True):
    decisions: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]
    marks: Annotated[dict[_Mark, Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]], msgspec.Meta(max_length=3)]
    average_loss: Annotated[float, msgspec.Meta(ge=-1.0, le=1.0)]
    forced: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)] = 0


_Sha = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class _GameIn(msgspec.Struct, forbid_unknown_fields=True):
    """The file an analysis is of (:func:`game_mark`)."""

    header: _Sha
    lines: Annotated[int, msgspec.Meta(ge=1, le=10_000_000)]
    tip: _Sha


class _ReviewIn(msgspec.Struct, forbid_unknown_fields=True):
    simulations: Annotated[int, msgspec.Meta(ge=1, le=100_000)]
    seed: Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
    decisions: Annotated[list[_VerdictIn], msgspec.Meta(max_length=100_000)]
    version: Annotated[int, msgspec.Meta(ge=1, le=ANALYSIS_VERSION)] = 1
    worlds: Annotated[int, msgspec.Meta(ge=1, le=100_000)] | None = None
    thresholds: Annotated[dict[_Mark, _Chance], msgspec.Meta(max_length=3)] | None = None
    summary: Annotated[dict[_Text, _SummaryIn], msgspec.Meta(max_length=2)] | None = None
    game: _GameIn | None = None


class _PointIn(msgspec.Struct, forbid_unknown_fields=True):
    line: _Line
    win: Annotated[dict[_Text, _Chance], msgspec.Meta(max_length=2)]
    mark: _Mark | None = None
    by: _Text | None = None
    note: _Text | None = None


class _GraphIn(msgspec.Struct, forbid_unknown_fields=True):
    """The graph's own shape (``Review.to_analysis``), which a script may write directly."""

    players: Annotated[list[_Text], msgspec.Meta(min_length=1, max_length=2)]
    points: Annotated[list[_PointIn], msgspec.Meta(max_length=100_000)]
    version: Annotated[int, msgspec.Meta(ge=1, le=ANALYSIS_VERSION)] = 1
    game: _GameIn | None = None


class _Probe(msgspec.Struct):
    decisions: msgspec.Raw = msgspec.Raw(b"")  # present (raw, not decoded) in a review; empty in a graph


class AnalysisFileError(ValueError):
    """An analysis file that is not what ``analyse --out`` writes (exit 2, saying what is wrong)."""


def game_mark(game: gamefile.Game) -> dict[str, Any]:
    """What an analysis file records of the file reviewed: the SHA-256 of its first line (the
    header: which game) and of its last (the tip, which holds every line before it through the
    hash chain), and its number of lines."""
    return {"header": game.hashes[0], "lines": len(game.hashes), "tip": game.hashes[-1]}


def load_analysis(raw: bytes, where: str, players: list[str], game: gamefile.Game | None = None,
                  file: str = "the game file") -> dict[str, Any]:
    """The win-chance graph's shape from an analysis file's bytes: ``analyse --out``'s review, or
    the graph's own ``{"players", "points"}``; :class:`AnalysisFileError` names what is wrong.
    With ``game`` (read from ``file``) the analysis must be of that game (:func:`_check_against`)."""
    try:
        if len(raw) > MAX_ANALYSIS_BYTES:
            raise AnalysisFileError(said(N_("{file} is larger than {n} MiB: not an analysis file"), file=where,
                                         n=MAX_ANALYSIS_BYTES >> 20))
        doc: _ReviewIn | _GraphIn
        if msgspec.json.decode(raw, type=_Probe).decisions:
            doc = msgspec.json.decode(raw, type=_ReviewIn)
            verdicts = [Verdict(**msgspec.structs.asdict(v)) for v in doc.decisions]
            shape = Review(doc.simulations, doc.seed, verdicts).to_analysis(players)  # layout 1 to 4
        else:
            doc = msgspec.json.decode(raw, type=_GraphIn)
            shape = msgspec.to_builtins(doc)
            shape.pop("game", None)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise AnalysisFileError(said(N_("{file} is not an analysis file as `{command}` writes it: {why}"), file=where,
                                     command="agility analyse --out", why=decoder_said(str(exc)))) from None
    except RecursionError:
        raise AnalysisFileError(said(N_("{file} is nested too deeply: not an analysis file"), file=where)) from None
    if game is not None:
        _check_against(doc, game, where, file)
    return shape


def _check_against(doc: _ReviewIn | _GraphIn, game: gamefile.Game, where: str, file: str) -> None:
    """An analysis file read with ``game`` is of that game, or :class:`AnalysisFileError` (exit 2):
    the file it records (layout 4: the same first line, and the same line at its last — the game
    may have gone on since), and in any layout its players (the game's own) and the line of each
    decision (one of the game, decided by the player it names)."""
    again = said(N_("analyse it again: `{command}`"), command=shell_command(['agility', 'analyse', file, '--out', where]))
    mark, hashes, deciders = doc.game, game.hashes, game.deciders
    if mark is not None:
        if mark.header != hashes[0]:
            raise AnalysisFileError(said(N_("{analysis} is the analysis of another game (its first line is not "
                                            "{file}'s): {again}"), analysis=where, file=file, again=again))
        if mark.lines > len(hashes) or hashes[mark.lines - 1] != mark.tip:
            raise AnalysisFileError(said(
                N_("{analysis} is the analysis of another copy of this game: {file} has only {n} lines, not {lines} "
                   "(rewritten or undone since?): {again}") if mark.lines > len(hashes) else
                N_("{analysis} is the analysis of another copy of this game: {file} has another line {lines} "
                   "(rewritten or undone since?): {again}"),
                analysis=where, file=file, n=len(hashes), lines=mark.lines, again=again))
    own = list(game.header.players)
    if isinstance(doc, _GraphIn):
        named = [*doc.players, *(p for point in doc.points for p in point.win),
                 *(point.by for point in doc.points if point.by is not None)]
        lines = [(point.line, point.by) for point in doc.points]
    else:
        named = [v.player for v in doc.decisions]
        lines = [(v.line, v.player) for v in doc.decisions]
    stranger = next((name for name in named if name not in own), None)
    if stranger is not None:
        raise AnalysisFileError(said(N_("{analysis} names {name}, who is not a player of {file} ({players}): it is "
                                        "not an analysis of this game"), analysis=where, name=quoted(stranger, 40),
                                     file=file, players=listing(map(quoted, own), N_(" and "))))
    last = len(hashes) if mark is None else mark.lines  # an analysis reviews no line past the file it is of
    for line, by in lines:
        if not 2 <= line <= last:
            raise AnalysisFileError(said(N_("{analysis} reviews line {line}, which {file} does not have (its lines "
                                            "are 1 to {last}): it is not an analysis of this game"), analysis=where,
                                         line=line, file=file, last=last))
        if by is not None and deciders[line - 1] != by:
            raise AnalysisFileError(said(N_("{analysis} says line {line} was decided by {name}; in {file} it was "
                                            "{other}'s: it is not an analysis of this game"), analysis=where, line=line,
                                         name=quoted(by, 40), file=file, other=quoted(deciders[line - 1], 40)))


def percent(p: float) -> str:
    """A chance as the review writes it everywhere (the terminal, the page's panel): ``85 %``."""
    return _("{n} %").format(n=f"{100 * p:.0f}")  # 85 %; in Chinese 85%


def verdict_note(v: Verdict) -> str:
    """A decision's verdict in words, the same in the terminal review and on the HTML page:
    the played decision and, when another was better, the best, each with its chance; an unmarked
    loss is about equal to the best (within the search's noise), and a mark the hint would not
    have given says that a longer look found it."""
    played = _("{move} ({chance})").format(move=told_short(v.played), chance=percent(v.chance_played))
    if v.best == v.played or v.chance - v.chance_played < 0.005:
        return played
    said = {"played": played, "best": told_short(v.best), "chance": percent(v.chance)}
    if v.mark is None and mark_of(v.loss) is not None:
        return _("{played}; best {best} ({chance}): about equal, within the search's noise").format(**said)
    note = _("{played}; best {best} ({chance})").format(**said)
    if v.mark is not None and v.hint is not None:
        sims = search.LEVELS[HINT_LEVEL].sims
        if v.hint == "about equal":
            return _("{note} (the hint at {sims} simulations could not tell them apart; a longer look could)").format(
                note=note, sims=sims)
        return _("{note} (the hint at {sims} simulations named it the best; a longer look found better)").format(
            note=note, sims=sims)
    return note


def mark_of(loss: float) -> str | None:
    """The mark a loss earns (the largest threshold it reaches)."""
    return next((mark for mark, limit in THRESHOLDS.items() if loss >= limit), None)


def _same_play(a: Move, b: Move) -> bool:
    """``a`` and ``b`` are one decision: equal, or the same play with its reward named now in one
    and left for later in the other (R12, version 2: the search ranks the play once)."""
    if a == b:
        return True
    return (isinstance(a, Play) and isinstance(b, Play) and (a.player, a.card, a.flex) == (b.player, b.card, b.flex)
            and (a.reward is None or b.reward is None))


class _Judge:
    """One pass over a file's decisions: what each seat has seen so far (:mod:`belief`) and the
    worlds of the decision just judged, carried to the next one of the same seat and turn when
    nothing hidden or random happened between (:func:`paired.carry`)."""

    def __init__(self, sims: int, worlds: int, seed: int, mapping: tuple[float, float] | None = None,
                 strict: bool = True) -> None:
        self.sims, self.worlds, self.seed = sims, worlds, seed
        self.strict = strict  # False: the rule before issue 53, a mark by the loss alone (the benchmark's baseline)
        self.mapping = calibrate.shipped() if mapping is None else mapping  # the calibration map
        self.seen = Tracker()
        self.last: tuple[int, State, Move, paired.Worlds] | None = None  # line, before, move, worlds
        self.judged: paired.Judged | None = None  # the paired values of the last verdict (for the benchmark)
        self.game_seed: int | None = None  # the game's seed, the hint's stream (:meth:`start`)
        self.sealed = False

    def start(self, start: gamefile.Start) -> None:
        """Take in the file's header: the seed the hint's stream is named by, and whether the game
        is sealed (the hint then reads no history, as ``agility hint`` does)."""
        self.game_seed = start.header.seed
        self.sealed = start.header.sealed is not msgspec.UNSET

    def step(self, step: gamefile.Step, judged: bool) -> Verdict | None:
        """Take in the decision of ``step``; its verdict when ``judged``."""
        assert step.before is not None and step.move is not None
        before, played = step.before, step.move
        out = self._judge(step) if judged else None
        if not judged:
            self.last = None
        self.seen.add(before, played)
        return out

    def _judge(self, step: gamefile.Step) -> Verdict:
        line = step.line
        assert step.before is not None and step.move is not None
        before, played = step.before, step.move
        seat = before.to_act
        assert seat is not None
        rng = Rng.for_purpose(self.seed, f"review:{line}")
        worlds = None
        if self.last is not None and self.last[0] == line - 1 and self.last[1].turn == before.turn:
            worlds = paired.carry(self.last[3], self.last[2], before)
        carried = worlds is not None
        if worlds is None:
            worlds = paired.draw(before, seat, self.seen.seen(seat), rng, self.worlds)
        found = self.judged = paired.judge(before, played, worlds, self.sims, rng)
        self.last = (line, before, played, worlds)
        forced = len(rules.legal_moves(before)) == 1
        chance, chance_played, loss, low = self._mapped(found, forced)
        mark, looked, hint = mark_of(low if self.strict else loss), 0, None
        if self.strict and mark_of(loss) is not None:  # a mark is in question: is it beyond the noise, and did the hint agree?
            hint = self._hint(line, before, played)
            if mark != mark_of(loss) or hint is not None:  # R39: the longer look from the same view, its own worlds
                long_rng = Rng.for_purpose(self.seed, f"review-longer:{line}")
                long_worlds = paired.draw(before, seat, self.seen.seen(seat), long_rng, LONGER * self.worlds)
                found = paired.judge(before, played, long_worlds, LONGER * self.sims, long_rng)
                chance, chance_played, loss, low = self._mapped(found, forced)
                mark, looked = mark_of(low), LONGER * self.sims
        return Verdict(line, played.player, short(played), short(found.best), round(chance, 4),
                       round(chance_played, 4), round(loss, 4), mark, forced, carried,
                       round(low, 4), looked, hint)

    def _mapped(self, found: paired.Judged, forced: bool) -> tuple[float, float, float, float]:
        """The chances of the best and the played decision through the calibration map, the loss,
        and its interval's near end (the map is monotone: the raw near end, mapped from the best)."""
        chance = calibrate.calibrated(found.chance, self.mapping)
        chance_played = calibrate.calibrated(found.chance_played, self.mapping)
        if forced:
            return chance, chance_played, 0.0, 0.0
        low = chance - calibrate.calibrated(min(1.0, max(0.0, found.chance - found.low)), self.mapping)
        return chance, chance_played, max(0.0, chance - chance_played), max(-1.0, min(1.0, low))

    def _hint(self, line: int, before: State, played: Move) -> str | None:
        """What ``agility hint`` at its default level said, or would have said, of ``played``
        before ``line`` (the same view, what the seat had seen, the same stream): "best", "about
        equal" (to the best), or ``None`` (neither, or the file's seed is not known)."""
        if self.game_seed is None:
            return None
        seat = before.to_act
        assert seat is not None
        seen = () if self.sealed else self.seen.seen(seat)  # as the hint reads it (R39, R42)
        rng = Rng.for_purpose(self.game_seed, f"hint:{line - 1}")  # the file had line - 1 lines then
        found = search.analyse(before, seat, rng, search.LEVELS[HINT_LEVEL], seen)
        if _same_play(found.best.move, played):
            return "best"
        if found.close and found.runner_up is not None and _same_play(found.runner_up.move, played):
            return "about equal"
        return None


def _verdict(data: bytes, path: str, line: int, sims: int, seed: int, held: dict[str, bytes] | None = None,
             worlds: int | None = None) -> Verdict:
    """One decision's verdict (the file replayed up to it, nothing carried from the one before);
    ``held``: a finished sealed game's published seal secrets, so every decider's cards are open (R42)."""
    judge = _Judge(sims, DEFAULT_WORLDS if worlds is None else worlds, seed)
    for item in gamefile.verify(data, path, upto=line, keep_before=True, held=held):
        if isinstance(item, gamefile.Start):
            judge.start(item)
        elif item.move is not None:
            verdict = judge.step(item, item.line == line)
            if verdict is not None:
                return verdict
    raise ValueError(f"line {line} is no decision of {path}")


def _turn(args: tuple[bytes, str, list[int], int, int, dict[str, bytes] | None, int]) -> list[Verdict]:
    """The verdicts on the decisions on ``lines`` (one turn's): the file verified once up to the last
    (a batch task: any process)."""
    data, path, lines, sims, seed, held, worlds = args
    wanted = set(lines)
    judge = _Judge(sims, worlds, seed)
    out = []
    for item in gamefile.verify(data, path, upto=max(lines), keep_before=True, held=held):
        if isinstance(item, gamefile.Start):
            judge.start(item)
        elif item.move is not None:
            verdict = judge.step(item, item.line in wanted)
            if verdict is not None:
                out.append(verdict)
    return out


def decision_turns(data: bytes, path: str, only: str | None = None) -> list[list[int]]:
    """The lines of the decisions to review (:func:`decision_lines`), grouped by the turn they
    were made in: the unit of work of a parallel review."""
    turns: list[list[int]] = []
    keys: list[int | None] = []
    turn = None  # the turn of the state before the line
    for item in gamefile.verify(data, path):
        if isinstance(item, gamefile.Start):
            turn = item.state.turn
            continue
        if item.move is not None and (only is None or item.move.player == only):
            if keys and keys[-1] == turn:
                turns[-1].append(item.line)
            else:
                turns.append([item.line])
                keys.append(turn)
        turn = item.after.turn
    return turns


def decision_lines(data: bytes, path: str, only: str | None = None) -> list[int]:
    """The lines of the decisions to review (only ``only``'s, when given)."""
    return [item.line for item in gamefile.verify(data, path)
            if not isinstance(item, gamefile.Start) and item.move is not None
            and (only is None or item.move.player == only)]


def review(data: bytes, path: str, *, sims: int = DEFAULT_SIMULATIONS, seed: int = 0, only: str | None = None,
           jobs: int = 1, progress: Callable[[int, int], None] | None = None,
           held: dict[str, bytes] | None = None, cluster: str | None = None,
           worlds: int = DEFAULT_WORLDS) -> Review:
    """The verdict on every decision of the file (only ``only``'s, mid-game), in order; ``held``:
    a finished sealed game's published seal secrets (R42); ``jobs`` or ``cluster``: where the
    turns are searched (:class:`batch.Where`), the same review wherever: the worlds are carried
    only within a turn, and a turn is one task."""
    where = batch.Where(jobs=jobs, cluster=cluster)
    batch.check_where(where)
    out = Review(sims, seed, worlds=worlds)
    if cluster is None and jobs <= 1:  # one reading of the file, each decision judged as it comes
        lines = decision_lines(data, path, only)
        wanted = set(lines)
        judge = _Judge(sims, worlds, seed)
        for item in gamefile.verify(data, path, keep_before=True, held=held):
            if isinstance(item, gamefile.Start):
                judge.start(item)
            elif item.move is not None:
                verdict = judge.step(item, item.line in wanted)
                if verdict is not None:
                    out.verdicts.append(verdict)
                    if progress:
                        progress(len(out.verdicts), len(lines))
        return out
    turns = decision_turns(data, path, only)
    total = sum(len(t) for t in turns)
    tasks = [(i, (data, path, t, sims, seed, held, worlds)) for i, t in enumerate(turns)]
    for _, verdicts in batch.run_batch(_turn, tasks, where):
        out.verdicts += verdicts
        if progress:
            progress(len(out.verdicts), total)
    out.verdicts.sort(key=lambda v: v.line)
    return out
