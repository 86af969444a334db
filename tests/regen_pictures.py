"""Rewrite the golden reference pictures on purpose, after an intended change of picture.py:

    python tests/regen_pictures.py      (or: AGILITY_REGEN_PICTURES=1 python -m pytest tests/test_picture.py)

then look at the new picture (e.g. ``python tools/make_pictures.py``) and review the diff.  It also
draws the review's reliability diagram, ``docs/calibration.svg``, again from the figures the
calibration benchmark kept in ``docs/calibration.json`` (``bench calibration --data``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pictures import GOLDEN_PICTURE, golden_picture  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"


def calibration_picture() -> str:
    """The reliability diagram of the figures in ``docs/calibration.json``."""
    import json

    from agility_cli.cli.benchcal import reliability_svg

    return reliability_svg(json.loads((DOCS / "calibration.json").read_text(encoding="utf-8")))


def main() -> int:
    GOLDEN_PICTURE.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN_PICTURE.write_text(golden_picture(), encoding="utf-8")
    print(f"wrote {GOLDEN_PICTURE}")
    (DOCS / "calibration.svg").write_text(calibration_picture(), encoding="utf-8")
    print(f"wrote {DOCS / 'calibration.svg'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
