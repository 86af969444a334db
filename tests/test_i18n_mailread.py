"""What reading a mail says, in Chinese (issue 54): the mail reader's notes about a message and its
parts (a UTF-16 paste, an HTML-only mail, an alternative not read, a part that is no text, a damaged
base64 part, an unknown charset, a cut MIME structure) and the origins that prefix them; a line a
mail program damaged, mended or not; and ``apply``'s refusals and notes about mailed lines (the
n-th mailed line, two different lines of one n, a copy that diverged, quoted copies passed over,
an abort in place of a line whose keys open no card, R42).

Every message is built for real (the standard library's :mod:`email`, what ``send`` prints, a
mail program's damage done to it) and read in zh and in the pseudo-locale (qps): no English is left
but MIME types, charsets, file and player names and commands to copy; the English text (what a
program or a log reads) is as it was, word for word.
"""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest

from agility_cli import i18n
from agility_cli.cli.common import fit
from agility_cli.record.mail import find
from agility_cli.record.mail.read import read_input
from agility_cli.said import tell
from agility_cli.table.layout import cell_len
from machines import Machine, start
from test_i18n_errors import leftover
from test_mail_clients import play_turn

ALICE = "Zoë Brontë"
#: what stays as it is in every language: MIME types, charsets, encodings, names of files and players
KEPT = ("Zoë Brontë", "text/plain", "text/html", "image/png", "application/octet-stream", "dog.png", "base64",
        "klingon", "cp1252", "latin-1", "windows-1252", "Content-*", "UTF-16", "UTF-8", "U+FFFD")


def in_lang(lang: str, fn: Any) -> Any:
    i18n.set_language(lang)
    try:
        return fn()
    finally:
        i18n.set_language(None)


def english_left(text: str, lang: str) -> list[str]:
    for kept in KEPT:  # before leftover's own cuts (a path's, which would leave "text" of text/plain)
        text = text.replace(kept, "")
    return in_lang(lang, lambda: leftover(text))  # type: ignore[no-any-return]


def run(m: Machine, lang: str, *args: Any, input: str | bytes | None = None) -> Any:
    return in_lang(lang, lambda: m.run(*args, input=input))


def checked(text: str, lang: str) -> str:
    """``text`` in ``lang`` with no English left; in zh each line within 80 cells once fitted (the
    pseudo-locale's padding, a third of a message's length, is no word to wrap at)."""
    assert text.strip()
    left = english_left(text, lang)
    assert not left, f"English left in {lang}: {left}\n{text}"
    if lang == "zh":
        for line in fit(text.rstrip("\n"), 80).split("\n"):
            assert cell_len(line) <= 80, line
    return text


def notes_of(stderr: str) -> str:
    """The notes ``apply`` said (the board and the story are other messages' concern)."""
    return "\n".join(line for line in stderr.splitlines() if "note" in line or "注意" in line or "ñóté" in line)


# -- the mail reader's notes, and where they come from ------------------------------------------------

def _mail(**fields: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Zoë <zoe@example.org>"
    msg["To"] = "bob@example.org"
    msg["Subject"] = "agility: my turn"
    return msg


def _inputs() -> Iterator[tuple[str, bytes, str, str]]:
    """(case, the input, its notes as the English text says them, a Chinese phrase they hold)."""
    yield ("utf-16", "alice: hi\n".encode("utf-16"),
           "pasted text: the input starts with a UTF-16 byte-order mark and was read as UTF-16",
           "粘贴的文本：输入以 UTF-16 字节顺序标记开头，已按 UTF-16 读取")
    yield ("not utf-8", b"caf\xe9 {\n",
           "pasted text: the input is not all valid UTF-8: the bytes that are not were replaced by U+FFFD",
           "无效的字节已替换为 U+FFFD")
    alternative = _mail()
    alternative.set_content("<html><body><pre>no lines</pre></body></html>", subtype="html")
    alternative.add_alternative("no lines")
    yield ("html first", alternative.as_bytes(),
           "message 1, text/plain part: the text/html alternative was not read (the text/plain one was)",
           "第 1 封邮件，text/plain 部分：未读取 text/html 备选部分（已读取 text/plain 部分）")
    attached = _mail()
    attached.set_content("my turn")
    attached.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="dog.png")
    forwarded = _mail()
    forwarded.set_content("<p>old</p>", subtype="html")
    forwarded.add_alternative("old")
    attached.add_attachment(forwarded)
    yield ("attachment and forward", attached.as_bytes(),
           'message 1, text/plain part: attachment "dog.png" (image/png) was skipped: it is not text; '
           "message 1, text/plain part: forwarded message, the text/html alternative was not read (the "
           "text/plain one was)",
           "附件“dog.png”（image/png）已跳过：它不是文本；第 1 封邮件，text/plain 部分：转发的邮件中，未读取")
    yield ("base64", b"From: zoe@example.org\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
           b"aGVsbG8gd29ybGQ=!!x\n",
           "message 1, text/plain part: its base64 encoding is damaged: some of its text may be missing or wrong",
           "它的 base64 编码已损坏：部分文本可能缺失或有误")
    yield ("no text part", b"From: zoe@example.org\nContent-Type: application/octet-stream\n\nxx\n",
           "message 1, no text: application/octet-stream part was skipped: it is not text; "
           "message 1, no text: it has no text part to read",
           "第 1 封邮件（没有文本）：它没有可读的文本部分")
    yield ("charset", b"From: zoe@example.org\nContent-Type: text/plain; charset=klingon\n\n\xff\n",
           'message 1, text/plain part: its charset "klingon" is unknown: it was read as UTF-8; '
           "message 1, text/plain part: bytes that are not valid UTF-8 were replaced by U+FFFD",
           "它的字符集“klingon”未知：已按 UTF-8 读取")
    yield ("no charset", b"From: zoe@example.org\nContent-Type: text/plain\n\nZo\xeb\n",
           "message 1, text/plain part: its text, with no charset declared, is not valid UTF-8: it was read "
           "as windows-1252",
           "它的文本没有声明字符集，且不是有效的 UTF-8：已按 windows-1252 读取")
    yield ("cut short", b"From: zoe@example.org\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\n"
           b"Content-Type: text/plain\n\nhi\n",
           "message 1, text/plain part: the last MIME part has no closing boundary: the mail may have been "
           "cut short",
           "最后一个 MIME 部分没有结束边界：邮件可能被截断了")


