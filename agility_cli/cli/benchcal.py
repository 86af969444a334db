"""The review's calibration (``python -m agility_cli.cli.bench calibration``): are its win chances
believable?  A long benchmark, never a test.

Positions are drawn from self-play games between the search levels (``LEVEL_PAIRS``, seats
alternated, the boards of ``selfplay --board mixed``): at most ``PER_GAME`` decisions of each game
with more than one option, chosen with the seed's own stream.  Each is judged as ``agility
analyse`` judges it (:mod:`table.review`, paired values on common worlds) and, as the baseline,
as the review of version 2.x did (one search of 60 simulations, uniform worlds, the chance of its
most visited decision).  The outcome is whether the decider won the game.

Printed: the expected calibration error in 10 equal bins (ECE, in points), the Brier score, and
the steadiness: over the chosen decisions whose next decision is the same seat's in the same turn
with nothing hidden or random between (the review carried its worlds), the share where the chance
after the first (as its search saw it) and the chance before the second agree within 5 points.
The 95 % intervals count games, not positions (a game's positions share one result): a bootstrap
over games with the seed's stream.  ``--svg`` draws the reliability diagram; ``--data`` keeps the
figures, from which ``tests/regen_pictures.py`` draws the picture again, and the positions' rows:
each keeps the raw parts of its judgement (the paired values of the best and the played decision,
the tree's value, both decisions valued again on the same worlds at the rollout horizons of
:data:`HORIZONS`, and the next decision's parts where the pair is steady), so that another
estimator of the chance can be measured from the rows (``--again``) without playing the games again.

The review's chances go through the shipped calibration map (:mod:`players.calibrate`).
``--fit-games N`` fits a map on the first N games and measures the rest; ``--folds K`` cross-fits
(each position mapped by the map fitted on the other folds' games, every position measured), and
``--write-map`` keeps the map fitted on every game as the package's.  Without either, the shipped
map is measured: on another ``--seed`` than it was fitted on, that is a held-out measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import UNSET, UnsetType

LEVEL_PAIRS = (("strong3", "strong2"), ("strong2", "strong1"), ("strong3", "strong1"), ("strong2", "strong2"))
PER_GAME = 5
BINS = 10
STEADY = 0.05
BASELINE_SIMULATIONS = 60  # the review of version 2.x
BOOTSTRAP = 400
#: Other estimators of the chance before a decision, measured beside the review's own (its rows'
#: keys, and their names in the figures): the best's value chosen on half the worlds and valued on
#: the other half (no winner's curse), and the tree's value of its most visited decision.
ESTIMATORS = (("cross", "review_cross_fitted"), ("tree", "review_tree"))


def selfplay_game(index: int, seed: int) -> tuple[bytes, str] | None:
    """Game ``index`` of the run of ``seed`` between the levels of :data:`LEVEL_PAIRS` (seats
    alternated, mixed boards): its file's bytes and name, or ``None`` when it ended unfinished."""
    from ..engine import rules
    from ..players import selfplay
    from ..record import gamefile

    a, b = LEVEL_PAIRS[index % len(LEVEL_PAIRS)]
    game_seed = selfplay.game_seed(seed, index)
    names = selfplay.seat_names((a, b) if index % 2 == 0 else (b, a))
    header = gamefile.make_header(seed=game_seed, players=names, first=rules.random_first(game_seed, names),
                                  board=selfplay.board_layout(selfplay.board_mode("mixed", index), game_seed),
                                  components=None)
    moves, end, _, _ = selfplay.play_header(header, selfplay._components(None))
    if end.winner is None:
        return None
    data, _ = selfplay.game_bytes(header, moves)
    return data, f"calibration-{index}"


Chance = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Gap = Chance | None | UnsetType


class NextRow(msgspec.Struct, forbid_unknown_fields=True):
    """The next decision's parts in a journal's row (a steady pair)."""

    chance: Chance
    tree: Chance | UnsetType = UNSET
    h0: Chance | UnsetType = UNSET
    h0_played: Chance | UnsetType = UNSET
    h2: Chance | UnsetType = UNSET
    h2_played: Chance | UnsetType = UNSET


