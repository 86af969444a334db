"""agility_cli.record.mail.read: mails built with the standard library exactly as mail programs send them
(base64, quoted-printable, 8bit latin-1, format=flowed with DelSp=no and DelSp=yes, HTML only,
multipart/alternative with the HTML first, attachments, replies, an mbox), read back as text in
which every long game line is whole again."""

from __future__ import annotations

import email.policy
import email.utils
import mailbox
import re
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agility_cli.record.mail.find import mailed_lines
from agility_cli.record.mail.read import (
    MAX_DEPTH,
    Part,
    decode_text,
    html_to_text,
    is_mail,
    is_mbox,
    read_input,
    unflow,
)

from maillines import PLAYERS, flowed, game_lines, header_line

LINES = game_lines(6)
HEADER = header_line()
ALL = [HEADER, *LINES]
BODY = "Hi Anne-Marie,\n\nhere are my moves:\n\n" + "\n".join(ALL) + "\n\nYour turn!\n-- \nZoë\n"


def _mail(subject: str = "agility: lines 1-7") -> EmailMessage:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = email.utils.formataddr((PLAYERS[0], "zoe@example.org"))
    msg["To"] = "Anne-Marie <am@example.org>"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 01 Dec 2025 09:00:00 +0100"
    msg["Message-ID"] = "<lines-1-7@example.org>"
    return msg


def _only(parts: list[Part]) -> Part:
    assert len(parts) == 1, [p.origin for p in parts]
    return parts[0]


def _assert_lines_whole(text: str, expected: list[str] = ALL) -> None:
    """Each game line is one whole line of ``text`` (after any quote marks), byte for byte, and
    the game-line extractor finds exactly them."""
    rows = {row.lstrip("> ") for row in text.split("\n")}
    for line in expected:
        assert line in rows, f"line {line[:60]!r}… is not whole"
    found, _ = mailed_lines(text)
    assert found == expected


# ----------------------------------------------------------------------------------------------
# pasted text


def test_pasted_text_is_one_part_unchanged() -> None:
    data = ("Hi,\r\n> " + LINES[0] + "\r\n\r\n\t" + LINES[1] + "\r\n").encode()
    part = _only(read_input(data))
    assert part.text == data.decode()
    assert part.origin == "pasted text"
    assert part.notes == []


def test_pasted_text_with_invalid_utf8_is_replaced_and_noted() -> None:
    part = _only(read_input(b"caf\xe9 " + LINES[0].encode()))
    assert part.text == "caf\ufffd " + LINES[0]
    assert "U+FFFD" in part.notes[0]


def test_pasted_utf16_with_a_byte_order_mark() -> None:
    part = _only(read_input(("\ufeff" + LINES[0] + "\n").encode("utf-16")))
    assert part.text.lstrip("\ufeff") == LINES[0] + "\n"
    assert "UTF-16" in part.notes[0]


@pytest.mark.parametrize("text", [
    LINES[0],
    "Note: these are my lines\n\n" + LINES[0],
    "From Zoë, the lines:\n" + LINES[0],
    'Subject: agility\n{"kind":"play","n":1}\n',
    "",
])
def test_text_that_only_looks_like_a_mail_is_pasted_text(text: str) -> None:
    data = text.encode()
    assert not is_mail(data) and not is_mbox(data)
    assert _only(read_input(data)).text == text


def test_a_mail_is_told_from_its_headers() -> None:
    assert is_mail(b"Received: from x\n\tby y\nSubject: s\n\nbody")
    assert is_mail(b"\xef\xbb\xbfFrom: a@b\r\nTo: c@d\r\n\r\nbody")
    assert is_mbox(b"From a@b Mon Dec  1 09:00:00 2025\nFrom: a@b\n\nbody\n")


# ----------------------------------------------------------------------------------------------
# one mail, each transfer encoding and charset


@pytest.mark.parametrize("cte", ["base64", "quoted-printable", "8bit"])
def test_utf8_mail_in_each_transfer_encoding(cte: str) -> None:
    msg = _mail()
    msg.set_content(BODY, cte=cte)
    part = _only(read_input(msg.as_bytes()))
    assert part.origin == "message 1, text/plain part"
    assert part.notes == []
    assert part.text == BODY
    _assert_lines_whole(part.text)


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_latin1_mail(cte: str) -> None:
    lines = [line for line in ALL if "—" not in line]  # latin-1 has no em dash
    body = "Salut,\n\n" + "\n".join(lines) + "\n\nZoë Brontë\n"
    msg = _mail()
    msg.set_content(body, charset="iso-8859-1", cte=cte)
    raw = msg.as_bytes()
    if cte == "8bit":
        assert "Zoë Brontë".encode("latin-1") in raw
    part = _only(read_input(raw))
    assert part.text == body
    _assert_lines_whole(part.text, lines)


