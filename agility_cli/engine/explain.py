"""What a person is told about the rules' state: the decision awaited, and why a decision is refused."""

from __future__ import annotations

from .moves import (
    Adopt,
    Advance,
    Break,
    BoostAction,
    BoostCube,
    ChooseReward,
    Discard,
    Distract,
    Done,
    Draw,
    Exchange,
    Inspire,
    Move,
    Play,
    Prize,
    PutBack,
    Return,
    Rush,
    Slip,
    Take,
)
from .state import PlayerState, State, cubes_words
from .legal import affordable, clear_cost, rushed_slots, spare_options
from .ruleset import IllegalMove, MAX_DOGS, MAX_FLEX_SHIFT


# --------------------------------------------------------------------------------------------
# Explaining a refusal


PHASE_TEXT = {
    "play": "play a training card",
    "reward": "choose the reward of the card played",
    "discard": "discard a card for Intimidation",
    "break": "declare Break 1 or 2",
    "return": "return a cube for Break",
    "put_back": "put a card back for Break",
    "draw": "draw a card for Break (from the deck or the display)",
    "boost": "choose Boost option A (action) or B (cube)",
    "distract": "place a Distraction +1 marker",
    "rush": "place a Rush marker",
    "slip": "place the Slip open ground tile",
    "inspire": "take an Inspiration cube",
    "dogs": "adopt a dog, advance dogs, or finish the step",
    "refill": "take a card from the display",
    "over": "nothing: the game is over",
}


PHASE_KINDS: dict[str, set[type[Move]]] = {
    "play": {Play},
    "reward": {ChooseReward},
    "discard": {Discard},
    "break": {Break},
    "return": {Return},
    "put_back": {PutBack},
    "draw": {Draw, Take},
    "boost": {BoostAction, BoostCube},
    "distract": {Distract},
    "rush": {Rush},
    "slip": {Slip},
    "inspire": {Inspire},
    "dogs": {Adopt, Advance, Done},
    "refill": {Take},
}


def awaited(s: State) -> str:
    """A few words on the decision the game waits for."""
    if s.winner is not None:
        return PHASE_TEXT["over"]
    if s.prizes:
        what = "first to adopt three dogs" if s.prizes[0][1] == "three_dogs" else "first to finish a course"
        return f"choose a prize token ({what})"
    text = PHASE_TEXT[s.phase]
    return f"mini-turn: {text}" if s.in_mini and s.phase == "play" else text


def explain_illegal(s: State, m: Move) -> IllegalMove:
    """Why ``m`` is not legal now (checked in boardgame.io's order: over, player, kind, rule)."""
    if s.winner is not None:
        return IllegalMove("game/over", f"the game is over; {s.players[s.winner].name} won", "R34")
    seat = s.to_act
    assert seat is not None
    name = s.players[seat].name
    if m.player != name:
        return IllegalMove("move/not_your_decision", f"it is {name}'s decision ({awaited(s)}), not {m.player}'s", "R36")
    p = s.players[seat]
    if s.prizes and not isinstance(m, Prize):
        return IllegalMove("move/wrong_step", f"first {awaited(s)}", "R32" if s.prizes[0][1] == "three_dogs" else "R33")
    if isinstance(m, Exchange):
        if seat != s.active:
            return IllegalMove("exchange/not_your_turn", "Exchange is spent only in one's own turn", "R15")
        if not p.exchange:
            return IllegalMove("exchange/no_token", "you have no Exchange token", "R15")
        if m.from_ == m.to:
            return IllegalMove("exchange/same_colour", "exchange needs two different colours", "R15")
        return IllegalMove("exchange/no_cubes", f"you have no {m.from_} cubes to exchange", "R15")
    kinds = PHASE_KINDS.get(s.phase, set())
    if type(m) not in kinds and not (s.prizes and isinstance(m, Prize)):
        return IllegalMove("move/wrong_step", f"that is not possible now: the game waits for {name} to {awaited(s)}", "R12")
    reason = _specific_reason(s, p, m)
    return IllegalMove(*reason) if reason else IllegalMove("move/illegal", "that decision is not among the legal ones now")