class Row(NextRow, forbid_unknown_fields=True, kw_only=True):
    """A judged position as a journal keeps it (the keys :func:`calibration_game` writes)."""

    game: Annotated[int, msgspec.Meta(ge=0, lt=100_000)]
    line: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
    baseline: Chance
    won: Annotated[int, msgspec.Meta(ge=0, le=1)]
    steady_gap: Gap = UNSET
    cross: Chance | UnsetType = UNSET
    steady_gap_cross: Gap = UNSET
    steady_gap_tree: Gap = UNSET
    played: Chance | UnsetType = UNSET
    next: NextRow | None | UnsetType = UNSET


_ROWS = msgspec.json.Decoder(Annotated[list[Row], msgspec.Meta(max_length=PER_GAME)])


def journal_rows(raw: bytes) -> list[dict[str, Any]]:
    """A judged game as the journal keeps it, read as hostile (issue 50): a list of at most
    ``PER_GAME`` rows decoded by a typed decoder (:class:`Row`: every chance from 0 to 1, no other
    key), so a missing key, a wrong type, a chance of 1e308 or deep nesting is a ``ValueError``
    saying what, never a crash further on."""
    try:
        rows = _ROWS.decode(raw)
    except msgspec.ValidationError as exc:
        raise ValueError(str(exc)) from None
    except (msgspec.DecodeError, RecursionError):
        raise ValueError("not JSON, or nested too deep") from None
    out: list[dict[str, Any]] = msgspec.to_builtins(rows)
    return out


def calibration_game(task: tuple[int, int, int, int]) -> list[dict[str, Any]]:
    """Game ``index`` of the run of ``seed``: its chosen positions, judged (a batch task)."""
    from ..engine import rules
    from ..engine.rng import Rng
    from ..players import search, selfplay
    from ..record import gamefile
    from ..table import review

    index, seed, sims, worlds = task
    game = selfplay_game(index, seed)
    if game is None:
        return []
    data, path = game
    end = gamefile.load_bytes(data, path).state
    steps = [item for item in gamefile.verify(data, path, keep_before=True)
             if not isinstance(item, gamefile.Start) and item.move is not None]
    open_lines = [st.line for st in steps if st.before is not None and len(rules.legal_moves(st.before)) > 1]
    chosen = sorted(Rng.for_purpose(seed, f"calibration:{index}").sample(open_lines, min(PER_GAME, len(open_lines))))
    wanted = set(chosen) | {line + 1 for line in chosen}
    judge = review._Judge(sims, worlds, seed, mapping=(1.0, 0.0))  # the raw chances: the map is the bench's
    verdicts = {}  # line: the verdict and its paired values
    extras: dict[int, dict[str, float]] = {}  # line: the other horizons' values (:data:`HORIZONS`)
    for st in steps:
        v = judge.step(st, st.line in wanted)
        if v is not None:
            assert judge.judged is not None and judge.last is not None
            verdicts[v.line] = (v, judge.judged)
            extras[v.line] = horizon_values(judge.last[3], judge.judged.best, judge.last[2])
    out = []
    for st in steps:
        if st.line not in chosen:
            continue
        before = st.before
        assert before is not None and before.to_act is not None
        seat = before.to_act
        base = search.analyse(before, seat, Rng.for_purpose(seed, f"review:{st.line}"),
                              search.Budget(sims=BASELINE_SIMULATIONS))
        v, after = verdicts[st.line]
        nxt, later = verdicts.get(st.line + 1, (None, None))
        steady = nxt is not None and later is not None and nxt.carried

        def gap(first: float, second: float) -> float | None:
            return abs(first - second) if steady else None

        out.append({"game": index, "line": st.line, "chance": v.chance, "baseline": base.best.win_rate,
                    "won": int(end.winner == seat),
                    "steady_gap": gap(v.chance_played, nxt.chance if nxt else 0.0),
                    # the other estimators of the chance before the decision, measured beside it
                    "cross": after.chance_cross, "tree": after.chance_tree,
                    "steady_gap_cross": gap(after.chance_played, later.chance_cross if later else 0.0),
                    "steady_gap_tree": gap(after.chance_played, later.chance_tree if later else 0.0),
                    # raw parts, so that other estimators can be measured again from the rows
                    "played": after.chance_played, **extras[st.line],
                    "next": None if not steady or later is None else {
                        "chance": later.chance, "tree": later.chance_tree, **extras[st.line + 1]}})
    return out


#: The rollout horizons (turns; 0: the evaluation of the position a decision leaves) at which the
#: best and the played decision are valued again on the review's worlds, beside the review's own.
HORIZONS = (0, 2)