def test_windows_1252_quotes_sent_as_iso_8859_1_are_read_as_browsers_do() -> None:
    raw = (
        b'From: z@example.org\nSubject: s\nMIME-Version: 1.0\n'
        b'Content-Type: text/plain; charset="iso-8859-1"\nContent-Transfer-Encoding: 8bit\n\n'
        b"\x93Zo\xeb\x94 \x80 5\n"
    )
    part = _only(read_input(raw))
    assert part.text == "\u201cZoë\u201d € 5\n"
    assert part.notes == []


def test_undecodable_bytes_are_replaced_and_noted() -> None:
    raw = (
        b"From: z@example.org\nSubject: s\nMIME-Version: 1.0\n"
        b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n\n'
        b"caf\xe9 " + LINES[0].encode() + b"\n"
    )
    part = _only(read_input(raw))
    assert part.text == "caf\ufffd " + LINES[0] + "\n"
    assert part.notes == ["some bytes are not valid utf-8: they were replaced by U+FFFD"]


def test_decode_text_charsets() -> None:
    assert decode_text("Zoë".encode(), None) == ("Zoë", [])  # no charset: UTF-8 when it is UTF-8
    text, notes = decode_text(b"Zo\xeb", "us-ascii")
    assert text == "Zoë" and "windows-1252" in notes[0]
    text, notes = decode_text("Zoë".encode(), "x-no-such-charset")
    assert text == "Zoë" and "unknown" in notes[0]
    text, notes = decode_text(b"abc", "base64")  # a codec, but not a text encoding
    assert text == "abc" and "not a text encoding" in notes[0]
    assert decode_text("Зоя".encode("koi8-r"), "KOI8-R") == ("Зоя", [])
    assert decode_text("Zoë".encode("utf-16"), "utf-16") == ("Zoë", [])


# ----------------------------------------------------------------------------------------------
# format=flowed


@pytest.mark.parametrize("delsp", [False, True])
@pytest.mark.parametrize("cte", ["8bit", "quoted-printable"])
def test_flowed_mail_as_thunderbird_sends_it(delsp: bool, cte: str) -> None:
    encoded = flowed(BODY, delsp=delsp)
    if delsp:
        assert max(map(len, encoded.split("\n"))) <= 72  # words are broken too
    assert all(len(row) <= 72 for row in encoded.split("\n") if " " in row.rstrip(" "))
    msg = _mail()
    msg.set_content(encoded, cte=cte)
    msg.set_param("format", "flowed")
    if delsp:
        msg.set_param("delsp", "yes")
    raw = msg.as_bytes()
    assert b'format="flowed"' in raw
    part = _only(read_input(raw))
    assert part.text == BODY
    _assert_lines_whole(part.text)


def test_flowed_delsp_no_keeps_the_space_of_a_soft_break() -> None:
    assert unflow("one two \nthree\n", delsp=False) == "one two three\n"
    assert unflow("one two \nthree\n", delsp=True) == "one twothree\n"
    assert unflow("abc \ndef", delsp=True) == "abcdef"


def test_flowed_space_stuffing_and_quote_depth() -> None:
    text = " From the start \n >not a quote\n>> quoted \n>> still quoted\n> shallower\n"
    assert unflow(text, delsp=False) == "From the start >not a quote\n>> quoted still quoted\n> shallower\n"


def test_flowed_line_before_another_quote_depth_is_fixed() -> None:
    assert unflow("> a flowed line \nthen unquoted\n", delsp=False) == "> a flowed line \nthen unquoted\n"


def test_flowed_signature_separator_is_not_flowed() -> None:
    text = "Bye, \n-- \nZoë \nBrontë\n"
    assert unflow(text, delsp=False) == "Bye, \n-- \nZoë Brontë\n"
    assert unflow("> -- \n> x\n", delsp=False) == "> -- \n> x\n"


def test_flowed_crlf_and_empty_quoted_lines() -> None:
    assert unflow("a \r\nb\r\n>\r\n> c \r\n> d\r\n", delsp=False) == "a b\n>\n> c d\n"


