"""The board summary (render.py) and the narration of decisions (narrate.py).

Board renderings are compared with golden files under ``tests/golden/``; run with
``AGILITY_REGEN_GOLDEN=1`` to rewrite them after an intended change, and review the diff.  Both
paths are checked against them: :func:`render.board_plain` (no rich) and :func:`render.board`
printed by a rich console without colour.
"""

from __future__ import annotations

import difflib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import builders as b
from agility_cli.engine.notation import a_number
from agility_cli.table import narrate, render
from agility_cli.engine import rules
from agility_cli.engine.moves import (
    Adopt,
    Advance,
    BoostAction,
    Discard,
    Distract,
    Done,
    Exchange,
    Inspire,
    Move,
    Play,
    Prize,
    Rush,
    Slip,
    Take,
)
from agility_cli.engine.state import State

GOLDEN = Path(__file__).parent / "golden"
WIDTH = 80


# --------------------------------------------------------------------------------------------
# Helpers


def plain(renderable: object, width: int = WIDTH) -> str:
    """What a rich console without colour prints for ``renderable``."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def coloured(renderable: object) -> str:
    out = io.StringIO()
    Console(width=WIDTH, color_system="truecolor", force_terminal=True, file=out).print(renderable)
    return out.getvalue()


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/<name>``, or rewrite it under AGILITY_REGEN_GOLDEN=1."""
    path = GOLDEN / name
    if os.environ.get("AGILITY_REGEN_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"golden file {path} is missing; run with AGILITY_REGEN_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), text.splitlines(), "golden", "rendered", lineterm=""))
        pytest.fail(f"rendering differs from {path} (AGILITY_REGEN_GOLDEN=1 rewrites it):\n{diff}")


def assert_fits(text: str, width: int = WIDTH) -> None:
    for number, line in enumerate(text.splitlines(), 1):
        assert len(line) <= width, f"line {number} is {len(line)} wide: {line!r}"
        assert line == line.rstrip(), f"line {number} has trailing blanks: {line!r}"


def display_dog(s: State, dog: str) -> None:
    """Make sure ``dog`` is in the dog display (swapped with the last one shown)."""
    if dog in s.dog_display:
        return
    s.dog_deck.remove(dog)
    s.dog_deck.insert(0, s.dog_display.pop())
    s.dog_display.append(dog)


def mid_game() -> State:
    """A game in progress: Inspiration and Rush on the board, three dogs out, markers, a finish."""
    s = b.new_game(seed=5, board=b.board_with(s4="inspiration", s8="rush"))
    s.marker = 6
    s.turn, s.players[0].turns, s.players[1].turns = 9, 5, 4
    b.cubes(s, b.A, red=3, black=1, blue=4)
    b.cubes(s, b.B, green=2, yellow=5, blue=1)
    s.players[0].flex = 1
    s.players[1].exchange = 1
    s.inspiration.remove("red")
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="golden-retriever", position=1)
    b.course(s, 1, [b.TUNNEL, b.HURDLE, b.PAUSE, b.OPEN, b.AFRAME], owner=b.B, dog="labrador-retriever", position=5)
    shep = b.course(s, 3, [b.AFRAME, b.HURDLE, b.WEAVE, b.PAUSE, b.TUNNEL], owner=b.B, dog="dutch-shepherd")
    shep.obstacles[0].rush = True  # R21
    shep.obstacles[1].plus[4] += 1  # R20: +1 blue
    while len(s.dog_display) < rules.DOG_DISPLAY_SIZE:  # R25: the display refills to five
        s.dog_display.append(s.dog_deck.pop(0))
    s.first_finish = s.tiebreak = b.B
    s.phase = "dogs"
    return s


def step(s: State, move: Move) -> tuple[State, str]:
    after = rules.apply(s, move)
    return after, narrate.describe(s, move, after)


# --------------------------------------------------------------------------------------------
# The board


