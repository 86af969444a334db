"""Git transport, ``games``, the game file's format errors and the fork diagnosis in Chinese (issue 54).

Each path is driven for real (typer's runner, a git repository in a temporary folder) in zh and in
the pseudo-locale (qps): in zh no English word is left but the commands to copy, ids, file and
player names, what was quoted; in qps nothing unbracketed.  The English text that programs read
(``str()`` of an error, a git commit message, a game file's evidence) is as it was.
"""

from __future__ import annotations

import shutil
import re
import subprocess
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from agility_cli import i18n
from agility_cli.cli import app
from agility_cli.record import diagnose, gamefile, gitsync, lines
from agility_cli.said import message_of, tell
from test_i18n_errors import run as errors_run, leftover

runner = CliRunner()
GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"  # a finished game
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def run(lang: str, *args: object, input: str = "") -> str:
    return str(errors_run(lang, *args, input=input).output)


def has(out: str, *words: str) -> bool:
    """Whether each of ``words`` was said in ``out`` (prose wrapped at 80 columns: spaces aside)."""
    flat = "".join(out.split())
    return all("".join(w.split()) in flat for w in words)


def told(lang: str, text: object) -> str:
    i18n.set_language(lang)
    try:
        return tell(text)
    finally:
        i18n.set_language(None)


def english_left(lang: str, text: str) -> list[str]:
    i18n.set_language(lang)
    try:
        return leftover(text)
    finally:
        i18n.set_language(None)


def file_error(tmp_path: Path, content: bytes) -> gamefile.GameFileError:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(content)
    with pytest.raises(gamefile.GameFileError) as info:
        gamefile.load(str(path))
    return info.value


def told_error(lang: str, error: gamefile.GameFileError) -> str:
    i18n.set_language(lang)
    try:
        return error.told()
    finally:
        i18n.set_language(None)


# -- the game file's format: msgspec's words said through the catalog --------------------------------

def test_a_missing_field_is_said_in_chinese_and_stays_english_for_programs(tmp_path: Path) -> None:
    error = file_error(tmp_path, b'{"kind":"game"}\n')
    assert str(error.message) == "does not match the format: missing field `format` in a 'game' line"
    assert "every 'game' line has `format`" in str(error.hint)
    zh = told_error("zh", error)
    assert "不符合格式" in zh and "缺少字段 `format`" in zh and "对手的副本" in zh, zh
    assert english_left("zh", zh) == [], zh
    assert english_left("qps", told_error("qps", error)) == []
    assert "does not match the format" in told_error("en", error)


@pytest.mark.parametrize("edit, english, chinese", [
    (lambda o: o.update(mood="happy"), "unknown field `mood`", "未知字段 `mood`"),
    (lambda o: o.update(seed="x"), "wrong type for `seed`", "`seed` 的类型错误"),
    (lambda o: o.update(format=99), "format version 99 is not supported", "不支持格式版本 99"),
])
def test_msgspec_shapes_are_said_in_chinese(tmp_path: Path, edit, english: str, chinese: str) -> None:
    header = msgspec.json.decode(GOLDEN.read_bytes().split(b"\n")[0])
    edit(header)
    error = file_error(tmp_path, msgspec.json.encode(header) + b"\n")
    assert english in str(error), str(error)
    zh = told_error("zh", error)
    assert chinese in zh and english not in zh, zh


def test_malformed_json_keeps_msgspecs_english_and_is_told_in_chinese() -> None:
    with pytest.raises(msgspec.DecodeError) as info:
        msgspec.json.decode(b'{"kind": x}')
    text = str(info.value)
    said = lines.msgspec_said(text)
    assert str(said) == text and said != "" and told("zh", said).startswith("JSON 格式错误：无效字符")
    assert lines.msgspec_said("something msgspec never said") == "something msgspec never said"


# -- the fork diagnosis ----------------------------------------------------------------------------

def test_the_fork_diagnosis_is_said_in_chinese(tmp_path: Path) -> None:
    rows = GOLDEN.read_bytes().split(b"\n")
    error = file_error(tmp_path, b"\n".join(rows[:12] + rows[10:]))
    assert "appears twice, on line 11" in str(error) and "the game has forked" in str(error)
    assert "The player whose branch is dropped makes those decisions again" in str(error.hint)
    zh = told_error("zh", error)
    assert "出现了两次" in zh and "对局分叉了" in zh and "alice 和 bob 的" in zh and "变基" in zh, zh
    assert english_left("zh", zh) == [], zh
    assert english_left("qps", told_error("qps", error)) == []


def test_each_diagnosis_keeps_its_english(tmp_path: Path) -> None:
    rows = GOLDEN.read_bytes().split(b"\n")
    dropped = file_error(tmp_path, b"\n".join(rows[:5] + rows[6:]))
    assert "is missing: 1 line was dropped between line 5 and line 6" in str(dropped), str(dropped)
    assert "丢了 1 行" in told_error("zh", dropped)
    cut = file_error(tmp_path, b"\n".join(rows[:6])[:-3])
    assert "incomplete last line" in str(cut) and "最后一行不完整" in told_error("zh", cut)
    assert diagnose.Lines(b"a\nb\n")[1] == b"b"


# -- git ---------------------------------------------------------------------------------------------

@needs_git
def test_a_file_in_no_repository_is_said_in_chinese(tmp_path: Path) -> None:
    with pytest.raises(gitsync.GitError) as info:
        gitsync.repository(tmp_path / "game.jsonl")
    assert str(info.value).endswith("is not in a git repository: clone the shared repository, or play without --git")
    zh = told("zh", message_of(info.value))
    assert "不在 git 仓库中" in zh and "克隆共享的仓库" in zh, zh


