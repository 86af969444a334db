"""The errors of the tools around the game in Chinese (issue 54): a self-play run, a batch on a
cluster, a components file and a game's setup.

Each runs in zh and in the pseudo-locale (qps): no English is left but the commands to copy, what
was typed (quoted), ids, options, file names and the names of other tools (Dask, TLS); each line
fits 80 terminal cells as a terminal shows it; English is unchanged, and the English of an error
(``str(exc)``: what programs and game files read) stays what it was.
"""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from agility_cli import i18n
from agility_cli.cli.common import fit
from agility_cli.engine import rules
from agility_cli.engine.components import TILES, ComponentsError, parse_components
from agility_cli.engine.setup import validate_board
from agility_cli.players import batch
from agility_cli.said import message_of, tell
from agility_cli.table.layout import cell_len
from test_i18n_errors import leftover, run


# Words of other tools and of what was typed that stay as they are in every language
KEPT = ("DASK_DISTRIBUTED__COMM__TLS__CA_FILE", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY", "dask.distributed", "agility-cli[cluster]", "-cli", "afile", "dask scheduler", "Dask", "TLS", "tcp://HOST:PORT",
        "tls://HOST:PORT", "local:N", "HOST", "PORT", "tcp", "tls", "pip install", "DIR", "JSON", "TOML",
        "random-a", "random-b", "recommended", "mixed", "random", "greedy", "strong", "pid", "foo:bar", "nosuch.toml", "my.toml", "bogus")
_JSON_PATH = re.compile(r"\$[\w.\[\]-]*")  # $.cards[3].id: where in the file, as JSON paths say it


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DASK_DISTRIBUTED__COMM__TLS__CA_FILE", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"):
        monkeypatch.delenv(name, raising=False)


def told(lang: str, exc: BaseException) -> str:
    """An error as a person reads it in ``lang``."""
    i18n.set_language(lang)
    try:
        return tell(message_of(exc))
    finally:
        i18n.set_language(None)


def check(text: str, lang: str) -> str:
    i18n.set_language(lang)
    try:
        left = leftover(_JSON_PATH.sub("", text), *KEPT)
    finally:
        i18n.set_language(None)
    assert not left, f"English left in {lang}: {left}\n{text}"
    for line in fit(text.rstrip("\n"), 80).split("\n"):
        assert cell_len(line) <= 80, line
    return text


def check_run(result: Any, lang: str, code: int) -> str:
    assert result.exit_code == code, result.output
    assert result.output.strip()
    return check(result.output, lang)


# -- agility selfplay -------------------------------------------------------------------------------

def _selfplay_refusals(tmp: Path) -> list[tuple[list[object], int]]:
    (tmp / "afile").write_text("x")
    (tmp / "d1").mkdir()
    (tmp / "d1" / "selfplay-journal.jsonl").write_text("")
    (tmp / "d2").mkdir()
    (tmp / "d2" / "game-00000.jsonl").write_text("")
    (tmp / "d3").mkdir()
    (tmp / "adir.json").mkdir()
    return [
        (["--strategy", "bogus"], 2),
        (["--vs", "bogus"], 2),
        (["--board", "bogus"], 2),
        (["--games", "0"], 2),
        (["--resume"], 2),
        (["--cluster", "foo:bar"], 2),
        (["--cluster", "local:0"], 2),
        (["--cluster", "tls://example.org:8786"], 2),
        (["--out", "afile"], 2),
        (["--out", "d1"], 2),
        (["--out", "d3", "--resume"], 2),
        (["--out", "d2"], 2),
        (["--components", "adir.json"], 2),
        (["--components", "nosuch.toml"], 2),
    ]


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_every_refusal_of_selfplay_is_translated(tmp_path: Path, lang: str):
    for words, code in _selfplay_refusals(tmp_path):
        out = run(lang, "selfplay", "--games", "2", *words)
        text = out.output
        assert out.exit_code == code, (words, out.output)
        check(text, lang)


