"""The full-screen board of `agility play` (issue 51), driven by Textual's pilot (``App.run_test``).

Seeded whole games of alice against a bot are played through the board with the keys a player
types (a row's number and Enter; a second step's course), and at every decision of alice every
region is checked against `agility show --json` of the same moment:

* the status line names the turn and who acts;
* the action board has every tile and the marker; each player's cubes (``r3 g1 k0 y0 b3``) and
  Flex and Exchange tokens; every course with its owner and dog (or ``free``) and each obstacle's
  cost; the three display cards and the five display dogs with their costs; the deck counts;
* the opponent's last card (its id, or "face down") in the status line and the story;
* every choice of the menu is in the choices region, numbered;
* no region is cut without its scroll mark: a region taller than its room shows a scroll bar, and
  the story and the choices say ``↓ more`` in their border.

The test prints ``screens complete / screens seen``.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from gamefiles import run_cli
from screengames import new_game

from agility_cli.engine.components import COLOURS, tile_name
from agility_cli.table import session
from agility_cli.table.board import app as board
from agility_cli.table.board import match, regions
from agility_cli.table.render import COLOUR_LETTERS
from agility_cli.table.screen import catch_up

SIZES = ((80, 24), (100, 30), (120, 40))


def cost_text(cost: dict[str, int]) -> str:
    return "".join(f"{cost[c]}{COLOUR_LETTERS[c]}" for c in COLOURS if cost.get(c))


def cubes_text(cubes: dict[str, int]) -> str:
    return " ".join(f"{COLOUR_LETTERS[c]}{cubes.get(c, 0)}" for c in COLOURS)


def made(path: Path) -> match.Match:
    news = session.since_last(path)
    viewer = session.resolve_viewer(news.game)
    return match.Match(path, news.game, viewer, False, catch_up(news, viewer.name), news.heading(viewer.name))


def shown(app: board.Board, name: str) -> str:
    """The plain text a region holds."""
    return app.drawn[name]


def problems(app: board.Board, path: Path) -> list[str]:
    """What the board lacks at this decision, against `show --json --as alice` of the moment."""
    result = run_cli("show", path, "--json", "--as", "alice")
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    state = state.get("state", state)
    out: list[str] = []
    status, position, story, menu = (shown(app, k) for k in ("status", "position", "story", "choices"))
    wide = app.cols >= 100
    flat = " ".join(position.split())
    if f"Turn {state['turn']}" not in status or state["to_act"] not in status:
        out.append(f"status: {status!r}")
    for space, tile in enumerate(state["board"]):
        name = tile_name(tile)
        short = name if wide or app.cols >= 90 else name.replace(" Poles", "").replace("Distraction", "Distract.")
        mark = "▶" if space == state["marker"] else ""
        if f"{mark}{space} {short}" not in flat:
            out.append(f"action board: space {space} {name}")
    for p in state["players"]:
        line = next((t for t in position.split("\n") if t.startswith(p["name"])), "")
        if cubes_text(p["cubes"]) not in line:
            out.append(f"{p['name']}: cubes {cubes_text(p['cubes'])} not in {line!r}")
        if f"Flex {p['flex']}" not in line or f"Exch{'ange' if wide else ''} {p['exchange']}" not in line:
            out.append(f"{p['name']}: tokens")
        if p["name"] == "alice":
            for c in p["hand"]:
                if c["id"] not in flat:
                    out.append(f"alice's card {c['id']}")
        elif f"hand {p['hand_count']}" not in flat:
            out.append(f"{p['name']}'s hand count")
    rows = position.split("\n")
    for c in state["courses"]:
        at = next((k for k, t in enumerate(rows) if t.startswith(f"{c['id']} ")), None)
        if at is None:
            out.append(f"course {c['id']}")
            continue
        text = " ".join([rows[at], *[t for t in rows[at + 1:at + 3] if t.startswith("     ")]])
        if c["dog"] is None and "free" not in text:
            out.append(f"course {c['id']}: free")
        for ob in c["obstacles"][c["position"]:]:
            if ob["feature"] != "pass" and cost_text(ob["cost"]) not in text:
                out.append(f"course {c['id']}: cost {cost_text(ob['cost'])}")
        if c["finished"] and "FINISHED" not in text:
            out.append(f"course {c['id']}: finished")
    for card in state["display"]:
        if card["id"] not in flat:
            out.append(f"display card {card['id']}")
    if f"deck {state['deck_size']} · discard {state['discard_size']}" not in flat:
        out.append("deck and discard")
    for dog in state["dog_display"]:
        name = regions.dog_name(app.match.game.state.cat.dogs[dog["id"]], wide)
        if f"{name} {cost_text(dog['cost'])}" not in flat:
            out.append(f"display dog {name} {cost_text(dog['cost'])}")
    if f"deck {state['dog_deck_size']}" not in flat:
        out.append("dog deck")
    played = app.match.played
    if played is not None:
        if played.card in app.match.game.state.cat.cards and played.card not in status:
            out.append(f"last card {played.card} not in the status line")
        if played.card in app.match.game.state.cat.cards and played.card not in story.split("\n")[0]:
            out.append("the story does not begin with the last card")
    for k, row in enumerate(app.rows_now(), 1):
        if f"{k:>2}) " not in menu:
            out.append(f"choice {k}")
    out += [f"cut: {name}" for name in board.cut(app)]
    out += [f"… in {name}" for name in ("status", "position", "choices") if "…" in shown(app, name)]
    return out


async def settle(pilot: Any, app: board.Board) -> None:
    """Until the board waits for a key (no bot thinking)."""
    await pilot.pause()
    for _ in range(20000):
        if not app.busy and app.moment:
            break
        await pilot.pause(0.01)
    await pilot.pause()


async def play_through(path: Path, size: tuple[int, int], seed: int, counts: list[int], failures: list[str]) -> str:
    """One whole game through the board's keys; returns the words it leaves on the terminal."""
    m = made(path)
    app = board.Board(m)
    pick = random.Random(seed)
    async with app.run_test(size=size) as pilot:
        for _ in range(400):
            await settle(pilot, app)
            if app.moment != match.DECIDE:
                break
            counts[1] += 1
            found = problems(app, path)
            counts[0] += not found
            failures += [f"{path.name} {size} turn {m.game.state.turn}: {f}" for f in found]
            rows = app.rows_now()
            usable = [k for k, r in enumerate(rows, 1) if not r.spends_token]
            number = usable[0] if pick.random() < 0.5 else pick.choice(usable)
            await pilot.press(*str(number), "enter")
            await pilot.pause()
            if app.sub is not None:  # adopt onto one of several courses: the course
                await pilot.press("1", "enter")
        assert app.moment == match.OVER, app.moment
        assert "Game over" in app.drawn["status"] or "aborted" in app.drawn["status"]
        await pilot.press("enter")
        await pilot.pause()
    return m.closing


