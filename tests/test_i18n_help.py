"""``--help`` of every command in every language (issue 54): the whole command tree walked in
English, Chinese and the pseudo-locale.

* In the pseudo-locale no English word is left unbracketed (:func:`bare_english`): the help texts,
  Click's and Typer's own words (``Usage:``, ``Options``, ``[default: …]``, ``-h, --help``'s line)
  and the one-line summaries of ``agility --help``; only what a user types is left as it is (the
  commands to copy, option names, metavars, default values and the commands' names).
* In Chinese every help text is Chinese (the catalog translated it) and the examples' commands are
  those of the English help, unchanged.
* Every line fits 80 terminal cells, a CJK character taking two, in the three languages.
* Click's usage errors (an unknown option, a missing argument, a value that is no number, an extra
  argument, an option without its value) are said in the language in use, through ``agility``'s
  entry point, the user's words kept.

One subprocess per language prints every help (the language is chosen before the command tree is
built, as ``agility --lang`` does); the usage errors run ``agility`` itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agility_cli.table.layout import cell_len
from test_i18n import bare_english

ROOT = Path(__file__).resolve().parents[1]

# Walks the tree in a fresh interpreter (the help texts are translated as the tree is built): for
# each command path, its help and the words a user types there (option names, metavars, defaults).
_WALK = r"""
import json, sys
from agility_cli import i18n
i18n.set_language(sys.argv[1])
import contextlib, io
import typer.main
from agility_cli.cli import app
root = typer.main.get_command(app)
out = {}
def walk(cmd, path):
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):  # the terminal's width: COLUMNS=80, as on a pipe
        code = root.main([*path, "--help"], prog_name="agility", standalone_mode=False)
    typed = set(getattr(cmd, "commands", {}) or {})
    for p in cmd.params:
        typed.update(p.opts + p.secondary_opts)
        typed.add(str(p.metavar or ""))
        d = p.default
        typed.update(str(x) for x in (d if isinstance(d, (tuple, list)) else [d]))
        typed.update(str(e) for e in (getattr(p, "envvar", None) or []) if isinstance(p.envvar, list))
        if isinstance(getattr(p, "envvar", None), str):
            typed.add(p.envvar)
    out[" ".join(path)] = {"help": shown.getvalue(), "code": code or 0, "typed": sorted(typed)}
    for name, sub in sorted((getattr(cmd, "commands", None) or {}).items()):
        walk(sub, [*path, name])
walk(root, [])
print(json.dumps(out))
"""

LANGUAGES = ("en", "zh", "qps")
# Words of the usage line and of the option table a user types, whatever the language.
# Also Typer's metavars (``<int>``), the command that installs Dask ({install} of --cluster's help).
USAGE_WORDS = {"OPTIONS", "COMMAND", "ARGS", "agility", "int", "str", "float", "path", "pip", "install", "cli", "cluster"}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "AGILITY_LANG")}
    env.update(COLUMNS="80", LINES="24", PYTHONPATH=str(ROOT), TERM="dumb", NO_COLOR="1")
    return env


_helps: dict[str, dict[str, dict]] = {}


def helps(lang: str) -> dict[str, dict]:
    """Every command path's ``--help`` in ``lang`` (``""`` is ``agility`` itself)."""
    if lang not in _helps:
        done = subprocess.run([sys.executable, "-c", _WALK, lang], capture_output=True, text=True, env=_env(),
                              cwd=ROOT, timeout=120, check=True)
        _helps[lang] = json.loads(done.stdout)
    return _helps[lang]


def test_the_walk_sees_every_command_and_subcommand():
    paths = set(helps("en"))
    assert {"", "new", "play", "move", "rules", "analyse", "key", "key list", "key export", "key import"} <= paths
    assert len(paths) >= 25
    assert all(h["code"] == 0 for h in helps("en").values())


def _ours(text: str, typed: list[str]) -> list[str]:
    """The English words of a help that are not a user's to type."""
    lines = [re.sub(r"(?<=⟧  )(agility|printf|pbpaste) .*", "", line)  # "Example:  agility schema > …"
             for line in text.splitlines()
             if not re.match(r"\s*(agility|printf|pbpaste)\b", line)]  # an example: a command to copy
    # a JSON object's keys ({file, opponent, …}) are a program's words, kept as placeholders are
    words = bare_english(re.sub(r"\{[^{}]*\}", "", "\n".join(lines)))
    allowed = set(USAGE_WORDS)
    for word in typed:
        allowed.update(re.findall(r"[A-Za-z]+", word))
    return [w for w in words if w not in allowed]


def test_pseudo_locale_leaves_no_bare_english_in_any_help():
    left = {}
    for path, h in helps("qps").items():
        assert "⟦" in h["help"], path
        words = _ours(h["help"], h["typed"])
        if words:
            left[f"agility {path} --help"] = words
    assert not left, left


def test_bare_english_check_finds_an_untranslated_help():
    assert _ours("⟦Úšágé:~~⟧ agility new [OPTIONS] FILE\n\n  Create a game file.", ["FILE"]) == \
        ["Create", "game", "file"]
    assert _ours("  --seed <int>  ⟦Šééd~⟧ [⟦déƒáúlt: {0}~⟧]", ["--seed", "<int>", "0"]) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_line_fits_80_cells(lang: str):
    long = {path: [line for line in h["help"].splitlines() if cell_len(line) > 80] for path, h in helps(lang).items()}
    long = {path: lines for path, lines in long.items() if lines}
    assert not long, long