def board_text(s: State, hints: list[str] | None = None) -> str:
    """The plain board, checked to be the same through rich (colour off) as without it."""
    text = render.board_plain(s, hints) + "\n"  # as printed
    assert plain(render.board(s, hints)) == text
    return text


def test_board_new_game_golden() -> None:
    s = b.new_game(seed=1)
    text = board_text(s, ["agility move game.jsonl play t05 --reward red"])
    assert_fits(text)
    check_golden("board_new_game.txt", text)


def test_board_mid_game_golden() -> None:
    s = mid_game()
    hints = [f"agility move game.jsonl advance {s.courses[0].id}", "agility move game.jsonl done"]
    text = board_text(s, hints)
    assert_fits(text)
    check_golden("board_mid_game.txt", text)


def test_board_shows_the_mid_game_details() -> None:
    text = board_text(mid_game())
    assert "▶6 Boost" in text  # R7: the counting marker's space
    assert "Inspiration cubes left: 1 green, 1 black, 1 yellow, 1 blue" in text  # R23
    assert "✓hurdle · ▶2 tunnel 1r 2g · 3 pause 4r" in text  # R26: cleared, faced, ahead
    assert "▶1 a-frame pass RUSH · 2 hurdle 1k 2b -1 +1b" in text  # R20, R21, R26
    assert "bob · Labrador Retriever  FINISHED" in text
    assert "bob  (Tiebreak)" in text  # R33
    assert "Turn 9 · alice's turn · alice to adopt a dog, advance dogs, or finish the step" in text


def test_board_shows_the_card_being_resolved() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 3, 1, 1)
    b.cubes(s, b.A, red=1)
    s.marker = 2
    after = rules.apply(s, Play(player="alice", card="t11", reward="red"))  # lands on Break
    text = board_text(after)
    assert "alice to declare Break 1 or 2" in text
    assert "  playing t11 [3] 3 blue | 2 red  (reward red)" in text


def test_board_game_over_golden() -> None:
    s = mid_game()
    s.winner, s.phase = b.B, "over"
    text = board_text(s)
    assert_fits(text)
    assert "Game over after turn 9: bob wins" in text
    assert "bob  (Tiebreak, WINNER)" in text
    check_golden("board_game_over.txt", text)


def test_status_flags_mini_and_final_turn() -> None:
    s = mid_game()
    s.final_turn, s.in_mini, s.phase = True, True, "play"
    text = render.text_of(render.status_text(s))
    assert text == "Turn 9 · alice's turn (final turn, mini-turn) · alice to play a training card"
    s.in_mini, s.minis, s.phase = False, 2, "dogs"
    assert "(final turn, 2 mini-turns to come)" in render.text_of(render.status_text(s))


def test_status_names_the_prize_chooser() -> None:
    s = mid_game()
    s.prizes = [(b.B, "first_finish")]
    assert render.text_of(render.status_text(s)).endswith(
        "bob to choose a prize token (first to finish a course)"
    )


def test_hints_are_capped() -> None:
    hints = [f"agility move g.jsonl take t{i:02}" for i in range(11)]
    text = board_text(b.new_game(seed=1), hints)
    assert "take t07" in text and "take t08" not in text
    assert "… and 3 more" in text


def test_colour_only_on_a_colour_console() -> None:
    board = render.board(mid_game())
    out = coloured(board)
    assert "\x1b[" in out
    assert "\x1b[1;7m▶6 Boost" in out  # the counting marker's space, bold reverse
    assert "\x1b[1;4malice" in out  # the player to act, bold underline
    assert "\x1b[31m3 red" in out and "\x1b[94m4 blue" in out  # cube colours
    assert "\x1b" not in plain(board)
    no_colour = io.StringIO()
    cubes = render.rich_text([render.cubes_text([1, 0, 0, 0, 0])])
    Console(width=WIDTH, force_terminal=True, no_color=True, file=no_colour).print(cubes)
    assert "\x1b[31m" not in no_colour.getvalue()


