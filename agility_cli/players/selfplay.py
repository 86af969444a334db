"""Self-play: many bot-vs-bot games in memory, with statistics (``agility selfplay``).

Every game is a pure function of (master seed ``S``, game index ``i``, the strategies, the board
mode), so a run gives the same numbers with any number of worker processes:

* the game's seed is the first output of the PRNG stream ``selfplay:{i}`` of ``S``, cut to 32
  bits (R11: all randomness from the game's own PRNG);
* strategies alternate seats: even games put ``--strategy`` in seat 1, odd games in seat 2, so seat
  advantage can be told apart from strategy strength;
* the start player is drawn as ``agility new --first random`` draws it (the seed's ``first``
  stream), and the board as ``--board random-a|random-b`` does (``mixed`` cycles recommended,
  random-a, random-b by game index);
* decision ``n`` (the ``n`` of its line) of a bot seat is chosen by :func:`bots.choose_for_seat`,
  exactly as solo play does.

So game ``i`` is the very game that ``agility new FILE --seed G --players bot:A bot:B --first
random --board …`` plays out by itself, and ``--out DIR`` writes it as such a file.

The games run through :func:`batch.run_batch` (here, a process pool or a Dask cluster) and come back
in any order.  With ``--out``, each finished game goes first to the run's journal
(``DIR/selfplay-journal.jsonl``, its result and its file's bytes) and the game files are written in
index order from it; a run stopped half-way is gone on with by ``--resume`` (the games in the
journal are not played again), and the journal is removed once every game file is written.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from . import batch, bots
from .belief import Tracker
from .. import i18n
from ..i18n import N_, _, _name
from ..record import gamefile
from ..said import said
from ..engine import rules
from ..engine.components import Components, parse_components, standard_components, tile_name
from ..engine.moves import Adopt, BoostAction, Header, Move, Play
from ..engine.rng import Rng
from ..engine.state import State

BOARD_MODES = ("recommended", "random-a", "random-b", "mixed")
MAX_DECISIONS = 20_000  # a game longer than this counts as unfinished (no endless games)


@dataclass(frozen=True)
class Config:
    """One self-play run."""

    games: int
    strategy: str = "greedy"
    vs: str = "random"
    seed: int = 0
    board: str = "recommended"
    jobs: int = 1
    out: str | None = None
    components: bytes | None = None  # a components file's JSON, embedded in every game
    max_decisions: int = MAX_DECISIONS
    cluster: str | None = None  # a Dask scheduler's address, or local:N (batch.Where)
    resume: bool = False  # go on with the run whose journal is in ``out``

    def where(self) -> batch.Where:
        return batch.Where(jobs=self.jobs, cluster=self.cluster)

    def identity(self) -> dict[str, Any]:
        """What makes the games of a run (the journal's first line): not the number of games."""
        comps = None if self.components is None else hashlib.sha256(self.components).hexdigest()
        return {"seed": self.seed, "strategy": self.strategy, "vs": self.vs, "board": self.board,
                "components": comps, "max_decisions": self.max_decisions}


@dataclass
class GameResult:
    """What one game came to; picklable, so that worker processes can return it."""

    index: int
    seed: int
    board: str  # the board mode actually used
    players: tuple[str, str]
    strategies: tuple[str, str]  # by seat
    start: int  # seat of the start player
    winner: int | None  # seat, or None when unfinished
    turns: int
    decisions: int
    final_turn: bool
    tiebreak_win: bool  # R34: the opponent won in the final turn
    tiles: dict[str, int] = field(default_factory=dict)
    dogs: dict[str, int] = field(default_factory=dict)
    path: str | None = None
    #: by seat: seconds the bot thought on each decision that had more than one legal option
    #: (wall-clock, so left out of comparisons: a game is equal to its replay whatever the timing)
    think: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []), compare=False)
    #: the game file's bytes when the run writes files (made where the game ran, written here)
    file: bytes | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("file", "path")}
        out["file"] = None if self.file is None else self.file.decode()
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "GameResult":
        doc = dict(doc)
        file = doc.pop("file", None)
        doc["players"], doc["strategies"] = tuple(doc["players"]), tuple(doc["strategies"])
        doc["think"] = (list(doc["think"][0]), list(doc["think"][1]))
        return cls(**doc, file=None if file is None else file.encode())


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``master``."""
    return Rng.for_purpose(master, f"selfplay:{index}").next_u64() >> 32


def board_mode(mode: str, index: int) -> str:
    return ("recommended", "random-a", "random-b")[index % 3] if mode == "mixed" else mode


def board_layout(mode: str, seed: int) -> tuple[str, ...]:
    if mode == "recommended":
        return rules.RECOMMENDED_BOARD
    return rules.random_board(seed, mode[-1])


def seat_names(strategies: tuple[str, str]) -> tuple[str, str]:
    """Bot seat names: ``bot:greedy`` / ``bot:random``, or ``bot:greedy`` / ``bot:greedy:2``."""
    a, b = f"bot:{strategies[0]}", f"bot:{strategies[1]}"
    return (a, b) if a != b else (a, b + ":2")


_COMPONENTS: dict[bytes, Components] = {}


def _components(data: bytes | None) -> Components:
    if data is None:
        return standard_components()
    comp = _COMPONENTS.get(data)
    if comp is None:
        comp = _COMPONENTS[data] = parse_components(data, source="components")
    return comp


def play_game(config: Config, index: int) -> GameResult:
    """Play game ``index`` of ``config`` to its end (or ``max_decisions``) in memory."""
    seed = game_seed(config.seed, index)
    mode = board_mode(config.board, index)
    strategies = (config.strategy, config.vs) if index % 2 == 0 else (config.vs, config.strategy)
    names = seat_names(strategies)
    first = rules.random_first(seed, names)
    comps = _components(config.components)
    header = gamefile.make_header(
        seed=seed, players=names, first=first, board=board_layout(mode, seed),
        components=None if config.components is None else comps,
    )
    think: tuple[list[float], list[float]] = ([], [])
    moves, s, tiles, dogs = play_header(header, comps, config.max_decisions, think)
    return GameResult(
        index=index,
        seed=seed,
        board=mode,
        players=names,
        strategies=strategies,
        start=s.start,
        winner=s.winner,
        turns=s.turn,
        decisions=len(moves),
        final_turn=s.final_turn,
        tiebreak_win=s.final_turn and s.winner is not None and s.winner != s.finisher,
        tiles=tiles,
        dogs=dogs,
        think=think,
        file=None if config.out is None else game_bytes(header, moves)[0],
    )


def play_header(
    header: Header,
    comps: Components,
    max_decisions: int = MAX_DECISIONS,
    think: tuple[list[float], list[float]] | None = None,
) -> tuple[list[Move], State, dict[str, int], dict[str, int]]:
    """Play the game ``header`` starts, every seat a bot (``bot:STRATEGY``; other names: greedy).

    Decision ``n`` is chosen as :func:`bots.choose_for_seat` chooses it in solo play, so the moves
    are those ``agility new`` records for the same header.  Returns the moves, the final state, how
    often each tile was resolved and each dog adopted.  ``think``, if given, receives by seat the
    seconds each decision with more than one legal option took (a forced one takes no thought).
    """
    s = rules.setup(header, comps)
    strategies = [bots.strategy_of_seat(name) for name in header.players]
    moves: list[Move] = []
    tiles: dict[str, int] = {}
    dogs: dict[str, int] = {}
    n = 0
    seen = Tracker()  # what each seat saw of the other's decisions (R39): the search reads it
    while s.winner is None and n < max_decisions:
        seat = s.to_act
        assert seat is not None
        n += 1
        assert header.seed is not None  # self-play headers fix the seed
        started = time.perf_counter()
        move = bots.choose(strategies[seat], s, Rng.for_purpose(header.seed, f"bot:{n}"), seen)
        seen.add(s, move)
        if think is not None and len(rules.legal_moves(s)) > 1:
            think[seat].append(time.perf_counter() - started)
        if isinstance(move, Play):  # the tile this card resolves (R12 step 2, R14)
            card = s.cat.cards[move.card]
            tile = s.board[(s.marker + card.number + move.flex) % 10]
            tiles[tile] = tiles.get(tile, 0) + 1
        elif isinstance(move, BoostAction):  # R19 A: the tile at the boost card's number
            assert s.boost_card is not None
            tile = s.board[s.cat.cards[s.boost_card].number % 10]
            tiles[tile] = tiles.get(tile, 0) + 1
        elif isinstance(move, Adopt):
            dogs[move.dog] = dogs.get(move.dog, 0) + 1
        rules.apply_in_place(s, move)
        moves.append(move)
    return moves, s, tiles, dogs


def game_file_name(index: int) -> str:
    return f"game-{index:05d}.jsonl"


def game_bytes(header: Any, moves: list[Move]) -> tuple[bytes, State]:
    """A whole game as the bytes of a real game file, and its end state."""
    raw = gamefile.encode_line(header)
    game = gamefile.load_bytes(raw + b"\n", "self-play")
    lines, state = gamefile.render_lines(game, moves)
    return b"".join(line + b"\n" for line in [raw, *lines]), state


def write_game(path: str | Path, header: Any, moves: list[Move]) -> State:
    """Write a whole game as a real game file (never over an existing one); return its end state."""
    data, state = game_bytes(header, moves)
    _write_new(Path(path), data)
    return state


def _write_new(path: Path, data: bytes) -> None:
    """``data`` as the new file ``path``, whole or not at all, never over an existing file (nor a
    device, a FIFO or a folder: ``storage.write_new``)."""
    gamefile.write_new(path, data, what=f"the game file {path.name}")


def _play_task(task: tuple[Config, int]) -> GameResult:
    return play_game(*task)


JOURNAL = "selfplay-journal.jsonl"


def iter_results(config: Config, skip: Iterable[int] = ()) -> Iterator[GameResult]:
    """Play every game of ``config`` (but ``skip``), yielding results as they finish (any order
    unless in this process)."""
    left = sorted(set(range(config.games)) - set(skip))
    for _, result in batch.run_batch(_play_task, [(i, (config, i)) for i in left], config.where()):
        yield result


def run(config: Config, on_result: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play the run; results in game order wherever the games ran.  With ``out``: journalled, the
    files written in index order, a ``resume`` going on with the journal's run."""
    check(config)
    if config.out is None:
        results = []
        for r in iter_results(config):
            results.append(r)
            if on_result is not None:
                on_result(r)
        return sorted(results, key=lambda r: r.index)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    journal = batch.Journal(out / JOURNAL, config.identity())
    done = {i: GameResult.from_json(doc) for i, doc in journal.load().items() if i < config.games}
    written = [0]

    def write_ready() -> None:  # the files of the finished prefix, in index order
        while written[0] in done:
            r = done[written[0]]
            path = out / game_file_name(r.index)
            if not path.exists():
                assert r.file is not None
                _write_new(path, r.file)
            r.path, r.file = str(path), None
            written[0] += 1

    write_ready()
    for r in list(done.values()):
        if on_result is not None:
            on_result(r)
    try:
        for r in iter_results(config, skip=done):
            journal.record(r.index, r.to_json())
            done[r.index] = r
            write_ready()
            if on_result is not None:
                on_result(r)
    finally:
        journal.close()
    journal.path.unlink()  # every file written: the run is whole
    return [done[i] for i in range(config.games)]


