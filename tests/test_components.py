"""The stand-in component set and the components-file validator (R1–R7, R24, R29)."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from agility_cli.engine.components import (
    COLOURS,
    OBSTACLE_TYPES,
    Components,
    ComponentsError,
    load_components,
    standard_components,
    validate,
)

NON_PAUSE = tuple(t for t in OBSTACLE_TYPES if t != "pause_box")

# R6: the colours each obstacle type's stand-in costs are drawn from.
THEMES: dict[str, set[str]] = {
    "hurdle": {"blue", "black"},
    "tunnel": {"green", "red"},
    "weave_poles": {"yellow", "green"},
    "a_frame": {"black", "yellow"},
    "open_ground": {"green"},
}


def standard_raw() -> dict[str, Any]:
    """The shipped data file as plain JSON, to be mutated into bad files."""
    text = resources.files("agility_cli").joinpath("data/standard.json").read_text(encoding="utf-8")
    return json.loads(text)


@pytest.fixture
def comp() -> Components:
    return standard_components()


def courses(comp: Components) -> list[Any]:
    return [side for board in comp.boards for side in board.sides]


def dog(comp: Components, name: str) -> Any:
    (found,) = [d for d in comp.dogs if d.name == name]
    return found


# --- the standard set loads (R6) ---------------------------------------------------------------


def test_r6_standard_set_loads_and_validates(comp: Components) -> None:
    assert isinstance(comp, Components)
    assert comp.name == "standard"
    assert validate(comp) is comp


def test_r6_standard_set_says_it_is_a_stand_in(comp: Components) -> None:
    text = comp.description.lower()
    assert "stand-in" in text
    assert "not public" in text


def test_r6_standard_file_loads_through_load_components(comp: Components) -> None:
    path = resources.files("agility_cli").joinpath("data/standard.json")
    with resources.as_file(path) as p:
        assert load_components(p) == comp


# --- training cards (R3) -----------------------------------------------------------------------


def test_r3_deck_has_39_cards_numbered_1_to_9(comp: Components) -> None:
    assert [c.id for c in comp.cards] == [f"t{i:02d}" for i in range(1, 40)]
    numbers = Counter(c.number for c in comp.cards)
    assert set(numbers) == set(range(1, 10))
    # R6 hint: every number several times.
    assert all(4 <= n <= 5 for n in numbers.values()), numbers


def test_r3_every_card_has_two_rewards_of_different_colours_1_to_3(comp: Components) -> None:
    for card in comp.cards:
        assert len(card.rewards) == 2
        assert card.rewards[0].color != card.rewards[1].color, card.id
        assert all(1 <= r.count <= 3 for r in card.rewards), card.id


@pytest.mark.parametrize(
    ("number", "rewards"),
    [
        (1, {("blue", 3), ("yellow", 3)}),
        (2, {("red", 3), ("black", 2)}),
        (3, {("blue", 3), ("red", 2)}),
        (6, {("blue", 2), ("black", 1)}),
    ],
)
def test_r3_known_real_cards_are_in_the_deck(comp: Components, number: int, rewards: set[tuple[str, int]]) -> None:
    shown = [(c.number, {(r.color, r.count) for r in c.rewards}) for c in comp.cards]
    assert (number, rewards) in shown


def test_r3_higher_numbers_tend_to_smaller_rewards(comp: Components) -> None:
    def mean_best(numbers: range) -> float:
        best = [max(r.count for r in c.rewards) for c in comp.cards if c.number in numbers]
        return sum(best) / len(best)

    assert mean_best(range(7, 10)) < mean_best(range(4, 7)) < mean_best(range(1, 4))


def test_r29_red_is_a_common_reward(comp: Components) -> None:
    # Every course has a 4-red pause box (R29), so red must not be scarce.
    slots = Counter(r.color for c in comp.cards for r in c.rewards)
    assert set(slots) == set(COLOURS)
    assert slots["red"] == max(slots.values())
    assert min(slots.values()) >= 10


# --- dogs (R4) ---------------------------------------------------------------------------------


def test_r4_fifteen_dogs_with_slug_ids(comp: Components) -> None:
    assert len(comp.dogs) == 15
    assert len({d.name for d in comp.dogs}) == 15
    for d in comp.dogs:
        assert d.id == re.sub(r"[^a-z0-9]+", "-", d.name.lower()).strip("-")


def test_r4_golden_retriever_costs_4_blue_1_black_and_passes_hurdles(comp: Components) -> None:
    golden = dog(comp, "Golden Retriever")
    assert golden.id == "golden-retriever"
    assert dict(golden.cost) == {"blue": 4, "black": 1}
    assert golden.features.get("hurdle") == "pass"


def test_r4_dutch_shepherd_has_minus_one_on_hurdles(comp: Components) -> None:
    assert dog(comp, "Dutch Shepherd").features.get("hurdle") == "minus_one"


def test_r4_r24_husky_pays_1_green_for_open_ground(comp: Components) -> None:
    (husky,) = [d for d in comp.dogs if "husky" in d.id]
    assert husky.features.get("open_ground") == "minus_one"
    # Open ground (the Slip tile) costs 2 green, so minus one leaves 1 green.
    assert dict(comp.open_ground_cost) == {"green": 2}


def test_r4_mighty_mutt_is_featured_on_every_obstacle_type(comp: Components) -> None:
    mutt = dog(comp, "Mighty Mutt")
    assert mutt.id == "mighty-mutt"
    assert dict(mutt.features) == {t: "featured" for t in NON_PAUSE}


def test_r4_top_competitor_passes_open_ground_and_minus_one_elsewhere(comp: Components) -> None:
    collie = dog(comp, "Border Collie")
    expected = {t: "minus_one" for t in NON_PAUSE}
    expected["open_ground"] = "pass"
    assert dict(collie.features) == expected
    # The strongest dog is the most expensive to adopt.
    assert sum(collie.cost.values()) == max(sum(d.cost.values()) for d in comp.dogs)


def test_r4_no_dog_has_a_pause_box_feature(comp: Components) -> None:
    assert all("pause_box" not in d.features for d in comp.dogs)


def test_r6_feature_counts_mirror_the_markers_in_the_box(comp: Components) -> None:
    # The box holds 12 pass, 20 minus-one and 6 featured markers (Mighty Mutt's).
    counts = Counter(f for d in comp.dogs for f in d.features.values())
    assert 10 <= counts["pass"] <= 14
    assert 17 <= counts["minus_one"] <= 23
    assert 5 <= counts["featured"] <= 6
    assert {d.name for d in comp.dogs if "featured" in d.features.values()} == {"Mighty Mutt"}


def test_r4_dog_costs_are_3_to_7_cubes_in_1_to_3_colours(comp: Components) -> None:
    for d in comp.dogs:
        assert 3 <= sum(d.cost.values()) <= 7, d.id
        assert 1 <= len(d.cost) <= 3, d.id


# --- courses (R5, R29) -------------------------------------------------------------------------


def test_r5_eight_boards_with_sixteen_courses(comp: Components) -> None:
    assert [b.id for b in comp.boards] == [str(i) for i in range(1, 9)]
    for board in comp.boards:
        assert [s.id for s in board.sides] == [f"{board.id}A", f"{board.id}B"]
    assert len(courses(comp)) == 16


def test_r5_r29_every_course_has_five_obstacles_and_one_4_red_pause_box(comp: Components) -> None:
    for course in courses(comp):
        assert len(course.obstacles) == 5, course.id
        pauses = [o for o in course.obstacles if o.type == "pause_box"]
        assert len(pauses) == 1, course.id
        assert dict(pauses[0].cost) == {"red": 4}, course.id


def test_r5_pause_box_is_never_first_and_moves_around(comp: Components) -> None:
    positions = [[o.type for o in c.obstacles].index("pause_box") for c in courses(comp)]
    assert 0 not in positions
    assert set(positions) == {1, 2, 3, 4}


def test_r5_some_courses_repeat_an_obstacle_type_in_a_row(comp: Components) -> None:
    def has_pair(types: list[str]) -> bool:
        return any(a == b != "pause_box" for a, b in zip(types, types[1:]))

    assert sum(has_pair([o.type for o in c.obstacles]) for c in courses(comp)) >= 2


def test_r5_known_real_obstacle_costs_are_printed(comp: Components) -> None:
    printed = [(o.type, dict(o.cost)) for c in courses(comp) for o in c.obstacles]
    assert ("hurdle", {"blue": 2, "black": 1}) in printed
    assert ("tunnel", {"green": 2, "red": 1}) in printed


def test_r6_obstacle_costs_are_themed_and_2_to_4_cubes(comp: Components) -> None:
    seen: set[str] = set()
    for course in courses(comp):
        for o in course.obstacles:
            if o.type == "pause_box":
                continue
            seen.add(o.type)
            assert set(o.cost) <= THEMES[o.type], (course.id, o)
            assert 2 <= sum(o.cost.values()) <= 4, (course.id, o)
    assert seen == set(NON_PAUSE)


def test_r24_open_ground_tile_costs_2_green(comp: Components) -> None:
    assert dict(comp.open_ground_cost) == {"green": 2}


# --- bad components files: the error names the path (R6) ---------------------------------------


def write_bad(tmp_path: Path, mutate: Callable[[dict[str, Any]], object]) -> Path:
    data = copy.deepcopy(standard_raw())
    mutate(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(ComponentsError) as info:
        load_components(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


def test_r3_card_number_outside_1_to_9_names_the_card(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["cards"][4].update(number=12))
    message = load_error(path)
    assert "$.cards[4].number" in message
    assert "12" in message


def test_r3_wrong_card_count_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["cards"].pop())
    message = load_error(path)
    assert "$.cards" in message
    assert "39" in message and "38" in message


def test_r3_reward_count_outside_1_to_3_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["cards"][7]["rewards"][1].update(count=4))
    assert "$.cards[7].rewards[1].count" in load_error(path)


def test_r3_two_rewards_of_one_colour_are_refused(tmp_path: Path) -> None:
    def same_colour(d: dict[str, Any]) -> None:
        d["cards"][0]["rewards"][1]["color"] = d["cards"][0]["rewards"][0]["color"]

    assert "$.cards[0].rewards" in load_error(write_bad(tmp_path, same_colour))


def test_r3_repeated_card_id_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["cards"][2].update(id="t01"))
    assert "$.cards[2].id" in load_error(path)


def test_r1_unknown_colour_in_a_dog_cost_names_the_path(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"][3]["cost"].update(purple=1))
    message = load_error(path)
    # The path must come out clean, not as msgspec's "key` in `..." fragment.
    assert message.startswith(f"{path}: $.dogs[3].cost: "), message
    assert "purple" in message


def test_r1_zero_cubes_in_a_cost_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"][0]["cost"].update(blue=0))
    assert "$.dogs[0].cost.blue" in load_error(path)


def test_r4_pause_box_feature_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"][5]["features"].update(pause_box="pass"))
    assert "$.dogs[5].features.pause_box" in load_error(path)


def test_r4_unknown_feature_value_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"][5]["features"].update(hurdle="free"))
    message = load_error(path)
    assert "$.dogs[5].features" in message and "free" in message


def test_r4_wrong_dog_count_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"].append(copy.deepcopy(d["dogs"][0]) | {"id": "extra"}))
    message = load_error(path)
    assert "$.dogs" in message and "16" in message


def test_r5_two_pause_boxes_are_refused(tmp_path: Path) -> None:
    def two_pauses(d: dict[str, Any]) -> None:
        obstacles = d["boards"][2]["sides"][1]["obstacles"]
        index = next(i for i, o in enumerate(obstacles) if o["type"] != "pause_box")
        obstacles[index] = {"type": "pause_box", "cost": {"red": 4}}

    message = load_error(write_bad(tmp_path, two_pauses))
    assert "$.boards[2].sides[1].obstacles" in message
    assert "pause box" in message


def test_r5_course_of_four_obstacles_is_refused(tmp_path: Path) -> None:
    def four(d: dict[str, Any]) -> None:
        obstacles = d["boards"][0]["sides"][0]["obstacles"]
        index = next(i for i, o in enumerate(obstacles) if o["type"] != "pause_box")
        del obstacles[index]

    assert "$.boards[0].sides[0].obstacles" in load_error(write_bad(tmp_path, four))


def test_r29_pause_box_not_costing_4_red_is_refused(tmp_path: Path) -> None:
    def cheap_pause(d: dict[str, Any]) -> None:
        obstacles = d["boards"][6]["sides"][0]["obstacles"]
        index = next(i for i, o in enumerate(obstacles) if o["type"] == "pause_box")
        obstacles[index]["cost"] = {"red": 3}

    message = load_error(write_bad(tmp_path, cheap_pause))
    assert re.search(r"\$\.boards\[6\]\.sides\[0\]\.obstacles\[\d\]\.cost", message), message
    assert "4 red" in message


def test_r2_unknown_obstacle_type_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["boards"][0]["sides"][0]["obstacles"][0].update(type="seesaw"))
    message = load_error(path)
    assert "$.boards[0].sides[0].obstacles[0].type" in message and "seesaw" in message


def test_r6_unknown_field_is_refused(tmp_path: Path) -> None:
    path = write_bad(tmp_path, lambda d: d["dogs"][0].update(colour="gold"))
    message = load_error(path)
    assert "$.dogs[0]" in message and "colour" in message


def test_r6_malformed_json_is_a_components_error(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{"name": "x", ', encoding="utf-8")
    load_error(path)


def test_r6_missing_file_is_a_components_error(tmp_path: Path) -> None:
    message = load_error(tmp_path / "absent.json")
    assert "cannot read" in message


def test_r6_toml_error_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(to_toml(standard_raw()).replace('number = 9', 'number = 12', 1), encoding="utf-8")
    message = load_error(path)
    assert re.search(r"\$\.cards\[\d+\]\.number", message), message


# --- TOML (R6) ---------------------------------------------------------------------------------


def toml_value(value: Any) -> str:
    """A TOML inline value (strings go through JSON, whose escapes TOML basic strings share)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    """Top-level keys one per line; lists of tables as multi-line arrays of inline tables."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list):
            lines.append(f"{key} = [")
            lines.extend(f"  {toml_value(v)}," for v in value)
            lines.append("]")
        else:
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def test_r6_toml_components_file_loads_equal_to_json(tmp_path: Path, comp: Components) -> None:
    path = tmp_path / "standard.toml"
    path.write_text(to_toml(standard_raw()), encoding="utf-8")
    assert load_components(path) == comp


def test_r6_missing_top_level_field_names_the_root_path(tmp_path):
    bad = tmp_path / "partial.json"
    bad.write_text('{"name": "x"}')
    with pytest.raises(ComponentsError) as info:
        load_components(bad)
    assert str(info.value) == f"{bad}: $: Object missing required field `cards`"