def _examples(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if re.match(r"\s+(agility|printf|pbpaste)\b", line)]


def test_zh_help_is_chinese_and_keeps_the_commands_to_copy():
    en, zh = helps("en"), helps("zh")
    assert set(en) == set(zh)
    for path in en:
        text = zh[path]["help"]
        assert text.startswith("用法："), (path, text[:40])
        assert "显示本帮助并退出。" in text and "选项：" in text
        assert "Show this message" not in text and "Options" not in text
        body = text.split("\n\n")[1]  # the command's own paragraph, after the usage line
        assert re.search(r"[\u4e00-\u9fff]", body), (path, body)
        # the examples are the English help's commands (comments translated; a topic's name may be
        # given in Chinese: `agility rules 静止箱`)
        assert [e.split()[:2] for e in _examples(text)] == [e.split()[:2] for e in _examples(en[path]["help"])], path
        if path != "rules":
            assert [e.split("  #")[0] for e in _examples(text)] == [e.split("  #")[0] for e in _examples(en[path]["help"])]


def test_zh_top_level_lists_each_command_with_a_chinese_summary():
    top = helps("zh")[""]["help"]
    listed = top.split("命令：\n")[1].splitlines()
    assert len(listed) >= 21
    for line in listed:
        name, summary = line.split(None, 1)
        assert re.search(r"[\u4e00-\u9fff]", summary), line
    assert "  move      按规则检查一个决定，并把它作为一行追加到对局文件。" in listed
    assert "  0    完成" in top and "  agility new solo.jsonl --players alice bot:strong" in top


def test_english_help_is_unchanged_in_form():
    top = helps("en")[""]["help"]
    assert top.startswith("Usage: agility [OPTIONS] COMMAND [ARGS]...")
    assert "\nOptions:\n" in top and "\nCommands:\n" in top and "Show this message and exit." in top
    assert "  new       Create a game file and show the board." in top
    assert "⟦" not in "".join(h["help"] for h in helps("en").values())


# ---------------------------------------------------------------------------------------------
# Click's usage errors, through the entry point


def agility(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "agility_cli", *args], capture_output=True, text=True, env=_env(),
                          cwd=ROOT, timeout=60)
    done.stderr = done.stderr.replace("python -m agility_cli", "agility")  # the program's name, as installed
    return done


ERRORS = [
    (["new", "--bogus"], "没有这个选项：--bogus", "No such option: --bogus"),
    (["new"], "缺少参数 'FILE'。", "Missing argument 'FILE'."),
    (["selfplay", "--games", "many"], "'--games' / '-n' 的值无效：'many' 不是有效的整数。",
     "Invalid value for '--games' / '-n': 'many' is not a valid int."),
    (["schema", "extra"], "多出了参数（extra）", "Got unexpected extra argument(s) (extra)"),
    (["show", "g.jsonl", "--at"], "选项 '--at' 需要一个值。", "Option '--at' requires an argument."),
]


@pytest.mark.parametrize(("args", "zh", "en"), ERRORS, ids=[" ".join(e[0]) for e in ERRORS])
def test_click_usage_errors_in_zh_and_in_english(args: list[str], zh: str, en: str):
    said = agility("--lang", "zh", *args)
    assert said.returncode == 2, said
    assert f"错误：{zh}" in said.stderr, said.stderr
    english = agility("--lang", "en", *args)
    assert english.returncode == 2 and f"Error: {en}" in english.stderr, english.stderr
    if english.stderr.startswith("Usage: "):  # Click names the usage when it knows the command
        assert "Try 'agility" in english.stderr
        assert said.stderr.startswith("用法：agility") and "查看帮助。" in said.stderr


def test_click_usage_errors_in_the_pseudo_locale_leave_no_bare_english():
    for args, _zh, _en in ERRORS:
        said = agility("--lang", "qps", *args)
        assert said.returncode == 2
        text = said.stderr
        typed = {"FILE", "OPTIONS", "many", "extra", "bogus", "games", "jsonl", "board"}
        assert [w for w in bare_english(text) if w not in typed] == [], text


def test_the_locale_chooses_the_help_language_too():
    """``LANG=zh_CN.UTF-8 agility move --help`` is Chinese, as ``--lang zh`` is; ``--lang en`` wins."""
    env = {**_env(), "LANG": "zh_CN.UTF-8"}
    zh = subprocess.run([sys.executable, "-m", "agility_cli", "move", "--help"], capture_output=True, text=True,
                        env=env, cwd=ROOT, timeout=60)
    assert zh.returncode == 0 and "按规则检查一个决定" in zh.stdout and "选项：" in zh.stdout
    en = subprocess.run([sys.executable, "-m", "agility_cli", "--lang", "en", "move", "--help"], capture_output=True,
                        text=True, env=env, cwd=ROOT, timeout=60)
    assert en.returncode == 0 and "Check a decision against the rules" in en.stdout and "Options:" in en.stdout


def test_an_error_click_words_otherwise_is_left_as_it_is():
    from agility_cli import i18n
    from agility_cli.cli import helpwords

    text = "Usage: agility x\nTry 'agility x -h' for help.\n\nError: something Click never said\n"
    try:
        i18n.set_language("en")
        assert helpwords.error_text(text) == text
        i18n.set_language("zh")
        said = helpwords.error_text(text)
    finally:
        i18n.set_language(None)
    assert said == "Usage: agility x\n运行 'agility x -h' 查看帮助。\n\n错误：something Click never said\n"
