"""Fit the search's evaluation (:mod:`evaluate`) to self-play: ``python -m agility_cli.players.train``.

    pip install -e '.[train]'       # numpy, for the fit only
    python -m agility_cli.players.train --games 3000 --seed 1 --out agility_cli/players/data/weights.json

1. **Positions.**  Games of the search's rollout policy against itself
   (:func:`greedy.noisy_greedy_strategy` at the search's ``ROLLOUT_TEMPERATURE``: the positions
   the evaluation will be asked about are where such rollouts stop), boards cycling recommended,
   random-a and random-b, start player from the seed, as ``agility selfplay --board mixed`` plays
   them.  Every turn's first decision is a position; its label is 1 if seat 0 won the game.
   Positions are plain Python (:func:`positions`), so tests can read them without numpy.
2. **Fit.**  A logistic regression without intercept (the features are antisymmetric, see
   :mod:`evaluate`), a little L2 (``--l2``), by Newton's method with numpy.  One game in five is
   held out, by game, and the held-out log loss and accuracy are reported next to those of the
   shortfall alone (the evaluation before the fit) and of a coin toss.
3. **Output.**  The weights, the command and the figures, as JSON; the shipped file is read by
   :func:`evaluate.weights` in plain Python.

Re-fit when the rules or the standard components change; a user's own components file needs no
re-fit (the features are normalised by the component set).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from ..engine import rules
from ..engine.rng import Rng
from ..engine.state import State
from ..record import gamefile
from . import evaluate, search, selfplay
from .greedy import noisy_greedy_strategy
from .selfplay import board_layout, board_mode, game_seed

Sample = tuple[list[float], int, int]  # features, label (seat 0 won), game index


def play_positions(master: int, index: int, temperature: float) -> list[Sample]:
    """The turn-start positions of self-play game ``index`` of the run ``master``, labelled."""
    seed = game_seed(master, index)
    mode = board_mode("mixed", index)
    names = ("bot:a", "bot:b")
    header = gamefile.make_header(
        seed=seed, players=names, first=rules.random_first(seed, names), board=board_layout(mode, seed), components=None
    )
    s: State = rules.setup(header, selfplay._components(None))
    rng = Rng.for_purpose(seed, "train")
    found: list[list[float]] = []
    turn = -1
    n = 0
    while s.winner is None and n < selfplay.MAX_DECISIONS:
        if s.turn != turn and s.phase == "play" and not s.in_mini and not s.prizes:
            turn = s.turn
            found.append(evaluate.features(s))
        legal = rules.legal_moves(s)
        rules.apply_legal(s, noisy_greedy_strategy(s, legal, rng, temperature))
        n += 1
    if s.winner is None:
        return []
    return [(x, 1 if s.winner == 0 else 0, index) for x in found]


def positions(games: int, master: int, temperature: float) -> list[Sample]:
    out: list[Sample] = []
    for i in range(games):
        out.extend(play_positions(master, i, temperature))
    return out


def log_loss(ps: list[float], ys: list[int]) -> float:
    eps = 1e-9
    return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in zip(ps, ys)) / len(ys)


def accuracy(ps: list[float], ys: list[int]) -> float:
    return sum((p > 0.5) == (y == 1) for p, y in zip(ps, ys)) / len(ys)


def fit(xs: list[list[float]], ys: list[int], l2: float, iterations: int = 30) -> list[float]:
    """Newton's method for the L2-penalised logistic regression without intercept (numpy)."""
    import numpy as np

    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return [float(v) for v in w]


def predict(w: list[float], x: list[float]) -> float:
    z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))
    return 1.0 / (1.0 + math.exp(-z))


def train(games: int, master: int, temperature: float, l2: float) -> dict[str, Any]:
    started = time.process_time()
    data = positions(games, master, temperature)
    generated = time.process_time() - started
    train_set = [d for d in data if d[2] % 5]
    test_set = [d for d in data if d[2] % 5 == 0]
    w = fit([d[0] for d in train_set], [d[1] for d in train_set], l2)
    short = evaluate.NAMES.index("short")
    w_short = fit([[d[0][short]] for d in train_set], [d[1] for d in train_set], l2)
    ys = [d[1] for d in test_set]
    model = [predict(w, d[0]) for d in test_set]
    alone = [predict(w_short, [d[0][short]]) for d in test_set]
    return {
        "model": "logistic, no intercept: P(seat 0 wins) = 1 / (1 + exp(-sum(w * x)))",
        "weights": {name: round(v, 6) for name, v in zip(evaluate.NAMES, w)},
        "trained": {
            "command": f"python -m agility_cli.players.train --games {games} --seed {master} "
            f"--temperature {temperature} --l2 {l2}",
            "games": games,
            "positions": len(data),
            "train_positions": len(train_set),
            "test_positions": len(test_set),
            "rollout_temperature": temperature,
            "test_log_loss": round(log_loss(model, ys), 4),
            "test_accuracy": round(accuracy(model, ys), 4),
            "shortfall_alone_test_log_loss": round(log_loss(alone, ys), 4),
            "shortfall_alone_test_accuracy": round(accuracy(alone, ys), 4),
            "coin_log_loss": round(math.log(2), 4),
            "cpu_seconds_self_play": round(generated, 1),
            "cpu_seconds_total": round(time.process_time() - started, 1),
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m agility_cli.players.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="self-play games (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed of the games (default 1)")
    parser.add_argument("--temperature", type=float, default=search.ROLLOUT_TEMPERATURE,
                        help="softmax temperature of the players (default: the search's rollouts')")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty (default 1)")
    parser.add_argument("--out", help="write the weights file here (default: print it)")
    args = parser.parse_args(argv)
    doc = train(args.games, args.seed, args.temperature, args.l2)
    text = json.dumps(doc, indent=2) + "\n"
    if args.out:
        gamefile.write_new(Path(args.out), text.encode(), what=f"the weights {args.out}", replace=True)
        print(json.dumps(doc["trained"], indent=2), file=sys.stderr)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
