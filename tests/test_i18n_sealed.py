"""The sealed deck's checks in Chinese (issue 54, R41, R42, R44).

What the sealed deck's checks find — a forged line reported at its line number, the reason of an
audit's verdict and the finding inside it, an abort's reasons, a damaged key store of the sealed
deck — is said by the record layer as ``said.Said`` (English text that keeps its message): English
wherever a program reads it (``show --json``'s verdict, the evidence), told in the language in use
where a person does.  Each forgery here is driven through the real commands on two players'
machines (``machines``), in zh and in the pseudo-locale (qps): no English is left on the screen
but names, commands to copy, ids (positions ``#3``, passes ``deal-2``, rulings), paths and hex;
the exit code is the English one; a refused file is unchanged; the JSON is the same in every
language.  A verdict a checkpoint keeps as English words is told too (``said.recall``).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from adversary import at_home, forged_abort, lines_of, read_as
from agility_cli import i18n
from agility_cli.cli import app
from agility_cli.cli.common import fit
from agility_cli.engine.moves import Abort, KeysLine, Seal
from agility_cli.engine.state import digest, is_position
from agility_cli.record import keys
from agility_cli.record.lines import encode_line
from agility_cli.table.layout import cell_len
from machines import Machine, start
from test_i18n_errors import leftover

runner = CliRunner()
PASSES = ("deal-1", "deal-2", "deal-3", "deal-4")  # the passes' ids, as the file format names them
KEPT = (*PASSES, "Mighty Mutt")  # the glossary keeps this dog's English name (混种犬 beside it)


def _breakable(text: str) -> str:
    """The pseudo-locale's padding (``~``, a third of a message's length, nested messages each
    padded) as a terminal may break it: a real language has no such run of one character."""
    return re.sub(r"~{10,}", lambda m: " ".join(m.group(0)[i:i + 10] for i in range(0, len(m.group(0)), 10)), text)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test in its own folder, the files named as a player names them (short, relative)."""
    monkeypatch.chdir(tmp_path)


def run(m: Machine, lang: str, *args: object, home: Path | None = None) -> Any:
    i18n.set_language(lang)
    try:
        result = runner.invoke(app, [str(a) for a in args],
                               env={"AGILITY_HOME": str(home or m.home), "AGILITY_PLAYER": None})
    finally:
        i18n.set_language(None)
    assert "Traceback" not in result.output
    return result


def check(result: Any, lang: str, code: int) -> str:
    """The screen in ``lang``: the exit code, nothing English left, every line within 80 cells as a
    terminal shows it."""
    assert result.exit_code == code, result.output
    text = result.output
    assert text.strip()
    i18n.set_language(lang)
    try:
        left = leftover(text, *KEPT)
    finally:
        i18n.set_language(None)
    assert not left, f"English left in {lang}: {left}\n{text}"
    for line in fit(_breakable(text.rstrip("\n")), 80).split("\n"):
        assert cell_len(line) <= 80, line
    return text


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Machine, Machine, Path]:
    """A sealed game (format 4) dealt on alice's and bob's machines; and a spectator's home (in each
    test's own folder: what one test's spectator read is not another's history)."""
    root = tmp_path_factory.mktemp("zh-sealed")
    alice, bob = start(root, deck="sealed")
    return alice, bob, Path("spectator")


def _signed(m: Machine, game_id: str, record: dict[str, Any]) -> bytes:
    with at_home(m):
        key = keys.signing_key(game_id, m.name)
    assert key is not None
    return keys.with_signature(json.dumps(record, separators=(",", ":")).encode(), key)


# -- a forged line, reported at its line ------------------------------------------------------------

@pytest.fixture
def bad_proof(pair: tuple[Machine, Machine, Path], tmp_path: Path) -> Path:
    """Bob's join line (line 2) with its shuffle proof of the training cards changed, signed again
    with bob's own key: its signature checks, its proof does not (R42)."""
    _alice, bob, _spectator = pair
    rows = lines_of(bob.file.read_bytes())
    join = json.loads(rows[1])
    del join["sig"]
    proof = join["seal"]["shuffle"]["cards"]["proof"]
    join["seal"]["shuffle"]["cards"]["proof"] = ("A" if proof[0] != "A" else "B") + proof[1:]
    path = Path("proof.jsonl")
    path.write_bytes(rows[0] + b"\n" + _signed(bob, keys.game_id(rows[0]), join) + b"\n")
    return path


