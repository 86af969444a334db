"""The review's calibration (issue 33): the measures of the benchmark and the monotone map.

The figures themselves are a long benchmark (``python -m agility_cli.cli.bench calibration``),
never a test: here only what the measures compute, on numbers made up to have a known answer.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from agility_cli.cli import benchcal
from agility_cli.engine.rng import Rng
from agility_cli.players import calibrate


def test_ece_and_brier_on_known_numbers() -> None:
    exact = [(0.25, 0), (0.25, 0), (0.25, 0), (0.25, 1), (0.95, 1)] * 4  # a bin of 25 % won a quarter of the time
    assert benchcal.ece(exact) == pytest.approx(0.05 * 4 / 20)  # only the 95 % bin (won 100 %) is off, by 5 points
    assert benchcal.brier([(1.0, 1), (0.0, 0)]) == 0.0 and benchcal.brier([(0.5, 1), (0.5, 0)]) == 0.25
    bins = benchcal.reliability(exact)
    assert [b["bin"] for b in bins] == [2, 9] and bins[0]["won"] == 0.25 and bins[0]["n"] == 16


def test_the_intervals_count_games_and_the_steadiness_reads_carried_pairs() -> None:
    rows = []
    for game in range(30):
        won = game % 2
        for k in range(5):  # five positions of one game share its result
            rows.append({"game": game, "line": k, "chance": 0.5, "mapped": 0.5, "baseline": 0.5, "won": won,
                         "steady_gap": (0.01 if k % 2 else 0.2) if k < 4 else None})
    out = benchcal.summarise(rows, seed=3)
    assert out["games"] == 30 and out["positions"] == 150
    assert out["review"]["brier"] == pytest.approx(0.25)
    assert out["steadiness"]["pairs"] == 120 and out["steadiness"]["within_5_points"] == pytest.approx(0.5)
    lo, hi = out["review"]["ece_interval"]
    assert 0 <= lo <= out["review"]["ece_points"] <= hi


def test_the_cross_fitted_chance_has_no_winners_curse() -> None:
    from agility_cli.players import paired

    a, b = "play 1", "play 2"  # two decisions of the same true value, 0.5 (any keys will do)
    found = {a: [1.0, 0.0, 1.0, 0.0, 1.0, 1.0], b: [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]}

    def pick(values: dict) -> object:
        return max(values, key=lambda m: (values[m], m == a))

    # The maximum of the two means is 4/6; chosen on the even worlds (a: 1, 1, 1) and valued on the
    # odd ones (a: 0, 0, 1) gives 1/3, chosen on the odd ones (b: 1, 1, 0) and valued on the even
    # ones (b: 0, 0, 0) gives 0: the mean of the two, 1/6, is below the maximum of the noise.
    assert paired.cross_fitted(found, pick) == pytest.approx((1 / 3 + 0) / 2)
    assert paired.cross_fitted({a: [0.25, 0.75]}, pick) == pytest.approx(0.5)  # one decision: its own value
    rows = [{"game": g, "line": 1, "chance": 0.6, "mapped": 0.6, "baseline": 0.5, "won": g % 2, "cross": 0.5,
             "tree": 0.55, "steady_gap": 0.0, "steady_gap_cross": 0.1, "steady_gap_tree": None} for g in range(10)]
    out = benchcal.summarise(rows, seed=1)
    assert out["review_cross_fitted"]["brier"] == pytest.approx(0.25) and out["review"]["brier"] == pytest.approx(0.26)
    assert out["review_cross_fitted"]["steadiness"]["within_5_points"] == 0.0
    assert out["review_tree"]["steadiness"]["within_5_points"] == 0.0 and out["steadiness"]["within_5_points"] == 1.0


def test_the_map_is_monotone_the_identity_without_data_and_refuses_a_bad_file() -> None:
    m = (1.7, -0.2)
    ps = [i / 20 for i in range(1, 20)]
    mapped = [calibrate.calibrated(p, m) for p in ps]
    assert mapped == sorted(mapped) and all(0 < q < 1 for q in mapped)
    assert calibrate.calibrated(0.3, (1.0, 0.0)) == 0.3 and calibrate.calibrated(1.0, m) == 1.0
    for bad in ('{"a": -1, "b": 0}', '{"a": "x", "b": 0}', "[1, 2]", '{"a": 1e999, "b": 0}'):
        with pytest.raises(ValueError):
            calibrate.load_map(bad)
    assert calibrate.load_map(json.dumps({"a": 2, "b": 0.5, "fitted": {}})) == (2.0, 0.5)


def test_platt_fit_recovers_a_known_map() -> None:
    pytest.importorskip("numpy")
    rng = Rng(5)
    chances, won = [], []
    for _ in range(4000):
        p = (rng.below(999) + 1) / 1000
        truth = calibrate.calibrated(p, (2.0, 0.3))
        chances.append(p)
        won.append(int(rng.below(1_000_000) < truth * 1_000_000))
    a, b = calibrate.fit(chances, won)
    assert a == pytest.approx(2.0, abs=0.25) and b == pytest.approx(0.3, abs=0.15)


def test_the_reliability_diagram_is_an_svg_of_both_reviews() -> None:
    rows = [{"game": g, "line": 1, "chance": 0.2 + 0.02 * g, "mapped": 0.2 + 0.02 * g, "baseline": 0.5,
             "won": g % 3 == 0, "steady_gap": None} for g in range(30)]
    svg = benchcal.reliability_svg(benchcal.summarise(rows, seed=1))
    root = ET.fromstring(svg)
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2 and "ECE" in svg



def test_the_reliability_diagram_in_the_docs_is_drawn_from_the_figures_kept_beside_it() -> None:
    """``tests/regen_pictures.py`` draws it again from ``docs/calibration.json``."""
    from regen_pictures import DOCS, calibration_picture

    assert (DOCS / "calibration.svg").read_text(encoding="utf-8") == calibration_picture()


def test_a_journalled_run_goes_on_without_judging_a_game_twice(tmp_path, monkeypatch) -> None:
    """A stopped or shorter run's journal is read back: only the missing games are judged, and the
    figures are those of one run; a journal of other settings is refused."""
    judged: list[int] = []

    def fake_game(task: tuple[int, int, int, int]) -> list[dict[str, object]]:
        index = task[0]
        judged.append(index)
        return [{"game": index, "line": 10 + k, "chance": (index * 7 + k) % 10 / 10, "baseline": 0.5,
                 "won": (index + k) % 2, "steady_gap": None} for k in range(2)]

    monkeypatch.setattr(benchcal, "calibration_game", fake_game)
    book = tmp_path / "cal.jsonl"
    benchcal.run(3, 1, 20, 8, jobs=1, journal=book)
    assert sorted(judged) == [0, 1, 2]
    whole = benchcal.run(5, 1, 20, 8, jobs=1, journal=book)
    assert sorted(judged) == [0, 1, 2, 3, 4]  # games 0–2 came from the journal
    judged.clear()
    fresh = benchcal.run(5, 1, 20, 8, jobs=1)
    assert sorted(judged) == [0, 1, 2, 3, 4]
    assert whole["rows"] == fresh["rows"] and whole["summary"] == fresh["summary"]
    with pytest.raises(Exception, match="another run"):
        benchcal.run(5, 1, 40, 8, jobs=1, journal=book)


def test_the_rows_keep_the_values_at_other_horizons_on_the_same_worlds() -> None:
    """Issue 33: a row keeps the best and the played decision valued again on the review's worlds at
    each of ``HORIZONS`` — horizon 0 is the evaluation of the position the decision leaves — so
    other estimators of the chance can be measured again from the rows alone."""
    from builders import new_game

    from agility_cli.engine import rules
    from agility_cli.players import evaluate, paired

    s = new_game(seed=5, version=2)
    seat = s.to_act
    legal = rules.legal_moves(s)
    worlds = paired.draw(s, seat, (), Rng.for_purpose(5, "test"), 6)
    a, b = legal[0], legal[-1]
    out = benchcal.horizon_values(worlds, a, b)
    assert sorted(out) == sorted(f"h{h}{tail}" for h in benchcal.HORIZONS for tail in ("", "_played"))
    own = []
    for w in worlds.states:  # horizon 0: the evaluation after the decision, in the decider's eyes
        t = w.copy()
        rules.apply_legal(t, a)
        own.append(evaluate.evaluate(t) if seat == 0 else 1 - evaluate.evaluate(t))
    assert out["h0"] == pytest.approx(sum(own) / len(own))
    assert benchcal.horizon_values(worlds, a, a)["h2"] == benchcal.horizon_values(worlds, a, b)["h2"]
    assert 0 <= out["h2_played"] <= 1


def test_cross_fitting_maps_each_position_by_the_other_folds_games_and_the_steadiness_reads_the_map() -> None:
    """Issue 33: with ``folds`` every position is measured, each mapped by a map fitted on the
    games of the other folds only (here the games of fold 0 were all won and those of fold 1 all
    lost, at one chance: a map that had seen its own game would make them certain), the map kept
    is fitted on every game, and the steadiness is read on the mapped chances."""
    pytest.importorskip("numpy")
    rows = []
    for game in range(40):
        won = int(game % 2 == 0)  # fold 0 (even games) won, fold 1 lost; half the games each
        for k in range(3):
            rows.append({"game": game, "line": k, "chance": 0.6, "baseline": 0.6, "won": won, "steady_gap": 0.0,
                         "played": 0.6, "next": {"chance": 0.62} if k < 2 else None})
    out = benchcal.measure(rows, seed=1, fit_games=0, folds=2)
    assert out["positions"] == 120 and out["map"]["cross_fitted_folds"] == 2
    assert out["map"]["fitted_on_games"] == 40
    evens = {r["mapped"] for r in rows if r["game"] % 2 == 0}
    odds = {r["mapped"] for r in rows if r["game"] % 2 == 1}
    assert max(evens) < 0.1 and min(odds) > 0.9  # each fold's map learnt only the other fold's result
    assert out["review"]["brier"] > 0.8  # so out of its own games it is wrong, as it should be here
    a, b = out["map"]["a"], out["map"]["b"]
    assert calibrate.calibrated(0.6, (a, b)) == pytest.approx(0.5, abs=0.02)  # fitted on all: half won
    assert out["steadiness"]["of"] == "mapped" and out["steadiness"]["pairs"] == 80
    # a steep map (chances of 55 % always lost, 65 % always won): a pair 4 raw points apart
    # around the middle is steady raw, and not once mapped
    steep = [{"game": g, "line": 1, "chance": 0.55 + 0.1 * (g % 4 >= 2), "baseline": 0.5, "won": int(g % 4 >= 2),
              "steady_gap": 0.04, "played": 0.58, "next": {"chance": 0.62}} for g in range(40)]
    out = benchcal.measure(steep, seed=1, fit_games=0, folds=2)
    assert out["map"]["a"] > 10 and out["steadiness"]["within_5_points"] == 0.0
    assert benchcal.summarise(steep, seed=1)["steadiness"]["within_5_points"] == 0.0
    raw = [{k: v for k, v in r.items() if k != "steady_gap_mapped"} for r in steep]
    read_raw = benchcal.summarise(raw, seed=1)["steadiness"]
    assert read_raw["within_5_points"] == 1.0 and read_raw["of"] == "raw"
    held_out = benchcal.measure([dict(r) for r in rows], seed=1, fit_games=20)  # the first 20 games fit
    assert held_out["positions"] == 60 and held_out["map"]["fitted_on_games"] == 20
