"""Test configuration: hypothesis runs a fixed, reproducible search in CI (``CI`` set)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _key_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys made by a test (signed games, R41) go to a fresh directory, never the user's data directory."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path_factory.mktemp("agility-home")))