def _specific_reason(s: State, p: PlayerState, m: Move) -> tuple[str, str, str] | None:
    cat = s.cat
    if isinstance(m, Play):
        if m.card not in cat.cards:
            return ("play/unknown_card", f"there is no card {m.card!r}", "R3")
        if p.hand and m.card not in p.hand:
            return ("play/not_in_hand", f"card {m.card} is not in your hand", "R12")
        if not p.hand and (not s.deck or m.card != s.deck[0]):
            return ("play/not_top", "with an empty hand a mini-turn plays the top card of the deck", "R31")
        if m.reward is None and not s.rules.reward_after_action:
            return ("play/reward", "under rules version 1 the reward is named with the play (--reward)", "R12")
        if m.reward is not None and m.reward not in [r.color for r in cat.cards[m.card].rewards]:
            colours = " or ".join(r.color for r in cat.cards[m.card].rewards)
            return ("play/reward", f"card {m.card} rewards {colours}, not {m.reward}", "R12")
        if abs(m.flex) > p.flex:
            return ("play/flex", f"a shift of {m.flex} needs {abs(m.flex)} Flex token{'s' if abs(m.flex) != 1 else ''}; you have {p.flex}", "R14")
        if abs(m.flex) > MAX_FLEX_SHIFT:
            return ("play/flex", f"shift at most {MAX_FLEX_SHIFT} spaces; the other way round is shorter", "R14")
    if isinstance(m, Adopt):
        if m.dog not in s.dog_display:
            return ("adopt/not_displayed", f"{m.dog} is not in the dog display", "R25")
        if s.adopted:
            return ("adopt/once", "you have already adopted a dog this turn", "R25")
        if s.moved:
            return ("adopt/after_move", "dogs have moved: adopting (step 4) comes before moving (step 5)", "R12")
        if len(p.dogs) >= MAX_DOGS:
            return ("adopt/three", "you already have three dogs", "R25")
        if rushed_slots(s, s.active):
            return ("adopt/rush", "a Rush marker stands before one of your dogs: clear it first", "R21")
        if not affordable(p.cubes, cat.dog_cost[m.dog]):
            return ("adopt/cost", f"{cat.dogs[m.dog].name} costs {cubes_words(cat.dog_cost[m.dog])}; you have {cubes_words(p.cubes)}", "R25")
        c = next((c for c in s.courses if c.id == m.course), None)
        if c is None:
            return ("adopt/course", f"there is no course {m.course} in play", "R25")
        if c.owner is not None:
            return ("adopt/claimed", f"course {m.course} is already claimed", "R25")
    if isinstance(m, Advance):
        idx = next((i for i, c in enumerate(s.courses) if c.id == m.course), None)
        if idx is None:
            return ("advance/course", f"there is no course {m.course} in play", "R26")
        c = s.courses[idx]
        if c.owner != s.active:
            return ("advance/not_yours", f"course {m.course} holds none of your dogs", "R26")
        if c.position >= len(c.obstacles):
            return ("advance/finished", f"the dog on {m.course} has finished", "R26")
        rushed = rushed_slots(s, s.active)
        if rushed and idx not in rushed:
            return ("advance/rush", "a Rush marker holds your other dogs until it is cleared", "R21")
        ob = c.obstacles[c.position]
        if s.feature(c, ob) is None and s.paid[idx]:
            return ("advance/limit", f"the dog on {m.course} has made its one paid move of a non-feature obstacle this turn", "R27")
        options = spare_options(s, c)
        if m.spare not in options:
            if options == [None]:
                return ("advance/spare", "this obstacle has no minus-one feature: give no spare colour", "R26")
            return ("advance/spare", f"minus one spares one of: {', '.join(str(o) for o in options)}", "R26")
        cost = clear_cost(s, c, m.spare)
        return ("advance/cost", f"clearing costs {cubes_words(cost)}; you have {cubes_words(p.cubes)}", "R26")
    if isinstance(m, Break) and not 1 <= m.count <= min(2, sum(p.cubes)):
        return ("break/count", f"declare 1 or 2, at most your {sum(p.cubes)} cubes", "R18")
    if isinstance(m, Return):
        return ("break/cube", f"you have no {m.color} cube to return", "R18")
    if isinstance(m, (PutBack, Discard)):
        return ("card/not_in_hand", f"card {m.card} is not in your hand", "R18" if isinstance(m, PutBack) else "R22")
    if isinstance(m, Take):
        return ("take/not_displayed", f"card {m.card} is not in the training display", "R13")
    if isinstance(m, ChooseReward):
        assert s.card is not None
        colours = " or ".join(r.color for r in cat.cards[s.card].rewards)
        return ("reward/colour", f"card {s.card} rewards {colours}, not {m.color}", "R12")
    if isinstance(m, BoostCube):
        return ("boost/colour", f"the boost card shows no {m.color}", "R19")
    if isinstance(m, Distract):
        return ("distract/target", "a +1 marker goes on an uncleared obstacle (not a pause box) of a course holding an opponent's dog, in a colour of its cost", "R20")
    if isinstance(m, Rush):
        return ("rush/target", "a Rush marker goes on the obstacle an opponent's dog faces (not one already rushed)", "R21")
    if isinstance(m, Slip):
        return ("slip/target", "the open ground tile goes between two obstacles ahead of an opponent's dog, once per course", "R24")
    if isinstance(m, Inspire):
        return ("inspire/colour", f"no {m.color} cube is left on Inspiration", "R23")
    if isinstance(m, Draw):
        return ("draw/empty", "the deck and the discard pile are empty", "R18")
    return None


def status_text(state: State) -> str:
    """``alice to play a training card (turn 7)`` or ``the game is over: bob won``."""
    if state.winner is not None:
        return f"the game is over: {state.players[state.winner].name} won"
    who = state.players[state.to_act].name if state.to_act is not None else "?"
    return f"{who} to {awaited(state)} (turn {state.turn})"