def test_R42_a_bad_proof_is_reported_at_its_line_in_english_for_programs(pair, bad_proof: Path):
    alice, _bob, spectator = pair
    shown = run(alice, "en", "show", bad_proof, home=spectator)
    assert shown.exit_code == 3
    assert ("line 2: bob's join line: the shuffle pass written by bob: its proof does not check (its points are "
            "not its input permuted and locked by its key, R42)") in shown.output
    assert "hint: the line was edited, or made by a modified client" in shown.output


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_R42_a_bad_proof_is_told_in_the_language_and_the_file_is_unchanged(pair, bad_proof: Path, lang: str):
    alice, _bob, spectator = pair
    before = bad_proof.read_bytes()
    text = check(run(alice, lang, "show", bad_proof, home=spectator), lang, 3)
    if lang == "zh":
        assert "第 2 行：bob 的加入行：bob 写的洗牌处理：它的证明没有通过检查" in text and "提示：" in text
    moved = run(alice, lang, "move", bad_proof, "done", home=spectator)
    check(moved, lang, 3)
    assert bad_proof.read_bytes() == before


# -- a damaged key store of the sealed deck ----------------------------------------------------------

@pytest.fixture
def damaged_store(pair: tuple[Machine, Machine, Path]):  # type: ignore[no-untyped-def]
    """A copy of bob's machine (a short home: the store's path fits a line) whose key store has his
    seal secret replaced: it does not make his passes in the file (a pass made with other
    randomness, as this machine reads it: its own record damaged)."""
    _alice, bob, _spectator = pair
    copy = Machine(Path.cwd(), "b")
    copy.home = Path("h")
    shutil.copytree(bob.home, copy.home)
    shutil.copyfile(bob.file, copy.file)
    with at_home(copy):
        store = keys.store_path(keys.game_id(lines_of(copy.file.read_bytes())[0]))
    doc = json.loads(store.read_bytes())
    doc["players"]["bob"]["seal"] = "cd" * 32
    store.write_text(json.dumps(doc))
    return copy


@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_R42_a_damaged_key_store_of_the_sealed_deck_is_told_in_the_language(damaged_store: Machine, lang: str):
    bob = damaged_store
    before = bob.file.read_bytes()
    english = run(bob, "en", "show", bob.file)
    assert english.exit_code == 3
    assert ("its seal secret for 'bob' does not make 'bob''s passes in the game file (the cards deal-2 pass is not "
            "the one its writer's seal secret makes)") in " ".join(english.output.split())
    text = check(run(bob, lang, "show", bob.file), lang, 3)
    if lang == "zh":
        assert "生成不出对局文件中 'bob' 的处理（训练卡的 deal-2 处理不是其写入者的密封密钥生成的那个）" in text
    check(run(bob, lang, "move", bob.file, "done"), lang, 3)
    assert bob.file.read_bytes() == before


# -- a forged abort, and an abort whose secret did not make its writer's passes -----------------------

def _out_of_turn_abort(pair: tuple[Machine, Machine, Path], tmp_path: Path) -> Path:
    """Bob's modified tool aborts, out of his turn, over a card of his own hand: no live opening
    (R42), bob forfeits."""
    _alice, bob, _spectator = pair
    data = bob.file.read_bytes()
    game = read_as(bob, data)
    mine = [q for q in game.public.players[1].hand if is_position(q)]
    path = Path("abort.jsonl")
    path.write_bytes(data + forged_abort(bob, data, mine[0], None, game) + b"\n")
    return path