def horizon_values(worlds: Any, best: Any, played: Any) -> dict[str, float]:
    """The values of ``best`` and ``played`` on the review's ``worlds`` at each of :data:`HORIZONS`
    (keys ``h0``, ``h0_played``, …), with the worlds' own rollout seeds."""
    from ..players import paired

    out: dict[str, float] = {}
    for h in HORIZONS:
        for key, move in ((f"h{h}", best), (f"h{h}_played", played)):
            found = paired.results(worlds, move, h)
            out[key] = sum(found) / len(found)
    return out


def ece(pairs: list[tuple[float, int]], bins: int = BINS) -> float:
    """Expected calibration error: the bins' |mean chance − share won|, weighted by their sizes."""
    total = 0.0
    for k in range(bins):
        inside = [(p, y) for p, y in pairs if min(int(p * bins), bins - 1) == k]
        if inside:
            total += abs(sum(p for p, _ in inside) - sum(y for _, y in inside))
    return total / max(1, len(pairs))


def brier(pairs: list[tuple[float, int]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / max(1, len(pairs))


def reliability(pairs: list[tuple[float, int]], bins: int = BINS) -> list[dict[str, float]]:
    out = []
    for k in range(bins):
        inside = [(p, y) for p, y in pairs if min(int(p * bins), bins - 1) == k]
        if inside:
            out.append({"bin": k, "n": len(inside), "chance": sum(p for p, _ in inside) / len(inside),
                        "won": sum(y for _, y in inside) / len(inside)})
    return out


def _interval(games: dict[int, list[dict[str, Any]]], measure: Any, seed: int) -> list[float]:
    """The 95 % bootstrap interval of ``measure`` over games drawn with replacement."""
    from ..engine.rng import Rng

    rng = Rng.for_purpose(seed, "calibration:bootstrap")
    keys = sorted(games)
    values = []
    for _ in range(BOOTSTRAP):
        rows = [r for _ in keys for r in games[keys[rng.below(len(keys))]]]
        values.append(measure(rows))
    values.sort()
    return [values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))]]