INPUTS = list(_inputs())


@pytest.mark.parametrize("case, data, english, chinese", INPUTS, ids=[c[0] for c in INPUTS])
def test_the_mail_readers_notes_are_english_for_programs_and_told_in_zh_and_qps(
        case: str, data: bytes, english: str, chinese: str) -> None:
    incoming = find.read_mail(data)
    unread = incoming.unread(9)
    assert unread == english  # the text itself: English, as before
    assert in_lang("en", lambda: tell(unread)) == english
    zh = in_lang("zh", lambda: tell(unread))
    assert chinese in zh, zh
    checked(zh, "zh")
    qps = in_lang("qps", lambda: tell(unread))
    assert "⟦" in qps
    checked(qps, "qps")


def test_the_origins_of_the_parts_are_told() -> None:
    html = _mail()
    html.set_content("<html><body><div>hello</div></body></html>", subtype="html")
    (part,) = read_input(html.as_bytes())
    assert part.origin == "message 1, text/html part, as text"
    assert in_lang("zh", lambda: tell(part.origin)) == "第 1 封邮件，text/html 部分（转为文本）"
    twice = _mail()
    twice.set_content("one")
    twice.add_attachment("two", filename="b.txt")
    origins = [p.origin for p in read_input(twice.as_bytes())]
    assert origins == ["message 1, text/plain part", 'message 1, attachment "b.txt" (text/plain)']
    assert in_lang("zh", lambda: tell(origins[1])) == "第 1 封邮件，附件“b.txt”（text/plain）"
    (came,) = read_input(b"From: zoe@example.org\nContent-Type: multipart/mixed; boundary=x\n\n"
                         + b"--x\n" * 1100)
    assert came.origin == "message 1, as it came" and came.notes[0].startswith("it has more MIME parts")
    told = in_lang("zh", lambda: tell(came.notes[0]))
    assert told.startswith("它的 MIME 部分或 MIME 头字段超出读取上限（总共最多 1000 个部分") and "按原样给出" in told
    assert in_lang("zh", lambda: tell(came.origin)) == "第 1 封邮件（原样）"
    checked(told, "zh")


def test_what_a_mail_program_did_to_a_line_is_told() -> None:
    damage = find.mail_damage('{"kind":"play","player":"Zo\ufffdÃ«"}  ')
    assert damage == ("a character it could not show became \u201c\ufffd\u201d; it read the line in the wrong "
                      "character set (\u201cÃ«\u201d for \u201cë\u201d); it added spaces at the end")
    zh = in_lang("zh", lambda: tell(damage))
    assert zh == ("一个它无法显示的字符变成了\u201c\ufffd\u201d；它用错误的字符集读取了这一行（把\u201cë\u201d读成了"
                  "\u201cÃ«\u201d）；它在行尾加了空格")
    assert find.mail_damage("plain") == ""
    repairs = [what for _fixed, what in find.mail_repairs("ZoÃ« ")]
    assert repairs == ["spaces it added", "the characters it read as cp1252", "the characters it read as latin-1"]
    assert in_lang("zh", lambda: [tell(w) for w in repairs]) == ["它加入的空格", "它按 cp1252 读取的字符",
                                                                "它按 latin-1 读取的字符"]
    checked(in_lang("qps", lambda: tell(damage)), "qps")