@pytest.mark.parametrize("delsp", [False, True])
def test_flowed_reply_quoting_an_older_flowed_mail(delsp: bool) -> None:
    older = flowed(BODY, delsp=delsp, quote=1)
    reply = "Thanks, applied.\n\nOn 01/12/2025 09:00, Zoë wrote:\n" + older + "\n"
    msg = _mail("Re: agility: lines 1-7")
    msg.set_content(reply, cte="quoted-printable")  # the quoted part is flowed, the new text short
    msg.set_param("format", "flowed")
    if delsp:
        msg.set_param("delsp", "yes")
    part = _only(read_input(msg.as_bytes()))
    for line in ALL:
        assert "> " + line in part.text.split("\n")
    _assert_lines_whole(part.text)


# ----------------------------------------------------------------------------------------------
# HTML


def _html_escape(text: str) -> str:
    """Text as an HTML composer writes it: entities, and in a run of spaces all but the last one
    written ``&nbsp;`` (so that the browser shows them all)."""
    text = (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;").replace("'", "&#39;")
    )
    return re.sub(" {2,}", lambda m: "&nbsp;" * (len(m.group()) - 1) + " ", text)


def _html_body(lines: list[str]) -> str:
    """An HTML mail as web mail composers write it: a div per line, entities, &nbsp; for the
    second of two spaces, the source wrapped at spaces, a style sheet in the head."""
    rows = []
    for line in lines:
        escaped = _html_escape(line)
        wrapped: list[str] = []
        while len(escaped) > 76 and " " in escaped[1:76]:  # wrap the source at a space, as Outlook does
            cut = escaped.rfind(" ", 1, 76)
            wrapped.append(escaped[:cut])
            escaped = escaped[cut + 1 :]
        wrapped.append(escaped)
        rows.append("<div>" + "\r\n".join(wrapped) + "</div>")
    return (
        "<html><head><meta charset=\"utf-8\"><style>div { font: 12px monospace; }</style>"
        "<title>agility</title></head>\r\n<body><div dir=\"ltr\">Hi Anne-Marie,<br><br>here are my moves:</div>\r\n"
        + "\r\n".join(rows)
        + "\r\n<div><br></div><div>Your turn!<br>Zoë</div><!-- signature --></body></html>\r\n"
    )


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_html_only_mail(cte: str) -> None:
    msg = _mail()
    msg.set_content(_html_body(ALL), subtype="html", cte=cte)
    raw = msg.as_bytes()
    assert b"&quot;kind&quot;" in raw or cte == "base64"
    part = _only(read_input(raw))
    assert part.origin == "message 1, text/html part, as text"
    assert part.text.startswith("Hi Anne-Marie,\n\nhere are my moves:\n")
    assert part.text.endswith("Your turn!\nZoë\n")
    _assert_lines_whole(part.text)


def test_html_to_text_entities_breaks_and_pre() -> None:
    html = (
        "<p>a &quot;b&quot; &amp; c&#39;s &lt;d&gt; &#x27;e&#x27;</p><div>one<br/>two</br>three</div>"
        "<pre>  x  y\n  z</pre><script>var a = '<b>';</script><ul><li>f</li><li>g</li></ul>"
    )
    assert html_to_text(html) == "a \"b\" & c's <d> 'e'\none\ntwo\nthree\n  x  y\n  z\nf\ng\n"


def test_html_to_text_of_malformed_markup_is_linear() -> None:
    # Python 3.11's HTMLParser takes minutes on this (a rescan for every "<"); the text is kept.
    html = "<a" * 100_000 + "<![ x" + "<!--" * 1000 + "</" * 100_000
    text = html_to_text(html)
    assert len(text) == len(html) + 1  # every character shown as text, and a final newline


def test_multipart_alternative_with_the_html_first_reads_the_plain_text() -> None:
    outer = MIMEMultipart("alternative")
    for key, value in (("From", "zoe@example.org"), ("To", "am@example.org"), ("Subject", "agility")):
        outer[key] = value
    outer.attach(MIMEText("<div>the HTML alternative</div>", "html", "utf-8"))
    outer.attach(MIMEText(BODY, "plain", "utf-8"))
    part = _only(read_input(outer.as_bytes()))
    assert part.origin == "message 1, text/plain part"
    assert part.text == BODY
    assert part.notes == ["the text/html alternative was not read (the text/plain one was)"]


def test_multipart_alternative_as_email_message_makes_it() -> None:
    msg = _mail()
    msg.set_content(BODY)
    msg.add_alternative(_html_body(ALL), subtype="html")
    part = _only(read_input(msg.as_bytes()))
    assert part.text == BODY