def summarise(rows: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    games: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        games.setdefault(r["game"], []).append(r)

    def pairs(rs: list[dict[str, Any]], key: str) -> list[tuple[float, int]]:
        return [(r[key], r["won"]) for r in rs]

    def steadiness(rs: list[dict[str, Any]], gap: str = "steady_gap") -> float:
        gaps = [r[gap] for r in rs if r.get(gap) is not None]
        return sum(g <= STEADY for g in gaps) / len(gaps) if gaps else 0.0

    out: dict[str, Any] = {"games": len(games), "positions": len(rows)}
    figures = [("mapped", "review"), ("chance", "review_raw"), ("baseline", "baseline_2x")]
    figures += [(key, name) for key, name in ESTIMATORS if rows and key in rows[0]]
    for key, name in figures:
        out[name] = {
            "ece_points": 100 * ece(pairs(rows, key)),
            "ece_interval": [100 * x for x in _interval(games, lambda rs: ece(pairs(rs, key)), seed)],
            "brier": brier(pairs(rows, key)),
            "brier_interval": _interval(games, lambda rs: brier(pairs(rs, key)), seed),
            "reliability": reliability(pairs(rows, key)),
        }
    shown = "steady_gap_mapped" if rows and all("steady_gap_mapped" in r for r in rows) else "steady_gap"
    out["steadiness"] = {
        "pairs": sum(r[shown] is not None for r in rows),
        "within_5_points": steadiness(rows, shown),
        "interval": _interval(games, lambda rs: steadiness(rs, shown), seed),
        "of": "mapped" if shown == "steady_gap_mapped" else "raw",
    }
    for key, name in ESTIMATORS:
        gap = f"steady_gap_{key}"
        if name in out:
            out[name]["steadiness"] = {"within_5_points": steadiness(rows, gap),
                                       "interval": _interval(games, lambda rs: steadiness(rs, gap), seed)}
    return out


def reliability_svg(result: dict[str, Any]) -> str:
    """The reliability diagram: share won against the chance given, per bin (the review and 2.x)."""
    size, pad = 320, 40
    inner = size - 2 * pad

    def xy(p: float, q: float) -> tuple[float, float]:
        return pad + p * inner, size - pad - q * inner

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 30}" '
             f'viewBox="0 0 {size} {size + 30}" font-family="sans-serif" font-size="11">',
             f'<rect x="{pad}" y="{pad}" width="{inner}" height="{inner}" fill="white" stroke="#888"/>']
    x0, y0 = xy(0, 0)
    x1, y1 = xy(1, 1)
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#bbb" stroke-dasharray="4 3"/>')
    for k in range(0, 11, 2):
        x, y = xy(k / 10, 0)
        parts.append(f'<text x="{x:.1f}" y="{y + 14:.1f}" text-anchor="middle">{10 * k}</text>')
        x, y = xy(0, k / 10)
        parts.append(f'<text x="{x - 6:.1f}" y="{y + 4:.1f}" text-anchor="end">{10 * k}</text>')
    styles = (("review", "#1f6fb4", "the review"), ("baseline_2x", "#d9822b", "2.x review"))
    for key, colour, label in styles:
        bins = result[key]["reliability"]
        points = " ".join("{:.1f},{:.1f}".format(*xy(b["chance"], b["won"])) for b in bins)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for b in bins:
            x, y = xy(b["chance"], b["won"])
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{2 + min(6, b["n"] ** 0.5 / 2):.1f}" fill="{colour}" '
                         f'fill-opacity="0.6"><title>{label}: {b["n"]} positions, chance {100 * b["chance"]:.0f} %, '
                         f'won {100 * b["won"]:.0f} %</title></circle>')
    legend = [f'{label}: ECE {result[key]["ece_points"]:.1f} points, Brier {result[key]["brier"]:.3f}'
              for key, _, label in styles]
    for i, ((_, colour, _), text) in enumerate(zip(styles, legend)):
        parts.append(f'<text x="{pad}" y="{14 + 14 * i}" fill="{colour}">{text}</text>')
    parts.append(f'<text x="{size / 2}" y="{size - 8}" text-anchor="middle">chance given (%) — '
                 f'{result["positions"]} positions, {result["games"]} games</text>')
    parts.append(f'<text x="12" y="{size / 2}" text-anchor="middle" transform="rotate(-90 12 {size / 2})">'
                 f'share won (%)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def run(games: int, seed: int, sims: int, worlds: int, jobs: int, fit_games: int = 0,
        journal: Path | None = None, folds: int = 0) -> dict[str, Any]:
    """Games ``0 … games - 1`` of ``seed``: the first ``fit_games`` fit the calibration map (when
    any; else the shipped map is used), the others are measured.  ``journal``: a file keeping each
    judged game as it comes (:class:`batch.Journal`); the games already in it are not played again,
    so a stopped run goes on, and a longer one extends a shorter."""
    from ..players import batch

    book = None if journal is None else batch.Journal(journal, {
        "bench": "calibration", "seed": seed, "simulations": sims, "worlds": worlds,
        "level_pairs": [list(p) for p in LEVEL_PAIRS], "per_game": PER_GAME,
        "estimators": [key for key, _ in ESTIMATORS]}, decode=journal_rows)
    done: dict[int, list[dict[str, Any]]] = {} if book is None else {
        i: found for i, found in book.load().items() if i < games}
    tasks = [(i, (i, seed, sims, worlds)) for i in range(games) if i not in done]
    try:
        for index, found in batch.run_batch(calibration_game, tasks, batch.Where(jobs=jobs)):
            if book is not None:
                book.record(index, found)
            done[index] = found
            sys.stderr.write(f"\rcalibration: {len(done)} of {games} games, {sum(map(len, done.values()))} positions")
            sys.stderr.flush()
    finally:
        if book is not None:
            book.close()
    sys.stderr.write("\n")
    rows = [dict(r) for i in sorted(done) for r in done[i]]
    result = measure(rows, seed, fit_games, folds)
    result.update({"simulations": sims, "worlds": worlds})
    return {"summary": result, "rows": rows}