def test_selfplay_refusals_in_zh_say_the_words(tmp_path: Path):
    refusals = dict((tuple(w), None) for w, _code in _selfplay_refusals(tmp_path))
    assert refusals
    assert run("zh", "selfplay", "--games", "0").output == "agility：--games 至少为 1\n"
    assert "未知的策略 'bogus'" in run("zh", "selfplay", "--strategy", "bogus").output
    assert "未知的图板模式 'bogus'" in run("zh", "selfplay", "--board", "bogus").output
    assert "请给出 --out" in run("zh", "selfplay", "--resume").output
    out = run("zh", "selfplay", "--out", "d1").output
    assert "中断运行的日志（selfplay-journal.jsonl）：加上 --resume 以继续它" in out
    assert "自对弈从不覆盖对局" in run("zh", "selfplay", "--out", "d2").output
    out = run("zh", "selfplay", "--cluster", "foo:bar").output
    assert "不是 agility 能用的地址" in out and "（一个 `dask scheduler`）" in out
    assert "组件文件无效：adir.json：不是普通文件" in run("zh", "selfplay", "--components", "adir.json").output
    assert "无法读取组件文件（没有那个文件或目录）" in run("zh", "selfplay", "--components", "nosuch.toml").output


def test_english_selfplay_refusals_are_unchanged(tmp_path: Path):
    _selfplay_refusals(tmp_path)
    assert run("en", "selfplay", "--games", "0").output == "agility: --games must be at least 1\n"
    assert run("en", "selfplay", "--strategy", "bogus").output.startswith("agility: unknown strategy 'bogus'; choose from ")
    assert run("en", "selfplay", "--board", "bogus").output.startswith("agility: unknown board 'bogus'; choose from ")
    assert run("en", "selfplay", "--resume").output == (
        "agility: --resume goes on with the run whose journal is in --out DIR: give --out\n")
    assert run("en", "selfplay", "--out", "d1").output == (
        "agility: --out d1 holds a stopped run's journal (selfplay-journal.jsonl): add --resume to go on with it\n")
    assert run("en", "selfplay", "--out", "d2").output == (
        "agility: --out d2 already holds game-00000.jsonl; self-play never overwrites a game (use an empty "
        "directory)\n")
    assert run("en", "selfplay", "--cluster", "local:0").output == (
        "agility: --cluster local:N needs a number of workers from 1 to 256, not 'local:0'\n")
    assert run("en", "selfplay", "--components", "nosuch.toml").output == (
        "agility: invalid components file: nosuch.toml: cannot read the components file (No such file or directory)\n")
    assert run("en", "selfplay", "--components", "adir.json").output == (
        "agility: invalid components file: adir.json: not a regular file; a components file is a JSON or TOML file\n")


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_selfplay_statistics_are_translated(lang: str):
    out = run(lang, "selfplay", "--games", "2", "--strategy", "random", "--seed", "3")
    assert out.exit_code == 0, out.output
    text = re.sub(r"Mighty Mutt", "", out.output)  # a dog's name kept in English beside its Chinese one
    check(text, lang)
    if lang == "zh":
        assert "起始玩家获胜" in text and "收养的狗" in text and "2 局，用时" in text and "1 个进程" in text


def test_english_selfplay_statistics_are_unchanged():
    out = run("en", "selfplay", "--games", "2", "--strategy", "random", "--seed", "3").output
    for words in ("2 games · random vs random · board recommended · seed 3", "start player wins", "seat 1 wins",
                  "random in seat 1", "tiles resolved", "clear_hurdles", "dogs adopted", "mean ms",
                  "won on the tiebreak (R34)", "2 games in "):
        assert words in out, words
    assert re.search(r"\n2 games in \d+\.\d s \(\d+ games/s, 1 job\(s\)\)\n$", out)


def test_a_journal_of_another_run_and_a_damaged_one_are_translated(tmp_path: Path):
    Path("d1").mkdir()
    Path("d1/selfplay-journal.jsonl").write_text('{"journal": {"games": 99}}\n')
    for lang in ("zh", "qps"):
        check_run(run(lang, "selfplay", "--games", "2", "--out", "d1", "--resume"), lang, 2)
    assert "是另一次运行的日志" in run("zh", "selfplay", "--games", "2", "--out", "d1", "--resume").output
    en = run("en", "selfplay", "--games", "2", "--out", "d1", "--resume").output
    assert en == ("agility: 'd1/selfplay-journal.jsonl' is the journal of another run: give the same options, or "
                  "another path\n")
    Path("d1/selfplay-journal.jsonl").write_text("not json\n")
    for lang in ("zh", "qps"):
        check_run(run(lang, "selfplay", "--games", "2", "--out", "d1", "--resume"), lang, 3)
    assert "不是 agility 的日志（第一行不是 JSON）" in run("zh", "selfplay", "--games", "2", "--out", "d1", "--resume").output


