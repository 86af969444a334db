"""The screen a player lives in: the decision screen of `agility play` and what is typed at it.

* the decision screen fits the terminal at every decision of every golden game (80×24, and the
  whole of it when there is no height: a pipe), with every choice, the status and the help line;
* one numbering: `hint` says the row to type, and typing it makes the decision the hint named;
  the order of best and runner-up is said when the chances disagree;
* no token is spent by a bare number: an Exchange row needs its options typed;
* a dog to adopt onto one of several courses is chosen in two steps;
* `undo` inside `play`, `done` after a forced done (a note, not a refusal), a missing file;
* players' words: obstacles by their names, `(agility rules R34)` in refusals;
* the help texts: the exit status, `FILE`, examples that render intact, `key list` without FILE.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gamefiles import run_cli, solo

from agility_cli.engine import rules
from agility_cli.engine.moves import Adopt, Done, Exchange, Move, Play
from agility_cli.engine.view import seat_view
from agility_cli.players import bots, search
from agility_cli.record import gamefile
from agility_cli.table import choices, hintview, playloop, render, screenfit
from agility_cli.table.layout import line_len, text_of

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "games").glob("*.jsonl"))
run = run_cli
UNDERSCORED = re.compile(r"\b(?:a_frame|open_ground|pause_box|weave_poles)\b")


def states(path: Path):
    data = path.read_bytes()
    for item in gamefile.verify(data, str(path)):
        yield (item.state if isinstance(item, gamefile.Start) else item.after).copy()


def news_of(state) -> list[str]:
    return [f"Turn {state.turn} — {state.players[state.active].name}"] + [
        f"  {k:>3}. {state.players[state.active].name} does something rather long to tell, " * 2 for k in range(2, 9)
    ]


# ----------------------------------------------------------------------------------------------
# The decision screen


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_decision_screen_fits_80_by_24_with_every_choice(path: Path) -> None:
    for state in states(path):
        if state.winner is not None:
            continue
        view = seat_view(state, state.to_act)
        rows = choices.menu(state)
        for height in (24, 30, None):
            screen = screenfit.decision_screen(view, rows, news_of(state), 80, height)
            text = [text_of(line) for line in screen.lines]
            assert all(line_len(line) <= 80 for line in screen.lines), text
            if height is not None:
                assert len(screen.lines) <= height - 1, text
            numbers = [int(m.group(1)) for t in text if (m := re.match(r"^\s+(\d+)\) ", t))]
            assert numbers == screen.rows_shown
            if screen.pages == 1:
                assert numbers == list(range(1, len(rows) + 1))
            assert any(t.startswith("Turn ") and f"({state.players[state.active].name}'s " in t for t in text)
            assert text[-1].lstrip().startswith("type 1")
            assert any("does something" in t for t in text)  # the latest news, at least
            for t in text:
                assert not UNDERSCORED.search(t), t  # players' words, never the file's ids
                assert not t.endswith("…"), t  # a row goes on in a second line, never cut (issue 32)


def test_a_short_screen_keeps_the_choices_and_the_latest_news_and_says_what_it_left_out() -> None:
    state = next(s for s in states(GAMES[0]) if s.winner is None and s.phase == "play" and s.turn > 6)
    rows = choices.menu(state)
    screen = screenfit.decision_screen(seat_view(state, state.to_act), rows, news_of(state), 80, 14)
    text = [text_of(line) for line in screen.lines]
    assert len(text) <= 13
    assert any("left out" in t and "news" in t for t in text)
    assert text[-1].lstrip().startswith("type 1")
    tall = screenfit.decision_screen(seat_view(state, state.to_act), rows, news_of(state), 80, None)
    assert len(tall.lines) > len(screen.lines)  # without a height, everything


def test_a_menu_longer_than_the_screen_is_paged_with_the_numbers_of_the_whole_menu() -> None:
    state = next(s for s in states(GAMES[0]) if s.winner is None and len(choices.menu(s)) >= 3)
    rows = choices.menu(state) * 6  # more rows than a screen of 12 lines holds
    view = seat_view(state, state.to_act)
    first = screenfit.decision_screen(view, rows, [], 80, 12)
    assert first.pages > 1 and first.rows_shown[0] == 1
    second = screenfit.decision_screen(view, rows, [], 80, 12, page=1)
    assert second.rows_shown[0] == first.rows_shown[-1] + 1
    assert any("type more" in text_of(line) for line in first.lines)


def test_the_status_line_counts_both_turns_and_the_players_own() -> None:
    assert [screenfit.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    state = next(s for s in states(GAMES[0]) if s.winner is None and s.turn >= 9)
    words = screenfit.turn_words(state)
    p = state.players[state.active]
    assert words == f"Turn {state.turn} ({p.name}'s {screenfit.ordinal(p.turns)})"
    status = text_of(screenfit.status_line(state))
    assert status.count(rules.awaited(state)) == 1 and status.count("'s turn") == 0


def test_menu_labels_are_in_the_players_words() -> None:
    for path in GAMES:
        for state in states(path):
            if state.winner is None:
                for row in choices.menu(state):
                    assert not UNDERSCORED.search(row.label + row.options), row.label


# ----------------------------------------------------------------------------------------------
# One numbering: hint names the row


def _first_line(path: Path) -> dict:
    return json.loads(path.read_text().splitlines()[1])


def test_hint_in_play_names_the_row_to_type_and_typing_it_makes_that_decision(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    best = json.loads(run("hint", path, "--json").stdout)["best"]["move"]
    r = run("play", path, input="hint\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "agility move" not in r.stdout.split("hint for alice")[1]  # rows, not commands, inside play
    typed = re.search(r"(?:best|either):\s+type (\S+(?: \S+)*?)\s{2,}", r.stdout)  # either: about equal
    assert typed is not None, r.stdout
    number = int(typed.group(1).split()[0])
    assert re.search(rf"(?m)^\s+{number}\) ", r.stdout)  # that number is a row of the menu shown
    done = run("play", path, input=f"{typed.group(1)}\nquit\n")
    assert done.exit_code == 0, done.stderr
    made = _first_line(path)
    assert {k: made[k] for k in best} == best  # the very decision the hint named


def test_hint_says_why_best_may_show_a_lower_chance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    path = solo(tmp_path, seed=7)
    game = gamefile.load(path)
    legal = rules.legal_moves(game.state)
    fake = search.Analysis(0, 50, 0.1, [search.MoveStat(legal[0], 30, 0.40), search.MoveStat(legal[1], 12, 0.60)])
    monkeypatch.setattr(hintview, "_analyse", lambda *a: fake)
    playloop.print_play_hint(game, choices.menu(game.state), 80)
    out = capsys.readouterr().out
    assert "win chance 40% (tried in 30 of 50 simulations)" in out
    assert "win chance 60% (tried in 12 of 50 simulations)" in out
    assert "tried most" in out  # why the best shows the lower chance
    assert all(len(line) <= 80 for line in out.splitlines())
    playloop.print_hint(playloop.hint_result(game, 0, "strong1", None) | {
        "best": {"command": "a", "text": "x", "win_chance": 0.4, "visits": 30},
        "runner_up": {"command": "b", "text": "y", "win_chance": 0.6, "visits": 12}}, path)
    assert "tried most" in capsys.readouterr().out


def test_hint_says_about_equal_when_the_best_two_are_within_the_searchs_noise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Issue 32: the search ranks by visits; a lead of at most two standard deviations of a fair
    split of the two's simulations (2·√(n1+n2)) is a coin toss, so the hint says the two are about
    equal and names no best (inside play and as `agility hint`, whose JSON says `about_equal`)."""
    path = solo(tmp_path, seed=7)
    game = gamefile.load(path)
    legal = rules.legal_moves(game.state)

    def stat(k: int, visits: int, rate: float) -> search.MoveStat:
        return search.MoveStat(legal[k], visits, rate)

    assert search.about_equal(stat(0, 15, 0.5), stat(1, 14, 0.5))  # a lead of 1 within a noise of 10.8
    assert search.about_equal(stat(0, 34, 0.5), stat(1, 22, 0.5))  # 12 within 2·√56 = 15.0
    assert not search.about_equal(stat(0, 36, 0.5), stat(1, 20, 0.5))  # 16 beyond it
    assert not search.about_equal(stat(0, 30, 0.4), stat(1, 12, 0.6))
    assert not search.about_equal(stat(0, 0, 0.5), stat(1, 0, 0.5))  # no simulations: nothing to compare
    close = search.Analysis(0, 80, 0.1, [stat(0, 15, 0.55), stat(1, 14, 0.45), stat(2, 10, 0.3)])
    assert close.close and not search.Analysis(0, 80, 0.1, [stat(0, 60, 0.6), stat(1, 10, 0.4)]).close
    monkeypatch.setattr(hintview, "_analyse", lambda *a: close)
    playloop.print_play_hint(game, choices.menu(game.state), 80)
    out = capsys.readouterr().out
    assert "about equal: tried in 15 and 14 of 80 simulations" in out
    assert "best:" not in out and "runner-up:" not in out and "tried most" not in out
    assert re.search(r"(?m)^  either:\s+type \d", out) and re.search(r"(?m)^  or:\s+type \d", out)
    assert all(len(line) <= 80 and not line.endswith("…") for line in out.splitlines())
    result = playloop.hint_result(game, 0, "strong1", None)
    assert result["about_equal"] is True and result["best"]["visits"] == 15  # the JSON: extended
    playloop.print_hint(result, path)
    printed = capsys.readouterr().out
    assert "about equal" in printed and "  either:    agility move" in printed and "best:" not in printed
    monkeypatch.setattr(hintview, "_analyse", lambda *a: search.Analysis(0, 80, 0.1, [stat(0, 60, 0.6), stat(1, 10, 0.4)]))
    playloop.print_play_hint(game, choices.menu(game.state), 80)
    sure = capsys.readouterr().out
    assert "about equal" not in sure and "best:" in sure and "runner-up:" in sure
    assert playloop.hint_result(game, 0, "strong1", None)["about_equal"] is False