class ConfigError(ValueError):
    """A self-play run that cannot start (unknown strategy, board mode, existing files …)."""


def check(config: Config) -> None:
    for name in (config.strategy, config.vs):
        if name not in bots.STRATEGIES:
            raise ConfigError(said(N_("unknown strategy {name}; strategies are {choices}"), name=repr(name),
                                     choices=", ".join(bots.STRATEGIES)))
    if config.board not in BOARD_MODES:
        raise ConfigError(said(N_("--board must be one of {choices}, not {board}"), choices=", ".join(BOARD_MODES),
                                 board=repr(config.board)))
    if config.games < 1:
        raise ConfigError(said(N_("{option} must be at least 1"), option="--games"))
    if config.jobs < 1:
        raise ConfigError(said(N_("{option} must be at least 1"), option="--jobs"))
    if config.max_decisions < 1:
        raise ConfigError(said(N_("the decision limit must be at least 1")))
    batch.check_where(config.where())  # a UsageError (exit 2) with what to do
    if config.resume and config.out is None:
        raise ConfigError(said(N_("--resume goes on with the run whose journal is in --out DIR: give --out")))
    if config.out is not None:
        out = Path(config.out)
        if out.exists() and not out.is_dir():
            raise ConfigError(said(N_("--out {out} exists and is not a directory"), out=out))
        journal = batch.Journal(out / JOURNAL, config.identity())
        if journal.path.exists() and not config.resume:
            raise ConfigError(said(N_("--out {out} holds a stopped run's journal ({journal}): add --resume to go on with it"),
                                     out=out, journal=JOURNAL))
        if config.resume and not journal.path.exists():
            raise ConfigError(said(N_("--out {out} holds no journal ({journal}): there is no stopped run to resume"),
                                     out=out, journal=JOURNAL))
        kept = journal.load() if config.resume else {}
        clash = [game_file_name(i) for i in range(config.games)
                 if i not in kept and (out / game_file_name(i)).exists()]
        if clash:
            raise ConfigError(said(N_("--out {out} already holds {file}; self-play never overwrites a game (use an empty "
                                      "directory)"), out=out, file=clash[0]))


