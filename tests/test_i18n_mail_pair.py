"""Issue 54: a whole sealed game by mail between a player whose tool speaks Chinese (alice) and one
whose tool speaks English (bob) — every line mailed with `send` in the sender's language and taken in
with `apply` in the receiver's — ends with the two files byte-identical and the audit passed; the
file holds nothing translated, and `show --json` is the same in both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adversary import seed_secrets, whole_game
from agility_cli import i18n
from machines import Machine


@pytest.mark.slow
def test_a_whole_sealed_game_by_mail_between_a_zh_and_an_english_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_secrets(monkeypatch, 54)
    spoken: list[tuple[str, str]] = []
    plain = Machine.run

    def run(self: Machine, *args: Any, **kwargs: Any) -> Any:
        lang = "zh" if self.name == "alice" else "en"
        i18n.set_language(lang)
        try:
            result = plain(self, *args, **kwargs)
        finally:
            i18n.set_language(None)
        spoken.append((lang, result.output))
        return result

    monkeypatch.setattr(Machine, "run", run)
    alice, bob = whole_game(tmp_path, 54)
    assert alice.file.read_bytes() == bob.file.read_bytes()
    raw = alice.file.read_text(encoding="utf-8")
    assert raw.isascii() or not any("\u4e00" <= ch <= "\u9fff" for ch in raw)  # nothing translated is written
    states = []
    for lang in ("zh", "en"):
        i18n.set_language(lang)
        try:
            shown = plain(alice, "show", alice.file, "--json")
        finally:
            i18n.set_language(None)
        states.append(json.loads(shown.stdout))
    assert states[0] == states[1]
    assert states[0]["status"] == "finished" and states[0]["sealed"]["audit_pending"] == []
    # each side really spoke its language: alice's tool wrote Chinese, bob's none
    assert any(lang == "zh" and any("\u4e00" <= ch <= "\u9fff" for ch in out) for lang, out in spoken)
    assert not any(lang == "en" and any("\u4e00" <= ch <= "\u9fff" for ch in out) for lang, out in spoken)
