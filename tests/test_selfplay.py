"""Self-play (``agility selfplay``): statistics, determinism across --jobs, written games, fuzzing.

A self-play game is the very game ``agility new --players bot:A bot:B --first random`` plays by
itself, so what the statistics describe is what solo play does.  The slow tests are the random-play
fuzzer of STYLE.md habit 6: thousands of games, no crash, no endless game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.players import selfplay as sp
from agility_cli.cli import app
from agility_cli.engine.components import standard_components
from agility_cli.engine.state import public_state

runner = CliRunner()
GAMES = Path(__file__).resolve().parents[1] / "games"


def run(*args: str):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert "Traceback" not in (result.stderr or "")
    return result


def test_game_seeds_and_seats_come_from_the_master_seed() -> None:
    assert sp.game_seed(1, 0) == sp.game_seed(1, 0)
    assert len({sp.game_seed(1, i) for i in range(100)}) == 100
    assert sp.game_seed(1, 0) != sp.game_seed(2, 0)
    assert 0 <= sp.game_seed(7, 3) < 2**32
    cfg = sp.Config(games=2, strategy="greedy", vs="random")
    a, b = sp.play_game(cfg, 0), sp.play_game(cfg, 1)
    assert a.strategies == ("greedy", "random") and b.strategies == ("random", "greedy")
    assert a.players == ("bot:greedy", "bot:random")
    assert sp.seat_names(("greedy", "greedy")) == ("bot:greedy", "bot:greedy:2")
    assert [sp.board_mode("mixed", i) for i in range(4)] == ["recommended", "random-a", "random-b", "recommended"]


def test_play_game_is_deterministic_and_counts_tiles_and_dogs() -> None:
    cfg = sp.Config(games=1, strategy="greedy", vs="random", seed=4, board="random-b")
    a, b = sp.play_game(cfg, 0), sp.play_game(cfg, 0)
    assert a == b
    assert a.winner is not None
    assert sum(a.dogs.values()) >= 3  # the winner adopted three dogs (R25, R34)
    assert sum(a.tiles.values()) >= a.turns  # at least one resolution a turn (R12)
    layout = rules.random_board(a.seed, "b")
    assert set(a.tiles) <= set(layout)


def test_run_gives_the_same_results_with_any_number_of_jobs() -> None:
    one = sp.run(sp.Config(games=6, strategy="greedy", vs="random", seed=3, board="mixed", jobs=1))
    two = sp.run(sp.Config(games=6, strategy="greedy", vs="random", seed=3, board="mixed", jobs=2))
    assert one == two
    assert [r.index for r in two] == list(range(6))


def test_a_selfplay_game_is_the_game_agility_new_plays_with_two_bot_seats(tmp_path: Path) -> None:
    cfg = sp.Config(games=2, strategy="greedy", vs="random", seed=8, board="random-a", out=str(tmp_path / "out"))
    results = sp.run(cfg)
    r = results[1]
    written = Path(r.path or "")
    again = tmp_path / "again.jsonl"
    res = run(
        "new", again, "--seed", r.seed, "--players", *r.players, "--first", "random", "--board", "random-a", "-q"
    )
    assert res.exit_code == 0, res.stderr
    assert again.read_bytes() == written.read_bytes()


def test_written_games_replay_to_the_same_end(tmp_path: Path) -> None:
    out = tmp_path / "out"
    results = sp.run(sp.Config(games=3, strategy="random", vs="greedy", seed=2, out=str(out)))
    assert sorted(p.name for p in out.iterdir()) == [sp.game_file_name(i) for i in range(3)]
    for r in results:
        game = gamefile.load(r.path)  # type: ignore[arg-type]
        assert game.state.winner == r.winner
        assert game.state.turn == r.turns
        assert game.lines == r.decisions + 1


def test_written_games_embed_a_custom_component_set(tmp_path: Path) -> None:
    data = (GAMES / "variant-components.json").read_bytes()
    out = tmp_path / "out"
    results = sp.run(sp.Config(games=1, seed=2, components=data, out=str(out)))
    game = gamefile.load(results[0].path)  # type: ignore[arg-type]
    assert not isinstance(game.header.components, str)
    assert game.header.components.name == "variant-example"


def test_summary_statistics() -> None:
    cfg = sp.Config(games=8, strategy="greedy", vs="random", seed=1)
    results = sp.run(cfg)
    summary = sp.summarize(cfg, results)
    assert summary["games"] == 8 and summary["finished"] == 8
    assert summary["wins"]["greedy"] + summary["wins"]["random"] == 8
    assert sum(summary["wins_by_seat"].values()) == 8
    assert summary["start_player_wins"] == sum(r.winner == r.start for r in results)
    turns = [r.turns for r in results]
    assert summary["turns"]["min"] == min(turns) and summary["turns"]["max"] == max(turns)
    assert summary["turns"]["mean"] == pytest.approx(sum(turns) / 8, abs=1e-3)
    assert sum(summary["tiles"].values()) == sum(sum(r.tiles.values()) for r in results)
    assert sum(summary["dogs"].values()) == sum(sum(r.dogs.values()) for r in results)
    assert summary["dogs"] and set(summary["dogs"]) <= {d.name for d in standard_components().dogs}


# ------------------------------------------------------------------------------------------------
# The command


def test_selfplay_command_prints_the_tables() -> None:
    r = run("selfplay", "--games", "6", "--strategy", "greedy", "--vs", "random", "--seed", "1")
    assert r.exit_code == 0, r.stderr
    out = r.output
    for row in (
        "greedy wins",
        "random wins",
        "seat 1 wins",
        "seat 2 wins",
        "greedy in seat 1",
        "start player wins",
        "final turn played",
        "won on the tiebreak",
        "unfinished",
        "turns",
        "decisions",
        "tiles resolved",
        "dogs adopted",
        "sweep",
    ):
        assert row in out, row
    assert "games/s" in r.stderr


def test_selfplay_json_is_the_same_with_two_jobs() -> None:
    args = ["selfplay", "--games", "6", "--vs", "greedy", "--seed", "5", "--board", "mixed", "--json"]
    one = run(*args, "--jobs", "1")
    two = run(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, (one.stderr, two.stderr)
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a.pop("thinking").keys() == b.pop("thinking").keys()  # wall-clock times differ
    assert a == b
    assert a["games"] == 6 and a["strategy"] == "greedy" and a["vs"] == "greedy"
    assert a["wins_by_seat"]["seat 1"] + a["wins_by_seat"]["seat 2"] == 6


def test_selfplay_out_writes_replayable_files(tmp_path: Path) -> None:
    out = tmp_path / "games"
    r = run("selfplay", "--games", "2", "--seed", "3", "--out", out, "--json")
    assert r.exit_code == 0, r.stderr
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 2
    for f in files:
        assert run("replay", f).exit_code == 0
    again = run("selfplay", "--games", "2", "--seed", "3", "--out", out)
    assert again.exit_code == 2
    assert "never overwrites" in again.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategy", "clever"], "strategy"),
        (["--vs", "nobody"], "strategy"),
        (["--board", "hexagonal"], "board"),
        (["--games", "0"], "--games"),
    ],
)
def test_selfplay_usage_errors_exit_2(args: list[str], message: str) -> None:
    r = run("selfplay", *args)
    assert r.exit_code == 2
    assert message in r.stderr


def test_selfplay_help_has_an_example() -> None:
    r = run("selfplay", "--help")
    assert r.exit_code == 0 and "Example" in r.output


# ------------------------------------------------------------------------------------------------
# Fuzzing: thousands of games


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strategy", "vs", "board", "games"),
    [
        # 4,000 games in all are a soak test (-m soak, some 3 minutes of CPU); CI plays 1,100
        ("random", "random", "mixed", 300),
        ("greedy", "random", "mixed", 300),
        ("greedy", "greedy", "mixed", 300),
        ("greedy", "random", "random-b", 200),
        pytest.param("random", "random", "mixed", 1500, marks=pytest.mark.soak),
        pytest.param("greedy", "random", "mixed", 1500, marks=pytest.mark.soak),
        pytest.param("greedy", "greedy", "mixed", 1500, marks=pytest.mark.soak),
        pytest.param("greedy", "random", "random-b", 500, marks=pytest.mark.soak),
    ],
)
def test_thousands_of_selfplay_games_end_without_a_crash(strategy: str, vs: str, board: str, games: int) -> None:
    cfg = sp.Config(games=games, strategy=strategy, vs=vs, seed=2024, board=board, jobs=2, max_decisions=5_000)
    results = sp.run(cfg)
    summary = sp.summarize(cfg, results)
    assert summary["unfinished"] == 0
    assert summary["decisions"]["max"] < 2_000
    assert summary["finished"] == games
    if strategy != vs:
        assert summary["win_rate"]["greedy"] >= 0.9


@pytest.mark.slow
def test_selfplay_with_a_custom_component_set_ends() -> None:
    data = (GAMES / "variant-components.json").read_bytes()
    for strategy, vs in (("greedy", "random"), ("random", "random")):
        cfg = sp.Config(games=300, strategy=strategy, vs=vs, seed=5, board="mixed", components=data, jobs=2)
        summary = sp.summarize(cfg, sp.run(cfg))
        assert summary["unfinished"] == 0


@pytest.mark.slow
def test_written_games_replay_to_the_live_state(tmp_path: Path) -> None:
    """STYLE.md habit 6: the replay of the written file equals the live state."""
    out = tmp_path / "out"
    cfg = sp.Config(games=60, strategy="random", vs="greedy", seed=11, board="mixed", out=str(out), jobs=2)
    for r in sp.run(cfg):
        game = gamefile.load(r.path)  # type: ignore[arg-type]
        header = game.header
        moves, live, _, _ = sp.play_header(header, gamefile.header_components(header))
        assert public_state(live) == public_state(game.state)
