"""The mail transport's errors in Chinese (issue 54): an IMAP server that cannot be reached, a TLS
handshake that fails, a certificate not trusted, a login refused, a mailbox missing, a deadline
passed, an address or a setting that cannot be read; a damaged mail.

Each path is driven for real (``agility apply`` / ``agility play --mail`` through typer's runner,
against a closed port or a tiny fake IMAP server on the loopback) in zh and in the pseudo-locale
(qps): in zh no English word is left but the commands to copy, the names of settings, addresses,
ids and what a server or the system said (quoted); in qps no unbracketed English; the exit code is
the one English has (2: a source that cannot be read); the game file is unchanged; the English
text (what a program or a log reads) is as it was.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import ssl
import threading
from pathlib import Path
from typing import Iterator

import pytest

from test_i18n_errors import run as errors_run
from typer.testing import CliRunner

from agility_cli.cli import app
from agility_cli.cli.common import fit
from agility_cli.table.layout import cell_len
from test_i18n import bare_english
from test_mail_servers import cert, free_port as closed_port  # noqa: F401  (a fixture: a self-signed certificate)

runner = CliRunner()

# what stays as it is in every language: what was quoted (a server's or the system's words, a value
# given), commands to copy, addresses, settings' names, host:port, and the protocols' own names
_KEPT = re.compile(r"'[^'\n]*'|`[^`]*`|imaps://\S+|\b[A-Z][A-Z0-9_]{1,}\b|[\w.-]+@[\w.-]+"
                   r"|\b\d+\.\d+\.\d+\.\d+(?::\d+)?\b|\bimaps\b|\bagility\b|\balice\b|\bbob\b|\bMaildir\b|\bmbox\b"
                   r"|\b[\w-]+\.(?:eml|jsonl|txt|pem)\b|\b[0-9a-f]{8}\b|(?:/[\w.-]+)+")


def english_left(text: str, lang: str) -> list[str]:
    rest = _KEPT.sub("", text)
    if lang == "qps":
        return bare_english(rest)
    return [w for w in re.findall(r"[A-Za-z]{3,}", rest)]


def run(lang: str, *args: object, env: dict[str, str] | None = None):
    return errors_run(lang, *args, env=env)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for var in ("AGILITY_IMAP_PASSWORD", "AGILITY_MAIL_CA_FILE", "AGILITY_MAIL_TIMEOUT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))


@pytest.fixture
def game() -> Path:
    result = runner.invoke(app, ["new", "g.jsonl", "--seed", "4", "--players", "alice", "bob"])
    assert result.exit_code == 0, result.output
    return Path("g.jsonl")


class FakeImap:
    """A loopback IMAP server over TLS (``tls``) or plain text, answering LOGIN with NO (``login``
    False) and EXAMINE with NO; or silent (``silent``: never a byte, the handshake waits)."""

    def __init__(self, cert: tuple[Path, Path] | None, login: bool = False, silent: bool = False):
        self.context = None
        if cert is not None:
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(*cert)
        self.login, self.silent = login, silent
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.server.settimeout(0.2)
        self.port = int(self.server.getsockname()[1])
        self.stopped = threading.Event()
        self.logins: list[str] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(10)
            if self.silent:
                self.stopped.wait(20)
                return
            if self.context is not None:
                conn = self.context.wrap_socket(conn, server_side=True)
            reader = conn.makefile("rb")
            conn.sendall(b"* OK IMAP4rev1 fake server ready\r\n")
            for raw in reader:
                tag, _, rest = raw.decode("ascii", "replace").strip().partition(" ")
                verb = rest.split(" ")[0].upper()
                if verb == "CAPABILITY":
                    conn.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag.encode() + b" OK done\r\n")
                elif verb == "LOGIN":
                    self.logins.append(rest)
                    conn.sendall(tag.encode() + (b" OK logged in\r\n" if self.login else
                                                 b" NO [AUTHENTICATIONFAILED] Authentication failed.\r\n"))
                elif verb == "LOGOUT":
                    conn.sendall(b"* BYE\r\n" + tag.encode() + b" OK bye\r\n")
                    return
                else:
                    conn.sendall(tag.encode() + b" NO Mailbox doesn't exist\r\n")
        except (OSError, ssl.SSLError):
            pass
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopped.set()
        self.server.close()


@pytest.fixture
def servers(cert: tuple[Path, Path]) -> Iterator[dict[str, FakeImap]]:
    made = {"refuses": FakeImap(cert), "logs in": FakeImap(cert, login=True), "plain": FakeImap(None),
            "silent": FakeImap(None, silent=True)}
    yield made
    for server in made.values():
        server.stop()


def _check(result, lang: str, code: int, *words: str) -> str:
    """The error said in ``lang``, exit ``code``, every line within 80 cells."""
    assert result.exit_code == code, result.output
    text = result.output
    assert text.strip()
    left = english_left(text, lang)
    assert not left, f"English left in {lang}: {left}\n{text}"
    for line in fit(text.rstrip("\n"), 80).split("\n"):  # as a terminal shows it (``err`` wraps)
        assert cell_len(line) <= 80, line
    for word in words:
        assert word in text, (word, text)
    return text


def _paths(servers: dict[str, FakeImap], cert: tuple[Path, Path]) -> list[tuple[str, dict[str, str], str, str]]:
    """(address, environment, the English words it says, the Chinese ones) of each IMAP error."""
    ca = {"AGILITY_MAIL_CA_FILE": str(cert[0])}
    pw = {"AGILITY_IMAP_PASSWORD": "not-a-secret"}
    at = "imaps://alice@127.0.0.1:{}/INBOX".format
    return [
        (at(closed_port()), pw, "the connection was refused", "连接被拒绝"),
        (at(servers["plain"].port), pw, "the TLS connection failed", "TLS 连接失败"),
        (at(servers["refuses"].port), pw, "the certificate of the server is not trusted (it is self-signed)", "证书是自签名的"),
        (at(servers["refuses"].port), {**pw, **ca}, "the server refused the login of alice", "拒绝了 alice 的登录"),
        (at(servers["logs in"].port), {**pw, **ca}, "the server has no mailbox 'INBOX'", "没有可读取的邮箱 'INBOX'"),
        (at(servers["silent"].port), {**pw, "AGILITY_MAIL_TIMEOUT": "1"}, "did not finish within 1 s",
         "未在 1 秒内完成"),
        (at(servers["refuses"].port), {}, "no password for alice@127.0.0.1", "没有 alice@127.0.0.1 的密码"),
        ("imaps://alice:hunter2@127.0.0.1/INBOX", {}, "never holds the password", "不可写密码"),
        ("imaps://127.0.0.1/INBOX", {}, "the user is needed", "必须有用户名"),
        ("imaps://alice@127.0.0.1:99999/INBOX", {}, "its port is no number", "端口不是"),
        ("imaps://alice@127.0.0.1/a%01b", {}, "characters that cannot be sent", "无法发送的字符"),
        (at(closed_port()), {**pw, "AGILITY_MAIL_TIMEOUT": "soon"}, "AGILITY_MAIL_TIMEOUT is the seconds",
         "而不是 'soon'"),
        (at(closed_port()), {**pw, "AGILITY_MAIL_CA_FILE": "/nonexistent/ca.pem"}, "no such file of authorities",
         "没有这个证书机构文件"),
        (at(closed_port()), {**pw, "AGILITY_MAIL_CA_FILE": "/"}, "cannot read the file of authorities ('",
         "无法读取证书机构文件"),
        (at(closed_port()), {**pw, "AGILITY_MAIL_CA_FILE": str(cert[1].parent / "none.pem")}, "holds no certificate",
         "没有可信任的证书"),
    ]


def test_every_imap_error_is_told_in_zh_and_qps_and_english_is_kept(game: Path, servers: dict[str, FakeImap],
                                                                    cert: tuple[Path, Path]) -> None:
    before = game.read_bytes()
    (cert[1].parent / "none.pem").write_text("no certificate here\n")
    for address, env, english, chinese in _paths(servers, cert):
        said = {lang: run(lang, "apply", game, address, env=env) for lang in ("en", "zh", "qps")}
        assert said["en"].exit_code == 2 and english in said["en"].output, said["en"].output
        _check(said["zh"], "zh", 2, chinese)
        _check(said["qps"], "qps", 2)
        assert "hunter2" not in said["zh"].output + said["qps"].output
        assert game.read_bytes() == before, address
    assert servers["refuses"].logins and all("not-a-secret" in login for login in servers["refuses"].logins)


def test_play_by_mail_tells_a_refused_login_in_zh(game: Path, servers: dict[str, FakeImap],
                                                  cert: tuple[Path, Path]) -> None:
    before = game.read_bytes()
    env = {"AGILITY_IMAP_PASSWORD": "x", "AGILITY_MAIL_CA_FILE": str(cert[0])}
    address = f"imaps://alice@127.0.0.1:{servers['refuses'].port}/INBOX"
    out = _check(run("zh", "play", game, "--mail", address, env=env), "zh", 2, "服务器拒绝了 alice 的登录")
    assert "'[AUTHENTICATIONFAILED] Authentication failed.'" in out  # the server's own words, quoted
    assert game.read_bytes() == before


# -- a damaged mail ----------------------------------------------------------------------------------

def _damaged(text: str, how: str) -> str:
    """The mail ``text`` with its block changed as a mail program changes one."""
    rows = text.split("\n")
    begin = next(i for i, row in enumerate(rows) if row.startswith("-----BEGIN"))
    row = rows[begin + 2]
    if how == "changed":  # a letter of the body changed: the checksum does not match
        rows[begin + 2] = row[:5] + ("A" if row[5] != "A" else "B") + row[6:]
    elif how == "foreign":  # a character that is no base64
        rows[begin + 2] = row[:5] + "<" + row[6:]
    elif how == "cut":  # the END line lost
        rows = [r for r in rows if not r.startswith("-----END")]
    elif how == "no checksum":
        rows = [r for r in rows if not r.startswith("=")]
    elif how == "no begin":
        del rows[begin]
    return "\n".join(rows)


@pytest.fixture
def mailed(game: Path) -> tuple[Path, str]:
    """Bob's copy of the game (line 1) and alice's mail of lines 1-2 (her play)."""
    shutil.copyfile(game, "bob.jsonl")
    decisions = json.loads(run("en", "legal", game, "--json").stdout)
    argv = next(d["argv"] for d in decisions if "--reward" in d["argv"])
    assert run("en", "move", game, *argv, "-q").exit_code == 0
    sent = run("en", "send", game, "--as", "alice")
    assert sent.exit_code == 0 and "BEGIN AGILITY LINES" in sent.stdout, sent.output
    return Path("bob.jsonl"), sent.stdout


DAMAGE = {"changed": ("was changed on the way", "在传送途中被改动了"),
          "foreign": ("holds a character that is not part of it", "含有不属于它的字符"),
          "cut": ("was cut short", "被截断了"),
          "no checksum": ("lost its checksum line", "丢失了校验行"),
          "no begin": ("has no BEGIN line", "没有对应的 BEGIN 行")}


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_a_damaged_mail_is_refused_in_zh_and_qps_the_file_unchanged(mailed: tuple[Path, str], how: str) -> None:
    bob, text = mailed
    Path("mail.txt").write_text(_damaged(text, how))
    before = bob.read_bytes()
    english, chinese = DAMAGE[how]
    got = run("en", "apply", bob, "mail.txt")
    assert got.exit_code == 2 and english in got.output, got.output
    _check(run("zh", "apply", bob, "mail.txt"), "zh", 2, chinese, "agility send bob.jsonl --raw")
    _check(run("qps", "apply", bob, "mail.txt"), "qps", 2)
    assert bob.read_bytes() == before
    # a copy that does not exist yet: the header line is in the damaged block, so nothing is made
    _check(run("zh", "apply", "new.jsonl", "mail.txt"), "zh", 2, chinese)
    assert not Path("new.jsonl").exists()


def test_a_damaged_mail_in_a_mailbox_is_told_in_zh_from_the_index_too(mailed: tuple[Path, str]) -> None:
    """The mailbox's index keeps a damaged block's message as a message: a second reading (from the
    index, the message not read again) tells it in Chinese too."""
    bob, text = mailed
    for sub in ("cur", "new", "tmp"):
        Path("md", sub).mkdir(parents=True)
    Path("md/new/1.eml").write_text("From: alice@example.org\nTo: bob@example.org\nSubject: Agility\n\n"
                                    + _damaged(text, "changed"))
    before = bob.read_bytes()
    got = run("en", "apply", bob, "md")
    assert got.exit_code == 2 and "(your file lacks those lines)" in got.output, got.output
    for lang in ("zh", "zh", "qps"):
        out = _check(run(lang, "apply", bob, "md"), lang, 2)
        assert lang == "qps" or "你的文件缺少这些行" in out and "在传送途中被改动了" in out
    assert bob.read_bytes() == before
