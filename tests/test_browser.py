"""The HTML replay (table/replay/html.py) in a real browser: Playwright for Python driving Debian's chromium.

Set up once: ``apt-get install -y chromium`` and ``pip install -e '.[browser]'`` (Playwright's own
browser download, ``playwright install``, is not used).  The chromium used is ``$AGILITY_CHROMIUM``,
else the first of ``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH, else
``/usr/bin/chromium``.  Without chromium or Playwright the tests are skipped — unless the
environment variable ``CI`` is set (to anything), where they fail: CI must run them.

The page is built from the records of ``agility replay --json`` of a golden game, opened from a
``file://`` URL with every other request refused, and checked: no console error, no request but
``file://``, the drawn board's ``data-`` attributes against the replay's STATE at several lines
(the slider, the buttons, the arrow keys, the move list, the win-chance graph), no horizontal
scroll at 360 px, hostile names shown as text.  Screenshots go to ``tests/artifacts/`` (ignored by
git).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agility_cli.table.picture import COLOURS, board_svg
from agility_cli.table.replay.html import replay_html_from_records

from pictures import GOLDEN_GAME, replay_records

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _unavailable(reason: str) -> None:
    if "CI" in os.environ:
        pytest.fail(f"{reason}; CI is set, so the browser tests must run (apt-get install -y chromium; pip install playwright)")
    pytest.skip(reason)


def find_chromium() -> str | None:
    """Where chromium is: ``$AGILITY_CHROMIUM``, the PATH, or ``/usr/bin/chromium``."""
    configured = os.environ.get("AGILITY_CHROMIUM")
    if configured:
        return configured if Path(configured).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install -e '.[browser]')")
    executable = find_chromium()
    if executable is None:
        _unavailable("chromium is not installed (apt-get install -y chromium), nor named by AGILITY_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Watched:
    """A page whose console errors, page errors, dialogs and requests are all recorded; every
    request that is not ``file://`` is refused."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        def dialog(d: Any) -> None:  # an alert() would mean a name ran as code
            self.errors.append(f"dialog: {d.message}")
            d.dismiss()

        self.page.on("dialog", dialog)
        self.page.on("request", lambda r: self.requests.append(r.url))

        def route(r: Any) -> None:
            if r.request.url.startswith("file://"):
                r.continue_()
            else:
                self.refused.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)

    def open(self, path: Path, fragment: str = "") -> Any:
        self.page.goto(path.as_uri() + fragment)
        self.page.wait_for_selector("#board svg")
        return self.page

    def check_clean(self) -> None:
        assert self.errors == [], self.errors
        assert self.refused == [], f"requests that were not file://: {self.refused}"
        assert all(url.startswith("file://") for url in self.requests), self.requests

    def close(self) -> None:
        self.context.close()


def drawn(page: Any) -> dict[str, Any]:
    """What the drawn board says: the root's and the player and course groups' data attributes."""
    result: dict[str, Any] = page.evaluate(
        """() => {
      const svg = document.querySelector('#board svg');
      const data = el => Object.assign({}, el.dataset);
      return {
        root: data(svg),
        players: Array.from(svg.querySelectorAll('g.player')).map(data),
        courses: Array.from(svg.querySelectorAll('g.course')).map(data),
        backs: Array.from(svg.querySelectorAll('g.player')).map(g => g.querySelectorAll('g.card-back').length),
        label: document.getElementById('label').textContent,
        where: document.getElementById('where').textContent,
        current: (document.querySelector('#moves button[aria-current]') || {}).textContent || null,
      };
    }"""
    )
    return result