def test_plain_path_imports_no_rich() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests'); import builders; from agility_cli.table import render; "
        "text = render.board_plain(builders.new_game(seed=1), ['agility move g.jsonl done']); "
        "assert 'Action board' in text; print(sorted(m for m in sys.modules if m.startswith('rich')))"
    )
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_board_lines_are_styled_segments() -> None:
    lines = render.board_lines(mid_game())
    assert all(isinstance(text, str) and isinstance(style, str) for line in lines for text, style in line)
    assert not any("\n" in text for line in lines for text, _ in line)
    assert ("▶6 Boost", render.HERE) in lines[2]  # the counting marker's space
    assert ("3 red", "red") in next(line for line in lines if render.text_of(line).startswith("  cubes 3 red"))
    assert render.plain_text(lines) == render.board_plain(mid_game()) == plain(render.board(mid_game()))[:-1]


def test_long_names_and_hints_wrap_within_80_columns() -> None:
    """Rows too long for 80 columns wrap at word boundaries, as rich would wrap them; the player
    columns shrink (the wider first) and their lines wrap within the column."""
    s = mid_game()
    s.players[0].name = "Bartholomew-the-Magnificent"
    s.players[1].name = "李小龙"  # two cells a character
    b.cubes(s, b.A, red=12, green=9, black=9, yellow=5, blue=9)
    b.cubes(s, b.B, red=1, green=12, black=1, yellow=12, blue=1)
    hints = ["agility move " + "/a/rather/long/path" * 5 + "/game.jsonl advance 4B"]
    text = board_text(s, hints)
    assert_fits(text)
    players = text[text.index("Players\n") :]
    assert players.startswith(  # both columns shrink to 37 cells (+ 4 blanks), the CJK name is 6 cells
        "Players\n"
        "  Bartholomew-the-Magnificent  (start    李小龙  (Tiebreak)\n"
        "  player)                                cubes 1 red, 12 green, 1 black, 12\n"
        "  cubes 12 red, 9 green, 9 black, 5      yellow, 1 blue\n"
        "  yellow, 9 blue                         Flex 0 · Exchange 1 · turns 4\n"
    )
    assert "\nTurn 9 · Bartholomew-the-Magnificent's turn · Bartholomew-the-Magnificent to\nadopt a dog," in text
    # a word longer than a line is folded; a hint's lines go on under its text, 4 columns in
    assert "\n  agility move\n    /a/rather/long/path/a/rather/" in text


def test_wrap_indents_a_hints_lines_but_never_folds_a_word_that_fits_the_width() -> None:
    from agility_cli.table.layout import wrap

    def text(lines: list[render.Line]) -> list[str]:
        return ["".join(t for t, _ in line) for line in lines]

    assert text(wrap([("  aaa bbb ccc ddd", "cyan")], 10, indent=4)) == ["  aaa bbb", "    ccc", "    ddd"]
    # a 10-cell word fits the 10 cells but not 10 - 4: the lines start at the margin instead
    assert text(wrap([("  aaa /b/c/d/e.j x", "")], 10, indent=4)) == ["  aaa", "/b/c/d/e.j", "x"]


def test_wrap_keeps_styles() -> None:
    line = [("aaa ", ""), ("bbb ccc", "red"), (" dd", "bold")]
    assert render.wrap(line, 7) == [[("aaa ", ""), ("bbb", "red")], [("ccc", "red"), (" dd", "bold")]]
    assert render.wrap([("abcdefghij", "x")], 4) == [[("abcd", "x")], [("efgh", "x")], [("ij", "x")]]
    assert render.wrap([("ab abcdefghij", "")], 5, fold=False) == [[("ab", "")], [("abcd…", "")]]
    assert render.cell_len("▶✓·…") == 4 and render.cell_len("李小龙") == 6


