"""Issue 54: the commands to copy under a board (`new`, `show`, `move`) say their few words in the
language in use — the options line, how many more, whose decision the game waits for, how to send
— and the commands themselves stay as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from agility_cli import i18n
from agility_cli.cli import app

runner = CliRunner()


def run(lang: str, home: Path, *args: object):
    i18n.set_language(lang)
    try:
        result = runner.invoke(app, [str(a) for a in args], env={"AGILITY_HOME": str(home), "AGILITY_PLAYER": None})
    finally:
        i18n.set_language(None)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.stdout


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hints_under_the_board_are_in_the_language_in_use(tmp_path: Path, lang: str) -> None:
    game = tmp_path / "g.jsonl"
    made = run(lang, tmp_path / "home", "new", game, "--seed", "5", "--players", "alice", "bot:strong")
    assert "agility move" in made and "agility legal" in made  # the commands to copy, as they are
    if lang == "zh":
        assert "选项（奖励、弹性指示物 …）：" in made and "options (reward" not in made, made
    else:
        assert "options (reward, Flex …): " in made, made
    # a seat-by-seat game between two people at one screen: the other seat's decision, as bob sees it
    two = tmp_path / "two.jsonl"
    run(lang, tmp_path / "home", "new", two, "--seed", "5", "--players", "alice", "bob", "--deck", "seed")
    shown = run(lang, tmp_path / "home", "show", two, "--as", "bob")
    if lang == "zh":
        assert "alice 的决定：alice：" in shown and "'s decision" not in shown and "not sent" not in shown, shown
        assert "还没把你最新的行寄给 alice？" in shown, shown
    else:
        assert "alice's decision: alice to play a training card" in shown, shown
        assert "not sent alice your latest lines yet? " in shown, shown


def test_R44_what_a_sealed_game_waits_for_is_said_in_chinese(tmp_path: Path) -> None:
    """A sealed game paused for the other player's keys of the deal: `show` says it in the language
    in use (the board's hint and the refusal of `move`), and `--json` keeps its English."""
    from adversary import joined_pair

    alice, bob = joined_pair(tmp_path)
    i18n.set_language("zh")
    try:
        shown = alice.run("show", alice.file)
        moved = alice.run("move", alice.file, "play", "1")
    finally:
        i18n.set_language(None)
    assert "等待 bob 的密钥（密封牌库的发牌）" in shown.stdout and "waiting for" not in shown.stdout, shown.stdout
    assert moved.exit_code == 1 and "等待 bob 的密钥" in moved.stderr and "waiting for" not in moved.stderr, moved.stderr
    english = alice.run("show", alice.file)
    assert "waiting for bob's keys for the sealed deck's deal: bob's tool sends them" in english.stdout


def test_R44_a_hint_while_a_sealed_game_waits_for_keys_is_refused_not_a_bug(tmp_path: Path) -> None:
    """R44: while the deal waits for the other player's keys no decision is open: `hint` says what
    the game waits for (exit 1, in the language in use), as `move` does — never an internal error."""
    from adversary import joined_pair

    alice, bob = joined_pair(tmp_path)
    before = alice.file.read_bytes()
    english = alice.run("hint", alice.file)
    assert english.exit_code == 1 and "waiting for bob's keys" in english.stderr, english.output
    i18n.set_language("zh")
    try:
        chinese = alice.run("hint", alice.file)
    finally:
        i18n.set_language(None)
    assert chinese.exit_code == 1 and "等待 bob 的密钥" in chinese.stderr, chinese.output
    assert alice.file.read_bytes() == before