def test_the_more_prompt_pages_a_long_text_and_q_stops_it_but_the_result_is_still_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Issue 32: inside play, a text taller than the terminal is paged (a page of height - 1 rows,
    then the "more" prompt); q stops it; the end of the game still ends with who won and how."""
    from agility_cli.table import screen, session

    answers: list[str] = []
    monkeypatch.setattr(screen, "interactive", lambda: True)
    monkeypatch.setattr(screen, "terminal_size", lambda: (80, 10))
    monkeypatch.setattr("builtins.input", lambda prompt: (print(prompt), answers.pop(0))[1])
    lines = screen.plain_lines([f"row {k}" for k in range(1, 31)])
    answers[:] = ["", "q"]
    assert screen.more(lines) is False
    out = capsys.readouterr().out.splitlines()
    assert out[:9] == [f"row {k}" for k in range(1, 10)] and out[9] == screen.MORE_PROMPT
    assert out[10:19] == [f"row {k}" for k in range(10, 19)] and "row 19" not in out and not answers
    answers[:] = ["", ""]
    assert screen.more(lines[:25]) is True  # 9 + 9 + the last 7 with the line after them
    assert capsys.readouterr().out.splitlines()[-1] == "row 25" and not answers
    assert screen.more(lines[:9]) is True and screen.MORE_PROMPT not in capsys.readouterr().out  # it fits
    path = solo(tmp_path, seed=7)
    assert run("bot", path, "--until-end", "-q").exit_code == 0  # both seats, to the end
    game = gamefile.load(path)
    state = game.state
    assert state.winner is not None
    answers[:] = ["q"]
    playloop.game_over(str(path), game, session.resolve_viewer(game, "alice"), [])
    printed = capsys.readouterr().out.splitlines()
    at = max(i for i, line in enumerate(printed) if line.startswith("The game is over: "))
    assert " ".join(line.strip() for line in printed[at:]) == (
        f"The game is over: {state.players[state.winner].name} wins ({render.why_won(state)}).")
    assert len(printed) == 11 and not answers  # one page, the prompt, q: then the result


# ----------------------------------------------------------------------------------------------
# No token spent by a bare number


def _exchange_game(tmp_path: Path) -> Path:
    """A solo game played until alice must decide holding an Exchange token (and cubes)."""
    path = solo(tmp_path, seed=7)

    def decide(game: gamefile.Game) -> list[Move]:
        s = game.state.copy()
        out: list[Move] = []
        while s.winner is None:
            legal = rules.legal_moves(s)
            if s.players[s.to_act].name == "alice":
                if any(isinstance(m, Exchange) for m in legal):
                    return out
                to_exchange = [m for m in legal if isinstance(m, Play) and not m.flex
                               and s.board[(s.marker + s.cat.cards[m.card].number) % 10] == "exchange"]
                m = (to_exchange or legal)[0]
            elif len(legal) == 1:
                m = legal[0]
            else:
                m = bots.choose_for_seat(s.players[s.to_act].name, s, game.seed, game.next_n + len(out))
            out.append(m)
            rules.apply_in_place(s, m)
        raise AssertionError("alice never held an Exchange token")

    gamefile.append_moves(path, decide)
    return path


def test_a_bare_number_never_spends_a_token_its_options_do(tmp_path: Path) -> None:
    path = _exchange_game(tmp_path)
    s = gamefile.load(path).state
    rows = choices.menu(s)
    k = next(i for i, row in enumerate(rows, 1) if isinstance(row.moves[0], Exchange))
    with pytest.raises(choices.MoreNeeded, match="spends a token"):
        choices.pick(s, rows, str(k))
    before = path.read_bytes()
    r = run("play", path, input=f"{k}\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "spends a token" in r.stdout and "nothing was spent" in r.stdout
    assert path.read_bytes() == before
    m = next(m for m in rules.legal_moves(s) if isinstance(m, Exchange))
    assert choices.pick(s, rows, f"{k} {m.from_} {m.to}") == m
    r = run("play", path, input=f"{k} {m.from_} {m.to}\nquit\n")
    assert r.exit_code == 0, r.stderr
    made = [json.loads(raw) for raw in path.read_text().splitlines()[len(before.splitlines()):]]
    assert made[0]["kind"] == "exchange" and (made[0]["from"], made[0]["to"]) == (m.from_, m.to)


def test_typed_words_make_each_decision_of_its_row() -> None:
    for path in GAMES[:4]:
        for state in states(path):
            if state.winner is None:
                rows = choices.menu(state)
                for m in rules.legal_moves(state):
                    words = choices.typed_words(state, rows, m)
                    assert choices.pick(state, rows, " ".join(words)) == m, (words, m)


# ----------------------------------------------------------------------------------------------
# Adoption in two steps


def test_adopting_onto_one_of_several_courses_is_two_steps() -> None:
    for path in GAMES:
        for state in states(path):
            if state.winner is not None:
                continue
            rows = choices.menu(state)
            two = [(k, r) for k, r in enumerate(rows, 1) if r.two_steps]
            if not two:
                continue
            k, row = two[0]
            assert len({m.dog for m in row.moves if isinstance(m, Adopt)}) == 1  # one row per dog
            with pytest.raises(choices.MoreNeeded):
                choices.pick(state, rows, str(k))
            sub = choices.course_rows(state, row)
            assert [r.default for r in sub] == row.moves
            assert all(re.match(r"#\d \S+  ", r.label) for r in sub)
            assert choices.pick(state, rows, f"{k} {row.moves[-1].course}") == row.moves[-1]
            return
    pytest.fail("no golden game offers an adoption onto several courses")


def test_play_adopts_in_two_steps_and_back_returns_to_the_menu(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    # seed 7: the tenth decision of alice offers Siberian Husky on six courses
    r = run("play", path, input="1\n" * 9 + "1\nback\n1\n2\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "onto which course?" in r.stdout and "or back" in r.stdout
    adopted = [json.loads(raw) for raw in path.read_text().splitlines() if '"adopt"' in raw and '"alice"' in raw]
    assert adopted, r.stdout
    s = gamefile.load(path).state
    assert adopted[0]["course"] == s.courses[1].id  # the second course listed (#2)


# ----------------------------------------------------------------------------------------------
# undo, done, a missing file


def test_undo_inside_play_takes_back_your_last_decision(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    header = path.read_bytes()
    r = run("play", path, input="undo\n1\nundo\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert "refused: there is no decision to take back yet" in r.stdout  # the loop goes on
    assert "Undone: 1 line taken back" in r.stdout and "alice plays t20" in r.stdout
    assert path.read_bytes() == header
    assert "Traceback" not in r.stdout


def test_done_after_a_forced_done_is_a_note_not_a_refusal(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    r = run("play", path, input="1\n1\ndone\nquit\n")
    assert r.exit_code == 0, r.stderr
    lines = [json.loads(raw) for raw in path.read_text().splitlines()[1:]]
    assert lines[-1]["kind"] == "done"  # recorded for alice: the only choice
    after = r.stdout.split("> done")[1]
    assert "note: the dog step is over (line" in after and "said done for you: the only choice" in after
    assert "refused" not in after and "not possible" not in after
    assert not any(isinstance(m, Done) for m in rules.legal_moves(gamefile.load(path).state))


def test_play_of_a_missing_file_offers_the_commands_that_start_a_game(tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl"
    r = run("play", path)
    assert r.exit_code == 2  # issue 51: a file that is not there is a usage error, not an invalid game (3)
    assert f"agility new {path} --players YOU THEM" in r.stderr
    assert f"agility new {path} --players YOU bot:strong" in r.stderr
    assert "--seed" not in r.stderr and not path.exists()


def test_the_tip_after_play_adds_as_only_when_it_was_given(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    r = run("play", path, input="quit\n")
    assert r.stdout.rstrip().endswith(f"Go on with: agility play {path}")
    r = run("play", path, "--as", "alice", input="quit\n")
    assert r.stdout.rstrip().endswith(f"Go on with: agility play {path} --as alice")


def test_a_refusal_at_the_boundary_points_to_the_ruling_in_the_guide(tmp_path: Path) -> None:
    path = solo(tmp_path, seed=7)
    assert run("bot", path, "--until-end").exit_code == 0
    r = run("bot", path)
    assert r.exit_code == 1
    assert "(agility rules R34)" in r.stderr and "(R34)" not in r.stderr


# ----------------------------------------------------------------------------------------------
# Help texts


def test_top_level_help_has_the_exit_status_and_intact_examples() -> None:
    r = run("--help")
    assert r.exit_code == 0
    for code, words in (("0", "done"), ("1", "refused"), ("2", "usage"), ("3", "invalid game file"), ("4", "internal")):
        assert re.search(rf"(?m)^\s+{code}\s+{words}", r.stdout), (code, r.stdout)
    assert "  agility new solo.jsonl --players alice bot:strong\n" in r.stdout
    assert all(len(line) <= 80 for line in r.stdout.splitlines())


def test_play_help_example_renders_intact() -> None:
    r = run("play", "--help")
    assert r.exit_code == 0
    assert "\n    printf '1\\n2 red\\nquit\\n' | agility play solo.jsonl\n" in r.stdout
    assert "\n    agility new solo.jsonl --players alice bot:greedy && agility play solo.jsonl\n" in r.stdout


COMMANDS = ["new", "join", "play", "show", "legal", "move", "send", "apply", "undo", "log", "replay", "hint", "bot",
            "repair"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_game_file_argument_is_FILE(command: str) -> None:
    r = run(command, "--help")
    assert r.exit_code == 0
    usage = r.stdout.splitlines()[0]
    # play's FILE may be left out (issue 34: the game that awaits you): [FILE]
    assert re.search(r" \[?FILE\b", usage) and "{" not in usage and "file" not in usage, usage
    assert re.search(r"(?m)^  \[?FILE\]?  ", r.stdout), r.stdout
    assert "INTERFACE.md" not in r.stdout and "docs/" not in r.stdout


def test_rules_help_points_to_no_file_users_do_not_have() -> None:
    r = run("rules", "--help")
    assert "docs/guide.md" not in r.stdout and "[TOPIC]" in r.stdout


def test_key_list_without_a_file_lists_the_games_whose_keys_are_held(tmp_path: Path) -> None:
    empty = run("key", "list")
    assert empty.exit_code == 0 and "no game keys on this machine" in empty.stdout
    signed = tmp_path / "signed.jsonl"
    assert run("new", signed, "--players", "alice", "bot:greedy", "-q").exit_code == 0
    r = run("key", "list")
    assert r.exit_code == 0 and re.search(r"(?m)^game [0-9a-f]{16}…: alice$", r.stdout), r.stdout
    assert "key store: " in r.stdout


@pytest.mark.parametrize("command", [[c] for c in COMMANDS] + [["rules"], ["selfplay"], ["schema"], ["key"],
                                     ["key", "list"], ["key", "export"], ["key", "import"], []])
def test_help_fits_80_columns_so_no_example_is_rewrapped(command: list[str]) -> None:
    r = run(*command, "--help")
    assert r.exit_code == 0
    long = [line for line in r.stdout.splitlines() if len(line) > 80]
    assert not long, long