def measure(rows: list[dict[str, Any]], seed: int, fit_games: int, folds: int = 0) -> dict[str, Any]:
    """The figures of judged positions ``rows``: the map fitted on games below ``fit_games``
    (when any; else the shipped map), the rest measured.  ``folds`` ≥ 2 (cross-fitting): every
    position is measured, each mapped by the map fitted on the games of the other folds (game
    ``g`` is in fold ``g % folds``), so that no position is judged by a map fitted on its own game;
    the map kept (``--write-map``) is then the one fitted on every game.  The steadiness is read
    on the mapped chances (the review shows them), where the rows keep their raw parts."""
    from ..players import calibrate

    def fitted(rs: list[dict[str, Any]]) -> tuple[float, float]:
        return calibrate.fit([r["chance"] for r in rs], [r["won"] for r in rs])

    rows.sort(key=lambda r: (r["game"], r["line"]))
    if folds >= 2:
        fitting = measured = rows
        mapping = fitted(rows)
        maps = [fitted([r for r in rows if r["game"] % folds != k]) for k in range(folds)]
    else:
        fitting = [r for r in rows if r["game"] < fit_games]
        measured = [r for r in rows if r["game"] >= fit_games]
        mapping = fitted(fitting) if fitting else calibrate.shipped()
        maps = [mapping]
    for r in rows:
        m = maps[r["game"] % len(maps)]  # cross-fitted: the map of the other folds' games
        r["mapped"] = calibrate.calibrated(r["chance"], m)
        if "played" in r and "next" in r:  # the gap of a carried pair, as the review shows it
            nxt = r["next"]
            r["steady_gap_mapped"] = None if nxt is None else abs(
                calibrate.calibrated(r["played"], m) - calibrate.calibrated(nxt["chance"], m))
    result = summarise(measured, seed)
    result.update({"seed": seed, "level_pairs": [list(p) for p in LEVEL_PAIRS],
                   "map": {"a": mapping[0], "b": mapping[1], "fitted_on_games": len({r["game"] for r in fitting}),
                           "fitted_on_positions": len(fitting), "cross_fitted_folds": folds if folds >= 2 else 0}})
    return result


CURVE = ((20, 8), (60, 32), (120, 64), (240, 128))  # (simulations, worlds) of the steadiness curve


def steadiness_curve(path: Path, jobs: int, settings: tuple[tuple[int, int], ...] = CURVE) -> list[dict[str, Any]]:
    """The steadiness of one game's review at each (simulations, worlds), with its CPU seconds:
    over its carried pairs of decisions, the share within 5 points."""
    import time

    from ..table import review

    data = path.read_bytes()
    out = []
    for sims, worlds in settings:
        started = time.process_time()
        vs = review.review(data, str(path), sims=sims, worlds=worlds, jobs=jobs).verdicts
        pairs = [(a, b) for a, b in zip(vs, vs[1:]) if b.carried and b.line == a.line + 1]
        steady = sum(abs(a.chance_played - b.chance) <= STEADY for a, b in pairs)
        out.append({"simulations": sims, "worlds": worlds, "decisions": len(vs), "pairs": len(pairs),
                    "within_5_points": steady / len(pairs) if pairs else 0.0,
                    "cpu_seconds_here": time.process_time() - started})
        print(json.dumps(out[-1]), flush=True)
    return out


def main(argv: list[str]) -> None:
    """``bench calibration``: every error one line on standard error, exit 2 (usage, a path that
    cannot be written) or 3 (a journal or a --data file that is not one agility wrote)."""
    from ..engine.notation import UsageError
    from ..record.lines import GameFileError
    from ..text import safe_message

    try:
        _main(argv)
    except GameFileError as exc:
        sys.stderr.write(f"bench calibration: {safe_message(str(exc))}\n")
        raise SystemExit(3) from None
    except (UsageError, OSError) as exc:
        said = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else str(exc)
        sys.stderr.write(f"bench calibration: {safe_message(said)}\n")
        raise SystemExit(2) from None


def _write(path: Path, text: str) -> None:
    from ..record import storage

    storage.write_new(path, text.encode(), what=f"the output {path}", replace=True)


def _again(path: Path) -> dict[str, Any]:
    """A --data file read back (a regular file, bounded), or :class:`GameFileError`."""
    from ..record import storage
    from ..record.lines import GameFileError

    raw = storage.read_bytes(path, what="calibration data file", limit=1 << 28)
    try:
        old = msgspec.json.decode(raw)
        kept = [{k: v for k, v in r.items() if k not in ("mapped", "steady_gap_mapped")} for r in old["rows"]]
        rows = msgspec.to_builtins(msgspec.convert(kept, list[Row]))  # the journal's checks, row by row
        summary = {k: old["summary"][k] for k in ("seed", "simulations", "worlds")}
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 64 for v in summary.values()):
            raise ValueError("its seed, simulations and worlds are counts")
        return {"rows": rows, "summary": summary}
    except (ValueError, KeyError, TypeError, RecursionError, AttributeError) as exc:
        raise GameFileError(str(path), None, f"is not a --data file of bench calibration ({exc})") from None


