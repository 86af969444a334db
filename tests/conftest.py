"""Test configuration: hypothesis runs a fixed, reproducible search in CI (``CI`` set)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)


def _built_once() -> None:
    """typer's test runner builds the whole command tree from the app at every ``invoke`` (some
    25 ms: the signature and type hints of every command); a command tree holds no state of a run,
    so the tests build it once per app, as a user's process does once."""
    import typer.testing
    from typer.main import get_command

    built: dict[int, tuple[object, object]] = {}

    def get_command_once(app: object) -> object:
        kept = built.get(id(app))
        if kept is None or kept[0] is not app:
            kept = built[id(app)] = (app, get_command(app))  # type: ignore[arg-type]
        return kept[1]

    typer.testing._get_command = get_command_once  # type: ignore[attr-defined,assignment]


_built_once()
# The suite's messages are English whatever the machine's LANG (tests of other languages set the
# language themselves: tests/test_i18n*.py); subprocesses inherit it.
os.environ["AGILITY_LANG"] = "en"
# Never the user's own data directory, not even for a fixture of a module's or the session's scope
# (set up before the per-test key store below): a folder of this run's, removed at exit.
os.environ["AGILITY_HOME"] = tempfile.mkdtemp(prefix="agility-home-")
atexit.register(shutil.rmtree, os.environ["AGILITY_HOME"], True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _key_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys made by a test (signed games, R41) go to a fresh directory, never the user's data directory."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path_factory.mktemp("agility-home")))


@pytest.fixture(autouse=True)
def _language_forgotten() -> Iterator[None]:
    """Each test starts in the language its environment gives (English, above) and leaves none
    behind: an in-process ``--lang zh`` or ``AGILITY_LANG=zh`` of a CliRunner call keeps the
    language chosen, and resolved, in ``agility_cli.i18n`` for the rest of the worker's tests."""
    from agility_cli import i18n

    i18n.set_language(None)
    yield
    i18n.set_language(None)
