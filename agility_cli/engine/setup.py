"""A game's start from its header: the board, the start player, the deal (R8-R11)."""

from __future__ import annotations

from collections.abc import Iterable

from .components import COLOURS, EXTRA_TILES, TILES, Components
from .moves import Header
from .rng import Rng
import msgspec

from .state import CARD_POSITION, DOG_POSITION, Catalog, CourseState, ObstacleState, PlayerState, Sealing, State, vec
from .apply import begin_turn
from .piles import fill_display, fill_dogs
from .ruleset import HAND_SIZE, RULESETS, SetupError
from ..i18n import N_
from ..said import said


# --------------------------------------------------------------------------------------------
# Setup (R8–R11)


def validate_board(board: Iterable[str]) -> tuple[str, ...]:
    """R7/R9: ten spaces, Sweep on 0, nine distinct other tiles on 1–9."""
    tiles = tuple(board)
    if len(tiles) != 10:
        raise SetupError("setup/board", said(N_("an action board has 10 spaces, got {n}"), n=len(tiles)), "R7")
    if tiles[0] != "sweep":
        raise SetupError("setup/board", said(N_("space 0 is always sweep, got {tile}"), tile=repr(tiles[0])), "R7")
    for i, t in enumerate(tiles[1:], 1):
        if t not in TILES or t == "sweep":
            choices = ", ".join(TILES[1:])
            raise SetupError("setup/board", said(N_("space {i}: unknown tile {tile}; tiles are {choices}"), i=i,
                                                 tile=repr(t), choices=choices), "R7")
    if len(set(tiles[1:])) != 9:
        raise SetupError("setup/board", said(N_("a tile may appear only once on the board")), "R7")
    return tiles


def random_board(seed: int, variant: str) -> tuple[str, ...]:
    """R9: a random action board, variant ``"a"`` or ``"b"``, from the seed's ``board`` stream."""
    rng = Rng.for_purpose(seed, "board")
    spaces = list(range(1, 10))
    rng.shuffle(spaces)
    board = ["sweep"] + [""] * 9
    if variant == "a":
        fixed = ["clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles", "flex", "exchange"]
        others = ["break", "boost", "distraction", *EXTRA_TILES]
    elif variant == "b":
        fixed = ["flex", "exchange"]
        others = [t for t in TILES[1:] if t not in fixed]
    else:
        raise SetupError("setup/board", said(N_("unknown random board variant {variant}"), variant=repr(variant)), "R9")
    for space, tile in zip(spaces, fixed):
        board[space] = tile
    rng.shuffle(others)
    for space, tile in zip(spaces[len(fixed) :], others):
        board[space] = tile
    return tuple(board)


def random_first(seed: int, players: tuple[str, str]) -> str:
    """R10: a random start player from the seed's ``first`` stream."""
    return players[Rng.for_purpose(seed, "first").below(2)]


def setup(header: Header, components: Components) -> State:
    """R10: the state before the first decision.  Randomness: the seed's ``game`` stream (R11).

    Order, fixed forever for rules version 1: shuffle the training deck, shuffle the dog deck,
    choose 6 of the 8 course boards (the first 6 of a shuffle) and a side of each, deal 3 cards to
    each player in seat order, turn up the training display (R13), turn up 5 dogs.
    """
    if header.players[0] == header.players[1] or not all(header.players):
        raise SetupError("setup/players", said(N_("the two players need two different, non-empty names")), "R35")
    if header.first not in header.players:
        raise SetupError("setup/first", said(N_("start player {name} is not one of the players"),
                                             name=repr(header.first)), "R10")
    if header.seed is None:  # R40: drawn by the handshake; setup runs on the header with that seed
        raise SetupError("setup/seed", said(N_("the seed is not drawn yet (the handshake is not complete)")), "R40")
    if header.seed < 0:
        raise SetupError("setup/seed", said(N_("the seed is a non-negative integer")), "R11")
    ruleset = RULESETS.get(header.rules)
    if ruleset is None:
        versions = ", ".join(map(str, RULESETS))
        raise SetupError("setup/rules", said(N_("rules version {version} is unknown (versions: {versions})"),
                                             version=header.rules, versions=versions), "R38")
    board = validate_board(header.board)
    cat = Catalog(components)
    rng = Rng.for_purpose(header.seed, "game")
    deck = [c.id for c in components.cards]
    rng.shuffle(deck)
    dogs = [d.id for d in components.dogs]
    rng.shuffle(dogs)
    boards = list(components.boards)
    rng.shuffle(boards)
    courses = []
    for b in boards[:6]:
        side = b.sides[rng.below(2)]
        obstacles = [ObstacleState(o.type, vec(o.cost)) for o in side.obstacles]
        courses.append(CourseState(side.id, obstacles=obstacles))

    s = State.__new__(State)
    s.cat = cat
    s.rules = ruleset
    s.rng = rng.state
    s.board = board
    s.marker = 0
    s.deck = deck
    s.discard = []
    s.display = []
    s.dog_deck = dogs
    s.dog_display = []
    s.inspiration = list(COLOURS) if "inspiration" in board else []  # R23
    s.players = [PlayerState(header.players[0]), PlayerState(header.players[1])]
    s.courses = courses
    s.start = header.players.index(header.first)
    s.active = s.start
    s.turn = 0
    s.phase = "play"
    s.winner = s.finisher = s.tiebreak = s.first_three = s.first_finish = None
    s.final_turn = False
    s.prizes = []
    s.card = s.reward = s.boost_card = s.last_tile = None
    s.sweep = s.in_mini = s.adopted = s.moved = False
    s.minis = s.pending = s.put_back = s.reveals = 0
    s.paid = [0] * len(courses)
    s.known, s.unseen = [[], []], [[], []]  # R39: dealt hands are private
    s.sealing = None
    if header.sealed is not msgspec.UNSET:
        # R42: the sealed deck's order is the players' joint shuffle, not the seed's; the state holds
        # positions (``#n``, ``@n``) that the players' keys open (record/sealed).  The PRNG draws
        # above are kept, so the seed still draws the same courses.
        s.deck = [f"{CARD_POSITION}{i}" for i in range(len(deck))]
        s.dog_deck = [f"{DOG_POSITION}{i}" for i in range(len(dogs))]
        s.sealing = Sealing(len(deck))
    for p in s.players:
        p.hand = [s.deck.pop(0) for _ in range(HAND_SIZE)]
    fill_display(s)
    fill_dogs(s)
    begin_turn(s)
    return s
