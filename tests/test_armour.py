"""agility_cli.record.mail.armour: blocks that survive mail programs, and refuse what was cut or changed."""

from __future__ import annotations

import base64
import hashlib
import re
import zlib
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agility_cli.record.mail.armour import (
    MAX_LINES_BYTES,
    ArmourError,
    Block,
    armour,
    checksum,
    find_blocks,
    with_summary,
)
from agility_cli.record.mail.read import read_input

from maillines import PLAYERS, flowed, game_lines, header_line

LINES = [line.encode() for line in game_lines(6)]
HEADER = header_line().encode()
DOC = Path(__file__).resolve().parent.parent / "docs" / "mail-format.md"


def _block(lines: list[bytes] = LINES, game: str = "1a2b3c4d", first: int = 5) -> str:
    return armour(lines, game=game, first=first, last=first + len(lines) - 1)


def _one(text: str) -> Block:
    blocks = find_blocks(text)
    assert len(blocks) == 1
    return blocks[0]


def _refusal(text: str) -> str:
    with pytest.raises(ArmourError) as info:
        find_blocks(text)
    return str(info.value)


def _rows(block: str) -> tuple[str, list[str], str, str]:
    """BEGIN line, base64 rows, checksum row, END line."""
    rows = block.rstrip("\n").split("\n")
    return rows[0], rows[1:-2], rows[-2], rows[-1]


# ----------------------------------------------------------------------------------------------
# the block


def test_round_trip() -> None:
    block = _one(_block())
    assert block == Block("1a2b3c4d", 5, 10, LINES, 1)


def test_every_printed_line_is_ascii_and_at_most_76_columns_for_a_10_kb_line() -> None:
    lines = [HEADER, *LINES]
    assert len(HEADER) >= 10_000
    text = _block(lines, game="0123456789abcdef", first=9_999_999 - len(lines) + 1)
    assert text.isascii()
    assert text.endswith("\n")
    assert max(len(row) for row in text.split("\n")) <= 76
    begin, rows, check, end = _rows(text)
    assert begin == f"-----BEGIN AGILITY LINES game 0123456789abcdef lines {9_999_999 - 6}-9999999-----"
    assert end == begin.replace("BEGIN", "END")
    assert all(len(row) == 64 for row in rows[:-1]) and 0 < len(rows[-1]) <= 64
    assert re.fullmatch(r"=[A-Za-z0-9+/]{16}", check)
    assert _one(text).lines == lines


def test_the_block_is_smaller_than_the_lines() -> None:
    lines = [HEADER, *LINES]
    assert len(_block(lines)) < sum(len(line) + 1 for line in lines) * 0.6


def test_the_summary_goes_above_the_block() -> None:
    block = _block()
    text = with_summary(
        [
            f"{PLAYERS[0]} sends you lines 5–10 of your agility game 1a2b3c4d.",
            "Save this whole mail (or copy it) and run:  agility apply game.jsonl -  " + "x" * 100,
        ],
        block,
    )
    assert text.endswith("\n\n" + block)
    assert "Zoë" in text
    assert max(len(row) for row in text.split("\n")) <= 76
    assert _one(text).lines == LINES
    with pytest.raises(ValueError):
        with_summary(["a name with \x1b[2J in it"], block)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "1a2b-3c4d"}, {"game": ""}, {"game": "x" * 17}, {"first": 0},
        {"last": 12}, {"lines": []}, {"lines": [b"a\nb"]}, {"first": 9_999_999},
    ],
)
def test_armour_refuses_arguments_that_make_no_block(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"lines": LINES, "game": "1a2b3c4d", "first": 5, "last": 10, **kwargs}
    with pytest.raises(ValueError):
        armour(args.pop("lines"), **args)  # type: ignore[arg-type]


def test_armour_refuses_more_than_the_cap() -> None:
    with pytest.raises(ValueError, match="at most"):
        armour([b"x" * (MAX_LINES_BYTES + 1)], game="g", first=1, last=1)


def test_lines_are_bytes_as_given() -> None:
    odd = [b"", b"\r", b"\x00\xff not utf-8", "Zoë".encode(), b" leading and trailing "]
    assert _one(_block(odd)).lines == odd


# ----------------------------------------------------------------------------------------------
# what mail programs do to it


def _rewrap(block: str, width: int) -> str:
    """The base64 rows and the checksum row re-wrapped at ``width`` (the markers kept)."""
    begin, rows, check, end = _rows(block)
    data = "".join(rows) + check
    return "\n".join([begin, *(data[i : i + width] for i in range(0, len(data), width)), end]) + "\n"