# -- batch: what a cluster says ---------------------------------------------------------------------

def _boom(_arg: object) -> None:
    raise AssertionError("never run")


def test_a_worker_of_another_version_and_the_cluster_errors_are_translated():
    with pytest.raises(batch.WorkerMismatch) as mismatch:
        batch._execute(batch.Envelope(_boom, None, "0.0.1", "0123456789abcdef"))
    english = str(mismatch.value)
    assert "runs agility-cli " in english and "install the same version on every worker" in english
    refused = batch.ClusterError(batch.said(batch.N_("a worker refused a task: {error}"),
                                            error=message_of(mismatch.value)))
    errors = [refused, *_cluster_errors()]
    for exc in errors:
        for lang in ("zh", "qps"):
            text = told(lang, exc)
            check(re.sub(r"[\w.-]+ \(pid \d+\)|fingerprint|[0-9a-f]{16}|[\w.+-]*\d[\w.+-]*", "", text), lang)
    assert "工作进程" in told("zh", refused) and "请在每个工作进程所在的机器上安装相同的版本" in told("zh", refused)
    assert batch.Where(jobs=3).describe() == "3 job(s)"
    assert batch.Where(cluster="tcp://h:1").describe() == "cluster tcp://h:1"
    i18n.set_language("zh")
    try:
        assert tell(batch.Where(jobs=3).describe()) == "3 个进程"
    finally:
        i18n.set_language(None)


def _cluster_errors() -> list[Exception]:
    """What a run on a cluster can meet, each made as the run makes it."""
    where = batch.Where(cluster="tcp://h:8786", timeout=15)
    out: list[Exception] = []
    for probe in (lambda: batch.check_where(batch.Where(jobs=0)),
                  lambda: batch.check_where(batch.Where(cluster="local:999")),
                  lambda: batch.check_where(batch.Where(cluster="udp://h:1"))):
        with pytest.raises(Exception) as caught:
            probe()
        out.append(caught.value)

    class Client:
        status = "closed"

        def wait_for_workers(self, n: int, timeout: float) -> None:
            raise TimeoutError

    with pytest.raises(batch.ClusterError) as caught:
        batch._wait_for_workers(Client(), where)
    out.append(caught.value)
    check_health = batch._health(Client(), batch.Where(cluster="tcp://h:8786", timeout=0))
    check_health()
    with pytest.raises(batch.ClusterError) as caught:
        check_health()
    out.append(caught.value)
    assert "no answer for 0 s" in str(caught.value)
    return out


# -- a components file ------------------------------------------------------------------------------

def _standard() -> dict[str, Any]:
    return json.loads(resources.files("agility_cli").joinpath("data/standard.json").read_text(encoding="utf-8"))


def _bad_files() -> list[dict[str, Any]]:
    base = _standard()
    out = []

    def bad(change: Any) -> None:
        data = copy.deepcopy(base)
        change(data)
        out.append(data)

    bad(lambda d: d["cards"].pop())
    bad(lambda d: d["cards"][0].update(id="12"))
    bad(lambda d: d["cards"][0].update(id="bad id!"))
    bad(lambda d: d["cards"][1].update(id=d["cards"][0]["id"].upper()))
    bad(lambda d: d["cards"][1].update(id=d["cards"][0]["id"]))
    bad(lambda d: d["cards"][0].update(number=12))
    bad(lambda d: d["cards"][0].update(number=10**20))
    bad(lambda d: d["cards"][0]["rewards"][0].update(count=4))
    bad(lambda d: d["cards"][0]["rewards"][1].update(color=d["cards"][0]["rewards"][0]["color"]))
    bad(lambda d: d["dogs"].pop())
    bad(lambda d: d["dogs"][0].update(id="Bad_Dog"))
    bad(lambda d: d["dogs"][0].update(name=""))
    bad(lambda d: d["dogs"][0].update(name=" x"))
    bad(lambda d: d["dogs"][0].update(cost={}))
    bad(lambda d: d["dogs"][0].update(cost={"red": 12}))
    bad(lambda d: d["dogs"][0]["features"].update(pause_box=1))
    bad(lambda d: d["dogs"][0].update(name=d["dogs"][1]["id"]))
    bad(lambda d: d["boards"].pop())
    bad(lambda d: d["boards"][0].update(id="7"))
    bad(lambda d: d["boards"][0]["sides"][0]["obstacles"].pop())
    bad(lambda d: d["boards"][0]["sides"][0].update(id="33"))
    bad(lambda d: d.update(name="x" * 500))
    bad(lambda d: d.update(description="\x1b[2J"))
    bad(lambda d: d.update(open_ground_cost={}))
    return out


