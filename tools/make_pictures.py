"""Render the example pictures of the docs with the project's own code and a headless chromium:

    python tools/make_pictures.py      # docs/board.png and docs/replay.png

* ``docs/board.png``: :func:`agility_cli.table.picture.board_svg` of one position as one player sees it
  (``agility show GAME --json --at LINE --as PLAYER``), 800 px wide;
* ``docs/replay.png``: the page of :func:`agility_cli.table.replay.html.replay_html_from_records` built from
  ``agility replay GAME --json``, opened at one line in a 1280 × 1000 window (no analysis: the
  project has no source of win chances over a whole game yet).

Also writes the SVG and the HTML beside the PNGs when ``--keep`` is given.  The chromium is
``$AGILITY_CHROMIUM``, else ``chromium`` (or ``chromium-browser``, ``google-chrome``) on the PATH,
else ``/usr/bin/chromium`` (Debian: ``apt-get install -y chromium``).  Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agility_cli.table.picture import board_svg  # noqa: E402
from agility_cli.table.replay.html import replay_html_from_records  # noqa: E402

DEFAULT_GAME = ROOT / "games" / "v2-deferred-reward-boost-break.jsonl"


def chromium() -> str:
    configured = os.environ.get("AGILITY_CHROMIUM")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    raise SystemExit("no chromium: apt-get install -y chromium, or set AGILITY_CHROMIUM")


def agility(*args: str) -> str:
    """``agility ARGS`` (this checkout's), its standard output."""
    done = subprocess.run([sys.executable, "-m", "agility_cli", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"agility {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def screenshot(url: str, out: Path, width: int, height: int, scale: float) -> None:
    with tempfile.TemporaryDirectory() as profile:
        cmd = [
            chromium(), "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            f"--user-data-dir={profile}", f"--force-device-scale-factor={scale}",
            f"--window-size={width},{height}", f"--screenshot={out}", url,
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.insert(1, "--no-sandbox")  # chromium refuses to run as root with its sandbox
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode or not out.exists():
            raise SystemExit(f"chromium failed ({done.returncode}):\n{done.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, default=DEFAULT_GAME, help="the game file (default: %(default)s)")
    parser.add_argument("--at", type=int, default=105, help="the line of docs/board.png (default: %(default)s)")
    parser.add_argument("--as", dest="viewer", default="bot:greedy:2", help="whose view (default: %(default)s)")
    parser.add_argument("--replay-line", type=int, default=96, help="the line the replay opens at (default: %(default)s)")
    parser.add_argument("--scale", type=float, default=1.0, help="device pixels per CSS pixel (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where to write (default: docs/)")
    parser.add_argument("--keep", action="store_true", help="also keep board.svg and replay.html there")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    game = args.game.resolve()

    state = json.loads(agility("show", str(game), "--json", "--at", str(args.at), "--as", args.viewer))
    names = [p["name"] for p in state["players"]]
    svg = board_svg(state, title=f"Agility \u2014 {names[0]} vs {names[1]}", line=args.at)
    records = [json.loads(line) for line in agility("replay", str(game), "--json").splitlines() if line.strip()]
    page = replay_html_from_records(records, title=f"{game.name}: {names[0]} vs {names[1]}")

    with tempfile.TemporaryDirectory() as tmp:
        svg_path = (args.out if args.keep else Path(tmp)) / "board.svg"
        html_path = (args.out if args.keep else Path(tmp)) / "replay.html"
        svg_path.write_text(svg, encoding="utf-8")
        html_path.write_text(page, encoding="utf-8")
        height = int(svg.split('height="', 1)[1].split('"', 1)[0])
        screenshot(svg_path.as_uri(), args.out / "board.png", 800, height, args.scale)
        screenshot(f"{html_path.as_uri()}#line={args.replay_line}", args.out / "replay.png", 1280, 1000, args.scale)
    for name in ("board.png", "replay.png"):
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
