"""Moves a person can type: ``agility move FILE VERB ARGS`` ⇄ :class:`~agility_cli.engine.moves.Move`.

Parsing is a lookup among the legal moves (OpenSpiel's habit), so what the CLI accepts cannot
drift from what the engine allows.  References are friendly and checked:

* a card by its number when that is unambiguous where it must be (hand or display), else by id;
* a course by its id (``3B``) or its slot on the board (``#1``–``#6``; a bare 1–6 too);
* a dog or a tile by its id, its name or any word of it (``golden``, ``husky``, ``mutt``, ``hurdles``);
* a colour, verb or token by an unambiguous prefix (``r`` for red, ``bla``/``blu``);
* obstacles are numbered from 1 along the course, as on the board.

Malformed input raises :class:`UsageError` (exit 2); a well-formed decision that is not legal now
raises :class:`Refused` (exit 1) with the engine's reason and the legal commands."""

from __future__ import annotations

from typing import Any

from . import rules
from .components import COLOURS, tile_name
from .moves import (
    Adopt,
    Advance,
    BoostAction,
    BoostCube,
    Break,
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
from .state import State, cubes_words
from ..i18n import N_
from ..said import Said, either, listing, named, said, typed, typed_names
from ..text import quoted


VERBS: dict[str, type[Move]] = {
    "play": Play,
    "reward": ChooseReward,
    "discard": Discard,
    "break": Break,
    "return": Return,
    "put-back": PutBack,
    "draw": Draw,
    "take": Take,
    "boost-action": BoostAction,
    "boost-cube": BoostCube,
    "distract": Distract,
    "rush": Rush,
    "slip": Slip,
    "inspire": Inspire,
    "exchange": Exchange,
    "adopt": Adopt,
    "advance": Advance,
    "done": Done,
    "prize": Prize,
}


VERB_OF: dict[type[Move], str] = {cls: verb for verb, cls in VERBS.items()}


USAGE: dict[str, str] = {
    "play": "play CARD [--reward COLOUR] [--flex N]  (or: play CARD COLOUR [+N|-N])",
    "reward": "reward COLOUR",
    "discard": "discard CARD",
    "break": "break 1|2",
    "return": "return COLOUR",
    "put-back": "put-back CARD",
    "draw": "draw",
    "take": "take CARD",
    "boost-action": "boost-action",
    "boost-cube": "boost-cube COLOUR",
    "distract": "distract COURSE OBSTACLE COLOUR",
    "rush": "rush COURSE",
    "slip": "slip COURSE AFTER",
    "inspire": "inspire COLOUR",
    "exchange": "exchange FROM TO",
    "adopt": "adopt DOG --course COURSE",
    "advance": "advance COURSE [--spare COLOUR]",
    "done": "done",
    "prize": "prize flex|exchange",
}


class UsageError(Exception):
    """Malformed move arguments (exit 2)."""


class Refused(Exception):
    """A decision that is not legal now (exit 1).  ``legal`` lists what is."""

    def __init__(self, message: str, legal: list[Move], rule: str | None = None, code: str = "move/illegal"):
        self.message = message
        self.legal = legal
        self.rule = rule
        self.code = code
        super().__init__(message)


#: The Chinese words ``agility move`` reads for a verb (the glossary's: 收养 adopt, 通过 clear an
#: obstacle, 完成 done; the tiles' names for their verbs), beside the English ones, in every language.
ZH_VERBS: dict[str, str] = {
    "打出": "play", "收养": "adopt", "通过": "advance", "完成": "done", "拿取": "take", "奖励": "reward",
    "休息": "break", "分心": "distract", "冲刺": "rush", "过失": "slip", "激励": "inspire", "交换": "exchange",
    "弃牌": "discard", "抽牌": "draw", "放回": "put-back",
}
#: The prize tokens by the glossary's names (弹性指示物, 交换指示物) and their first word.
ZH_TOKENS: dict[str, str] = {"弹性指示物": "flex", "弹性": "flex", "交换指示物": "exchange", "交换": "exchange"}

WHAT_VERB, WHAT_OPTION, WHAT_COLOUR, WHAT_TOKEN = N_("verb"), N_("option"), N_("colour"), N_("prize token")


def quote(word: str) -> str:
    """A word the player typed, quoted as Python would (``'fly'``), cut at 20 characters."""
    return repr(word if len(word) <= 20 else word[:20] + "…")


def prefix_match(word: str, choices: list[str], what: str, aliases: dict[str, str] | None = None,
                 kind: str | None = None) -> str:
    """The one choice ``word`` names exactly or as a unique prefix (case-insensitive), or by one of
    its ``aliases`` (the Chinese words: ``红`` for red).  ``kind`` names the choices in a refusal in
    the player's language (``i18n.name``'s kind)."""
    w = word.lower().replace("_", "-")
    if aliases and word.strip() in aliases:
        return aliases[word.strip()]
    norm = {c.lower().replace("_", "-"): c for c in choices}
    if w in norm:
        return norm[w]
    hits = [orig for low, orig in norm.items() if low.startswith(w)]
    if len(hits) == 1:
        return hits[0]
    chinese = {choice: word for word, choice in (aliases or {}).items() if not kind}  # verbs: one word each
    shown = [named(kind, c) if kind else typed(c, chinese.get(c)) for c in (hits or choices)]
    thing = what if isinstance(what, Said) else said(what)  # a Said: a word with its own context
    if hits:
        raise UsageError(said(N_("{what} {word} is ambiguous: {choices}"), what=thing, word=quote(word),
                              choices=listing(shown)))
    raise UsageError(said(N_("unknown {what} {word}; choose from {choices}"), what=thing, word=quote(word),
                          choices=listing(shown)))


def colour(word: str) -> str:
    aliases = {w: c for c, words in typed_names("colour").items() for w in words}
    return prefix_match(word, list(COLOURS), WHAT_COLOUR, aliases, "colour")


#: The most digits a number typed in a command may have.  No card number, slot, count or Flex shift
#: comes near; a longer one is refused before ``int()`` sees it (which refuses more than 4300 digits
#: with a ValueError, and takes quadratic time below that).
MAX_DIGITS = 9


def _too_long(word: str, what: str) -> UsageError:
    return UsageError(said(N_("{what} {word} has too many digits: a number here has at most {n}"), what=said(what),
                           word=quoted(word, 20), n=MAX_DIGITS))


def number(word: str, what: str = N_("the number")) -> int | None:
    """The whole number ``word`` writes in decimal digits (``3``, ``07``), else ``None``; more than
    :data:`MAX_DIGITS` digits is a :class:`UsageError`.  Every number typed as a card, a slot or a
    menu choice is read here (``str.isdigit`` alone would pass ``²``, which ``int`` refuses)."""
    if not word.isdecimal():
        return None
    if len(word) > MAX_DIGITS:
        raise _too_long(word, what)
    return int(word)


def _int(word: str, what: str) -> int:
    """A signed whole number (``--flex=-2``, ``+1``), or a :class:`UsageError` saying what is wrong."""
    if len(word.strip().lstrip("+-")) > MAX_DIGITS:
        raise _too_long(word, what)
    try:
        return int(word)
    except ValueError:
        raise UsageError(said(N_("{what} must be a whole number, got {word}"), what=said(what),
                              word=quoted(word, 20))) from None


def _split(args: list[str]) -> tuple[list[str], dict[str, str]]:
    """Positional words and ``--option VALUE`` / ``--option=VALUE`` pairs."""
    pos: list[str] = []
    opts: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and len(a) > 2:
            name, eq, value = a[2:].partition("=")
            if not eq:
                if i + 1 >= len(args):
                    raise UsageError(said(N_("option --{name} needs a value"), name=name))
                value = args[i + 1]
                i += 1
            name = prefix_match(name, ["reward", "flex", "course", "spare"], WHAT_OPTION)
            opts[name] = value
        else:
            pos.append(a)
        i += 1
    return pos, opts


def card_ref(s: State, word: str, zone: list[str], where: str) -> str:
    """A card in ``zone`` named by id or by number (when only one card there has it)."""
    cards = s.cat.cards
    if word.lower() in {c.lower() for c in cards}:
        return next(c for c in cards if c.lower() == word.lower())
    n = number(word, N_("a card number"))
    items = [said(N_("{card} (an {n})") if a_number(cards[c].number).startswith("an") else N_("{card} (a {n})"),
                  card=c, n=cards[c].number) for c in zone if c in cards]
    cards_there = listing(items) if items else said(N_("none"))
    where_said = said(where)
    if n is not None:
        hits = [c for c in dict.fromkeys(zone) if c in cards and cards[c].number == n]  # R42: open cards only
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise Refused(said(N_("no card numbered {n} {where}; cards {where}: {cards}"), n=n, where=where_said,
                               cards=cards_there), [], "R12", "card/none")
        raise UsageError(said(N_("several cards numbered {n} {where} ({cards}): name one by its id"), n=n,
                              where=where_said, cards=", ".join(hits)))
    shown = repr(word if len(word) <= 12 else word[:12] + "…")
    if word[:1].isalpha() and word[1:].isdigit():  # the shape of a card id, but no card of the set
        raise UsageError(said(N_("there is no card {word}; cards {where}: {cards} (a card by its id or its number)"),
                              word=shown, where=where_said, cards=cards_there))
    raise UsageError(said(N_("{word} is neither a card number nor a card id; cards {where}: {cards}"), word=shown,
                          where=where_said, cards=cards_there))


def course_ref(s: State, word: str) -> str:
    """A course in play by slot (``#1``–``#6``, or 1–6) or by id (``3B``)."""
    k = number(word[1:] if word.startswith("#") else word, N_("a course slot"))
    if k is not None and 1 <= k <= len(s.courses):
        return s.courses[k - 1].id
    for c in s.courses:
        if c.id.lower() == word.lower():
            return c.id
    slots = ", ".join(f"#{i} = {c.id}" for i, c in enumerate(s.courses, 1))
    raise UsageError(said(N_("no course {word} in play; courses: {slots}"), word=quote(word), slots=slots))


def _words(name: str) -> list[str]:
    return [w for w in name.lower().replace("_", " ").replace("-", " ").split() if w]


def word_match(word: str, choices: list[str], what: str, names: dict[str, str] | None = None,
               aliases: dict[str, tuple[str, ...]] | None = None) -> str:
    """The one choice ``word`` names: exactly, by a prefix of its id or name, or by (a prefix of)
    any word of its name (``husky``, ``mutt``, ``hurdles``).  Case, blanks, ``-`` and ``_`` do
    not matter.  ``aliases`` are a choice's other names (its Chinese name: ``黄金猎犬``), read the
    same way; a name without blanks (Chinese) is also found by any part of it (``猎犬``)."""
    names = names or {}
    aliases = aliases or {}
    w = "-".join(_words(word))

    def keys(c: str) -> list[str]:
        return ["-".join(_words(c)), "-".join(_words(names.get(c, c))),
                *("-".join(_words(a)) for a in aliases.get(c, ()))]

    def exact(c: str) -> bool:
        return w in keys(c)

    def prefix(c: str) -> bool:
        return any(k.startswith(w) for k in keys(c))

    def any_word(c: str) -> bool:
        return any(x.startswith(w) for k in keys(c) for x in k.split("-"))

    def part(c: str) -> bool:  # a word with no blank (Chinese): any part of a name
        return bool(w) and not w.isascii() and any(w in k for k in keys(c))

    for test in (exact, prefix, any_word, part):
        hits = [c for c in dict.fromkeys(choices) if test(c)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise UsageError(said(N_("{what} {word} is ambiguous: {choices}"), what=said(what), word=quote(word),
                                  choices=", ".join(hits)))
    raise UsageError(said(N_("unknown {what} {word}; choose from {choices}"), what=said(what), word=quote(word),
                          choices=", ".join(choices)))


def dog_ref(s: State, word: str) -> str:
    """A dog by its id, its name or any word of it (``golden``, ``husky``, ``mutt``): the dogs in
    the display first, then every dog of the set."""
    dogs = s.cat.dogs
    names = {d: dogs[d].name for d in dogs}
    typed = typed_names("dog")
    aliases = {d: typed.get(dogs[d].name, ()) for d in dogs}
    try:
        return word_match(word, list(s.dog_display), N_("dog"), names, aliases)
    except UsageError as exc:
        if "ambiguous" in str(exc):
            raise
    try:
        return word_match(word, list(dogs), N_("dog"), names, aliases)
    except UsageError as exc:
        if "ambiguous" in str(exc):
            raise
    shown = [said(N_("{id} ({name})"), id=d, name=named("dog", dogs[d].name)) for d in s.dog_display]
    raise UsageError(said(N_("unknown dog {word}; the display has {dogs}"), word=quote(word), dogs=listing(shown)))


def _need(pos: list[str], n: int, verb: str) -> None:
    if len(pos) != n:
        raise UsageError(said(N_("`{verb}` takes {n} argument: agility move FILE {usage}") if n == 1 else
                              N_("`{verb}` takes {n} arguments: agility move FILE {usage}"), verb=verb, n=n,
                              usage=USAGE[verb]))


def parse(s: State, argv: list[str]) -> Move:
    """The move ``argv`` names for the player who must act now (checked against the legal moves)."""
    try:
        return _parse(s, argv)
    except Refused as exc:
        if not exc.legal:
            exc.legal = rules.legal_moves(s)
        raise


def _parse(s: State, argv: list[str]) -> Move:
    if not argv:
        raise UsageError(said(N_("name a decision, e.g. `play 3 --reward red`; `agility legal FILE` lists them")))
    verb = prefix_match(argv[0], list(VERBS), WHAT_VERB, ZH_VERBS)
    pos, opts = _split(argv[1:])
    allowed = {"play": {"reward", "flex"}, "adopt": {"course"}, "advance": {"spare"}}.get(verb, set())
    for name in opts:
        if name not in allowed:
            raise UsageError(said(N_("`{verb}` takes no --{name}: agility move FILE {usage}"), verb=verb, name=name,
                                  usage=USAGE[verb]))
    seat = s.to_act
    if seat is None:
        raise Refused(said(N_("the game is over; {name} won"), name=s.players[s.winner or 0].name), [], "R34",
                      "game/over")
    p = s.players[seat]
    player = p.name
    move: Move
    if verb == "play":
        # Forgiving: `play 3 red +1` is `play 3 --reward red --flex=+1`.
        for extra in pos[1:]:
            if extra.lstrip("+-").isdigit() and "flex" not in opts:
                opts["flex"] = extra
            elif "reward" not in opts and not extra.lstrip("+-").isdigit():
                opts["reward"] = extra
            else:
                _need(pos, 1, verb)
        pos = pos[:1]
        _need(pos, 1, verb)
        # R31: with an empty hand a mini-turn plays the deck's top card; at any other moment the deck's
        # top is nobody's to name, not even in a refusal (R39)
        blind = not p.hand and s.in_mini and s.phase == "play"
        zone = s.deck[:1] if blind else p.hand
        card = card_ref(s, pos[0], zone, N_("on top of the deck") if blind else N_("in your hand"))
        if "reward" not in opts and not s.rules.reward_after_action:
            rewards = " or ".join(r.color for r in s.cat.cards[card].rewards)
            raise UsageError(said(N_("choose the reward (rules version 1 names it with the play): --reward {rewards}"),
                                  rewards=rewards))
        flex = _int(opts.get("flex", "0"), N_("--flex"))
        reward = colour(opts["reward"]) if "reward" in opts else None
        move = Play(player=player, card=card, reward=reward, flex=flex)  # type: ignore[arg-type]
    elif verb in ("discard", "put-back"):
        _need(pos, 1, verb)
        move = VERBS[verb](player=player, card=card_ref(s, pos[0], p.hand, N_("in your hand")))  # type: ignore[call-arg]
    elif verb == "take":
        _need(pos, 1, verb)
        move = Take(player=player, card=card_ref(s, pos[0], s.display, N_("in the display")))
    elif verb == "break":
        _need(pos, 1, verb)
        move = Break(player=player, count=_int(pos[0], N_("the Break count")))
    elif verb in ("return", "boost-cube", "inspire", "reward"):
        _need(pos, 1, verb)
        move = VERBS[verb](player=player, color=colour(pos[0]))  # type: ignore[call-arg]
    elif verb in ("draw", "boost-action", "done"):
        _need(pos, 0, verb)
        move = VERBS[verb](player=player)
    elif verb == "distract":
        _need(pos, 3, verb)
        move = Distract(
            player=player,
            course=course_ref(s, pos[0]),
            obstacle=_int(pos[1], N_("the obstacle number")) - 1,
            color=colour(pos[2]),  # type: ignore[arg-type]
        )
    elif verb == "rush":
        _need(pos, 1, verb)
        move = Rush(player=player, course=course_ref(s, pos[0]))
    elif verb == "slip":
        _need(pos, 2, verb)
        move = Slip(player=player, course=course_ref(s, pos[0]), gap=_int(pos[1], N_("AFTER (an obstacle number)")))
    elif verb == "exchange":
        _need(pos, 2, verb)
        move = Exchange(player=player, from_=colour(pos[0]), to=colour(pos[1]))  # type: ignore[arg-type]
    elif verb == "adopt":
        if "course" in opts:
            _need(pos, 1, verb)
            pos.append(opts["course"])
        _need(pos, 2, verb)
        move = Adopt(player=player, dog=dog_ref(s, pos[0]), course=course_ref(s, pos[1]))
    elif verb == "advance":
        if "spare" in opts:
            pos.append(opts["spare"])
        if len(pos) not in (1, 2):
            _need(pos, 1, verb)
        course = course_ref(s, pos[0])
        spare = colour(pos[1]) if len(pos) == 2 else None
        if spare is None:
            # With a minus-one feature and a single colour to spare, the spare is implied.
            options = {m.spare for m in rules.legal_moves(s) if isinstance(m, Advance) and m.course == course}
            if len(options) == 1:
                spare = options.pop()
            elif len(options) > 1:
                raise UsageError(said(N_("minus one spares a cube: add {options}"),
                                      options=either(f"--spare {o}" for o in sorted(str(o) for o in options))))
        move = Advance(player=player, course=course, spare=spare)  # type: ignore[arg-type]
    elif verb == "prize":
        _need(pos, 1, verb)
        move = Prize(player=player, token=prefix_match(pos[0], ["flex", "exchange"], WHAT_TOKEN, ZH_TOKENS))  # type: ignore[arg-type]
    else:  # pragma: no cover - VERBS is exhaustive
        raise AssertionError(verb)
    legal = rules.legal_moves(s)
    if move not in legal:
        err = rules.explain_illegal(s, move)
        raise Refused(err.message, legal, err.rule, err.code)
    return move


def argv(s: State, m: Move) -> list[str]:
    """Words such that ``agility move FILE <words>`` makes exactly ``m`` in state ``s``."""
    verb = VERB_OF[type(m)]
    p = s.players[s.to_act] if s.to_act is not None else s.players[s.active]
    if isinstance(m, Play):
        zone = p.hand if p.hand else s.deck[:1]
        words = [verb, card_word(s, m.card, zone)]
        if m.reward is not None:
            words += ["--reward", m.reward]
        if m.flex:
            words.append(f"--flex={m.flex}")
        return words
    if isinstance(m, (Discard, PutBack)):
        return [verb, card_word(s, m.card, p.hand)]
    if isinstance(m, Take):
        return [verb, card_word(s, m.card, s.display)]
    if isinstance(m, Break):
        return [verb, str(m.count)]
    if isinstance(m, (Return, BoostCube, Inspire, ChooseReward)):
        return [verb, m.color]
    if isinstance(m, Distract):
        return [verb, m.course, str(m.obstacle + 1), m.color]
    if isinstance(m, Rush):
        return [verb, m.course]
    if isinstance(m, Slip):
        return [verb, m.course, str(m.gap)]
    if isinstance(m, Exchange):
        return [verb, m.from_, m.to]
    if isinstance(m, Adopt):
        return [verb, m.dog, "--course", m.course]
    if isinstance(m, Advance):
        return [verb, m.course] + (["--spare", m.spare] if m.spare else [])
    if isinstance(m, Prize):
        return [verb, m.token]
    return [verb]


def card_word(s: State, card: str, zone: list[str]) -> str:
    number = s.cat.cards[card].number
    same = [c for c in dict.fromkeys(zone) if c in s.cat.cards and s.cat.cards[c].number == number]
    return str(number) if same == [card] else card


def a_number(n: int) -> str:
    """``a 5``, ``an 8``, ``an 11``, ``an 18`` — a card's number with its article (issue 51)."""
    return f"{'an' if str(n).startswith('8') or n in (11, 18) else 'a'} {n}"


def _card_text(s: State, card: str) -> str:
    c = s.cat.cards[card]
    return f"{card} ({a_number(c.number)}: {c.rewards[0].count} {c.rewards[0].color} | {c.rewards[1].count} {c.rewards[1].color})"


def describe(s: State, m: Move) -> str:
    """A human description of a legal move in state ``s`` (for ``legal``)."""
    cat = s.cat
    if isinstance(m, Play):
        card = cat.cards[m.card]
        target = (s.marker + card.number) % 10
        space = (target + m.flex) % 10
        flex = f", {abs(m.flex)} Flex to space {space}" if m.flex else ""
        take = f", take {m.reward}" if m.reward is not None else ""
        return f"play {_card_text(s, m.card)}{take}; marker {s.marker}→{target}{flex}: {tile_name(s.board[space])}"
    if isinstance(m, Discard):
        return f"discard {_card_text(s, m.card)} for Intimidation"
    if isinstance(m, PutBack):
        return f"put {_card_text(s, m.card)} under the discard pile"
    if isinstance(m, Take):
        return f"take {_card_text(s, m.card)} from the display"
    if isinstance(m, Break):
        return f"Break {m.count}: return {m.count} cube{'s' if m.count > 1 else ''}, swap as many cards"
    if isinstance(m, Return):
        return f"return a {m.color} cube"
    if isinstance(m, ChooseReward):
        assert s.card is not None
        count = next(r.count for r in cat.cards[s.card].rewards if r.color == m.color)
        return f"take the reward: {count} {m.color}"
    if isinstance(m, Draw):
        return "draw the top card of the deck"
    if isinstance(m, BoostAction):
        number = cat.cards[s.boost_card].number if s.boost_card else 0
        return f"Boost A: resolve space {number % 10} ({tile_name(s.board[number % 10])})"
    if isinstance(m, BoostCube):
        return f"Boost B: take a {m.color} cube"
    if isinstance(m, Distract):
        c = next(c for c in s.courses if c.id == m.course)
        return f"put a {m.color} +1 on obstacle {m.obstacle + 1} ({c.obstacles[m.obstacle].type}) of {m.course}"
    if isinstance(m, Rush):
        c = next(c for c in s.courses if c.id == m.course)
        return f"put a Rush marker before the dog on {m.course} ({c.obstacles[c.position].type})"
    if isinstance(m, Slip):
        return f"slip an open ground tile into {m.course} after obstacle {m.gap}"
    if isinstance(m, Inspire):
        return f"take the {m.color} cube from Inspiration"
    if isinstance(m, Exchange):
        n = s.players[s.active].cubes[COLOURS.index(m.from_)]
        return f"spend an Exchange token: {n} {m.from_} → {n} {m.to}"
    if isinstance(m, Adopt):
        dog = cat.dogs[m.dog]
        return f"adopt {dog.name} ({cubes_words(dog.cost)}) onto course {m.course}"
    if isinstance(m, Advance):
        c = next(c for c in s.courses if c.id == m.course)
        paid = cubes_words(rules.clear_cost(s, c, m.spare), empty="free")
        return f"advance the dog on {m.course} past the {c.obstacles[c.position].type} ({paid})"
    if isinstance(m, Done):
        return "finish adopting and moving dogs"
    if isinstance(m, Prize):
        return f"take the {m.token.capitalize()} token as a prize"
    return VERB_OF[type(m)]


def legal_json(s: State) -> list[dict[str, Any]]:
    """``legal --json``: every legal decision with its player, argv and description."""
    out = []
    for m in rules.legal_moves(s):
        out.append({"player": m.player, "argv": argv(s, m), "text": describe(s, m)})
    return out