def _pause_box_errors() -> list[dict[str, Any]]:
    base = _standard()
    out = []
    side = base["boards"][0]["sides"][0]
    pause = next(i for i, o in enumerate(side["obstacles"]) if o["type"] == "pause_box")
    other = next(i for i, o in enumerate(side["obstacles"]) if o["type"] != "pause_box")
    data = copy.deepcopy(base)
    data["boards"][0]["sides"][0]["obstacles"][pause]["cost"] = {"red": 3}
    out.append(data)
    data = copy.deepcopy(base)
    data["boards"][0]["sides"][0]["obstacles"][other]["type"] = "pause_box"
    out.append(data)
    return out


def _errors() -> list[ComponentsError]:
    found = []
    for data in [*_bad_files(), *_pause_box_errors()]:
        with pytest.raises(ComponentsError) as caught:
            parse_components(json.dumps(data).encode(), source="my.json")
        found.append(caught.value)
    for raw, toml in ((b"{", False), (b"[1]", False), (b"\xff", False), (b'{"cards": 5}', False),
                      (b'{"name": "x", "cards": [{"zz": 1}]}', False), (b'{"name": "x", "bogus": 1}', False),
                      (b'{"name": "x", "open_ground_cost": {"purple": 1}}', False),
                      (b"x = " + b"9" * 40, True), (b"[", True)):
        with pytest.raises(ComponentsError) as caught:
            parse_components(raw, source="my.toml", toml=toml)
        found.append(caught.value)
    return found


def test_every_error_of_a_components_file_is_translated():
    errors = _errors()
    assert len({str(e) for e in errors}) == len(errors)  # each a different error
    for exc in errors:
        for lang in ("zh", "qps"):
            text = told(lang, exc)
            if str(exc).startswith("my.toml") and "digits" not in str(exc):  # the TOML reader's own words
                continue
            # a long name is cut by text.quoted, which says its length in its own words
            check(re.sub(r"'[^']*'|\{[^}]*\}|\(\d+ characters\)", "", text), lang)
    zh = [told("zh", e) for e in errors]
    assert zh[0] == "my.json：$.cards：训练卡牌库有 39 张训练卡（R3），这里有 38 张"
    assert "训练卡 id '12' 全是数字，`agility move` 会把它读作卡的编号；请加一个字母" in zh[1]
    assert any("一个 21 位的数" in z for z in zh)
    assert any("两个奖励都是" in z and "色；它们必须不同" in z for z in zh)
    assert any("组件集的名字" in z for z in zh)


def test_components_errors_in_english_are_unchanged():
    errors = [str(e) for e in _errors()]
    assert errors[0] == "my.json: $.cards: the training deck has 39 cards (R3), found 38"
    assert errors[1].startswith("my.json: $.cards[0].id: card id '12' is all digits, which `agility move` reads as "
                                "a card's number; add a letter")
    assert any(e.endswith("is outside 1–9 (R3)") and "a number of 21 digits" in e for e in errors)
    assert any(": the pause box costs 4 red (R29), found {'red': 3}" in e for e in errors)
    assert errors[-2] == "my.toml: a number of more than 30 digits; no count of a component is that large"


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_new_with_a_bad_components_file(lang: str):
    data = _bad_files()[0]
    Path("bad.json").write_text(json.dumps(data))
    out = check_run(run(lang, "new", "g.jsonl", "--players", "alice", "bob", "--components", "bad.json"), lang, 2)
    if lang == "zh":
        assert out.startswith("agility：组件文件无效：bad.json：$.cards：训练卡牌库有 39 张训练卡（R3）")
    en = run("en", "new", "g.jsonl", "--players", "alice", "bob", "--components", "bad.json").output
    assert en == "agility: invalid components file: bad.json: $.cards: the training deck has 39 cards (R3), found 38\n"