def _other_secret_abort(pair: tuple[Machine, Machine, Path], tmp_path: Path) -> Path:
    """Alice's modified tool aborts in her turn over a position of her window with a seal secret
    that did not make her passes (other randomness): read with it, her header's pass fails, and she
    forfeits (R42)."""
    alice, bob, _spectator = pair
    data = bob.file.read_bytes()  # bob's copy: his keys line (line 4) in
    game = read_as(alice, data)
    q = next(q for q in game.public.deck
             if q in game.sealed.deck.pos and game.sealed.deck.pos[q].keys[1] is not None
             and game.sealed.deck.pos[q].keys[0] is None)
    abort = Abort(secret="ab" * 32, position=q, line=None)
    record = KeysLine(n=game.next_n, prev=game.tip, player="alice", seal=Seal(abort=abort), digest=digest(game.public))
    with at_home(alice):
        key = keys.signing_key(game.game_id, "alice")
    assert key is not None
    path = Path("other.jsonl")
    path.write_bytes(data + keys.with_signature(encode_line(record), key) + b"\n")
    return path


ABORTS = {
    "out of turn": (_out_of_turn_abort, "bob", "bob's abort at line 5: an abort out of turn: bob was not to act (R42: "
                    "an abort claims only a live opening of the line it refuses)",
                    "不在其回合的中止：当时不该 bob 行动（R42：中止只能针对它拒绝的行中正在进行的打开）"),
    "other randomness": (_other_secret_abort, "alice", "alice's abort at line 5: its seal secret does not make its "
                         "passes (line 1: alice's header: the cards deal-1 pass is not the one its writer's seal "
                         "secret makes)", "它的密封密钥生成不出它的处理（第 1 行：alice 的对局头：训练卡的 deal-1 处理"),
}


@pytest.mark.parametrize("case", sorted(ABORTS))
def test_R42_an_aborts_verdict_is_told_in_zh_and_its_reason_stays_english(pair, tmp_path: Path, case: str):
    make, culprit, reason, chinese = ABORTS[case]
    path = make(pair, tmp_path)
    alice, _bob, spectator = pair
    said = [json.loads(run(alice, lang, "show", path, "--json", home=spectator).stdout)["verdict"]
            for lang in ("en", "zh", "qps")]
    assert said[0] == said[1] == said[2] == {"kind": "forfeit", "player": culprit, "reason": reason}
    shown = check(run(alice, "zh", "show", path, home=spectator), "zh", 0)
    assert chinese in "".join(shown.split()).replace("（", "（").replace(" ", "") or \
        chinese.replace(" ", "") in "".join(shown.split())
    assert f"{culprit} 判负" in shown
    check(run(alice, "qps", "show", path, home=spectator), "qps", 0)
    for lang in ("zh", "qps"):  # the replay's verdict line: "Sealed deck: aborted: … — bob forfeits the game"
        told = check(run(alice, lang, "replay", path, home=spectator), lang, 0)
        if lang == "zh":
            assert "密封牌库：已中止：" in told and f"{culprit} 判负（R42）" in told


def test_R42_a_verdict_kept_as_english_words_is_told_whole_in_zh():
    """A checkpoint keeps a verdict's reason as English words: told, it is read back into the
    catalog's messages, the finding inside it too; unknown words stay as they were."""
    from agility_cli.record.audit import Verdict, told_reason
    from agility_cli.said import recall

    reason = ("bob's abort at line 9: alice's line it refuses opens position #7 opens to t17, a card already seen (a "
              "duplicated card), read with bob's published seal secret: a pass of alice's was false")
    assert told_reason(reason) == reason and recall(reason) == reason  # English: as the JSON says it
    i18n.set_language("zh")
    try:
        told = Verdict("forfeit", "alice", reason).text()
        assert told == ("alice 判负：bob 在第 9 行中止：它拒绝的 alice 的行打开时：位置 #7 打开为 t17，这张卡已经出现过（重复"
                        "的卡），这是用 bob 公开的密封密钥读出的：alice 的某个处理是假的（R42）"), told
        failed = told_reason("audit failed: the seal secret it published does not make its dogs deal-2 pass, by bob")
        assert failed == "核验失败：它公开的密封密钥生成不出它的敏捷狗卡的 deal-2 处理，由 bob 写入"
        assert recall("bob's words of his own") == "bob's words of his own"
    finally:
        i18n.set_language(None)