def check_board(page: Any, record: dict[str, Any]) -> None:
    """The board drawn in the page is the STATE of ``record``."""
    state, seen = record["state"], drawn(page)
    root = seen["root"]
    assert root["line"] == str(record["line"])
    assert root["marker"] == str(state["marker"])
    assert root["turn"] == str(state["turn"])
    assert root["deckSize"] == str(state["deck_size"])
    assert len(seen["players"]) == len(state["players"])
    for g, player, backs in zip(seen["players"], state["players"], seen["backs"]):
        assert g["name"] == player["name"]
        for colour in COLOURS:
            assert g[f"cube{colour.capitalize()}"] == str(player["cubes"][colour]), (record["line"], player["name"], colour)
        assert g["flex"] == str(player["flex"]) and g["exchange"] == str(player["exchange"])
        assert g["handCount"] == str(player["hand_count"])
        assert g["handSize"] == str(player["hand_size"])
        assert g["dogs"].split() == player["dogs"]
        assert backs == player["hand_count"] - len(player["hand"])
    for g, course in zip(seen["courses"], state["courses"]):
        assert g["course"] == course["id"]
        assert g["position"] == str(course["position"])
        assert g.get("dog") == course["dog"]
    assert f"line {record['line']}/" in seen["where"]


def _analysis(records: list[dict[str, Any]]) -> dict[str, Any]:
    """A made-up analysis for the graph (test data only: a share of the obstacles cleared)."""
    names = [p["name"] for p in records[0]["state"]["players"]]
    points = []
    for k, record in enumerate(records):
        cleared = [sum(c["position"] for c in record["state"]["courses"] if c["owner"] == n) for n in names]
        total = sum(cleared) or 1
        chance = 0.5 if not sum(cleared) else cleared[0] / total
        point: dict[str, Any] = {"line": record["line"], "win": {names[0]: chance, names[1]: 1 - chance}}
        if k in (40, 80, 100):
            point.update(mark=["inaccuracy", "mistake", "blunder"][(k // 40) - 1], by=names[1], note="test mark")
        points.append(point)
    return {"players": names, "points": points}


@pytest.fixture(scope="module")
def golden_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    records = replay_records(GOLDEN_GAME)
    path = tmp_path_factory.mktemp("replay") / "replay.html"
    path.write_text(replay_html_from_records(records, title="Golden game: random-b-all-extras",
                                             analysis=_analysis(records)), encoding="utf-8")
    return path, records


def _slide(page: Any, index: int) -> None:
    page.locator("#slider").fill(str(index))


def test_the_replay_draws_the_state_of_each_line(browser: Any, golden_page: tuple[Path, list[dict[str, Any]]]) -> None:
    path, records = golden_page
    w = Watched(browser)
    try:
        page = w.open(path)
        check_board(page, records[0])
        assert drawn(page)["label"] == "start"
        for index in (1, 10, 37, 60, 66, 90, len(records) - 2, len(records) - 1, 0):
            _slide(page, index)
            check_board(page, records[index])
        # arrow keys, Home and End
        _slide(page, 50)
        page.locator("#next").focus()
        page.keyboard.press("ArrowRight")
        check_board(page, records[51])
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        check_board(page, records[50])
        page.keyboard.press("End")
        check_board(page, records[-1])
        page.keyboard.press("ArrowRight")  # already at the last line: stays
        check_board(page, records[-1])
        page.keyboard.press("Home")
        check_board(page, records[0])
        # the buttons
        page.click("#last")
        check_board(page, records[-1])
        page.click("#prev")
        check_board(page, records[-2])
        page.click("#first")
        check_board(page, records[0])
        page.click("#next")
        check_board(page, records[1])
        # the move list: a click jumps there, and it marks the current move
        page.click("#moves button[data-index='42']")
        check_board(page, records[42])
        assert drawn(page)["current"].startswith(str(records[42]["line"]))
        # the win-chance graph: a marked point jumps to its line
        page.click("#winchance g.wc-mistake circle")
        check_board(page, records[80])
        assert "mistake" in page.text_content("#verdict")
        # the narration is the line's
        assert page.text_content("#label").startswith(records[80]["move"]["player"])
        # a link to a line
        page.goto(path.as_uri() + f"#line={records[70]['line']}")
        page.wait_for_selector("#board svg")
        check_board(page, records[70])
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
        w.check_clean()
    finally:
        w.close()


def test_the_replay_fits_a_phone_without_horizontal_scroll(browser: Any, golden_page: tuple[Path, list[dict[str, Any]]]) -> None:
    path, records = golden_page
    w = Watched(browser, width=360, height=740)
    try:
        page = w.open(path, f"#line={records[60]['line']}")
        check_board(page, records[60])
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                              " document.body.scrollWidth]")
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[1], sizes
        board = page.locator("#board svg").bounding_box()
        assert board is not None and board["width"] <= 360
        assert page.locator("#next").is_visible() and page.locator("#slider").is_visible()
        page.click("#next")
        check_board(page, records[61])
        page.click("#zoom")  # the full-size board scrolls inside its box, not the page
        assert page.evaluate("() => document.documentElement.scrollWidth") <= sizes[1]
        page.click("#zoom")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "replay-360.png"), full_page=False)
        w.check_clean()
    finally:
        w.close()


HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>'


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def test_hostile_names_are_shown_as_text_and_run_nothing(browser: Any, tmp_path: Path) -> None:
    records = _renamed(replay_records(GOLDEN_GAME)[:40], "bot:random", HOSTILE)
    path = tmp_path / "hostile.html"
    path.write_text(replay_html_from_records(records, title=f"{HOSTILE} <!-- vs"), encoding="utf-8")
    w = Watched(browser)
    try:
        page = w.open(path, "#line=30")
        check_board(page, records[29])
        assert HOSTILE in page.text_content("h1")
        assert page.title().startswith(HOSTILE)
        assert page.locator("img").count() == 0 and page.locator("script").count() == 2
        _slide(page, 5)  # line 6: bot:random's first decision
        assert page.text_content("#label").startswith(HOSTILE[:50])  # clipped to 60 characters
        assert page.evaluate("() => document.querySelectorAll('#board svg g.player')[1].dataset.name") == HOSTILE
        w.check_clean()  # no alert dialog, no request for "x"
    finally:
        w.close()


def test_the_board_picture_alone_opens_cleanly(browser: Any, tmp_path: Path) -> None:
    last = replay_records(GOLDEN_GAME)[-1]
    path = tmp_path / "board.svg"
    path.write_text(board_svg(last["state"], line=last["line"]), encoding="utf-8")
    height = int(re.search(r'height="(\d+)"', path.read_text()).group(1))  # type: ignore[union-attr]
    w = Watched(browser, width=800, height=height)
    try:
        w.page.goto(path.as_uri())
        marker = w.page.evaluate("() => document.documentElement.getAttribute('data-marker')")
        assert marker == str(last["state"]["marker"])
        ARTIFACTS.mkdir(exist_ok=True)
        w.page.screenshot(path=str(ARTIFACTS / "board.png"))  # (full_page waits for ever on an SVG document)
        w.check_clean()
    finally:
        w.close()


def test_at_1280_by_800_the_board_the_graph_and_the_verdict_are_in_view(browser: Any, golden_page: tuple[Path, list[dict[str, Any]]]) -> None:
    """Issue 53: the board (with its hands), the win-chance graph and the played/best line are seen
    without scrolling, and the panel writes every chance in one format (``85 %``)."""
    import re

    path, records = golden_page
    w = Watched(browser, width=1280, height=800)
    try:
        page = w.open(path, f"#line={records[80]['line']}")
        check_board(page, records[80])
        for sel in ("#board svg", "#winchance", "#verdict", "#win"):
            box = page.locator(sel).bounding_box()
            assert box is not None and box["height"] > 0, sel
            assert box["y"] >= 0 and box["y"] + box["height"] <= 800 and box["x"] + box["width"] <= 1280, (sel, box)
        assert page.evaluate("() => window.scrollY") == 0
        text = page.locator("#win").inner_text() + " " + page.locator("#verdict").inner_text()
        assert "test mark" in text and "mistake" in text
        assert re.findall(r"\d %", text) and not re.findall(r"\d%", text), text  # one format
        w.check_clean()
    finally:
        w.close()
