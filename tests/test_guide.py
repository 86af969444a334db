"""The rules for players (`agility rules`, agility_cli/guide.py, docs/guide.md) and the global
options (`--version`, shell completion).

The guide describes rules version 2 (R12 reward after the action, R13 reshuffle at once, R36
Intimidation discard at once, R38 versions); a section for every tile of R7.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agility_cli.table import guide
from agility_cli.cli import app
from agility_cli.engine.components import TILES, tile_name

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

# The topics the guide must have besides one per tile (issue 11's list).
TOPICS = {
    "overview": "the game in a nutshell",
    "goal": "goal and winning",
    "turn": "a turn's steps",
    "cards": "training cards, display, deck and reshuffle",
    "dogs": "dogs, features and the movement limit",
    "markers": "+1 markers",
    "pause": "the pause box and mini-turns",
    "prizes": "prizes, the tiebreak and the final turn",
    "tokens": "cubes, colours, Flex and Exchange tokens",
    "start": "the start of a game: no cubes, three cards each, the displays, the start player",
    "legend": "the board's marks and abbreviations",
    "strategy": "tips for a first game",
    "hidden": "hidden cards and what each player sees",
    "mail": "playing by mail and by git",
    "versions": "rules versions",
    "rulings": "the ruling ids that messages cite, one sentence each",
}
PHASES = (
    "play", "reward", "discard", "break", "return", "put_back", "draw", "boost", "distract",
    "rush", "slip", "inspire", "dogs", "refill", "prize", "over",
)


def run(*args: str, env: dict[str, str] | None = None):
    result = runner.invoke(app, list(args), env=env)
    assert "Traceback" not in result.output
    assert "Traceback" not in (result.stderr or "")
    return result


def text_of(topic_id: str) -> str:
    return " ".join(guide.find(topic_id).text.split())


# -- the sections --------------------------------------------------------------------------------


@pytest.mark.parametrize("tile", TILES)
def test_r7_every_tile_has_its_section(tile: str):
    topic = guide.find(tile)
    assert topic.id == tile
    assert topic.title == tile_name(tile)
    assert len(topic.text.split()) >= 40, f"the {tile} section is too short to teach the tile"


def test_every_topic_exists_and_ids_are_unique():
    ids = [t.id for t in guide.topics()]
    assert len(ids) == len(set(ids))
    assert set(TOPICS) | set(TILES) == set(ids)
    assert ids[0] == "overview"
    for topic in guide.topics():
        assert topic.title and topic.text.strip(), topic.id
        assert "<!--" not in topic.text, f"{topic.id}: a comment leaked into the text"


RULING_ID = re.compile(r"\bR[0-9]+\b")


def test_the_guide_is_the_projects_own_words():
    """User-facing text never points outside the repository."""
    for text in (guide.markdown(), (ROOT / "agility_cli" / "data" / "guide.md").read_text()):
        assert "shared/" not in text and "RULES.md" not in text and "INTERFACE.md" not in text
        assert "rules.md" not in text.lower()


def test_ruling_ids_appear_only_where_the_guide_explains_them():
    """Ruling ids are for the code; a player meets them only in messages, and the rulings topic
    (or `agility rules R12`) explains each one."""
    for topic in guide.topics():
        if topic.id != "rulings":
            assert not RULING_ID.search(topic.title + topic.text), topic.id
    for tile in TILES:
        assert not RULING_ID.search(guide.tile_hint(tile)), tile
    for phase in PHASES:
        assert not RULING_ID.search(guide.phase_help(phase)), phase
    assert not RULING_ID.search(guide.feature_hint() + guide.contents())


def cited_ruling_ids() -> set[str]:
    """Every ruling id the code names (messages cite them: `refused: … (R21)`)."""
    ids: set[str] = set()
    for path in (ROOT / "agility_cli").rglob("*.py"):
        ids |= set(RULING_ID.findall(path.read_text(encoding="utf-8")))
    return ids


def test_the_rulings_topic_explains_every_id_a_message_may_cite():
    listed = guide.find("rulings").text
    cited = cited_ruling_ids()
    # the ids of refusals the issue named, besides any other the code cites
    assert {"R12", "R13", "R18", "R21", "R22", "R31", "R34", "R36", "R39", "R40", "R41"} <= cited
    for rule_id in sorted(cited, key=lambda r: int(r[1:])):
        assert f"- **{rule_id}**: " in listed, rule_id
        sentence, topic = guide.ruling(rule_id)
        assert sentence.endswith(".") and 20 < len(sentence) < 200 and "`R" not in sentence, rule_id
        guide.find(topic)  # the topic it names exists
    assert guide.ruling("R21")[1] == "rush" and guide.ruling("R29")[1] == "pause"
    assert guide.ruling("r12") == guide.ruling(" R12 ")


@pytest.mark.parametrize(("word", "topic"), [("R12", "turn"), ("r21", "rush"), (" R34 ", "prizes"), ("R40", "mail")])
def test_a_ruling_id_as_the_topic_shows_its_line_and_the_topic_to_read(word: str, topic: str):
    found = guide.find(word)
    rule_id = word.strip().upper()
    sentence, more = guide.ruling(rule_id)
    assert more == topic
    assert found.title == f"Ruling {rule_id}"
    assert f"**{rule_id}**: {sentence}" in found.text
    assert f"More: `agility rules {topic}`" in found.text


def test_an_unknown_ruling_id_is_a_clear_error():
    for word in ("R99", "r0", "R45"):
        with pytest.raises(guide.TopicError, match=r"no ruling .* rulings: R1–R44 \(agility rules rulings\)"):
            guide.find(word)


def test_a_badly_written_ruling_is_reported():
    with pytest.raises(ValueError, match="a ruling reads"):
        guide._parse("# T\n\n## overview — O\n\nx\n\n## rulings — Rulings by number\n\n- **R1** no colon\n")
    with pytest.raises(ValueError, match="names no topic"):
        guide._parse("# T\n\n## rulings — Rulings by number\n\n- **R1**: A line. → `agility rules nowhere`\n")
    parsed = guide._parse("# T\n\n## rulings — R\n\n- **R1**: A line\n  that wraps. → `agility rules rulings`\n")
    assert parsed.rulings == {"R1": ("A line that wraps.", "rulings")}


def test_r12_the_one_marker_both_players_move():
    """The heart of choosing a card: one shared marker, moved from where it stands."""
    overview = text_of("overview").replace("**", "")
    assert "One marker, shared by both players." in overview
    assert "There is only this one marker, and both players move it." in overview
    assert "from the space where it stands now by the card's number" in overview
    assert "the tile it lands on is the action you get" in overview
    assert "where your opponent's last card left it" in overview
    assert "decides what your opponent's cards can reach next" in overview
    assert "a card `[3]` lands on space 7 and a card `[6]` on space 0" in overview
    assert "both players move the same marker" in text_of("turn")


def test_r10_the_start_no_cubes_three_cards_the_displays_the_start_player():
    text = text_of("start").replace("**", "")
    assert "both players begin with no cubes" in text and "`cubes none`" in text
    assert "dealt 3 training cards" in text and "`hand 3/3`" in text
    assert "3 training cards lie face up" in text and "5 dogs lie face up" in text
    assert "marker on space 0, Sweep" in text
    assert "The start player plays the first turn" in text and "`--first`" in text
    assert "agility rules start" in guide.find("overview").text


# Every mark of the text board (render.py) and where the legend explains it.
LEGEND_MARKS = (
    "`2k 1b` means 2 black and 1 blue", "r** red", "g** green", "k** black", "y** yellow", "b** blue",
    "`[2]` is the card's **number**", "`t09` is a card's **id**", "`3 blue | 2 black` are its two **rewards**",
    "`#1 3B`: **slot** #1", "**course id** 3B", "`▶` marks where the counting marker",
    "`▶` marks the obstacle the dog **faces now**", "`✓weave`: an obstacle already **cleared**", "`FINISHED`",
    "`pass` (free", "`-1` (one cube less", "`feat` (featured", "`+1k`: a **+1 marker**", "one black cube more",
    "`RUSH`: a Rush marker", "`hurdle:pass`", "`all:feat`", "`weave` (weave poles)", "`open` (open", "`pause` (the pause box)",
    "`deck 30 · discard 0`", "`3 cards you cannot see`", "`a card face down`", "`(start player)`", "`(Tiebreak)`",
    "`(WINNER)`", "`hand 3/3`: cards in hand now / the hand size", "`must discard 1`", "`dogs 1/3`", "1/5 cleared`: whose dog",
    "`Inspiration cubes left", "`(mini-turn)`", "`(final turn)`", "`[alice's view]`", "`Boost card …`",
    "`→ Clear A-Frames (marker 4→7)`", "`cubes none`",
)


def test_the_legend_names_every_mark_of_the_board():
    text = text_of("legend")
    for mark in LEGEND_MARKS:
        assert mark in text, mark


def test_the_legend_uses_the_marks_render_prints():
    from agility_cli.table import render

    text = text_of("legend")
    for colour, letter in render.COLOUR_LETTERS.items():
        assert f"**{letter}** {colour}" in text
    for tag in render.FEATURE_TAGS.values():
        assert f"`{tag}`" in text
    for name in render.OBSTACLE_NAMES.values():
        assert f"`{name}`" in text
    assert f"`{render.MARK}`" in text and f"`{render.DONE}weave`" in text


def test_the_legends_example_rows_are_what_the_board_prints():
    """The example in the legend is a real board: build that position and render it."""
    from builders import board_with, cubes, new_game

    from agility_cli.table import render
    from agility_cli.engine.view import seat_view

    s = new_game(seed=15, board=board_with(s8="rush"), version=2)
    s.marker = 4
    mine, theirs = s.courses[1], s.courses[2]
    mine.dog, mine.owner, mine.position = "golden-retriever", 0, 1
    mine.obstacles[1].plus = [0, 0, 1, 0, 0]  # a black +1 marker
    theirs.dog, theirs.owner, theirs.position = "mighty-mutt", 1, 2
    theirs.obstacles[2].rush = True
    s.players[0].dogs, s.players[1].dogs = ["golden-retriever"], ["mighty-mutt"]
    cubes(s, 0, red=2, black=1, blue=3)
    s.players[0].flex = 1
    board = render.board_plain(seat_view(s, 0))  # alice's view, as in the example
    example = guide.find("legend").text.split("```")[1]
    for row in example.strip("\n").splitlines():
        # a row's cells, as the board separates them (" · " or a column gap), "…" left out
        for cell in re.split(r" · |\s{2,}", row.strip()):
            cell = cell.rstrip("… ").strip()
            if cell:
                assert cell in board, (row, cell)


def test_strategy_gives_concrete_tips_that_fit_the_rules():
    text = text_of("strategy").replace("**", "")
    for tip in (
        "Read where each card goes before you choose",  # the shared marker
        "Put each dog on a course that suits it",  # features
        "Count your red", "three dogs need 12 red cubes",  # colours: 3 pause boxes x 4 red (R29)
        "Keep a token for the turn that matters", "Exchange token",  # Flex and Exchange
        "Watch what you leave your opponent",  # the opponent's reachable tiles
        "Line dogs up in front of the same obstacle type",  # Clear tiles (R17)
    ):
        assert tip in text, tip
    assert len(re.findall(r"(?m)^\d+\. ", guide.find("strategy").text)) >= 5
    assert "agility rules strategy" in guide.find("overview").text


def test_r12_version_2_reward_after_the_action():
    turn = text_of("turn")
    assert "You choose *after* the action" in turn
    assert "play 3 --reward red" in turn and "binding" in turn
    assert "reward" in guide.phase_help("reward") and "after" in guide.phase_help("play")


def test_r22_r36_version_2_intimidation_discard_at_once():
    text = text_of("intimidation")
    assert "at once discards one card" in text
    assert "made right away, before you go on with your turn" in text


def test_r13_version_2_reshuffle_the_moment_the_deck_runs_out():
    assert "the moment the deck runs out" in text_of("cards").lower()


def test_r21_rush_blocks_every_other_dog_free_moves_included():
    text = text_of("rush").replace("**", "")
    assert "paid moves only" not in text  # the old, wrong wording
    assert "may not adopt a dog" in text
    assert "move only the dog that has the Rush marker ahead of it" in text
    assert "no paid clears and no free clears of feature obstacles" in text
    assert "a Clear action still moves every one of their dogs" in text
    assert "`RUSH`" in text
    help_text = guide.phase_help("rush")
    assert "paid moves" not in help_text and "free feature clears included" in help_text
    assert "Clear tiles still move them all" in help_text


def test_r15_r29_exchange_example_pays_a_whole_pause_box():
    text = text_of("exchange")
    assert "3 blue into 3 red for a pause box" not in text  # the old example fell one red short
    assert "a pause box costs 4 red" in text
    assert "with 1 red and 3 blue" in text and "all 3 blue into 3 red" in text
    assert "the 4 red it needs" in text


def test_r38_version_1_games_keep_their_rulings():
    text = text_of("versions")
    assert "version 2" in text and "version 1" in text
    assert "keep replaying exactly" in text


def test_r27_the_movement_limit_and_the_three_features():
    text = text_of("dogs")
    for word in ("pass", "minus one", "featured", "at most one paid clear", "any number of clears"):
        assert word in text.replace("**", ""), word


def test_r30_r31_mini_turns_and_r34_final_turn_are_explained():
    assert "mini-turn" in text_of("pause") and "4 red" in text_of("pause")
    prizes = text_of("prizes")
    assert "Tiebreak marker" in prizes and "one final turn" in prizes


def test_r40_r41_mail_section_names_the_commands():
    text = text_of("mail")
    for command in ("agility new", "agility join", "agility move", "agility apply", "signature", "--seed"):
        assert command in text, command


# -- lookup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "topic"),
    [
        ("boost", "boost"), ("BOOST", "boost"), ("boo", "boost"), ("mini", "pause"), ("pause", "pause"),
        ("mini-turns", "pause"), ("tie", "prizes"), ("final", "prizes"), ("git", "mail"), ("+1", "markers"),
        ("hurdles", "clear_hurdles"), ("clear-a", "clear_a_frames"), ("a-frames", "clear_a_frames"),
        ("flex", "flex"), ("cubes", "tokens"), ("features", "dogs"), ("intim", "intimidation"),
    ],
)
def test_find_by_id_or_prefix_of_id_or_of_a_title_word(word: str, topic: str):
    assert guide.find(word).id == topic


def test_find_ambiguous_lists_the_candidates():
    with pytest.raises(guide.TopicError) as err:
        guide.find("cl")
    message = str(err.value)
    assert "could mean" in message
    for tile in ("clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles"):
        assert tile in message


def test_find_unknown_lists_every_topic():
    for word in ("zzz", "", "  "):
        with pytest.raises(guide.TopicError) as err:
            guide.find(word)
        assert all(t.id in str(err.value) for t in guide.topics())


# -- hints and step help ---------------------------------------------------------------------------


@pytest.mark.parametrize("tile", TILES)
def test_tile_hint_is_one_short_line(tile: str):
    hint = guide.tile_hint(tile)
    assert "\n" not in hint and 10 < len(hint) <= guide.HINT_WIDTH
    assert hint.startswith(tile_name(tile) + ": ")


def test_tile_hint_of_an_unknown_tile_is_a_clear_error():
    with pytest.raises(ValueError, match="no tile 'teleport'"):
        guide.tile_hint("teleport")


def test_feature_hint_explains_the_three_marks():
    hint = guide.feature_hint()
    assert "\n" not in hint and len(hint) <= 72
    for mark in ("pass", "-1", "feat"):
        assert mark in hint


@pytest.mark.parametrize("phase", PHASES)
def test_phase_help_explains_each_step_and_names_a_topic(phase: str):
    text = guide.phase_help(phase)
    assert "\n" not in text and 40 < len(text) < 600
    assert "More: agility rules " in text
    guide.find(text.rsplit("More: agility rules ", 1)[1])  # the topic it points to exists


def test_phase_help_is_plain_text():
    for phase in PHASES:
        assert "`" not in guide.phase_help(phase) and "**" not in guide.phase_help(phase)


def test_phase_help_is_specific_and_unknown_phases_fall_back():
    assert len({guide.phase_help(p) for p in PHASES}) == len(PHASES)
    assert guide.phase_help("no-such-phase").endswith("More: agility rules turn")


# -- rendering -------------------------------------------------------------------------------------


def test_plain_rendering_wraps_lists_and_drops_markdown_marks():
    source = (
        "Some **bold** and *it* and `code *x*` here\ntoo.\n\n- an item that is long enough\n"
        "  to wrap at thirty columns\n1. say `done` or `-1`\n\n```\nkept   as is\n```"
    )
    assert guide.to_plain(source, 30).splitlines() == [
        "Some bold and it and code *x*",
        "here too.",
        "",
        "- an item that is long enough",
        "  to wrap at thirty columns",
        '1. say "done" or -1',
        "",
        "    kept   as is",
    ]


def test_docs_guide_md_is_current():
    assert (ROOT / "docs" / "guide.md").read_text(encoding="utf-8") == guide.markdown(), (
        "docs/guide.md is stale: run `python -m agility_cli.table.guide > docs/guide.md`"
    )


def test_docs_links_point_at_anchors_that_exist():
    page = guide.markdown()
    for topic in guide.topics():
        assert f'<a id="{topic.id}"></a>' in page
        assert f"](#{topic.id})" in page


def test_bad_heading_in_the_data_file_is_reported():
    with pytest.raises(ValueError, match="## id — Title"):
        guide._parse("# Title\n\n## Boost without an id\n")


def test_guide_imports_light():
    code = "import sys, agility_cli.table.guide as g; g.topics(); g.tile_hint('boost'); print('rich' in sys.modules, 'typer' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# -- the command -----------------------------------------------------------------------------------


def test_rules_boost_prints_the_boost_section():
    r = run("rules", "boost")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["Boost", "====="]
    assert "top card of the deck" in r.stdout and "Clear Hurdles" not in r.stdout


def test_rules_by_prefix_mini_and_pause_print_the_pause_box():
    assert run("rules", "mini").stdout == run("rules", "pause").stdout
    assert run("rules", "mini").stdout.startswith("Pause box and mini-turns\n")


def test_rules_without_topic_prints_contents_then_the_overview():
    r = run("rules")
    assert r.exit_code == 0
    assert r.stdout.startswith("Topics: agility rules TOPIC")
    for topic in guide.topics():
        assert topic.id in r.stdout
    assert "\nOverview\n========\n" in r.stdout
    assert "Goal and winning\n====" not in r.stdout


def test_rules_all_prints_every_topic():
    r = run("rules", "--all")
    assert r.exit_code == 0
    for topic in guide.topics():
        assert f"\n{topic.title}\n{'=' * len(topic.title)}\n" in "\n" + r.stdout


def test_rules_output_fits_the_terminal_width():
    r = run("rules", "--all", env={"COLUMNS": "60"})
    assert r.exit_code == 0
    assert max(len(line) for line in r.stdout.splitlines()) <= 60


@pytest.mark.parametrize(("word", "expected"), [("cl", "could mean several topics"), ("zzz", "no topic 'zzz'")])
def test_rules_unknown_or_ambiguous_topic_is_a_usage_error(word: str, expected: str):
    r = run("rules", word)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert expected in r.stderr
    if word == "zzz":
        assert "boost" in r.stderr  # the list of topics


def test_rules_r12_prints_that_ruling_and_the_topic_to_read():
    r = run("rules", "R12")
    assert r.exit_code == 0, r.stderr
    sentence, _ = guide.ruling("R12")
    assert r.stdout.startswith("Ruling R12\n==========\n")
    assert " ".join(sentence.split()) in " ".join(r.stdout.split())
    assert "More: agility rules turn" in r.stdout
    assert run("rules", "r12").stdout == r.stdout


def test_rules_with_an_unknown_ruling_id_is_a_usage_error():
    r = run("rules", "R99")
    assert r.exit_code == 2 and r.stdout == ""
    assert "no ruling 'R99'" in r.stderr and "agility rules rulings" in r.stderr


def test_rules_topic_and_all_together_is_a_usage_error():
    r = run("rules", "boost", "--all")
    assert r.exit_code == 2 and "not both" in r.stderr


def test_rules_from_a_real_process_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "agility_cli", "rules", "b"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "could mean" in proc.stderr


# -- conventions -----------------------------------------------------------------------------------


def test_version_prints_the_installed_version():
    r = run("--version")
    assert r.exit_code == 0
    assert r.stdout == f"agility {version('agility-cli')}\n"


def test_shell_completion_is_offered_and_completes_topics():
    r = run("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
    from agility_cli.cli.tools import _topic_ids

    assert _topic_ids("cl") == ["clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles"]


# -- the README's first hour (issue 32) ------------------------------------------------------------

#: The seed of the game whose first screen the README shows (its quick start draws a seed of its own).
README_SEED = "887703817"


def test_the_readme_starts_with_how_to_play_and_its_screen_is_the_tools(tmp_path: Path):
    """Issue 32: README's first section is how to play: the one command that installs and plays, with
    the same bot as the sample screen, the screen `agility play` really shows (the first decision of
    the game of README_SEED), what a turn is, the three commands, and the test command; mail and git
    come next; depth is in docs/."""
    readme = (ROOT / "README.md").read_text()
    sections = [line for line in readme.splitlines() if line.startswith("## ")]
    assert sections[:2] == ["## How to play", "## Playing by email or by git"]
    howto = readme.split("## How to play", 1)[1].split("\n## ", 1)[0]
    first = howto.split("### More about play", 1)[0]
    command = re.search(r"```sh\n(.*?)\n```", first, re.S)
    assert command is not None and "pip install ." in command.group(1)
    assert command.group(1).endswith("agility new solo.jsonl --players alice bot:strong && agility play solo.jsonl")
    sample = re.search(r"```text\n(.*?)```", first, re.S)
    assert sample is not None
    bots = set(re.findall(r"bot:\w+", sample.group(1)))
    assert bots == {"bot:strong"}  # the same bot as in the command
    assert "**A turn**" in first and "**The three commands to know**" in first
    assert "python -m pytest -n auto\n" in first  # the test command, exactly
    path = tmp_path / "solo.jsonl"
    made = runner.invoke(app, ["new", str(path), "--seed", README_SEED, "--players", "alice", "bot:strong", "-q"])
    assert made.exit_code == 0
    shown = runner.invoke(app, ["play", str(path)], input="quit\n", env={"COLUMNS": "80"})
    screen = sample.group(1).rsplit("> ", 1)[0]
    assert screen in shown.stdout.replace(str(path), "solo.jsonl"), shown.stdout
    for doc in ("docs/bots.md", "docs/fair-play.md", "docs/performance.md"):
        assert f"]({doc}" in readme and (ROOT / doc).exists()