def test_cubes_text_accepts_dicts_and_vectors() -> None:
    assert render.text_of(render.cubes_text({"blue": 4, "black": 1})) == "1 black, 4 blue"
    assert render.text_of(render.cubes_text([3, 0, 1, 0, 2], short=True)) == "3r 1k 2b"
    assert render.cubes_text([0, 0, 0, 0, 0]) == [("none", render.DIM)]
    assert render.cubes_text({"red": 2, "black": 1}) == [("2 red", "red"), (", ", ""), ("1 black", "bold black on bright_white")]


def test_features_text() -> None:
    cat = b.new_game(seed=1).cat
    assert render.text_of(render.features_text(cat.dogs["dutch-shepherd"])) == "hurdle:-1 a-frame:pass"
    assert render.text_of(render.features_text(cat.dogs["mighty-mutt"])) == "all:feat"


@pytest.mark.parametrize("seed", [2, 9])
def test_every_state_of_a_playout_fits_80_columns(seed: int) -> None:
    """Deterministic playouts: every board fits, every decision narrates, every short form parses back."""
    s = b.new_game(seed=seed, board=rules.random_board(seed, "b"))
    for n, s, m, after in b.playout(seed):
        sentence = narrate.describe(s, m, after)
        assert sentence.startswith(m.player) and "\n" not in sentence
        assert narrate.short(m).split()[0] == type(m).__struct_config__.tag.replace("_", "-")
        if n % 5 == 0 or after.winner is not None:
            assert_fits(board_text(after, ["agility move g.jsonl done"]))
        s = after
    assert s.winner is not None, "the playout should end"


# --------------------------------------------------------------------------------------------
# Narration


def test_narrate_play_on_break() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 3, 1, 1)  # t11 (a 3: 3 blue or 2 red), t01, t02
    b.cubes(s, b.A, red=1)
    s.marker = 2
    after, text = step(s, Play(player="alice", card="t11", reward="red"))
    assert text == "alice plays t11 (a 3, reward red), marker 2→5: Break"
    assert narrate.short(Play(player="alice", card="t11", reward="red")) == "play t11 red"


def test_narrate_play_with_flex_on_boost() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 3, 1, 1)
    s.marker, s.players[0].flex = 2, 1
    top = s.deck[0]
    move = Play(player="alice", card="t11", reward="blue", flex=1)
    after, text = step(s, move)
    number = s.cat.cards[top].number
    assert text == f"alice plays t11 (a 3, reward blue), marker 2→5, Flex +1 → 6: Boost; turns up {top} ({a_number(number)})"
    assert narrate.short(move) == "play t11 blue flex+1"


def test_narrate_flex_tile_reward_and_turn() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 2, 1, 1)  # t06: 3 red or 2 black
    after, text = step(s, Play(player="alice", card="t06", reward="red"))
    assert text == "alice plays t06 (a 2, reward red), marker 0→2: Flex; takes a Flex token; gets 3 red"
    after, text = step(after, Done(player="alice"))
    assert text == "alice ends the dog step"
    card = after.display[0]
    after, text = step(after, Take(player="alice", card=card))
    assert text == f"alice takes {card} ({a_number(s.cat.cards[card].number)}) from the display"


def test_a_card_number_takes_the_article_it_is_said_with() -> None:
    """"take t33 (an 8)", never "(a 8)" (issue 51)."""
    assert [a_number(n) for n in (1, 8, 10, 11, 18, 80)] == ["a 1", "an 8", "a 10", "an 11", "an 18", "an 80"]
    s = b.new_game(seed=1)
    eight = next(c for c, card in s.cat.cards.items() if card.number == 8)
    assert narrate._card(s, eight) == f"{eight} (an 8)"


def test_narrate_sweep_gives_both_rewards() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 9, 1, 1)  # t36: 1 red or 1 green
    s.marker = 1
    after, text = step(s, Play(player="alice", card="t36", reward="green"))
    assert text == "alice plays t36 (a 9, reward green), marker 1→0: Sweep; gets 1 red, 1 green"  # R16