def report(counts: list[int], failures: list[str]) -> None:
    print(f"\nscreens complete / screens seen: {counts[0]}/{counts[1]} ({100 * counts[0] / max(counts[1], 1):.1f} %)")
    assert counts[1] > 0
    assert not failures, "\n".join(failures[:8])


def test_a_whole_game_on_the_board_at_80x24_every_region_complete(tmp_path: Path) -> None:
    counts, failures = [0, 0], []
    closing = asyncio.run(play_through(new_game(tmp_path, "bot:greedy", 1), (80, 24), 1, counts, failures))
    report(counts, failures)
    assert closing.startswith("The game is over: ") and closing.count("The game is over") == 1


BOTS = ("bot:greedy", "bot:strong1", "bot:strong")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "seeds", "bots"),
    # 80x24, the size every player meets: a game against strong1 in CI (the quick suite has greedy's),
    # the strongest bot's and seed 2's by hand; the larger sizes are soak tests too (-m soak: by
    # hand, before a release, some 8 minutes of CPU)
    [(SIZES[0], (1,), ("bot:strong1",)),
     pytest.param(SIZES[0], (1,), ("bot:strong",), marks=pytest.mark.soak),
     pytest.param(SIZES[0], (2,), BOTS, marks=pytest.mark.soak),
     *(pytest.param(size, (1, 2), BOTS, marks=pytest.mark.soak) for size in SIZES[1:])],
)
def test_games_against_each_bot_at_each_size_every_region_complete(tmp_path: Path, size: tuple[int, int],
                                                                    seeds: tuple[int, ...], bots: tuple[str, ...]) -> None:
    counts, failures = [0, 0], []
    for bot in bots:
        for seed in seeds:
            if (bot, seed, size) == ("bot:greedy", 1, SIZES[0]):
                continue  # the quick suite's game (test_a_whole_game_on_the_board_at_80x24_every_region_complete)
            asyncio.run(play_through(new_game(tmp_path, bot, seed), size, seed, counts, failures))
    report(counts, failures)


def test_quit_saves_and_says_how_to_go_on(tmp_path: Path) -> None:
    path = new_game(tmp_path, "bot:greedy", 2)

    async def go() -> str:
        m = made(path)
        app = board.Board(m)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("h", "e", "l", "p", "enter")
            await pilot.pause()
            assert app.panel is not None and app.panel[0] == "help"
            await pilot.press("escape")
            await pilot.press("n", "o", "p", "e", "enter")
            await pilot.pause()
            assert "type a row's number" in app.drawn["say"]
            await pilot.press("ctrl+c")
            await pilot.pause()
        return m.closing

    before = path.read_bytes()
    assert asyncio.run(go()) == f"The game is saved. Go on with: agility play {path}\n"
    assert path.read_bytes() == before


def test_the_line_mode_is_kept_for_a_pipe_plain_and_dumb_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    assert match.board_refused(True) == ""  # --plain
    monkeypatch.setenv("TERM", "dumb")
    assert match.board_refused(False) == ""
    monkeypatch.setenv("TERM", "xterm")
    assert match.board_refused(False) == ""  # pytest's standard input is no terminal