@pytest.mark.parametrize(
    "mangle",
    [
        pytest.param(lambda b: b.replace("\n", "\r\n"), id="crlf"),
        pytest.param(lambda b: "".join("> " + r + "\n" for r in b.splitlines()), id="quoted"),
        pytest.param(lambda b: "".join(">> " + r + "\n" for r in b.splitlines()), id="quoted-twice"),
        pytest.param(lambda b: "".join("> > " + r + "\r\n" for r in b.splitlines()), id="quoted-spaced-crlf"),
        pytest.param(lambda b: "".join("    " + r + "  \n" for r in b.splitlines()), id="indented"),
        pytest.param(lambda b: b.replace("\n", "\n\n"), id="blank-lines"),
        pytest.param(lambda b: _rewrap(b, 76), id="rewrapped-76"),
        pytest.param(lambda b: _rewrap(b, 40), id="rewrapped-40"),
        pytest.param(lambda b: _rewrap(b, 10_000), id="rows-joined"),
        pytest.param(lambda b: " ".join(b.split("\n")), id="reflowed-into-one-paragraph"),
        pytest.param(lambda b: "".join("> " + r + "\n" for r in _rewrap(b, 70).splitlines()), id="rewrapped-and-quoted"),
        pytest.param(
            lambda b: b.replace(" lines ", "\n> lines ", 1).replace("AGILITY ", "AGILITY\t", 2), id="marker-rewrapped"
        ),
        pytest.param(
            lambda b: re.sub(r"(?m)^([A-Za-z0-9+/]{8})", "\\1\u200b\u00ad", b).replace("\n", "\u00a0\n"),
            id="invisible-characters",
        ),
    ],
)
def test_a_block_the_mail_program_reformatted_decodes(mangle: object) -> None:
    assert callable(mangle)
    block = _block([HEADER, *LINES])
    text = "Hi,\n\nthe lines:\n\n" + mangle(block) + "\nBye\n"
    assert _one(text).lines == [HEADER, *LINES]