def test_html_with_related_images_is_read_when_there_is_no_plain_text() -> None:
    msg = _mail()
    msg.set_content(_html_body(LINES), subtype="html")
    msg.add_related(b"\x89PNG\r\n\x1a\n" + bytes(100), maintype="image", subtype="png", cid="<logo>")
    parts = read_input(msg.as_bytes())
    assert [p.origin for p in parts] == ["message 1, text/html part, as text"]
    assert parts[0].notes == ["image/png part was skipped: it is not text"]
    _assert_lines_whole(parts[0].text, LINES)


# ----------------------------------------------------------------------------------------------
# attachments, replies, forwarded mails


def test_text_attachments_are_read_and_others_skipped() -> None:
    msg = _mail()
    msg.set_content("Hi, the lines are attached.\n")
    data = "\n".join(ALL).encode() + b"\n"
    msg.add_attachment(data, maintype="application", subtype="x-ndjson", filename="game-1-7.jsonl")
    msg.add_attachment(data.decode(), subtype="plain", filename="lines.txt", cte="quoted-printable")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename="Game.JSONL")
    msg.add_attachment(b"\xff\xd8\xff" + bytes(50), maintype="image", subtype="jpeg", filename="dog.jpg")
    parts = read_input(msg.as_bytes())
    assert [p.origin for p in parts] == [
        "message 1, text/plain part",
        'message 1, attachment "game-1-7.jsonl" (application/x-ndjson)',
        'message 1, attachment "lines.txt" (text/plain)',
        'message 1, attachment "Game.JSONL" (application/octet-stream)',
    ]
    assert parts[0].notes == ['attachment "dog.jpg" (image/jpeg) was skipped: it is not text']
    for part in parts[1:]:
        assert part.text == data.decode()
        _assert_lines_whole(part.text)


def test_reply_quoting_an_older_mail() -> None:
    quoted = "".join("> " + row + "\n" if row else ">\n" for row in BODY.split("\n")[:-1])
    reply = "Thanks, applied.\n\nOn Mon, 1 Dec 2025 at 09:00, Zoë wrote:\n" + quoted
    msg = _mail("Re: agility: lines 1-7")
    msg["In-Reply-To"] = "<lines-1-7@example.org>"
    msg.set_content(reply, cte="quoted-printable")
    part = _only(read_input(msg.as_bytes()))
    assert part.text == reply
    _assert_lines_whole(part.text)


def test_forwarded_mail_as_an_attachment() -> None:
    inner = _mail()
    inner.set_content(BODY, cte="base64")
    outer = _mail("Fwd: agility")
    outer.set_content("See below.\n")
    outer.add_attachment(inner)
    parts = read_input(outer.as_bytes())
    assert [p.origin for p in parts] == ["message 1, text/plain part", "message 1, forwarded message, text/plain part"]
    _assert_lines_whole(parts[1].text)


def test_a_mail_cut_short_says_so() -> None:
    msg = _mail()
    msg.set_content(BODY)
    msg.add_attachment("\n".join(ALL), filename="lines.jsonl")
    raw = msg.as_bytes()
    cut = raw[: raw.rindex(b"\n--") - 200]
    parts = read_input(cut)
    assert any("cut short" in note for note in parts[0].notes)
    assert parts[0].text == BODY


def test_damaged_base64_is_noted() -> None:
    msg = _mail()
    msg.set_content(BODY, cte="base64")
    raw = msg.as_bytes()
    raw = raw[:-20] + b"!!" + raw[-18:]
    part = _only(read_input(raw))
    assert "base64" in part.notes[0]


def test_no_text_part_gives_one_empty_part_with_a_note() -> None:
    msg = _mail()
    msg.set_content(b"\x00\x01", maintype="application", subtype="octet-stream")
    part = _only(read_input(msg.as_bytes()))
    assert part.text == ""
    assert part.notes == ["application/octet-stream part was skipped: it is not text", "it has no text part to read"]


def test_deep_nesting_is_bounded() -> None:
    msg = _mail()
    msg.set_content(BODY)
    for _ in range(MAX_DEPTH + 5):
        outer = _mail()
        outer.set_content("wrapper\n")
        outer.add_attachment(msg)
        msg = outer
    parts = read_input(msg.as_bytes())
    assert any(f"nested more than {MAX_DEPTH} deep" in note for note in parts[0].notes)


