"""Joining, inviting and the seed handshake (R40) in Chinese (issue 54).

The refusals of ``join`` (the creator's own game, a game with no handshake, a second join, a name
not in the game), the game that waits for its join or reveal, the handshake's game file errors,
the invitation a mailbox does not hold, the words said when a mail cannot be sent, and the
narration of the join and reveal taken in: each in zh (Chinese, no English left but commands,
names and ids) and in the pseudo-locale (no bare English), English unchanged.
"""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest

from agility_cli import i18n
from agility_cli.record import gamefile
from agility_cli.record.handshake import HandshakePending
from agility_cli.said import Said, tell
from test_i18n_errors import _check, run

LANGS = ["zh", "qps"]


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for var in ("AGILITY_MAILBOX", "AGILITY_SMTP_HOST", "AGILITY_MAIL_COMMAND", "AGILITY_PLAYER"):
        monkeypatch.delenv(var, raising=False)


class Machines:
    """Two machines (two key stores) at one table: each command runs on the one named."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch):
        self.root, self.monkeypatch = root, monkeypatch

    def on(self, who: str) -> None:
        self.monkeypatch.setenv("AGILITY_HOME", str(self.root / f"{who}-home"))


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machines:
    return Machines(tmp_path, monkeypatch)


def _fair_game(table: Machines) -> Path:
    """alice's fair game with bob (the seed by handshake), copied to bob's machine as it is."""
    table.on("alice")
    result = run("en", "new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    assert result.exit_code == 0, result.output
    return Path("game.jsonl")


def _said(lang: str, result, code: int, *words: str, also: tuple[str, ...] = ()) -> str:
    text = _check(result, lang, code, *also)
    if lang == "zh":
        for word in words:
            assert word in text, (word, text)
    else:
        assert "⟦" in text, text
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_join_refusals_are_said_in_the_language(table: Machines, lang: str):
    game = _fair_game(table)
    before = game.read_bytes()
    # the creator's own machine: the other player joins
    _said(lang, run(lang, "join", game), 1, "这台机器保存着 alice 的密钥", "加入的玩家是 bob")
    # a game whose seed was chosen: no join
    assert run("en", "new", "solo.jsonl", "--players", "alice", "bob", "--seed", "7").exit_code == 0
    _said(lang, run(lang, "join", "solo.jsonl"), 1, "不需要加入", "种子由创建者选定", "对局已在进行")
    # bob's machine: the game waits for his join; a name not in the game cannot join
    table.on("bob")
    _said(lang, run(lang, "show", game), 1, "对局还没有开始：bob 还没有加入", "如果你是 bob")
    _said(lang, run(lang, "join", game, "--as", "carol"), 1, "carol 不能加入", also=("carol",))
    assert game.read_bytes() == before
    assert run("en", "join", game, "--raw").exit_code == 0
    joined = game.read_bytes()
    _said(lang, run(lang, "join", game), 1, "bob 已经加入", "公开秘密")
    assert game.read_bytes() == joined


@pytest.mark.parametrize("lang", LANGS)
def test_a_misplaced_handshake_line_is_a_game_file_error_in_the_language(table: Machines, lang: str):
    game = _fair_game(table)
    table.on("bob")
    assert run("en", "join", game, "--raw").exit_code == 0
    rows = game.read_bytes().split(b"\n")
    game.write_bytes(b"\n".join([rows[0], rows[1], rows[1], b""]))  # the join again where the reveal goes
    text = _said(lang, run(lang, "show", game), 3, "第 3 行必须是创建者的", "种子握手在最前面")
    if lang == "qps":
        assert "reveal" not in text.replace("`reveal`", "")


@pytest.mark.parametrize("lang", LANGS)
def test_no_invitation_in_the_mailbox_is_said_in_the_language(table: Machines, lang: str):
    table.on("bob")
    mailbox.Maildir("box")
    _said(lang, run(lang, "play", "game.jsonl", "--mail", "box"), 2, "这里没有对局文件", "没有对局邀请",
          also=("box",))
    _said(lang, run(lang, "play", "game.jsonl", "--mail", "nowhere"), 2, "也不是能找到邀请的邮箱",
          also=("nowhere", "imaps", "host"))  # the address syntax of an IMAP mailbox


@pytest.mark.parametrize("lang", LANGS)
def test_a_failed_invitation_mail_says_what_to_do_in_the_language(table: Machines, lang: str,
                                                                  monkeypatch: pytest.MonkeyPatch):
    table.on("alice")
    monkeypatch.setenv("AGILITY_MAIL_COMMAND", "false")
    text = _said(lang, run(lang, "new", "y.jsonl", "--players", "alice", "bob", "--to", "bob@example.org"), 2,
                 "已创建：请自己寄出邀请", "`false`")
    assert Path("y.jsonl").exists(), text


@pytest.mark.parametrize("lang", LANGS)
def test_the_join_and_reveal_taken_in_are_told_in_the_players_words(table: Machines, lang: str):
    game = _fair_game(table)
    Path("bob").mkdir()
    (Path("bob") / "game.jsonl").write_bytes(game.read_bytes())
    table.on("bob")
    result = run("en", "join", "bob/game.jsonl", "--raw")
    assert result.exit_code == 0, result.output
    Path("join.txt").write_text(result.output)
    table.on("alice")
    result = run(lang, "apply", game, "join.txt")
    assert result.exit_code == 0, result.output
    first = result.output.split("\n", 1)[0]
    if lang == "zh":
        assert "已收入种子握手的加入 和 揭示行" in first, first
    else:
        assert "join" not in first and "reveal" not in first and "⟦jóíñ" in first, first


def test_english_is_unchanged(table: Machines, monkeypatch: pytest.MonkeyPatch):
    game = _fair_game(table)
    out = run("en", "join", game).output
    assert "this machine holds alice's key: alice created this game and bob is the player who joins it" in out
    assert run("en", "new", "solo.jsonl", "--players", "alice", "bob", "--seed", "7").exit_code == 0
    assert "solo.jsonl needs no join: its seed was chosen by its creator and the game is under way" in \
        run("en", "join", "solo.jsonl").output
    table.on("bob")
    out = " ".join(run("en", "show", game).output.split())
    assert "the game has not started: bob has not joined it yet. If you are bob, join it with" in out
    assert run("en", "join", game, "--raw").exit_code == 0
    out = " ".join(run("en", "join", game).output.split())
    assert "bob has joined already; the game waits for alice's reveal" in out
    monkeypatch.setenv("AGILITY_MAIL_COMMAND", "false")
    table.on("alice")
    out = " ".join(run("en", "new", "y.jsonl", "--players", "alice", "bob", "--to", "bob@example.org").output.split())
    assert "AGILITY_MAIL_COMMAND (`false`) failed (exit 1); y.jsonl is created: mail the invitation yourself" in out


def test_the_pending_handshake_keeps_its_message_for_programs(table: Machines):
    """The refusal a program reads stays English; a person reads it in the language in use."""
    game = _fair_game(table)
    table.on("bob")
    with pytest.raises(HandshakePending) as caught:
        gamefile.load(game)
    message = caught.value.message
    assert isinstance(message, Said) and str(message).startswith("the game has not started: bob has not joined")
    i18n.set_language("zh")
    try:
        assert tell(message).startswith("对局还没有开始：bob 还没有加入。")
    finally:
        i18n.set_language(None)