def _main(argv: list[str]) -> None:
    from ..record import storage
    from ..table import review

    parser = argparse.ArgumentParser(
        prog="python -m agility_cli.cli.bench calibration",
        description="The review's win chances against how often the positions were won (ECE, Brier, steadiness).",
        epilog="Example: python -m agility_cli.cli.bench calibration --games 400 --seed 2 --jobs 2 --journal cal.jsonl --svg docs/calibration.svg")
    parser.add_argument("--games", type=int, default=400, help="self-play games (default 400: 2,000 positions)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--simulations", type=int, default=review.DEFAULT_SIMULATIONS, help="the review's tree search")
    parser.add_argument("--worlds", type=int, default=review.DEFAULT_WORLDS, help="the review's common worlds")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result is the same)")
    parser.add_argument("--fit-games", type=int, default=0,
                        help="fit the calibration map on the first N games and measure on the rest (default: the shipped map)")
    parser.add_argument("--folds", type=int, default=0, metavar="K",
                        help="cross-fit the map: each position mapped by the map fitted on the other K-1 folds' games")
    parser.add_argument("--write-map", action="store_true",
                        help="store the fitted map as the package's data (players/data/calibration.json)")
    parser.add_argument("--curve", type=Path, metavar="GAME",
                        help="only the steadiness curve of one game's review over (simulations, worlds) settings")
    parser.add_argument("--again", type=Path, help="measure again the positions a --data file kept (no game played)")
    parser.add_argument("--journal", type=Path, metavar="FILE",
                        help="keep each judged game in FILE as it comes; the same command again plays only the rest")
    parser.add_argument("--svg", type=Path, help="write the reliability diagram here")
    parser.add_argument("--data", type=Path, help="keep the figures and positions here (JSON)")
    args = parser.parse_args(argv)
    if not (0 <= args.fit_games < args.games or args.again) or (args.write_map and not (args.fit_games or args.folds)):
        parser.error("--fit-games counts games before the measured ones (fewer than --games); "
                     "--write-map needs it or --folds")
    if args.folds and (args.fit_games or not 2 <= args.folds <= 20):
        parser.error("--folds K counts from 2 to 20, and replaces --fit-games")
    if not (1 <= args.games <= 100_000 and 1 <= args.simulations <= 100_000 and 1 <= args.worlds <= 10_000
            and 1 <= args.jobs <= 64):
        parser.error("--games, --simulations, --worlds and --jobs count from 1")
    for name, option in (("--svg", args.svg), ("--data", args.data), ("--journal", args.journal)):
        if option is not None:
            storage.check_output(option, name)  # before any work: a device, a FIFO, a folder is refused
    if args.curve is not None:
        steadiness_curve(args.curve, args.jobs)
        return
    if args.again is not None:
        old = _again(args.again)
        summary = measure(old["rows"], old["summary"]["seed"], args.fit_games, args.folds)
        summary.update({k: old["summary"][k] for k in ("simulations", "worlds")})
        doc = {"summary": summary, "rows": old["rows"]}
    else:
        doc = run(args.games, args.seed, args.simulations, args.worlds, args.jobs, args.fit_games, args.journal, args.folds)
    if args.write_map:
        from ..players import calibrate

        m = doc["summary"]["map"]
        target = Path(__file__).resolve().parents[1] / "players" / "data" / "calibration.json"
        fitted = {"command": "python -m agility_cli.cli.bench calibration " + " ".join(argv),
                  "games": m["fitted_on_games"], "positions": m["fitted_on_positions"]}
        _write(target, calibrate.describe((m["a"], m["b"]), fitted))
    if args.data is not None:
        _write(args.data, json.dumps(doc, indent=1) + "\n")
    if args.svg is not None:
        _write(args.svg, reliability_svg(doc["summary"]))
    summary = {k: v for k, v in doc["summary"].items()}
    for key in ("review", "review_raw", "baseline_2x", *(name for _, name in ESTIMATORS)):
        if key in summary:
            summary[key] = {k: v for k, v in summary[key].items() if k != "reliability"}
    print(json.dumps(summary, indent=2))
