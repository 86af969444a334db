"""The whole position in view (issue 32): at every decision of seeded games against bot:strong and
bot:greedy, the decision screen of `agility play` (``screenfit.decision_screen``, in-process, with
the state, the menu, the story and the opponent's last card as the play loop gives them):

* at 80×24 no line is wider than the terminal or ends in "…"; the opponent's cubes and tokens,
  every dog of the opponent with each of its next obstacles, the card it played last, every
  numbered choice and the help line are on the screen; a figure: screens complete / screens seen;
* at 100×30 the same, and at least as many lines as at 80×24;
* at 60×24 and 40×24 every card row keeps the tile its card reaches.

The real terminal (a pty) is tests/test_play_tty.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gamefiles import run_cli, solo
from screengames import Decision, decisions, new_game

from agility_cli.engine.components import tile_name
from agility_cli.table import screenfit
from agility_cli.table.layout import line_len, text_of
from agility_cli.table.render import cubes_text, obstacle_text



def problems(d: Decision, width: int, height: int) -> list[str]:
    """What the screen of ``d`` at ``width``×``height`` lacks (nothing: the screen is complete)."""
    screen = screenfit.decision_screen(d.view, d.rows, d.news, width, height, played=d.played)
    text = [text_of(line) for line in screen.lines]
    out = []
    if len(text) > height - 1:
        out.append(f"{len(text)} lines for {height - 1}")
    out += [f"too wide: {t!r}" for line, t in zip(screen.lines, text) if line_len(line) > width]
    out += [f"ends in …: {t!r}" for t in text if t.endswith("…")]
    whole = "\n".join(text)
    s, seat = d.view, d.opponent
    p = s.players[seat]
    tokens = f"Flex {p.flex} · Exchange {p.exchange}"
    head = next((k for k, t in enumerate(text) if t.startswith(f"  {p.name}")), None)
    if head is None:
        out.append(f"no row of {p.name}")
    elif text_of(cubes_text(p.cubes)) not in text[head] and text_of(cubes_text(p.cubes, short=True)) not in text[head]:
        out.append(f"{p.name}'s cubes missing: {text[head]!r}")
    elif tokens not in whole.replace("\n    ", " · "):
        out.append(f"{p.name}'s tokens missing")
    for c in s.courses:
        if c.owner != seat or c.dog is None:
            continue
        name = s.cat.dogs[c.dog].name
        at = next((k for k, t in enumerate(text) if t.startswith(f"    {name} {c.id} ") or t.startswith(f"    {name.split()[0]} {c.id}")), None)
        if at is None:
            out.append(f"no row of {p.name}'s {name} on {c.id}")
            continue
        row = " · ".join([text[at], *(t.strip() for t in text[at + 1:at + 3] if t.startswith(" " * screenfit.INDENT))])
        if c.finished:
            continue
        for k in range(c.position, len(c.obstacles)):
            ob = text_of(obstacle_text(s, c, k))
            if ob not in row:
                out.append(f"{name}'s obstacle {ob!r} missing: {row!r}")
    last = [t for t in text if t.startswith("    last card ")]
    if not last:
        out.append("no row of the opponent's last card")
    elif d.last_card is not None and d.last_card not in last[0] and "face down" not in last[0]:
        out.append(f"last card {d.last_card} missing: {last[0]!r}")
    numbers = [int(m.group(1)) for t in text if (m := re.match(r"^\s+(\d+)\) ", t))]
    if numbers != screen.rows_shown or (screen.pages == 1 and numbers != list(range(1, len(d.rows) + 1))):
        out.append(f"choices {numbers} of {len(d.rows)}")
    if not text[-1].lstrip().startswith("type 1"):
        out.append("no help line last")
    return [f"{width}x{height}: {x}" for x in out]


def tiles_kept(d: Decision, width: int, height: int) -> list[str]:
    """Card rows at ``width`` that lost the tile their card reaches."""
    screen = screenfit.decision_screen(d.view, d.rows, d.news, width, height, played=d.played)
    text = [text_of(line) for line in screen.lines]
    out = []
    for k, row in enumerate(d.rows, 1):
        if row.tile is None or k not in screen.rows_shown:
            continue
        line = next(t for t in text if re.match(rf"^\s+{k}\) ", t))
        if not line.endswith(f"→ {tile_name(row.tile)}") and f"→ {tile_name(row.tile)} " not in line:
            out.append(f"{width}x{height}: row {k} lost its tile: {line!r}")
        if len(line) > width:
            out.append(f"{width}x{height}: row {k} too wide: {line!r}")
    return out


def shown(screen: screenfit.Screen) -> int:
    """How much a screen shows: its characters but blanks, the line of what it left out aside."""
    return sum(len(re.sub(r"\s", "", text_of(line))) for line in screen.lines if "left out" not in text_of(line))


def check_games(tmp_path: Path, games: list[tuple[str, int]]) -> tuple[int, int, list[str]]:
    complete = seen = 0
    failures: list[str] = []
    for bot, seed in games:
        for n, d in enumerate(decisions(new_game(tmp_path, bot, seed), seed), 1):
            seen += 1
            found = problems(d, 80, 24) + problems(d, 100, 30) + tiles_kept(d, 60, 24) + tiles_kept(d, 40, 24)
            small = screenfit.decision_screen(d.view, d.rows, d.news, 80, 24, played=d.played)
            tall = screenfit.decision_screen(d.view, d.rows, d.news, 100, 30, played=d.played)
            if shown(tall) < shown(small):
                found.append(f"100x30 shows {shown(tall)} characters, 80x24 {shown(small)}")
            if found:
                failures.append(f"{bot} seed {seed} decision {n}:\n  " + "\n  ".join(found[:6]))
            else:
                complete += 1
    return complete, seen, failures


def report(complete: int, seen: int, failures: list[str]) -> None:
    print(f"\nscreens complete / screens seen: {complete}/{seen} ({100 * complete / max(seen, 1):.1f} %)")
    assert seen > 0
    assert not failures, f"{complete}/{seen} complete; first failures:\n" + "\n".join(failures[:5])


def test_one_game_every_screen_shows_the_whole_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    report(*check_games(tmp_path, [("bot:greedy", 1)]))


@pytest.mark.slow
@pytest.mark.parametrize("games", [
    # CI: three more games than the quick suite's (greedy, seed 1); the other two are soak runs
    [("bot:strong", 1), ("bot:strong", 2), ("bot:greedy", 2)],
    pytest.param([("bot:strong", 3), ("bot:greedy", 3)], marks=pytest.mark.soak),
])
def test_six_games_every_screen_shows_the_whole_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         games: list[tuple[str, int]]) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    report(*check_games(tmp_path, games))


def test_what_is_left_out_goes_in_the_order_of_the_issue_and_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A short terminal: the opponent's rows stay; the explanations go before the story."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    d = next(d for d in decisions(new_game(tmp_path, "bot:greedy", 1), 1)
             if d.view.phase == "play" and any(c.owner == d.opponent for c in d.view.courses) and len(d.news) > 3)
    screen = screenfit.decision_screen(d.view, d.rows, d.news, 80, 18, played=d.played)
    text = [text_of(line) for line in screen.lines]
    assert len(text) <= 17
    assert not any("Clear" in t and t.startswith(" " * 8) and ":" in t for t in text)  # the tile hints went first
    assert any(re.match(r"^  … \d+ rows left out: type help", t) for t in text), text
    assert not problems(d, 80, 18), problems(d, 80, 18)


def test_the_opponents_last_card_is_shown_after_a_restart_in_the_middle_of_a_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play` quit after a decision of a turn and started again: the bot's last card is on the
    screen again (here the story since the player's last decision holds it)."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = solo(tmp_path, seed=5)
    for _ in range(12):  # one decision a time, until alice quits in her turn after one of hers
        assert run_cli("play", path, input="1\nquit\n").exit_code == 0
        lines = [json.loads(raw) for raw in path.read_bytes().splitlines()[1:]]
        cards = [x["card"] for x in lines if x.get("kind") == "play" and x["player"] == "bot:greedy"]
        if cards and lines[-1]["player"] == "alice":
            break
    else:
        raise AssertionError("alice never stopped in her turn after the bot's card")
    again = run_cli("play", path, input="quit\n")
    last = [line for line in again.output.splitlines() if line.startswith("    last card ")]
    assert last and cards[-1] in last[0], again.output


def test_the_play_loop_reads_the_last_card_from_the_file_when_its_news_hold_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`play_loop` given no news (as after a forced line of the opponent in the player's turn, which
    starts the news after the opponent's card): the card is read from the file."""
    import io
    import sys

    from agility_cli.record import gamefile
    from agility_cli.table import playloop, session

    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = solo(tmp_path, seed=5)
    for _ in range(12):
        assert run_cli("play", path, input="1\nquit\n").exit_code == 0
        lines = [json.loads(raw) for raw in path.read_bytes().splitlines()[1:]]
        cards = [x["card"] for x in lines if x.get("kind") == "play" and x["player"] == "bot:greedy"]
        if cards:
            break
    game = gamefile.load(path)
    viewer = session.resolve_viewer(game, "alice")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"quit\n")))
    playloop.play_loop(path, game, viewer, news=[])
    last = [line for line in capsys.readouterr().out.splitlines() if line.startswith("    last card ")]
    assert last and cards[-1] in last[0], last
