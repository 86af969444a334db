"""A refused line leaves a trace (R42, issue 49): a line of the opponent's that this machine's tool
refuses — by ``apply``, ``play --mail`` or ``play --git`` — is kept as evidence in the data
directory (``refused/<game id>/``: folders 0700, files 0600, each line once, at most 100 a game),
with what was wrong, its line number and its writer; the game file stays byte for byte as it was.
``show --refused`` (and ``--json``) lists them, ``show --refusal K`` prints one whole, made safe for
the terminal, and ``show`` / ``show --json`` name the last one.  Two machines (two key stores, no
``--as``)."""

from __future__ import annotations

import json
import mailbox
import re
import stat
from pathlib import Path

import pytest

from machines import Machine, mail, start
from agility_cli.record import keys, refused


def _to_act(m: Machine) -> str:
    return json.loads(m.run("show", m.file, "--json").stdout)["to_act"]


def _bobs_forged_line(tmp_path: Path) -> tuple[Machine, Machine, bytes]:
    """A signed game (two machines) where bob is to act on both; bob decides, and his line is
    changed after he signed it (its signature no longer checks): what a forger would mail alice."""
    alice, bob = start(tmp_path, deck="seed")
    for turn in range(12):
        if _to_act(alice) == "bob":
            break
        assert alice.run("bot", alice.file, "--moves", "1", "--seed", str(turn)).exit_code == 0
        mail(alice, bob)
    assert _to_act(bob) == "bob"
    assert bob.run("bot", bob.file, "--moves", "1", "--seed", "7").exit_code == 0
    last = bob.file.read_bytes().splitlines()[-1]
    record = json.loads(last)
    sig = record["sig"]
    record["sig"] = sig[:-4] + ("0000" if sig[-4:] != "0000" else "1111")
    return alice, bob, json.dumps(record, separators=(",", ":")).encode()


def _kept_files(m: Machine) -> list[Path]:
    return sorted((m.home / "refused").glob("*/*.json"))