def test_a_block_cut_in_half_is_refused() -> None:
    block = _block([HEADER, *LINES])
    message = _refusal("Hi,\n" + block[: len(block) // 2])
    assert message == (
        "the block from line 2 (game 1a2b3c4d, lines 5–11) was cut short (its END line is missing); "
        "ask for it to be sent again"
    )


def test_a_block_missing_its_start_is_refused() -> None:
    block = _block()
    message = _refusal(block[len(block) // 2 :])
    assert "has no BEGIN line: the start of its block is missing" in message


def test_a_block_missing_rows_in_the_middle_is_refused() -> None:
    begin, rows, check, end = _rows(_block([HEADER]))
    message = _refusal("\n".join([begin, *rows[:3], *rows[5:], check, end]))
    assert "its checksum does not match" in message


def test_a_block_missing_its_checksum_row_is_refused() -> None:
    begin, rows, _check, end = _rows(_block())
    assert "lost its checksum line" in _refusal("\n".join([begin, *rows, end]))


def test_two_begin_lines_without_an_end() -> None:
    first, second = _block(game="aaaa"), _block(game="bbbb", first=11)
    with pytest.raises(ArmourError) as info:
        find_blocks(first[: len(first) // 2] + "\n" + second)
    assert str(info.value) == (
        "the block from line 1 (game aaaa, lines 5–10) was cut short (its END line is missing: two BEGIN lines "
        "without an END); ask for it to be sent again"
    )
    assert [b.game for b in info.value.blocks] == ["bbbb"]  # the whole one is kept


def test_end_line_of_another_block() -> None:
    spliced = _block().rsplit("-----END", 1)[0] + "-----END AGILITY LINES game 1a2b3c4d lines 5-9-----\n"
    assert "ends with the END line of another block (game 1a2b3c4d, lines 5–9" in _refusal(spliced)


def _change(block: str, row: int, column: int, to: str) -> str:
    rows = block.split("\n")
    rows[row] = rows[row][:column] + to + rows[row][column + 1 :]
    return "\n".join(rows)


def test_a_changed_character_is_caught_by_the_checksum() -> None:
    block = _block([HEADER, *LINES])
    for row, column in ((1, 0), (5, 33), (-4, 2)):  # data rows, and the checksum row
        old = block.split("\n")[row][column]
        changed = _change(block, row, column, "B" if old != "B" else "C")
        message = _refusal(changed)
        assert message == (
            "the block from line 1 (game 1a2b3c4d, lines 5–11) was changed on the way (its checksum does not "
            "match): the mail program changed or lost part of it; ask for it to be sent again"
        )


def test_a_character_that_base64_does_not_use_is_named() -> None:
    message = _refusal("Hi\n" + _change(_block(), 2, 10, "é"))
    assert "holds a character that is not part of it, U+00E9 on line 4" in message
    assert "'|' (U+007C)" in _refusal(_change(_block(), 2, 0, "|"))


def test_a_marker_naming_other_lines_is_caught_by_the_checksum() -> None:
    block = _block().replace("lines 5-10", "lines 6-11")
    assert "its checksum does not match" in _refusal(block)


def test_still_quoted_printable_says_so() -> None:
    block = _block().replace("=", "=3D")
    assert "still quoted-printable" in _refusal(block)


def test_lines_not_counted_by_the_markers_are_refused() -> None:
    # A block as another program could make it: a checksum that matches, a range that does not.
    content = b"\n".join(LINES)
    data = base64.b64encode(zlib.compress(content)).decode()
    check = checksum(LINES, game="g", first=1, last=2)
    text = f"-----BEGIN AGILITY LINES game g lines 1-2-----\n{data}\n={check}\n-----END AGILITY LINES game g lines 1-2-----\n"
    assert "holds 6 lines, not the 2 its markers name" in _refusal(text)


def _forged(content: bytes, game: str = "g") -> str:
    lines = content.split(b"\n")
    data = base64.b64encode(zlib.compress(content, 9)).decode()
    rows = "\n".join(data[i : i + 64] for i in range(0, len(data), 64))
    check = checksum(lines, game=game, first=1, last=len(lines))
    words = f"game {game} lines 1-{len(lines)}"
    return f"-----BEGIN AGILITY LINES {words}-----\n{rows}\n={check}\n-----END AGILITY LINES {words}-----\n"


def test_a_zlib_bomb_is_refused() -> None:
    bomb = _forged(b"{" * (MAX_LINES_BYTES + 1))
    assert len(bomb) < 20_000
    assert _refusal(bomb) == (
        "the block from line 1 (game g, lines 1–1) unpacks to more than 8 MiB of lines: that is not what agility "
        "sends, and it was not read"
    )


def test_the_cap_holds_for_all_the_blocks_of_a_text() -> None:
    half = b"x" * (MAX_LINES_BYTES // 2 + 1)
    with pytest.raises(ArmourError) as info:
        find_blocks(_forged(half, "a") + _forged(half, "b"))
    assert "with the blocks before it" in str(info.value)
    assert [b.game for b in info.value.blocks] == ["a"]


# ----------------------------------------------------------------------------------------------
# several blocks


def test_several_blocks_in_one_text() -> None:
    a = _block(LINES[:2], game="aaaa", first=2)
    b = _block(LINES[2:], game="aaaa", first=4)
    c = _block([HEADER], game="cccc", first=1)
    text = f"first:\n{a}\nthen, quoted:\n" + "".join("> " + r + "\n" for r in b.splitlines()) + f"\nand {c}"
    blocks = find_blocks(text)
    assert [(x.game, x.first, x.last, x.lines) for x in blocks] == [
        ("aaaa", 2, 3, LINES[:2]), ("aaaa", 4, 7, LINES[2:]), ("cccc", 1, 1, [HEADER]),
    ]
    rows = text.split("\n")
    assert [rows[x.where - 1] for x in blocks] == [a.split("\n")[0], "> " + b.split("\n")[0], "and " + c.split("\n")[0]]


def test_a_reply_quoting_the_block_again_gives_it_once() -> None:
    block = _block()
    reply = block + "\nOn Monday Zoë wrote:\n" + "".join("> " + r + "\n" for r in block.splitlines())
    assert len(find_blocks(reply)) == 1


def test_a_damaged_copy_of_lines_read_whole_elsewhere_is_let_go() -> None:
    block = _block()
    damaged = _change(block, 2, 5, "!")
    assert len(find_blocks(damaged + "\n> " + block.replace("\n", "\n> "))) == 1


def test_no_block_is_no_error() -> None:
    assert find_blocks("Hi, no lines today.\n-----BEGIN PGP SIGNATURE-----\nabc\n") == []


# ----------------------------------------------------------------------------------------------
# through mail, read by record.mail.read


def _mailed(block: str, how: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "zoe@example.org"
    msg["To"] = "am@example.org"
    msg["Subject"] = "agility: lines 5-11"
    body = with_summary([f"{PLAYERS[0]} sends you lines 5–11."], block)
    if how == "flowed":
        msg.set_content(flowed(body, delsp=True))
        msg.set_param("format", "flowed")
        msg.set_param("delsp", "yes")
    elif how == "html":
        html = "".join(f"<div>{row}</div>" for row in body.replace("&", "&amp;").split("\n"))
        msg.set_content(html, subtype="html", cte="quoted-printable")
    else:
        msg.set_content(body, cte=how)
    return msg.as_bytes()


@pytest.mark.parametrize("how", ["8bit", "quoted-printable", "base64", "flowed", "html"])
def test_a_block_mailed_and_read_by_the_mail_reader(how: str) -> None:
    lines = [HEADER, *LINES]
    parts = read_input(_mailed(_block(lines), how))
    blocks = [b for p in parts for b in find_blocks(p.text)]
    assert [b.lines for b in blocks] == [lines]


# ----------------------------------------------------------------------------------------------
# properties


_games = st.from_regex(r"[A-Za-z0-9]{1,16}", fullmatch=True)
_lines = st.lists(st.binary(max_size=300).map(lambda b: b.replace(b"\n", b" ")), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(lines=_lines, game=_games, first=st.integers(1, 9_000_000))
def test_property_round_trip(lines: list[bytes], game: str, first: int) -> None:
    text = armour(lines, game=game, first=first, last=first + len(lines) - 1)
    assert text.isascii() and max(len(row) for row in text.split("\n")) <= 76
    assert find_blocks(text) == [Block(game, first, first + len(lines) - 1, lines, 1)]


@settings(max_examples=200, deadline=None)
@given(
    lines=_lines,
    width=st.integers(1, 120),
    prefix=st.sampled_from(["", "> ", ">> ", "> > ", ">", "  ", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    blank=st.booleans(),
)
def test_property_reformatted_blocks_decode(lines: list[bytes], width: int, prefix: str, newline: str, blank: bool) -> None:
    block = _rewrap(armour(lines, game="g", first=1, last=len(lines)), width)
    sep = newline + (prefix + newline if blank else "")
    text = "prose" + newline + sep.join(prefix + row for row in block.splitlines()) + newline
    assert _one(text).lines == lines


@settings(max_examples=300, deadline=None)
@given(lines=_lines, data=st.data())
def test_property_a_change_is_refused_or_changes_nothing(lines: list[bytes], data: st.DataObject) -> None:
    block = armour(lines, game="g", first=1, last=len(lines))
    at = data.draw(st.integers(0, len(block) - 2))  # anywhere, markers included (not the last newline)
    to = data.draw(st.sampled_from("AZaz09+/=-!é \n>"))
    changed = block[:at] + to + block[at + 1 :]
    try:
        found = find_blocks(changed)
    except ArmourError:
        return
    assert [b.lines for b in found] == [lines]  # e.g. a blank for a line break, or unused bits


# ----------------------------------------------------------------------------------------------
# size, and the documented example


def test_a_block_in_320000_lines_of_text() -> None:
    block = _block([HEADER, *LINES])
    prose = "> some quoted prose of a long mail thread\n" * 160_000
    text = prose + block + prose.replace("prose", "-----BEGIN AGILITY prose")
    assert text.count("\n") >= 320_000
    found = _one(text)
    assert found.where == 160_001
    assert sum(map(len, found.lines)) == len(HEADER) + sum(map(len, LINES))


def test_many_broken_markers_are_linear_and_the_message_short() -> None:
    marker = "-----BEGIN AGILITY LINES game g lines 1-1-----\n"
    with pytest.raises(ArmourError) as info:
        find_blocks(marker * 100_000 + "-----BEGIN AGILITY " + " " * 1_000_000)
    assert len(info.value.problems) == 100_000
    assert str(info.value).endswith("; and 99995 more blocks cut short or changed")
    assert len(str(info.value)) < 1000


def test_the_worked_example_of_the_documentation() -> None:
    doc = DOC.read_text(encoding="utf-8")
    lines = [row.encode() for row in re.search(r"```jsonl\n(.*?)\n```", doc, re.S).group(1).split("\n")]  # type: ignore[union-attr]
    block = re.search(r"```text\n(-----BEGIN AGILITY LINES game 1a2b3c4d.*?-----END [^\n]*\n)```", doc, re.S).group(1)  # type: ignore[union-attr]
    check = re.search(r"checksum input's SHA-256 is `([0-9a-f]{64})`", doc).group(1)  # type: ignore[union-attr]
    found = _one(block)
    assert (found.game, found.first, found.last, found.lines) == ("1a2b3c4d", 5, 6, lines)
    assert hashlib.sha256(b"game 1a2b3c4d lines 5-6\n" + b"\n".join(lines)).hexdigest() == check
    _begin, rows, _check, _end = _rows(block)
    if zlib.compress(b"\n".join(lines), 9) != base64.b64decode("".join(rows)):
        pytest.skip("this zlib compresses differently (allowed: only the decoded lines are fixed)")
    assert armour(lines, game="1a2b3c4d", first=5, last=6) == block