# -- apply: what it says of a saved message, and of lines a mail program changed ----------------------

@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_a_saved_message_with_no_text_part_says_what_was_not_read(tmp_path: Path, lang: str) -> None:
    alice, _bob = start(tmp_path)
    msg = _mail()
    msg.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="dog.png")
    saved = tmp_path / "saved.eml"
    saved.write_bytes(msg.as_bytes())
    before = alice.file.read_bytes()
    got = run(alice, lang, "apply", alice.file, saved)
    assert got.exit_code == 2 and alice.file.read_bytes() == before
    if lang == "en":
        assert ('(not read: message 1, no text: attachment "dog.png" (image/png) was skipped: it is not text; '
                "message 1, no text: it has no text part to read)") in got.stderr
        return
    if lang == "zh":
        assert ("未读：第 1 封邮件（没有文本）：附件“dog.png”（image/png）已跳过：它不是文本；第 1 封邮件（没有文本）："
                "它没有可读的文本部分") in got.stderr, got.stderr
    checked(got.stderr.replace(str(saved), ""), lang)


@pytest.fixture
def mailed(tmp_path: Path) -> tuple[Machine, Machine, str]:
    """A game under way: alice (a name that is not ASCII) has played her first turn; what ``send
    --raw`` prints of it, not yet applied on bob's machine."""
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    return alice, bob, alice.run("send", alice.file, "--raw").stdout


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_a_mended_line_and_a_quoted_copy_are_noted(mailed: tuple[Machine, Machine, str], lang: str) -> None:
    alice, bob, raw = mailed
    # read as latin-1 although it was UTF-8 ("Zoë" becomes "ZoÃ«"), trailing spaces added
    mangled = "\n".join(line.encode().decode("latin-1") + "  " for line in raw.splitlines()) + "\n"
    got = run(bob, lang, "apply", bob.file, "-", input=mangled)
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()
    notes = notes_of(got.stderr)
    if lang == "en":
        assert ("agility: note: ignored 1 quoted copy of line 3 that the mail program changed (your file holds "
                "them already)") in notes
        assert "agility: note: your mail program changed line 4 (the characters it read as cp1252); mended, it " \
               "verifies" in notes
        return
    if lang == "zh":
        assert "忽略了邮件程序改动过的第 3 行的 1 份引用副本（你的文件已有这些行）" in notes, notes
        assert "你的邮件程序改动了第 4 行（它按 cp1252 读取的字符）；修复后它通过了核验" in notes, notes
    assert notes.count("\n") >= 3, notes
    checked(notes, lang)
    # the same damaged lines again: copies of lines the file holds now, passed over with a note
    again = run(bob, lang, "apply", bob.file, "-", input=raw.replace("ë", "\ufffd"))
    assert again.exit_code == 0, again.output
    passed = notes_of(again.stderr)
    if lang == "zh":  # every game line that names Zoë is a changed copy (how many: the game's own draw)
        changed = sum(1 for line in raw.splitlines() if line.startswith("{") and "ë" in line)
        assert f"跳过了邮件中引用的 {changed} 份你的文件已有的行的副本（已被改动）" in passed, passed
    checked(passed, lang)


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_a_line_damaged_beyond_mending_is_refused_blaming_the_mail_program(
        mailed: tuple[Machine, Machine, str], lang: str) -> None:
    _alice, bob, raw = mailed
    before = bob.file.read_bytes()
    got = run(bob, lang, "apply", bob.file, "-", input=raw.replace("ë", "\ufffd"))
    assert got.exit_code == 1 and bob.file.read_bytes() == before
    if lang == "en":
        assert ("your mail program changed the mail's line 4 (a character it could not show became \u201c\ufffd"
                "\u201d), and it no longer verifies: this is the mail program, not an edit of the game.") in got.stderr
        return
    if lang == "zh":
        assert "你的邮件程序改动了邮件中的第 4 行（一个它无法显示的字符变成了“\ufffd”），它因此通不过核验" in got.stderr
    checked(got.stderr.replace(str(bob.file), ""), lang)