# --------------------------------------------------------------------------------------------
# Statistics


def _spread(values: Iterable[int]) -> dict[str, float]:
    xs = list(values)
    if not xs:
        return {"mean": 0.0, "stdev": 0.0, "min": 0, "max": 0}
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return {"mean": round(mean, 3), "stdev": round(math.sqrt(var), 3), "min": min(xs), "max": max(xs)}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % for the default z)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(config: Config, results: list[GameResult]) -> dict[str, Any]:
    """The statistics of a run, as plain JSON-able data (``selfplay --json``)."""
    n = len(results)
    finished = [r for r in results if r.winner is not None]
    by_strategy: dict[str, int] = {config.strategy: 0}
    by_strategy.setdefault(config.vs, 0)
    seat_wins = [0, 0]
    start_wins = 0
    strat_seat: dict[str, list[int]] = {}
    for r in finished:
        assert r.winner is not None
        by_strategy[r.strategies[r.winner]] += 1
        seat_wins[r.winner] += 1
        start_wins += r.winner == r.start
        strat_seat.setdefault(r.strategies[r.winner], [0, 0])[r.winner] += 1
    tiles: dict[str, int] = {}
    dogs: dict[str, int] = {}
    think: dict[str, list[float]] = {config.strategy: []}
    think.setdefault(config.vs, [])
    for r in results:
        for seat in (0, 1):
            think[r.strategies[seat]].extend(r.think[seat])
        for k, v in r.tiles.items():
            tiles[k] = tiles.get(k, 0) + v
        for k, v in r.dogs.items():
            dogs[k] = dogs.get(k, 0) + v
    comps = _components(config.components)
    dog_names = {d.id: d.name for d in comps.dogs}
    return {
        "games": n,
        "seed": config.seed,
        "strategy": config.strategy,
        "vs": config.vs,
        "board": config.board,
        "finished": len(finished),
        "unfinished": n - len(finished),
        "wins": by_strategy,
        "win_rate": {k: round(v / n, 4) if n else 0.0 for k, v in by_strategy.items()},
        "win_rate_95": {k: [round(x, 4) for x in wilson(v, n)] for k, v in by_strategy.items()},
        "wins_by_seat": {"seat 1": seat_wins[0], "seat 2": seat_wins[1]},
        "wins_by_strategy_and_seat": {k: {"seat 1": v[0], "seat 2": v[1]} for k, v in sorted(strat_seat.items())},
        "start_player_wins": start_wins,
        "start_player_win_rate": round(start_wins / len(finished), 4) if finished else 0.0,
        "final_turns": sum(r.final_turn for r in results),
        "tiebreak_wins": sum(r.tiebreak_win for r in results),
        "turns": _spread(r.turns for r in results),
        "decisions": _spread(r.decisions for r in results),
        "tiles": dict(sorted(tiles.items(), key=lambda kv: (-kv[1], kv[0]))),
        "dogs": {dog_names.get(k, k): v for k, v in sorted(dogs.items(), key=lambda kv: (-kv[1], kv[0]))},
        # wall-clock, so the one part that differs from run to run (and with --jobs)
        "thinking": {k: _think_stats(v) for k, v in think.items()},
    }


