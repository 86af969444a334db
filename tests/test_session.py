"""The shared decision loop (agility_cli/session.py) and the CLI through views (R39).

Golden narration (replay of a golden game, a `move` that triggers a bot's turn), the viewer rule,
`--reveal`, face-down cards told face down, one numbering (lines of the file), and `show` /
`legal` within 80 columns at every state of every game in games/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamefiles import run_cli, solo
from storytext import unwrapped

from agility_cli.record.mail import armour
from agility_cli.record import gamefile
from agility_cli.table import logview
from agility_cli.table import screen
from agility_cli.table import render, session
from agility_cli.engine import rules, notation
from agility_cli.table import choices
from agility_cli.cli import app
from agility_cli.engine.moves import Discard, Distract, Play, PutBack
from agility_cli.engine.state import HIDDEN
from agility_cli.engine.view import move_view, seat_view

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "games").glob("*.jsonl"))
GOLDEN = Path(__file__).parent / "golden"
run = run_cli


def pair(tmp_path: Path, seed: int = 15) -> Path:
    path = tmp_path / "g.jsonl"
    assert run("new", path, "--seed", seed, "-q").exit_code == 0
    return path


# ----------------------------------------------------------------------------------------------
# Golden narration


@pytest.mark.parametrize("extra", [[], ["--reveal"], ["--as", "bot:random"], ["--as", "bot:greedy"]])
def test_replay_narration_of_a_golden_game_is_unchanged_R39_complete_after_the_end(extra: list[str]):
    """A finished game: every view is complete, and the sentences are those replay always wrote."""
    path = ROOT / "games" / "random-b-all-extras.jsonl"
    r = run("replay", path, *extra)
    assert r.exit_code == 0, r.stderr
    expected = (GOLDEN / "replay_random-b-all-extras.txt").read_text()
    assert unwrapped(r.stdout).replace(str(path), "games/random-b-all-extras.jsonl") == expected
    assert max(map(len, r.stdout.splitlines())) <= 80  # to a pipe, 80 columns (issue 52)
    assert "warning" not in r.stderr  # --reveal after the end shows nothing hidden


def test_move_that_triggers_a_bot_turn_narrates_every_line_golden(tmp_path: Path):
    path = solo(tmp_path)
    assert run("move", path, "play", "2", "red", "-q").exit_code == 0
    r = run("move", path, "take", "8")
    assert r.exit_code == 0, r.stderr
    narration = r.stdout.split("[alice's view]")[0]
    assert narration == (GOLDEN / "narration_move_bot_turn.txt").read_text()
    assert "Turn 2 — bot:greedy" in narration  # the bot's whole turn, told
    assert '"digest"' not in r.stdout  # the raw lines are for -q and `send`


def test_move_q_prints_only_the_raw_lines_bot_turn_included(tmp_path: Path):
    path = solo(tmp_path)
    assert run("move", path, "play", "2", "red", "-q").exit_code == 0
    r = run("move", path, "take", "8", "-q")
    rows = r.stdout.splitlines()
    assert [json.loads(x)["player"] for x in rows] == ["alice", "bot:greedy", "bot:greedy", "bot:greedy"]
    assert path.read_text().splitlines()[-4:] == rows


# ----------------------------------------------------------------------------------------------
# Who is looking (R39)


def test_viewer_rule_as_then_human_seat_then_the_player_to_act_R39(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    two = pair(tmp_path)
    game = gamefile.load(two)
    assert session.resolve_viewer(game).name == "alice"  # two people at one screen: the player to act
    assert session.resolve_viewer(game).reason == "to act"
    assert session.resolve_viewer(game, "bob").name == "bob"
    with pytest.raises(session.ViewerError):
        session.resolve_viewer(game, "carol")
    monkeypatch.setattr(session, "held_seats", lambda g: ["bob"])  # signatures land this hook
    monkeypatch.setattr(session, "two_person_signed", lambda g: True)  # … in a signed game between two people
    assert (session.resolve_viewer(game).name, session.resolve_viewer(game).reason) == ("bob", "key")
    monkeypatch.undo()
    path = solo(tmp_path)
    assert run("move", path, "play", "2", "red", "-q").exit_code == 0
    assert run("move", path, "take", "8", "-q").exit_code == 0
    mid_bot_turn = gamefile.load(path, upto=5)
    assert mid_bot_turn.state.players[mid_bot_turn.state.to_act or 0].name == "bot:greedy"
    viewer = session.resolve_viewer(mid_bot_turn)
    assert (viewer.name, viewer.reason, viewer.complete) == ("alice", "human seat", False)


def test_show_says_whose_view_and_hides_the_opponents_hand_R39(tmp_path: Path):
    path = pair(tmp_path)
    state = gamefile.load(path).state
    alice = run("show", path)
    assert alice.stdout.startswith("[alice's view]")
    bob = run("show", path, "--as", "bob")
    assert bob.stdout.startswith("[bob's view]")
    assert run("show", path, env={"AGILITY_PLAYER": "bob"}).stdout.startswith("[bob's view]")
    for card in state.players[0].hand:
        assert card in alice.stdout and card not in bob.stdout
    for card in state.players[1].hand:
        assert card in bob.stdout and card not in alice.stdout
    r = run("show", path, "--as", "carol")
    assert r.exit_code == 2 and "carol" in r.stderr


@pytest.mark.parametrize("command", ["show", "legal", "replay", "log"])
def test_reveal_warns_on_stderr_while_the_game_is_on_R39(tmp_path: Path, command: str):
    path = pair(tmp_path)
    assert run("move", path, "play", "3", "red", "-q").exit_code == 0
    r = run(command, path, "--reveal")
    assert r.exit_code == 0, r.stderr
    assert "--reveal shows every hidden card" in r.stderr
    quiet = run(command, path)
    assert "--reveal" not in quiet.stderr
    finished = run(command, ROOT / "games" / "recommended-greedy-vs-random.jsonl", "--reveal")
    assert finished.exit_code == 0 and "warning" not in finished.stderr


def test_legal_lists_only_the_viewers_own_decisions_R39(tmp_path: Path):
    path = pair(tmp_path)
    state = gamefile.load(path).state
    mine = run("legal", path, "--as", "alice")
    assert "play 3" in mine.stdout and "alice to play a training card" in mine.stdout
    theirs = run("legal", path, "--as", "bob")
    assert theirs.exit_code == 0
    assert "It is alice's decision: alice to play a training card." in theirs.stdout
    assert not any(card in theirs.stdout for card in state.players[0].hand)
    assert json.loads(run("legal", path, "--json", "--as", "bob").stdout) == []
    assert json.loads(run("legal", path, "--json", "--as", "alice").stdout)


# ----------------------------------------------------------------------------------------------
# Face-down cards, told face down (R18, R22, R31, R39)


def _bot_game(tmp_path: Path, seed: int) -> Path:
    path = tmp_path / f"bots{seed}.jsonl"
    # Every seat a bot: `new` plays the whole game (rules version 2).
    r = run("new", path, "--seed", seed, "--players", "bot:random", "bot:greedy", "--board", "random-b", "-q")
    assert r.exit_code == 0, r.stderr
    return path


def test_opponents_face_down_cards_are_never_named_in_a_seats_narration_or_log_R39(tmp_path: Path):
    hidden_kinds: set[str] = set()
    for seed in range(6):
        path = _bot_game(tmp_path, seed)
        data = path.read_bytes()
        views = logview.log_views(data, str(path))
        for item in gamefile.verify(data, str(path), keep_before=True):
            if isinstance(item, gamefile.Start) or item.before is None:
                continue
            step = session.Step(item.line, item.raw, item.move, item.before, item.after)
            for seat in (0, 1):
                shown = move_view(item.before, item.move, seat)
                if shown is item.move:
                    continue
                hidden_kinds.add(type(item.move).__name__)
                card = getattr(item.move, "card")
                text = session.sentence(step, seat)
                assert card not in text and "face down" in text, text
                row = views.rows[seat][item.line - 2]
                assert card not in row and "face down" in row, row
                if isinstance(item.move, Play):  # R31: the number shows through the marker
                    number = item.before.cat.cards[card].number
                    assert f"a card face down in a mini-turn (a {number}" in text
    assert {"Discard", "PutBack", "Play"} <= hidden_kinds


def test_narrate_never_indexes_a_hidden_card():
    """Every kind that can carry a card is narrated with the placeholder."""
    path = ROOT / "games" / "random-a-rush-slip-intimidation.jsonl"
    data = path.read_bytes()
    for item in gamefile.verify(data, str(path), keep_before=True):
        if isinstance(item, gamefile.Start) or item.before is None:
            continue
        m = item.move
        if isinstance(m, (Discard, PutBack)):
            blind = type(m)(player=m.player, card=HIDDEN)
        elif isinstance(m, Play):
            blind = Play(player=m.player, card=HIDDEN, reward=m.reward, flex=m.flex)
        else:
            continue
        text = session.sentence(session.Step(item.line, item.raw, blind, item.before, item.after), None)
        assert "face down" in text and "?" not in text


# ----------------------------------------------------------------------------------------------
# One numbering: lines of the file


def test_log_undo_and_narration_count_the_same_lines(tmp_path: Path):
    path = pair(tmp_path)
    moved = run("move", path, "play", "3", "red")
    told = [line for line in moved.stdout.splitlines() if line.startswith("     2. ")]
    assert told and told[0].startswith("     2. alice plays t13")
    log = run("log", path).stdout.splitlines()
    assert log[0].split()[:3] == ["2", "alice", "play"]
    assert json.loads(path.read_text().splitlines()[1])["n"] == 1  # decision n=1 is line 2
    undone = run("undo", path)
    assert undone.exit_code == 0, undone.stderr
    assert "  line 2: alice plays t13" in undone.stdout
    at = run("show", path, "--at", "1", "--json")
    assert json.loads(at.stdout)["marker"] == 0


def test_obstacles_count_from_1_in_words_log_and_narration():
    path = ROOT / "games" / "tiebreak-finisher-wins.jsonl"
    data = path.read_bytes()
    seen = 0
    for item in gamefile.verify(data, str(path), keep_before=True):
        if isinstance(item, gamefile.Start) or not isinstance(item.move, Distract) or item.before is None:
            continue
        m = item.move
        number = m.obstacle + 1
        assert logview.log_row(item.line, m).endswith(f"distract {m.course} {number} {m.color}")
        text = session.sentence(session.Step(item.line, item.raw, m, item.before, item.after), None)
        assert f"(obstacle {number}) on {m.course}" in text
        assert notation.argv(item.before, m) == ["distract", m.course, str(number), m.color]
        assert notation.parse(item.before, ["distract", m.course, str(number), m.color]) == m
        seen += 1
    assert seen


def test_a_dog_by_any_word_of_its_name_and_a_course_by_slot_or_id(tmp_path: Path):
    state = gamefile.load(pair(tmp_path)).state
    for dog in state.dog_display:
        last_word = state.cat.dogs[dog].name.split()[-1]
        others = [d for d in state.dog_display if state.cat.dogs[d].name.split()[-1] == last_word]
        if len(others) == 1:
            assert notation.dog_ref(state, last_word.lower()) == dog
    assert notation.dog_ref(state, "husky") == "siberian-husky"
    assert notation.dog_ref(state, "mutt") == "mighty-mutt"
    first = state.courses[0].id
    assert notation.course_ref(state, "#1") == notation.course_ref(state, "1") == notation.course_ref(state, first.lower()) == first
    board = render.board_plain(state)
    assert f"  #1 {first}" in board


# ----------------------------------------------------------------------------------------------
# What is new since the viewer's last decision; what to send


def test_window_start_counts_from_the_viewers_last_decision_before_the_opponents_news():
    p = ["alice", "alice", "bob", "bob", "alice"]
    assert session.window_start(p, "alice") == 2  # bob's lines, then alice's forced line
    assert session.window_start(p, "bob") == 4
    assert session.window_start(["alice"], "alice") == 1  # nothing new for alice
    assert session.window_start(["alice"], "bob") == 0


def test_show_tells_what_the_opponent_did_since_your_last_decision(tmp_path: Path):
    path = solo(tmp_path)
    assert run("move", path, "play", "2", "red", "-q").exit_code == 0
    assert run("move", path, "take", "8", "-q").exit_code == 0
    r = run("show", path)
    assert r.stdout.startswith("Since alice's last decision:\nTurn 2 — bot:greedy\n")
    assert "     7. bot:greedy takes t15 (a 3) from the display" in r.stdout
    assert "     4." not in r.stdout  # alice's own line is not news


def test_the_catch_up_after_a_restart_lists_only_the_other_sides_lines(tmp_path: Path):
    """Issue 32: alice decides once in her turn and stops; `show` and `play` started again tell
    bot:greedy's turn under "Since alice's last decision:", not alice's own line of this turn."""
    path = solo(tmp_path)
    assert run("move", path, "play", "2", "red", "-q").exit_code == 0
    assert run("move", path, "take", "8", "-q").exit_code == 0
    assert run("move", path, "play", "5", "blue", "-q").exit_code == 0  # line 8: alice's, turn 3
    assert [json.loads(raw)["player"] for raw in path.read_text().splitlines()[7:]] == ["alice", "alice"]  # 8, 9
    shown = run("show", path).stdout
    played = run("play", path, input="quit\n").stdout
    for out in (shown, played):
        assert "Since alice's last decision:" in out
        assert "   7. bot:greedy takes t15 (a 3) from the display" in out
        assert "   8. alice" not in out and "   9. alice" not in out  # her own line, and the forced one after it