@needs_git
def test_play_by_git_is_said_in_chinese_and_commits_in_english(tmp_path: Path) -> None:
    game = tmp_path / "solo.jsonl"
    assert runner.invoke(app, ["new", str(game), "--players", "alice", "bot:greedy", "--seed", "7"]).exit_code == 0
    out = run("zh", "play", game, "--git", input="quit\n")
    assert has(out, "不在 git 仓库中") and not has(out, "not in a git repository"), out
    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True)
    out = run("zh", "play", game, "--git", input="quit\n")
    assert has(out, "已提交 solo.jsonl 的第 1 行") and not has(out, "line 1"), out
    log = subprocess.run(["git", "-C", str(tmp_path), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.startswith("agility: alice, line 1 of solo.jsonl"), log  # a commit message is English
    # a decision played in zh: the screen says it in Chinese, its commit in the log's English words
    subprocess.run(["git", "-C", str(tmp_path), "config", "user.email", "a@example.org"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "config", "user.name", "alice"], check=True)
    run("zh", "play", game, "--git", input="1\n1\nquit\n")
    body = subprocess.run(["git", "-C", str(tmp_path), "log", "-1", "--format=%B"], capture_output=True,
                          text=True).stdout
    assert "alice: play t" in body and not re.search(r"[\u4e00-\u9fff]", body), body
    out = run("zh", "play", game, "--local", "--git")
    assert has(out, "--local 只在本机下", "去掉 --git"), out
    out = run("qps", "play", game, "--local", "--git", "--restore")
    assert english_left("qps", out) == [], out
    assert has(run("en", "play", game, "--local", "--git", "--restore"), "leave out --git and --restore")


# -- games -------------------------------------------------------------------------------------------

def test_games_of_a_folder_that_is_none_and_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    out = run("zh", "games", tmp_path / "nosuch")
    assert has(out, "不是文件夹") and english_left("zh", out) == [], out
    assert has(run("en", "games", tmp_path / "nosuch"), "is not a folder")
    assert runner.invoke(app, ["new", str(tmp_path / "solo.jsonl"), "--players", "alice", "bot:greedy",
                               "--seed", "7"]).exit_code == 0
    (tmp_path / "broken.jsonl").write_text('{"kind":"game"}\nnot json\n')
    out = run("zh", "games", tmp_path)
    assert has(out, "无法读取：不符合格式") and not has(out, "cannot be read"), out
    assert has(run("en", "games", tmp_path), "cannot be read: does not match the format")


# -- git's accidents, said in Chinese ----------------------------------------------------------------

def run_as(lang: str, m, *args: str, input: str = ""):
    i18n.set_language(lang)
    try:
        return m.run(*args, input=input)
    finally:
        i18n.set_language(None)


@needs_git
def test_a_force_push_over_a_pushed_turn_is_said_and_restored_in_chinese(tmp_path: Path) -> None:
    from test_git_accidents import TURN, git, lines, remote_lines, synced

    alice, bob = synced(tmp_path, force=True)
    git(bob.dir, "fetch", "--quiet")
    old = git(bob.dir, "rev-parse", "HEAD").strip()
    assert alice.run("play", alice.file, "--git", input=TURN).exit_code == 0  # her turn, pushed
    turn = lines(alice)
    branch = git(bob.dir, "branch", "--show-current").strip()
    git(bob.dir, "push", "--quiet", "--force", "origin", f"{old}:refs/heads/{branch}")
    r = run_as("zh", alice, "play", alice.file, "--git", input=TURN)
    assert r.exit_code == 1 and r.stdout.strip() == "", r.output
    assert has(r.stderr, "（alice 的）消失了", "强制推送", "--restore", "拒绝：通过 git：远程缺少第"), r.stderr
    assert english_left("zh", r.stderr) == [], r.stderr
    r = run_as("qps", alice, "play", alice.file, "--git", input=TURN)
    assert r.exit_code == 1 and english_left("qps", r.stderr) == [], r.stderr
    assert lines(alice) == turn  # nothing of hers dropped here
    r = run_as("zh", alice, "play", alice.file, "--git", "--restore")
    assert r.exit_code == 0, r.output
    assert has(r.stderr, "已放回", "作为远程之上的一个新提交"), r.stderr
    assert remote_lines(alice) == turn
    log = git(alice.dir, "log", "-3", "--format=%s")
    assert "agility: alice, lines " in log and "第" not in log, log  # commits stay English


@needs_git
def test_a_rebase_left_half_done_is_said_in_chinese(tmp_path: Path) -> None:
    import os

    from test_git_accidents import git, synced

    alice, _ = synced(tmp_path)
    (alice.dir / "notes.txt").write_text("a\n")
    git(alice.dir, "add", "notes.txt")
    git(alice.dir, "commit", "--quiet", "-m", "a")
    env = {**os.environ, "GIT_SEQUENCE_EDITOR": "sed -i 1s/^pick/edit/"}
    subprocess.run(["git", "-C", str(alice.dir), "rebase", "-i", "HEAD~1"], check=True, capture_output=True, env=env)
    r = run_as("zh", alice, "play", alice.file, "--git")
    assert r.exit_code == 1, r.output
    assert has(r.stderr, "仓库正处于一次变基之中", "`git rebase --abort`", "`git rebase --continue`",
               "一个 git 操作只做了一半"), r.stderr
    assert english_left("zh", r.stderr) == [], r.stderr
    assert "in the middle of a rebase" in " ".join(run_as("en", alice, "play", alice.file, "--git").stderr.split())