def test_narrate_clear_tile_moves_dogs() -> None:
    s = b.new_game(seed=1)
    b.hand(s, b.A, 1, 1, 1)  # t01: 3 blue or 3 yellow
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="whippet")
    b.course(s, 2, [b.TUNNEL, b.HURDLE, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="papillon", position=1)
    b.course(s, 3, [b.TUNNEL, b.HURDLE, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="mighty-mutt")
    after, text = step(s, Play(player="alice", card="t01", reward="blue"))
    assert text == "alice plays t01 (a 1, reward blue), marker 0→1: Clear Hurdles; moves the dogs on 2A, 6A; gets 3 blue"


def test_narrate_adopt() -> None:
    s = b.to_phase(b.new_game(seed=1), "dogs")
    b.cubes(s, b.A, blue=4, black=1)
    move = Adopt(player="alice", dog="golden-retriever", course="7B")
    after, text = step(s, move)
    assert text == "alice adopts Golden Retriever onto course 7B for 4 blue, 1 black"
    assert narrate.short(move) == "adopt golden-retriever 7B"


def test_narrate_advance_with_minus_one_spare() -> None:
    s = b.to_phase(b.new_game(seed=1), "dogs")
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="dutch-shepherd")
    b.cubes(s, b.A, blue=2, black=1)
    move = Advance(player="alice", course="2A", spare="blue")
    after, text = step(s, move)
    assert text == "alice advances the dog on 2A past the hurdle for 1 black, 1 blue (minus one spares 1 blue)"
    assert b.cube_dict(after, b.A) == {"blue": 1}
    assert narrate.short(move) == "advance 2A spare blue"


def test_narrate_advance_pass_with_markers_and_rush() -> None:
    s = b.to_phase(b.new_game(seed=1), "dogs")
    c = b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="golden-retriever")
    c.obstacles[0].plus[2] = 1  # +1 black (R20: pass no longer makes it free)
    c.obstacles[0].rush = True
    b.cubes(s, b.A, black=1)
    after, text = step(s, Advance(player="alice", course="2A"))
    assert text == (
        "alice advances the dog on 2A past the hurdle for 1 black (pass; clears the Rush marker; +1 black marker)"
    )


def test_narrate_pause_box_then_mini_turn() -> None:
    s = b.to_phase(b.new_game(seed=1), "dogs")
    b.course(s, 0, [b.PAUSE, b.HURDLE, b.TUNNEL, b.WEAVE, b.AFRAME], owner=b.A, dog="whippet")
    b.cubes(s, b.A, red=4)
    after, text = step(s, Advance(player="alice", course="2A"))
    assert text == "alice advances the dog on 2A past the pause box for 4 red: a mini-turn"
    after, text = step(after, Done(player="alice"))
    assert text == "alice ends the dog step; a mini-turn begins"
    card = after.players[0].hand[0]
    reward = after.cat.cards[card].rewards[0].color
    after2, text = step(after, Play(player="alice", card=card, reward=reward))
    assert text.startswith(f"alice plays {card} in a mini-turn (a ")


def test_narrate_first_finish_prize_and_win() -> None:
    s = b.to_phase(b.new_game(seed=1), "dogs")
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="whippet", position=4)
    b.course(s, 1, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="papillon", position=5)
    b.course(s, 2, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="mighty-mutt", position=4)
    b.cubes(s, b.A, black=4, yellow=2)
    s.first_three = b.A
    after, text = step(s, Advance(player="alice", course="2A"))
    assert text == (
        "alice advances the dog on 2A past the A-frame for 2 black, 1 yellow; "
        "the dog on 2A finishes; alice takes the Tiebreak marker"
    )
    after, text = step(after, Prize(player="alice", token="exchange"))
    assert text == "alice chooses the Exchange token (prize: first to finish a course)"
    after, text = step(after, Advance(player="alice", course="6A"))
    assert text == (
        "alice advances the dog on 6A past the A-frame for 2 black, 1 yellow (featured); "
        "the dog on 6A finishes; alice wins"
    )
    assert narrate.short(Prize(player="alice", token="exchange")) == "prize exchange"