def test_send_prints_the_lines_since_the_opponents_last_decision(tmp_path: Path):
    path = pair(tmp_path)
    first = run("send", path, "--as", "alice", "--raw")
    assert first.stdout == path.read_text()  # nothing from bob yet: from the header on
    block = run("send", path, "--as", "alice").stdout  # the default: a summary and the block of the same lines
    assert [b.lines for b in armour.find_blocks(block)] == [path.read_bytes().splitlines()]
    assert "bob" in first.stderr and "agility apply" in first.stderr
    assert run("move", path, "play", "3", "red", "-q").exit_code == 0
    while gamefile.load(path).state.to_act == 0:
        choice = json.loads(run("legal", path, "--json").stdout)[0]
        assert run("move", path, *choice["argv"], "-q").exit_code == 0
    sent = run("send", path, "--raw")  # alice is not to act: she is the sender
    assert sent.stdout == path.read_text()
    lines = path.read_text().splitlines()
    bob_line = json.loads(run("legal", path, "--json").stdout)[0]["argv"]
    assert run("move", path, *bob_line, "--as", "bob", "-q").exit_code == 0
    reply = run("send", path, "--as", "bob", "--raw").stdout.splitlines()
    assert reply and reply == path.read_text().splitlines()[len(lines):]


# ----------------------------------------------------------------------------------------------
# 80 columns


