"""The errors of the files around a game in Chinese and in the pseudo-locale (issue 54): the data
directory's checks, a write that fails (a full disk), a file that is not a regular one, an analysis
file of another game, the option errors of ``hint`` and ``bot``, and a finished game's refusal.
No English is left on a zh or qps screen but the commands to copy, paths and names; each line fits
80 terminal cells; English is unchanged (the English tests of each path keep it); the game file is
byte-for-byte as it was."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_hostile import FullDisk
from test_i18n_errors import _check, run

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"  # a finished game


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    result = run("en", "new", "g.jsonl", "--seed", "4", "--players", "alice", "bob")
    assert result.exit_code == 0, result.output
    return Path("g.jsonl")


@pytest.fixture
def short_home() -> Iterator[Path]:
    """A data directory with a short path: the command to copy that names it stays on one line."""
    home = Path(tempfile.mkdtemp(prefix="ah"))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_a_full_disk_is_said_in_the_language_and_the_file_is_unchanged(game: Path, lang: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    before = game.read_bytes()
    argv = json.loads(run("en", "legal", game, "--json").stdout)[0]["argv"]
    with monkeypatch.context() as m:
        m.setattr(os, "write", FullDisk(0))
        result = run(lang, "move", game, *argv)
    text = _check(result, lang, 2)
    assert game.read_bytes() == before
    if lang == "zh":
        assert "无法写入新的一行（设备上没有剩余空间）" in text and "对局文件没有改变" in text, text


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_a_data_directory_others_can_write_is_refused_in_the_language(game: Path, lang: str, short_home: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    home = short_home
    home.chmod(0o777)
    monkeypatch.setenv("AGILITY_HOME", str(home))
    text = _check(run(lang, "new", "x.jsonl", "--players", "alice", "bob"), lang, 2, "AGILITY_HOME")
    assert not Path("x.jsonl").exists()
    if lang == "zh":
        assert "数据文件夹" in text and "别人也能写" in text and "chmod 700" in text, text


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_a_path_that_is_no_regular_file_or_no_game_is_said_in_the_language(game: Path, lang: str) -> None:
    Path("folder.jsonl").mkdir()
    text = _check(run(lang, "show", "folder.jsonl"), lang, 3)
    assert ("目录" in text) if lang == "zh" else True, text
    shutil.copy(GOLDEN, "done.jsonl")
    text = _check(run(lang, "hint", "done.jsonl"), lang, 2)
    if lang == "zh":
        assert "对局已结束" in text and "没有待做的决定" in text, text
    _check(run(lang, "hint", game, "--seconds", "0"), lang, 2)
    _check(run(lang, "bot", game, "--moves", "0"), lang, 2)
    _check(run(lang, "analyse", game, "--simulations", "0"), lang, 2)


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_an_analysis_of_another_game_is_refused_in_the_language(game: Path, lang: str) -> None:
    shutil.copy(GOLDEN, "done.jsonl")
    Path("review.json").write_text(json.dumps({"players": ["carol", "dave"], "points": []}))
    text = _check(run(lang, "export", "done.jsonl", "--html", "-o", "page.html", "--analysis", "review.json"), lang, 2,
                  "carol", "dave")
    assert not Path("page.html").exists()
    if lang == "zh":
        assert "不是这局对局的分析" in text, text
    Path("junk.json").write_text("[1, 2")
    _check(run(lang, "export", "done.jsonl", "--html", "-o", "page.html", "--analysis", "junk.json"), lang, 2,
           "object", "array")  # msgspec's type names, as in JSON