def _think_stats(seconds: list[float]) -> dict[str, float]:
    """Thinking time per real decision (more than one legal option), in milliseconds."""
    if not seconds:
        return {"decisions": 0, "mean_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    xs = sorted(seconds)
    p95 = xs[min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1)]
    return {
        "decisions": len(xs),
        "mean_ms": round(1000 * sum(xs) / len(xs), 3),
        "p95_ms": round(1000 * p95, 3),
        "max_ms": round(1000 * xs[-1], 3),
    }


def render(summary: dict[str, Any]) -> Any:
    """The statistics as rich tables (never printed here)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    n = summary["games"]

    def pct(k: int, of: int) -> str:
        return f"{100 * k / of:.1f}%" if of else "–"

    title = _("{n} games · {a} vs {b} · board {board} · seed {seed}").format(
        n=n, a=summary["strategy"], b=summary["vs"], board=summary["board"], seed=summary["seed"])
    def word(marked: tuple[str, str]) -> str:  # a table's word, in its context (a column, not a count)
        return i18n.pgettext(*marked)

    seat_words = {"seat 1": word(_name("statistics", "seat 1")), "seat 2": word(_name("statistics", "seat 2"))}
    main = Table(title=_("results"), title_justify="left")
    main.add_column(word(_name("statistics", "result")))
    main.add_column(word(_name("statistics", "games")), justify="right")
    main.add_column(word(_name("statistics", "share")), justify="right")
    for name, wins in summary["wins"].items():
        lo, hi = summary["win_rate_95"][name]
        main.add_row(_("{name} wins (95%: {lo}–{hi}%)").format(name=name, lo=f"{100 * lo:.1f}", hi=f"{100 * hi:.1f}"),
                     str(wins), pct(wins, n))
    for seat, wins in summary["wins_by_seat"].items():
        main.add_row(_("{seat} wins").format(seat=seat_words.get(seat, seat)), str(wins), pct(wins, n))
    for name, seats in summary["wins_by_strategy_and_seat"].items():
        for seat, wins in seats.items():
            main.add_row("  " + _("{name} in {seat}").format(name=name, seat=seat_words.get(seat, seat)), str(wins),
                         pct(wins, n))
    main.add_row(_("start player wins"), str(summary["start_player_wins"]), pct(summary["start_player_wins"], summary["finished"]))
    main.add_row(_("final turn played (R34)"), str(summary["final_turns"]), pct(summary["final_turns"], n))
    main.add_row(_("won on the tiebreak (R34)"), str(summary["tiebreak_wins"]), pct(summary["tiebreak_wins"], n))
    main.add_row(_("unfinished"), str(summary["unfinished"]), pct(summary["unfinished"], n))

    length = Table(title=_("game length"), title_justify="left")
    for col in (None, _name("statistics", "mean"), _name("statistics", "stdev"), _name("statistics", "min"),
                _name("statistics", "max")):
        length.add_column(word(col) if col else "", justify="right" if col else "left")
    for key, label in (("turns", _name("statistics", "turns")), ("decisions", _name("statistics", "decisions"))):
        v = summary[key]
        length.add_row(word(label), f"{v['mean']:.1f}", f"{v['stdev']:.1f}", str(v["min"]), str(v["max"]))

    tiles = Table(title=_("tiles resolved"), title_justify="left")
    tiles.add_column(word(_name("statistics", "tile")))
    tiles.add_column(word(_name("statistics", "times")), justify="right")
    tiles.add_column(word(_name("statistics", "per game")), justify="right")
    for tile, k in summary["tiles"].items():
        shown = tile if i18n.language() == i18n.ENGLISH else i18n.name("tile", tile_name(tile))  # the id in English
        tiles.add_row(shown, str(k), f"{k / n:.2f}" if n else "–")

    thinking = Table(title=_("thinking time per decision (decisions with a choice)"), title_justify="left")
    for col in (_name("statistics", "strategy"), _name("statistics", "decisions"), _name("statistics", "mean ms"),
                _name("statistics", "p95 ms"), _name("statistics", "max ms")):
        thinking.add_column(word(col), justify="left" if col[1] == "strategy" else "right")
    for name, v in summary.get("thinking", {}).items():
        thinking.add_row(name, str(v["decisions"]), f"{v['mean_ms']:.2f}", f"{v['p95_ms']:.2f}", f"{v['max_ms']:.2f}")

    dogs = Table(title=_("dogs adopted"), title_justify="left")
    dogs.add_column(word(_name("statistics", "dog")))
    dogs.add_column(word(_name("statistics", "times")), justify="right")
    dogs.add_column(word(_name("statistics", "per game")), justify="right")
    for dog, k in summary["dogs"].items():
        dogs.add_row(i18n.name("dog", dog), str(k), f"{k / n:.2f}" if n else "–")
    return Group(Text(title, style="bold"), main, length, thinking, tiles, dogs)


def run_with_progress(config: Config, console: Any) -> list[GameResult]:
    """:func:`run` with a rich progress bar on ``console`` (the CLI passes a stderr console)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(
        TextColumn(_("self-play")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,  # no bar (nor blank lines) when stderr is a file or pipe
    ) as progress:
        task = progress.add_task("games", total=config.games)
        return run(config, lambda _r: progress.advance(task))