def _states(path: Path):
    data = path.read_bytes()
    for item in gamefile.verify(data, str(path)):
        yield (item.state if isinstance(item, gamefile.Start) else item.after).copy()


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_show_and_legal_fit_80_columns_at_every_state_of_every_game(path: Path):
    name = "game.jsonl"  # the commands to copy name the file; the layout is checked with the README's name
    for state in _states(path):
        for seat in (0, 1):
            viewer = session.Viewer(state.players[seat].name, seat, state.winner is not None, "--as")
            board = render.board_plain(seat_view(state, viewer.view_seat), screen.board_hints(name, state, viewer))
            assert max(render.cell_len(line) for line in board.splitlines()) <= 80
        if state.winner is None:
            legal = screen.legal_rows(name, state).splitlines()
            for line in legal + screen.menu_lines(choices.menu(state)):
                assert len(line) <= 80, line


@pytest.mark.parametrize("path", GAMES[:3], ids=[p.stem for p in GAMES[:3]])
def test_show_and_legal_commands_fit_80_columns(tmp_path: Path, path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    rows = path.read_bytes().split(b"\n")[:-1]
    for upto in range(1, len(rows) + 1, 9):
        prefix = Path("g.jsonl")
        prefix.write_bytes(b"".join(r + b"\n" for r in rows[:upto]))
        for command in (["show", "g.jsonl"], ["legal", "g.jsonl"], ["show", "g.jsonl", "--as", "alice"]):
            r = run(*command)
            if r.exit_code == 2:  # --as alice in a bots' game
                continue
            assert r.exit_code == 0, r.stderr
            assert max(render.cell_len(line) for line in r.stdout.splitlines()) <= 80, command


def test_legal_fits_80_columns_with_every_menu_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = pair(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = run("legal", path.name)  # a command to copy is never wrapped: a short path keeps it within 80
    assert all(len(line) <= 80 for line in r.stdout.splitlines())
    state = gamefile.load(path).state
    assert len(choices.menu(state)) == len({m.card for m in rules.legal_moves(state) if isinstance(m, Play)})


def test_replay_json_shows_moves_and_states_through_the_seats_view_R39(tmp_path: Path):
    for seed in range(6):
        full = _bot_game(tmp_path, seed)
        data = full.read_bytes()
        face_down = [
            item for item in gamefile.verify(data, str(full), keep_before=True)
            if not isinstance(item, gamefile.Start) and isinstance(item.move, (Discard, PutBack))
        ]
        if face_down:
            break
    else:  # pragma: no cover - six games always hold a Break or an Intimidation
        raise AssertionError("no face-down card in six games")
    step = face_down[0]
    rows = data.split(b"\n")[:-1]
    prefix = tmp_path / "prefix.jsonl"
    prefix.write_bytes(b"".join(r + b"\n" for r in rows[: step.line]))
    other = [p for p in gamefile.load(prefix).header.players if p != step.move.player][0]
    r = run("replay", prefix, "--json", "--as", other)
    assert r.exit_code == 0, r.stderr
    records = [json.loads(x) for x in r.stdout.splitlines()]
    assert records[-1]["move"]["card"] == HIDDEN
    assert "deck" not in records[-1]["state"]
    mover = [p for p in records[-1]["state"]["players"] if p["name"] == step.move.player][0]
    assert mover["hand_count"] >= len(mover["hand"])
    mine = run("replay", prefix, "--json", "--as", step.move.player)
    assert json.loads(mine.stdout.splitlines()[-1])["move"]["card"] == getattr(step.move, "card")
    told = unwrapped(run("replay", prefix, "--as", other).stdout).splitlines()[-2]
    assert "face down" in told and getattr(step.move, "card") not in told


def test_show_heading_before_and_after_the_viewers_first_decision(tmp_path: Path):
    path = pair(tmp_path)
    assert run("move", path, "play", "3", "red", "-q").exit_code == 0
    assert run("show", path, "--as", "bob").stdout.startswith("So far:\nTurn 1 — alice\n")
    assert run("show", path, "--as", "alice").stdout.startswith("[alice's view]")  # nothing new for her


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("tiebreak-opponent-wins", "both finished three dogs; bot:greedy:2 holds the Tiebreak marker"),
        ("tiebreak-finisher-wins", "bot:greedy finished three dogs; bot:greedy:2 did not in the final turn"),
        ("recommended-greedy-vs-random", "bot:greedy finished three dogs"),
    ],
)
def test_game_over_says_why_R34(name: str, reason: str):
    state = gamefile.load(ROOT / "games" / f"{name}.jsonl").state
    assert render.why_won(state) == reason


def test_move_help_lists_every_verb_with_its_options_within_80_columns():
    r = run("move", "--help")
    assert r.exit_code == 0
    import re

    for verb in notation.VERBS:
        assert re.search(rf"(^ +|, ){re.escape(verb)}[ ,]", r.stdout, re.M), verb
    for option in ("--reward", "--flex", "--course", "--spare"):
        assert option in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