def _lines(raw: str) -> list[str]:
    return [line for line in raw.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_mailed_lines_that_are_no_game_lines_are_refused_by_their_place(
        mailed: tuple[Machine, Machine, str], lang: str) -> None:
    _alice, bob, raw = mailed
    lines = _lines(raw)
    zero = json.loads(lines[0])
    zero["n"] = 0
    other = json.loads(lines[1])  # the first new line (lines[0] is the reveal, which bob holds)
    other["digest"] = "0" * 64
    cases = [
        # the 1st mailed line a mail program changed beyond reading: its damage is said
        ('{"kind": "play", "n": 3, "player": "Zo\ufffd\n', "the 1st mailed line (",
         "your mail program changed it (a character it could not show became", "邮件中的第 1 行（"),
        (json.dumps(zero) + "\n", "the 1st mailed line has n=0; decisions count from 1", "",
         "邮件中的第 1 行的 n=0；决定从 1 开始编号"),
        (lines[1] + "\n" + json.dumps(other) + "\n", "the mail holds two different lines n=3", "",
         "邮件中有两条不同的 n=3 行"),
    ]
    before = bob.file.read_bytes()
    for text, english, more, chinese in cases:
        got = run(bob, lang, "apply", bob.file, "-", input=text)
        assert got.exit_code == 1 and bob.file.read_bytes() == before, got.output
        if lang == "en":
            assert english in got.stderr and more in got.stderr, got.stderr
            continue
        if lang == "zh":
            assert chinese in got.stderr, got.stderr
        checked(got.stderr, lang)


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_a_mailed_line_that_differs_from_a_held_one_is_a_fork(mailed: tuple[Machine, Machine, str],
                                                               lang: str) -> None:
    alice, bob, raw = mailed
    assert bob.run("apply", bob.file, "-", input=raw).exit_code == 0
    held = json.loads(_lines(raw)[-1])
    held["digest"] = "0" * 64  # the same decision's line, another content: the copies diverged
    n = held["n"]
    before = bob.file.read_bytes()
    got = run(bob, lang, "apply", bob.file, "-", input=json.dumps(held) + "\n")
    assert got.exit_code == 1 and bob.file.read_bytes() == before
    said = " ".join(got.stderr.split())
    if lang == "en":
        assert f"mailed line n={n} differs from your line {n + 1} (yours: Zoë Brontë: " in said
        assert f"the two copies of the game have diverged at line {n + 1}; compare them with `agility log" in said
        return
    if lang == "zh":
        assert f"邮件中的行 n={n} 与你的第 {n + 1} 行不同（你的：" in said and f"两份对局副本在第 {n + 1} 行分叉了" in said
    yours = said.split("Zoë Brontë: ", 1)[1].split(";")[0].split("；")[0]
    shown = got.stderr.replace(str(bob.file), "").replace(yours, "")  # your line's words, as written
    checked(shown, lang)


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_R42_a_line_whose_keys_open_no_card_is_not_applied_and_the_note_is_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The planted deck of tests/test_abort.py (a point that is no card at #0 of bob's join): on
    alice's machine bob's keys for it open to no card, her tool aborts in its place, and says so."""
    from test_abort import _accept_every_shuffle, planted_pair

    _accept_every_shuffle(monkeypatch)
    alice, bob, keyed = planted_pair(tmp_path, monkeypatch)
    got = run(alice, lang, "apply", alice.file, "-", input=keyed.stdout)
    assert got.exit_code == 0, got.output
    notes = notes_of(got.stderr)
    if lang == "en":
        assert "agility: note: bob's line 4 is not applied: " in notes and "your tool aborts the game" in notes
        return
    if lang == "zh":
        assert "agility：注意：bob 的第 4 行未应用：" in notes, notes
        assert "你的工具中止对局并公开你的密封密钥，让每台机器都能指认作弊者（R42）" in notes, notes
    checked(notes, lang)
    # the evidence kept of the refused line: its reason English in the store, told where shown
    shown = run(alice, lang, "show", alice.file, "--refusal", "1")
    assert shown.exit_code == 0, shown.output
    said = "".join(shown.stdout.split())
    if lang == "zh":
        assert "它之前密封牌库的某个处理是假的；你的工具已中止对局，代替这一行（R42）" in said, shown.stdout
    elif lang == "qps":
        assert "ýóúrtóólábórtédthégámé" in said, shown.stdout


@pytest.mark.parametrize("lang", ["en", "zh", "qps"])
def test_a_message_of_a_maildir_that_is_a_link_is_named_in_the_language_in_use(tmp_path: Path, lang: str) -> None:
    import mailbox
    import os

    alice, _bob = start(tmp_path)
    folder = tmp_path / "Maildir"
    mailbox.Maildir(str(folder))
    (tmp_path / "elsewhere").write_text("x")
    os.symlink(tmp_path / "elsewhere", folder / "new" / "1.msg")
    got = run(alice, lang, "apply", alice.file, folder)
    assert got.exit_code == 2, got.output
    link = str(folder / "new" / "1.msg")
    if lang == "en":
        assert f"the message {link} is a symbolic link, not a message file: not read" in got.stderr
        return
    if lang == "zh":
        assert f"邮件 {link} 是符号链接，不是邮件文件：未读取" in got.stderr, got.stderr
    checked(got.stderr.replace(link, ""), lang)