def test_narrate_intimidation_and_discard() -> None:
    s = b.new_game(seed=1, board=b.board_with(s3="intimidation"))
    b.hand(s, b.A, 3, 1, 1)  # t11
    after, text = step(s, Play(player="alice", card="t11", reward="blue"))
    assert text == (
        "alice plays t11 (a 3, reward blue), marker 0→3: Intimidation; "
        "bob takes a Flex token; bob must discard a card and keeps 2; gets 3 blue"
    )
    after = b.play(after, Done(player="alice"))
    after = b.play(after, Take(player="alice", card=after.display[0]))
    card = after.players[1].hand[0]
    after, text = step(after, Discard(player="bob", card=card))
    assert text == "bob discards a card (Intimidation)"


def test_narrate_opponent_targets_and_exchange() -> None:
    s = b.new_game(seed=1, board=b.board_with(s8="rush", s9="slip"))
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.B, dog="whippet")
    s.phase = "distract"
    after, text = step(s, Distract(player="alice", course="2A", obstacle=1, color="red"))
    assert text == "alice puts a +1 red marker on bob's tunnel (obstacle 2) on 2A"
    assert narrate.short(Distract(player="alice", course="2A", obstacle=1, color="red")) == "distract 2A 2 red"
    assert narrate.short(Slip(player="alice", course="2A", gap=2)) == "slip 2A 2"
    s.phase = "rush"
    after, text = step(s, Rush(player="alice", course="2A"))
    assert text == "alice puts a Rush marker on the hurdle bob's dog faces on 2A"
    s.phase = "slip"
    after, text = step(s, Slip(player="alice", course="2A", gap=2))
    assert text == "alice slips an open ground tile into 2A between the tunnel and the pause box"
    s.phase, s.players[0].exchange = "dogs", 1
    b.cubes(s, b.A, red=3)
    after, text = step(s, Exchange(player="alice", from_="red", to="blue"))
    assert text == "alice exchanges 3 red for 3 blue"
    assert narrate.short(Exchange(player="alice", from_="red", to="blue")) == "exchange red blue"


def test_narrate_inspiration_and_boost_option_a() -> None:
    s = b.new_game(seed=1, board=b.board_with(s4="inspiration"))
    s.phase = "inspire"
    after, text = step(s, Inspire(player="alice", color="green"))
    assert text == "alice takes the green cube from Inspiration"
    s = b.new_game(seed=1)
    s.phase, s.boost_card = "boost", "t06"  # a 2: space 2 is Flex on the recommended board
    after, text = step(s, BoostAction(player="alice"))
    assert text == "alice takes Boost option A: space 2, Flex; takes a Flex token"
    assert narrate.short(BoostAction(player="alice")) == "boost-action"


def test_narrate_final_turn_for_the_opponent() -> None:
    """R34: the start player finishes without the Tiebreak marker: the opponent plays a final turn."""
    s = b.to_phase(b.new_game(seed=1), "dogs")
    b.course(s, 0, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="whippet", position=4)
    b.course(s, 1, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="papillon", position=5)
    b.course(s, 2, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.A, dog="mighty-mutt", position=5)
    b.course(s, 3, [b.HURDLE, b.TUNNEL, b.PAUSE, b.WEAVE, b.AFRAME], owner=b.B, dog="pembroke-welsh-corgi", position=5)
    s.first_three, s.first_finish, s.tiebreak = b.A, b.B, b.B
    b.cubes(s, b.A, black=2, yellow=1)
    after, text = step(s, Advance(player="alice", course="2A"))
    assert text == "alice advances the dog on 2A past the A-frame for 2 black, 1 yellow; the dog on 2A finishes"
    after, text = step(after, Done(player="alice"))
    assert text == "alice ends the dog step; bob plays one final turn"
    assert render.text_of(render.status_text(after)).startswith("Turn 2 · bob's turn (final turn)")