# -- a wrong signature on a sealed game's line --------------------------------------------------------

@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_R41_a_wrong_signature_on_a_sealed_line_is_refused_at_its_line_in_the_language(pair, lang: str):
    """Bob's keys line (line 4) with its signature changed: refused at its line (exit 3), the frame
    in the language in use, the English unchanged for programs, the file unchanged.  (The
    signature's own sentence is record/signing.py's, translated with the game file's errors.)"""
    alice, bob, spectator = pair
    rows = lines_of(bob.file.read_bytes())
    keys_line = json.loads(rows[3])
    keys_line["sig"] = keys_line["sig"][:-2] + ("00" if keys_line["sig"][-2:] != "00" else "11")
    path = Path("sig.jsonl")
    path.write_bytes(b"\n".join(rows[:3]) + b"\n" + json.dumps(keys_line, separators=(",", ":")).encode() + b"\n")
    before = path.read_bytes()
    english = run(alice, "en", "show", path, home=spectator)
    assert english.exit_code == 3
    assert "line 4: bad signature: the line is bob's decision" in english.output and "(R41)" in english.output
    told = run(alice, lang, "show", path, home=spectator)
    assert told.exit_code == 3
    if lang == "zh":
        assert "对局文件无效" in told.output and "第 4 行" in told.output
    else:
        assert "⟦" in told.output
    assert path.read_bytes() == before


# -- what a sealed game refuses: a decision after an abort ------------------------------------------

@pytest.mark.parametrize("lang", ["zh", "qps"])
def test_R42_a_decision_after_an_abort_is_refused_in_the_language(pair, tmp_path: Path, lang: str):
    path = _out_of_turn_abort(pair, tmp_path)
    alice = pair[0]
    english = run(alice, "en", "move", path, "done")  # alice's tool answers the abort with her secret (R42)
    before = path.read_bytes()
    assert english.exit_code == 1 and "bob forfeits the game: bob's abort at line 5: an abort out of turn" in \
        english.output
    assert run(alice, "en", "move", path, "done").output == english.output and path.read_bytes() == before
    text = check(run(alice, lang, "move", path, "done"), lang, 1)
    if lang == "zh":
        assert "对局已结束：alice获胜（bob判负：bob在第5行中止：不在其回合的中止" in "".join(text.split())
    assert path.read_bytes() == before


# -- what the sealed deck's writer refuses (R41, R42): told as the command line tells a refusal ------

def test_R41_R42_the_writers_refusals_are_said_english_for_programs_and_told_in_zh(pair, tmp_path: Path):
    """A line of bob's on alice's machine (only bob's tool holds bob's keys, R41), and a decision
    after an abort (R42): the refusal is English text, told in zh (``said.tell``, as
    ``cli.common`` tells a refusal) with no English left but names, ids and commands."""
    from agility_cli.engine.moves import Break
    from agility_cli.engine.notation import Refused
    from agility_cli.record.sealed import write as sealwrite
    from agility_cli.said import tell

    alice, bob, _spectator = pair
    data = bob.file.read_bytes()
    game = read_as(alice, data)
    theirs, mine = Break(player="bob", count=1), Break(player="alice", count=1)  # refused before the rules read them
    aborted = read_as(alice, Path(_out_of_turn_abort(pair, tmp_path)).read_bytes())
    cases = [(game, theirs, "this is bob's line of a sealed game, and only bob's tool holds bob's keys (R41, R42)"),
             (aborted, mine, "the game is over: bob's tool wrote an abort at line 5; the audit says who forfeits: "
                             "`agility show`")]
    for played, move, english in cases:
        with pytest.raises(Refused) as info:
            sealwrite.render(played, [move])
        assert str(info.value) == english
        for lang in ("zh", "qps"):
            i18n.set_language(lang)
            try:
                told = tell(info.value.message)
                assert not leftover(told, *KEPT), told
            finally:
                i18n.set_language(None)