# -- a game's setup ---------------------------------------------------------------------------------

def _setup_errors() -> list[rules.RulesError]:
    found = []
    for board in (["sweep"] * 3, ["boost", *["sweep"] * 9], ["sweep", "fly", *["boost"] * 8], ["sweep", *["boost"] * 9]):
        with pytest.raises(rules.SetupError) as caught:
            validate_board(board)
        found.append(caught.value)
    with pytest.raises(rules.SetupError) as caught:
        rules.random_board(1, "c")
    found.append(caught.value)
    return found


def test_every_error_of_a_setup_is_translated():
    errors = _setup_errors()
    for exc in errors:
        assert isinstance(exc.told(), str) and str(exc) == str(exc.told())
        for lang in ("zh", "qps"):
            i18n.set_language(lang)
            try:
                text = tell(exc.told())
            finally:
                i18n.set_language(None)
            check(re.sub(r"'[^']*'|" + "|".join(sorted(TILES, key=len, reverse=True)), "", text), lang)
    assert str(errors[0]) == "R7: an action board has 10 spaces, got 3"
    assert str(errors[1]) == "R7: space 0 is always sweep, got 'boost'"
    i18n.set_language("zh")
    try:
        assert tell(errors[0].told()) == "R7：行动图板有 10 格，这里是 3 格"
        assert tell(errors[4].told()) == "R9：未知的随机图板变体 'c'"
    finally:
        i18n.set_language(None)


def _edited_header(path: Path, **change: Any) -> None:
    lines = path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header.update(change)
    lines[0] = json.dumps(header, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines))


@pytest.mark.parametrize("change", [{"board": ["sweep", "boost"]}, {"first": "carol"}])
def test_a_header_that_cannot_start_a_game(change: dict[str, Any]):
    assert run("en", "new", "g.jsonl", "--players", "alice", "bob", "--seed", "4").exit_code == 0
    _edited_header(Path("g.jsonl"), **change)
    en = run("en", "show", "g.jsonl").output
    if "the header cannot start a game: R" not in en:
        pytest.skip(f"another check refuses this header first: {en}")
    assert en.startswith("agility: invalid game file: g.jsonl, line 1: the header cannot start a game: R")
    assert "hint: the header was edited; restore it from git or the opponent's copy" in en
    for lang in ("zh", "qps"):
        out = check_run(run(lang, "show", "g.jsonl"), lang, 3)
        if lang == "zh":
            assert "头行无法开始对局：R" in out


# -- the benchmark's report ------------------------------------------------------------------------

def test_the_benchmark_report_is_translated(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    from agility_cli.cli import bench

    monkeypatch.setenv("COLUMNS", "200")  # each row on one line

    results = {"replay_golden": {"decisions_per_s": 60000.0},
               "hostile_input": {"mail_320000_prose_s": 3.0, "mail_320000_braces_s": 1.0, "pick_1mb_line_s": 0.01,
                                 **{f"{name}_ratio": 9.0 for name in bench.HOSTILE_SHAPES}}}
    for lang in ("en", "zh"):
        i18n.set_language(lang)
        try:
            bench.report(results)
        finally:
            i18n.set_language(None)
    en, zh = capsys.readouterr().out.split("agility 基准测试")
    assert "agility benchmark (medians)" in en and "replay, fair golden games (decisions/s)" in en and "MISSED" in en
    assert "mail reader, begin no end: 100,000 ÷ 10,000" in en and "邮件读取，begin no end：" in zh
    assert "回放，公平的标准对局（决定/秒）" in zh and "未达标" in zh and "达标" in zh and "MISSED" not in zh
