"""The review's calibration map: a monotone map from the search's raw win chance to a calibrated one.

Platt scaling (Platt 1999): ``p' = σ(a · logit(p) + b)``, with ``a > 0`` so that the order of
chances, and so the ranking of decisions, is kept.  ``a`` and ``b`` are fitted by
``python -m agility_cli.cli.bench calibration --folds 2 --write-map`` (or ``--fit-games N``) and
shipped as data, ``players/data/calibration.json``, with the command that fitted them; the figures
quoted for it are measured on games it was not fitted on (cross-fitted folds, and a run of another
seed).  Without that file the map is the identity.  Fitting needs numpy (the ``train`` extra);
using the map does not.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

EPS = 1e-4  # chances are kept within [EPS, 1 - EPS] before the logit


def _logit(p: float) -> float:
    p = min(max(p, EPS), 1.0 - EPS)
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def load_map(text: str) -> tuple[float, float]:
    """``(a, b)`` from the data file's text; a file that is not one raises :class:`ValueError`."""
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise ValueError("a calibration map is a JSON object")
    a, b = doc.get("a"), doc.get("b")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (a, b)):
        raise ValueError("a calibration map needs finite numbers a and b")
    if not 0 < a <= 100:  # type: ignore[operator]
        raise ValueError("a calibration map's a must be positive (a monotone map)")
    return float(a), float(b)  # type: ignore[arg-type]


@cache
def shipped() -> tuple[float, float]:
    """The shipped map, or the identity (1, 0) when the package has none."""
    try:
        text = resources.files("agility_cli.players").joinpath("data/calibration.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return (1.0, 0.0)
    return load_map(text)


def calibrated(p: float, mapping: tuple[float, float] | None = None) -> float:
    """``p`` through the map (the shipped one unless given)."""
    a, b = shipped() if mapping is None else mapping
    if (a, b) == (1.0, 0.0):
        return p
    if p <= 0.0 or p >= 1.0:
        return p  # a finished game is certain
    return _sigmoid(a * _logit(p) + b)


def fit(chances: list[float], won: list[int], l2: float = 1e-3) -> tuple[float, float]:
    """Platt's ``(a, b)`` maximising the likelihood of ``won`` (Newton's method, numpy)."""
    import numpy as np

    x = np.array([_logit(p) for p in chances])
    y = np.array(won, dtype=float)
    w = np.array([1.0, 0.0])
    design = np.stack([x, np.ones_like(x)], axis=1)
    for _ in range(50):
        z = design @ w
        p = 1.0 / (1.0 + np.exp(-z))
        grad = design.T @ (p - y) + l2 * w
        hess = design.T @ (design * (p * (1 - p))[:, None]) + l2 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-9:
            break
    a, b = float(w[0]), float(w[1])
    return (max(a, 1e-3), b)


def describe(mapping: tuple[float, float], fitted: dict[str, Any]) -> str:
    """The data file's text for ``mapping``, with how it was fitted."""
    return json.dumps({"a": round(mapping[0], 6), "b": round(mapping[1], 6), "fitted": fitted}, indent=1) + "\n"