def test_R42_a_line_refused_by_apply_is_kept_as_evidence_and_listed(tmp_path: Path) -> None:
    alice, bob, forged = _bobs_forged_line(tmp_path)
    before = alice.file.read_bytes()
    lines = before.count(b"\n")
    r = alice.run("apply", alice.file, "-", input=forged.decode() + "\n")
    assert r.exit_code == 1, r.output
    assert alice.file.read_bytes() == before  # a refused line leaves the game file byte for byte as it was
    assert "kept here as evidence" in r.stderr
    files = _kept_files(alice)
    assert len(files) == 1
    game_id = keys.game_id(before.split(b"\n", 1)[0])
    assert files[0].parent == alice.home / "refused" / game_id
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(files[0].parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((alice.home / "refused").stat().st_mode) == 0o700
    kept = json.loads(files[0].read_bytes())
    assert kept["raw"].encode() == forged and kept["writer"] == "bob" and kept["line"] == lines + 1
    assert "bad signature" in kept["reason"] and kept["via"] == "mail"
    # the same line again: refused again, kept once
    assert alice.run("apply", alice.file, "-", input=forged.decode() + "\n").exit_code == 1
    assert len(_kept_files(alice)) == 1
    # listed, in words and as JSON
    listed = alice.run("show", alice.file, "--refused")
    assert listed.exit_code == 0 and f"line {lines + 1} from bob" in listed.stdout and "bad signature" in listed.stdout
    assert all(len(row) <= 80 for row in listed.stdout.splitlines() if "agility show" not in row)
    rows = json.loads(alice.run("show", alice.file, "--refused", "--json").stdout)
    assert [(e["k"], e["line"], e["writer"], e["code"]) for e in rows] == [(1, lines + 1, "bob", "apply/invalid")]
    whole = alice.run("show", alice.file, "--refusal", "1")
    assert whole.exit_code == 0 and forged.decode() in whole.stdout
    one = json.loads(alice.run("show", alice.file, "--refusal", "1", "--json").stdout)
    assert one["raw"].encode() == forged
    assert alice.run("show", alice.file, "--refusal", "2").exit_code == 2
    # show names the last refusal; show --json has it as "refused", the state's keys unchanged
    shown = alice.run("show", alice.file)
    assert "A line from bob was refused here:" in shown.stdout and "bad signature" in shown.stdout
    assert all(len(row) <= 80 for row in shown.stdout.splitlines() if "agility show" not in row)
    assert all(len(row) <= 80 for row in whole.stdout.splitlines()[:-1])  # the raw line last, whole
    state = json.loads(alice.run("show", alice.file, "--json").stdout)
    assert state["refused"]["count"] == 1 and state["refused"]["last"]["writer"] == "bob"
    assert state["to_act"] == "bob" and state["status"] == "playing"
    # bob's machine refused nothing: nothing is kept there, and its show --json has no "refused"
    assert _kept_files(bob) == []
    assert "refused" not in json.loads(bob.run("show", bob.file, "--json").stdout)


def test_R42_a_line_refused_by_play_mail_is_kept(tmp_path: Path) -> None:
    from test_mail_clients import message
    from agility_cli.record.lines import line_hash
    from agility_cli.record.mail import armour

    alice, bob, forged = _bobs_forged_line(tmp_path)
    before = alice.file.read_bytes()
    n = before.count(b"\n") + 1
    block = armour.armour([forged], game=line_hash(before.split(b"\n", 1)[0])[:8], first=n, last=n)
    box = tmp_path / "maildir"
    mailbox.Maildir(str(box)).add(mailbox.MaildirMessage(message("quoted-printable", block, "bob")))
    alice.run("play", alice.file, "--mail", box, input="quit\n")
    assert alice.file.read_bytes() == before
    files = _kept_files(alice)
    assert len(files) == 1 and json.loads(files[0].read_bytes())["raw"].encode() == forged
    alice.run("play", alice.file, "--mail", box, input="quit\n")  # the mailbox read again: kept once
    assert len(_kept_files(alice)) == 1


def test_R42_a_kept_line_is_made_safe_for_the_terminal(tmp_path: Path) -> None:
    """Every field of a kept line came from the opponent: escapes and bidi overrides are shown
    escaped by --refused, --refusal K and show."""
    alice, bob, forged = _bobs_forged_line(tmp_path)
    game_id = keys.game_id(alice.file.read_bytes().split(b"\n", 1)[0])
    import os

    os.environ["AGILITY_HOME"], old = str(alice.home), os.environ.get("AGILITY_HOME")
    try:
        assert refused.keep(game_id, b'{"x":"\x1b]8;;http://evil\x07\xe2\x80\xae"}', line=9, writer="b\x1b[2Job",
                            reason="why \x1b[31mred", code="apply/invalid", via="mail")
    finally:
        os.environ["AGILITY_HOME"] = old or ""
    for args in (("--refused",), ("--refusal", "1"), ()):
        out = alice.run("show", alice.file, *args).stdout
        assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out, args
    assert "\\x1b" in alice.run("show", alice.file, "--refusal", "1").stdout


def test_R42_at_most_100_refused_lines_a_game_the_first_ones_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    game_id = "ab" * 32
    for i in range(refused.MAX_KEPT + 5):
        refused.keep(game_id, b'{"n":%d}' % i, line=i + 2, writer="bob", reason="r", code="c", via="mail")
    found = refused.kept(game_id)
    assert len(found) == refused.MAX_KEPT == 100
    assert {e.raw for e in found} == {'{"n":%d}' % i for i in range(100)}
    assert not refused.keep("../../etc", b"x", line=1, writer="", reason="", code="", via="")  # no such game id


def test_R42_a_damaged_or_foreign_record_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    game_id = "cd" * 32
    assert refused.keep(game_id, b"line", line=3, writer="bob", reason="r", code="c", via="mail")
    folder = tmp_path / "home" / "refused" / game_id
    (folder / ("0" * 64 + ".json")).write_bytes(b"{not json")
    (folder / ("1" * 64 + ".json")).symlink_to(folder / ("0" * 64 + ".json"))
    assert [e.raw for e in refused.kept(game_id)] == ["line"]


def test_R42_a_line_refused_by_play_git_is_kept_and_nothing_is_taken_in(tmp_path: Path) -> None:
    """By git the remote's new lines are verified before they are taken in: a forged line of bob's
    is refused, alice's file and branch stay as they were, and the line is kept (README)."""
    import shutil

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from test_git_play import git, joined, to_act

    alice, bob = joined(tmp_path)
    assert alice.run("play", alice.file, "--git", input="1\n" * 2).exit_code == 0  # the join pulled: the reveal
    for _ in range(12):  # until bob, having pulled, has a decision of his own to make
        assert bob.run("play", bob.file, "--git", input="quit\n").exit_code == 0
        state = json.loads(bob.run("show", bob.file, "--json").stdout)
        if state["to_act"] == "bob" and "awaiting_keys" not in state:
            break
        assert alice.run("play", alice.file, "--git", input="1\n" * 2).exit_code == 0
    assert to_act(bob) == "bob"
    r = bob.run("bot", bob.file, "--moves", "1")
    assert r.exit_code == 0, r.output
    rows = bob.file.read_bytes().splitlines(keepends=True)
    record = json.loads(rows[-1])
    record["sig"] = record["sig"][:-4] + ("0000" if record["sig"][-4:] != "0000" else "1111")
    forged = json.dumps(record, separators=(",", ":")).encode()
    bob.file.write_bytes(b"".join(rows[:-1]) + forged + b"\n")
    git(bob.dir, "commit", "--quiet", "-am", "forged")
    git(bob.dir, "push", "--quiet")
    before, head = alice.file.read_bytes(), git(alice.dir, "rev-parse", "HEAD")
    r = alice.run("play", alice.file, "--git", input="1\n")
    assert r.exit_code == 1 and "does not verify" in r.stderr
    assert alice.file.read_bytes() == before and git(alice.dir, "rev-parse", "HEAD") == head
    files = _kept_files(alice)
    assert len(files) == 1
    kept = json.loads(files[0].read_bytes())
    assert kept["raw"].encode() == forged and kept["via"] == "git" and kept["writer"] == "bob"
    assert kept["line"] == len(rows)


def test_R42_a_mailed_copy_of_a_held_line_that_differs_is_kept(tmp_path: Path) -> None:
    """Two different lines of the same number (a fork, or an equivocation: bob signing two lines
    for one place) are refused, and the mailed one kept beside the file's."""
    alice, bob, forged = _bobs_forged_line(tmp_path)
    mail(bob, alice)  # bob's true line, applied
    rows = alice.file.read_bytes().splitlines()
    k = len(rows) - 1
    changed = json.loads(rows[k])
    assert changed["player"] == "bob"
    changed["digest"] = "0" * len(changed["digest"])
    text = json.dumps(changed, separators=(",", ":"))
    before = alice.file.read_bytes()
    r = alice.run("apply", alice.file, "-", input=text + "\n")
    assert r.exit_code == 1 and alice.file.read_bytes() == before
    [kept] = [json.loads(p.read_bytes()) for p in _kept_files(alice)]
    assert kept["raw"] == text and kept["line"] == k + 1 and kept["code"] == "apply/diverged"
    assert kept["writer"] == "bob"


def test_R42_a_hostile_line_of_any_bytes_is_kept_cut_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    game_id = "ef" * 32
    raw = b"\x00\x01\xff\x1b" * (refused.MAX_RAW // 2)  # longer than kept whole; controls and bytes no UTF-8
    assert refused.keep(game_id, raw, line=5, writer="\x1b[2J", reason="x" * 100_000, code="c", via="mail")
    [e] = refused.kept(game_id)
    assert e.cut and len(e.raw) == refused.MAX_RAW and len(e.reason) <= 8192 and e.sha256 == refused.digest(raw)


def test_R42_the_evidence_is_told_in_chinese_within_80_cells_and_kept_english(tmp_path: Path) -> None:
    """Issue 54: ``show --refused``, ``--refusal 1`` and the line ``show`` adds speak the language in
    use (the reason kept in English, read back through the catalog), each line within 80 terminal
    cells; the kept file and the JSON stay English."""
    from agility_cli.table.layout import cell_len
    from test_i18n_errors import leftover

    alice, bob, forged = _bobs_forged_line(tmp_path)
    assert alice.run("apply", alice.file, "-", input=forged.decode() + "\n").exit_code == 1
    listed = alice.run("--lang", "zh", "show", alice.file, "--refused").stdout
    whole = alice.run("--lang", "zh", "show", alice.file, "--refusal", "1").stdout
    shown = alice.run("--lang", "zh", "show", alice.file).stdout
    assert "被拒绝的行" in listed and "签名无效" in listed, listed
    assert "作为证据保存" in whole and "原因：" in whole and "签名无效" in whole, whole
    assert "本机拒绝过 bob 的一行" in shown, shown
    for text in (listed, whole.rsplit("\n", 2)[0], shown):
        assert all(cell_len(row) <= 80 for row in text.splitlines() if "agility show" not in row), text
    from agility_cli import i18n
    i18n.set_language("zh")
    try:
        notation = re.compile(r"bob: [^）)]*")  # the refused line in the log's words, as written
        assert leftover(notation.sub("", listed)) == [], listed
        assert leftover(notation.sub("", shown.split("本机拒绝过")[1])) == [], shown
    finally:
        i18n.set_language(None)
    assert "bad signature" in json.loads(alice.run("--lang", "zh", "show", alice.file, "--refused", "--json").stdout)[0]["reason"]
    assert alice.run("--lang", "zh", "show", alice.file, "--refusal", "9").stderr.startswith("agility：--refusal 9：")
