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
from .state import PlayerState, State
from .legal import affordable, clear_cost, rushed_slots, spare_options
from .ruleset import IllegalMove, MAX_DOGS, MAX_FLEX_SHIFT
from ..i18n import N_
from ..said import Said, either, listing, named, said
from .components import COLOURS


# --------------------------------------------------------------------------------------------
# Explaining a refusal


PHASE_TEXT = {
    "play": N_("play a training card"),
    "reward": N_("choose the reward of the card played"),
    "discard": N_("discard a card for Intimidation"),
    "break": N_("declare Break 1 or 2"),
    "return": N_("return a cube for Break"),
    "put_back": N_("put a card back for Break"),
    "draw": N_("draw a card for Break (from the deck or the display)"),
    "boost": N_("choose Boost option A (action) or B (cube)"),
    "distract": N_("place a Distraction +1 marker"),
    "rush": N_("place a Rush marker"),
    "slip": N_("place the Slip open ground tile"),
    "inspire": N_("take an Inspiration cube"),
    "dogs": N_("adopt a dog, advance dogs, or finish the step"),
    "refill": N_("take a card from the display"),
    "over": N_("nothing: the game is over"),
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


def awaited(s: State) -> Said:
    """A few words on the decision the game waits for (English; :func:`~agility_cli.said.tell`
    translates them where a person reads them)."""
    if s.winner is not None:
        return said(PHASE_TEXT["over"])
    if s.prizes:
        what = N_("first to adopt three dogs") if s.prizes[0][1] == "three_dogs" else N_("first to finish a course")
        return said(N_("choose a prize token ({what})"), what=said(what))
    text = said(PHASE_TEXT[s.phase])
    return said(N_("mini-turn: {what}"), what=text) if s.in_mini and s.phase == "play" else text


def cubes_said(cubes, empty: str = N_("nothing")) -> Said:  # type: ignore[no-untyped-def]
    """``2 blue, 1 black`` (:func:`~.state.cubes_words`), told in the player's language where shown."""
    from collections.abc import Mapping

    pairs = cubes.items() if isinstance(cubes, Mapping) else zip(COLOURS, cubes)
    parts = [said(N_("{n} {colour}"), n=n, colour=named("colour", c)) for c, n in pairs if n]
    return listing(parts) if parts else said(empty)


def explain_illegal(s: State, m: Move) -> IllegalMove:
    """Why ``m`` is not legal now (checked in boardgame.io's order: over, player, kind, rule)."""
    if s.winner is not None:
        return IllegalMove("game/over", said(N_("the game is over; {name} won"), name=s.players[s.winner].name), "R34")
    seat = s.to_act
    assert seat is not None
    name = s.players[seat].name
    if m.player != name:
        return IllegalMove("move/not_your_decision", said(N_("it is {name}'s decision ({what}), not {player}'s"), name=name, what=awaited(s), player=m.player), "R36")
    p = s.players[seat]
    if s.prizes and not isinstance(m, Prize):
        return IllegalMove("move/wrong_step", said(N_("first {what}"), what=awaited(s)), "R32" if s.prizes[0][1] == "three_dogs" else "R33")
    if isinstance(m, Exchange):
        if seat != s.active:
            return IllegalMove("exchange/not_your_turn", said(N_("Exchange is spent only in one's own turn")), "R15")
        if not p.exchange:
            return IllegalMove("exchange/no_token", said(N_("you have no Exchange token")), "R15")
        if m.from_ == m.to:
            return IllegalMove("exchange/same_colour", said(N_("exchange needs two different colours")), "R15")
        return IllegalMove("exchange/no_cubes", said(N_("you have no {colour} cubes to exchange"), colour=named("colour", m.from_)), "R15")
    kinds = PHASE_KINDS.get(s.phase, set())
    if type(m) not in kinds and not (s.prizes and isinstance(m, Prize)):
        return IllegalMove("move/wrong_step", said(N_("that is not possible now: the game waits for {name} to {what}"), name=name, what=awaited(s)), "R12")
    reason = _specific_reason(s, p, m)
    return IllegalMove(*reason) if reason else IllegalMove("move/illegal", said(N_("that decision is not among the legal ones now")))


def _specific_reason(s: State, p: PlayerState, m: Move) -> tuple[str, str, str] | None:
    cat = s.cat
    if isinstance(m, Play):
        if m.card not in cat.cards:
            return ("play/unknown_card", said(N_("there is no card {card}"), card=repr(m.card)), "R3")
        if p.hand and m.card not in p.hand:
            return ("play/not_in_hand", said(N_("card {card} is not in your hand"), card=m.card), "R12")
        if not p.hand and (not s.deck or m.card != s.deck[0]):
            return ("play/not_top", said(N_("with an empty hand a mini-turn plays the top card of the deck")), "R31")
        if m.reward is None and not s.rules.reward_after_action:
            return ("play/reward", said(N_("under rules version 1 the reward is named with the play (--reward)")), "R12")
        if m.reward is not None and m.reward not in [r.color for r in cat.cards[m.card].rewards]:
            colours = either(named("colour", r.color) for r in cat.cards[m.card].rewards)
            return ("play/reward", said(N_("card {card} rewards {colours}, not {colour}"), card=m.card, colours=colours,
                                        colour=named("colour", m.reward)), "R12")
        if abs(m.flex) > p.flex:
            return ("play/flex", said(N_("a shift of {shift} needs {n} Flex token; you have {flex}") if abs(m.flex) == 1 else
                                N_("a shift of {shift} needs {n} Flex tokens; you have {flex}"), shift=m.flex, n=abs(m.flex),
                                flex=p.flex), "R14")
        if abs(m.flex) > MAX_FLEX_SHIFT:
            return ("play/flex", said(N_("shift at most {n} spaces; the other way round is shorter"), n=MAX_FLEX_SHIFT), "R14")
    if isinstance(m, Adopt):
        if m.dog not in s.dog_display:
            return ("adopt/not_displayed", said(N_("{dog} is not in the dog display"), dog=m.dog), "R25")
        if s.adopted:
            return ("adopt/once", said(N_("you have already adopted a dog this turn")), "R25")
        if s.moved:
            return ("adopt/after_move", said(N_("dogs have moved: adopting (step 4) comes before moving (step 5)")), "R12")
        if len(p.dogs) >= MAX_DOGS:
            return ("adopt/three", said(N_("you already have three dogs")), "R25")
        if rushed_slots(s, s.active):
            return ("adopt/rush", said(N_("a Rush marker stands before one of your dogs: clear it first")), "R21")
        if not affordable(p.cubes, cat.dog_cost[m.dog]):
            return ("adopt/cost", said(N_("{dog} costs {cost}; you have {cubes}"), dog=named("dog", cat.dogs[m.dog].name), cost=cubes_said(cat.dog_cost[m.dog]), cubes=cubes_said(p.cubes)), "R25")
        c = next((c for c in s.courses if c.id == m.course), None)
        if c is None:
            return ("adopt/course", said(N_("there is no course {course} in play"), course=m.course), "R25")
        if c.owner is not None:
            return ("adopt/claimed", said(N_("course {course} is already claimed"), course=m.course), "R25")
    if isinstance(m, Advance):
        idx = next((i for i, c in enumerate(s.courses) if c.id == m.course), None)
        if idx is None:
            return ("advance/course", said(N_("there is no course {course} in play"), course=m.course), "R26")
        c = s.courses[idx]
        if c.owner != s.active:
            return ("advance/not_yours", said(N_("course {course} holds none of your dogs"), course=m.course), "R26")
        if c.position >= len(c.obstacles):
            return ("advance/finished", said(N_("the dog on {course} has finished"), course=m.course), "R26")
        rushed = rushed_slots(s, s.active)
        if rushed and idx not in rushed:
            return ("advance/rush", said(N_("a Rush marker holds your other dogs until it is cleared")), "R21")
        ob = c.obstacles[c.position]
        if s.feature(c, ob) is None and s.paid[idx]:
            return ("advance/limit", said(N_("the dog on {course} has made its one paid move of a non-feature obstacle this turn"), course=m.course), "R27")
        options = spare_options(s, c)
        if m.spare not in options:
            if options == [None]:
                return ("advance/spare", said(N_("this obstacle has no minus-one feature: give no spare colour")), "R26")
            return ("advance/spare", said(N_("minus one spares one of: {colours}"), colours=listing(named("colour", str(o)) for o in options)), "R26")
        cost = clear_cost(s, c, m.spare)
        return ("advance/cost", said(N_("clearing costs {cost}; you have {cubes}"), cost=cubes_said(cost), cubes=cubes_said(p.cubes)), "R26")
    if isinstance(m, Break) and not 1 <= m.count <= min(2, sum(p.cubes)):
        return ("break/count", said(N_("declare 1 or 2, at most your {n} cubes"), n=sum(p.cubes)), "R18")
    if isinstance(m, Return):
        return ("break/cube", said(N_("you have no {colour} cube to return"), colour=named("colour", m.color)), "R18")
    if isinstance(m, (PutBack, Discard)):
        return ("card/not_in_hand", said(N_("card {card} is not in your hand"), card=m.card), "R18" if isinstance(m, PutBack) else "R22")
    if isinstance(m, Take):
        return ("take/not_displayed", said(N_("card {card} is not in the training display"), card=m.card), "R13")
    if isinstance(m, ChooseReward):
        assert s.card is not None
        colours = either(named("colour", r.color) for r in cat.cards[s.card].rewards)
        return ("reward/colour", said(N_("card {card} rewards {colours}, not {colour}"), card=s.card, colours=colours,
                                      colour=named("colour", m.color)), "R12")
    if isinstance(m, BoostCube):
        return ("boost/colour", said(N_("the boost card shows no {colour}"), colour=named("colour", m.color)), "R19")
    if isinstance(m, Distract):
        return ("distract/target", said(N_("a +1 marker goes on an uncleared obstacle (not a pause box) of a course holding an opponent's dog, in a colour of its cost")), "R20")
    if isinstance(m, Rush):
        return ("rush/target", said(N_("a Rush marker goes on the obstacle an opponent's dog faces (not one already rushed)")), "R21")
    if isinstance(m, Slip):
        return ("slip/target", said(N_("the open ground tile goes between two obstacles ahead of an opponent's dog, once per course")), "R24")
    if isinstance(m, Inspire):
        return ("inspire/colour", said(N_("no {colour} cube is left on Inspiration"), colour=named("colour", m.color)), "R23")
    if isinstance(m, Draw):
        return ("draw/empty", said(N_("the deck and the discard pile are empty")), "R18")
    return None


def status_text(state: State) -> Said:
    """``alice to play a training card (turn 7)`` or ``the game is over: bob won`` (English; told
    in the player's language by :func:`~agility_cli.said.tell`)."""
    if state.winner is not None:
        return said(N_("the game is over: {name} won"), name=state.players[state.winner].name)
    who = state.players[state.to_act].name if state.to_act is not None else "?"
    return said(N_("{name} to {what} (turn {turn})"), name=who, what=awaited(state), turn=state.turn)