def test_a_mime_structure_beyond_the_budget_is_given_as_it_came() -> None:
    head = b"From: a@example.org\nSubject: s\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=x\n\n"
    raw = head + b"--x\nContent-Type: text/plain\n\nhi\n" * 2000 + b"--x--\n"
    part = _only(read_input(raw))
    assert part.origin == "message 1, as it came"
    assert part.text == raw.decode()
    assert "at most 1000 parts" in part.notes[0]


# ----------------------------------------------------------------------------------------------
# mbox


def test_mbox_of_three_messages(tmp_path: Path) -> None:
    first = _mail("agility: the header")
    first.set_content("From the start, the header:\n" + HEADER + "\n", cte="base64")
    second = _mail("agility: lines 2-4")
    second.set_content(flowed("Lines:\n" + "\n".join(LINES[:3]) + "\n", delsp=True))
    second.set_param("format", "flowed")
    second.set_param("delsp", "yes")
    third = _mail("agility: lines 5-7")
    third.set_content("From here on, Zoë Brontë:\n" + "\n".join(LINES[3:]) + "\n", charset="iso-8859-1", cte="8bit")
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(path)
    for msg in (first, second, third):
        box.add(msg)
    box.close()
    data = path.read_bytes()
    assert b"\n>From here on" in data  # escaped by the mbox writer
    parts = read_input(data)
    assert [p.origin for p in parts] == [f"message {n}, text/plain part" for n in (1, 2, 3)]
    assert parts[0].text == "From the start, the header:\n" + HEADER + "\n"
    assert parts[2].text.startswith("From here on, Zoë Brontë:\n")
    _assert_lines_whole("\n".join(p.text for p in parts))


# ----------------------------------------------------------------------------------------------
# whatever the input, parts come out


_HEADS = [
    b"",
    b"From: a@example.org\nSubject: s\n\n",
    b"From a@example.org Mon Dec  1 09:00:00 2025\nFrom: a@example.org\n\n",
    b"From: a@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=x\n\n--x\n",
    b"From: a@example.org\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n",
    b"From: a@example.org\nContent-Type: text/plain; format=flowed; delsp=yes; charset=x\n"
    b"Content-Transfer-Encoding: quoted-printable\n\n",
]
_MAILISH = st.lists(
    st.sampled_from([
        b"--x\n", b"--x--\n", b"Content-Type: text/plain\n", b"Content-Type: message/rfc822\n",
        b"Content-Type: multipart/alternative; boundary=y\n", b"--y\n", b"\n", b"\r\n", b"=\n", b"=3D", b"> ",
        b"From x\n", b">From ", b"<a", b"<![ ", b"&quot;", b"\xff\xfe", b"\xc3", b"abc ", b"Content-Disposition: attachment; filename*=utf-8''%FF\n",
    ]) | st.binary(max_size=20),
    max_size=40,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(head=st.sampled_from(_HEADS), body=_MAILISH)
def test_property_any_input_gives_parts(head: bytes, body: bytes) -> None:
    parts = read_input(head + body)
    assert parts and all(isinstance(p.text, str) and isinstance(p.origin, str) for p in parts)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>!-/[]?&#;a b\n'\"=", max_size=200))
def test_property_any_html_gives_text(html: str) -> None:
    assert isinstance(html_to_text(html), str)


# ----------------------------------------------------------------------------------------------
# size: linear in the input


ROWS = 320_000


def test_320000_lines_of_pasted_text() -> None:
    data = b"".join(b"%d: some prose of a long mail\r\n" % i for i in range(ROWS))
    part = _only(read_input(data))
    assert len(part.text) == len(data)


def test_320000_lines_of_flowed_mail() -> None:
    # One paragraph of 320,000 soft-broken lines and a fixed one: a single 3 MB line comes out.
    encoded = "word " * ROWS + "end\n"
    assert unflow(encoded.replace(" ", " \n"), delsp=False) == encoded.replace("\n", "") + "\n"
    raw = (
        b"From: z@example.org\nSubject: s\nMIME-Version: 1.0\n"
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n"
        + b"ab  \n" * ROWS + b"end\n"
    )
    part = _only(read_input(raw))
    assert len(part.text) == 3 * ROWS + len("end\n")


def test_320000_lines_of_html_and_of_an_mbox() -> None:
    html = "x<br>" * ROWS
    assert len(html_to_text(html)) == 2 * ROWS
    message = b"From z@example.org Mon Dec  1 09:00:00 2025\nFrom: z@example.org\nSubject: s\n\nhello\n\n"
    data = message * (ROWS // 6)
    parts = read_input(data)
    assert len(parts) == ROWS // 6
    assert sum(len(p.text) for p in parts) == len("hello\n") * (ROWS // 6)
