"""Sealed games (R42–R44) at the library level: whole games between two machines, the audit, what a
modified client can read, and the attacks each check stops.

Attacks tried here (docs/sealed-deck.md), and what catches each:

| attack | caught by |
| --- | --- |
| a published key that is not the committed one (a wrong key) | the commitment check, at its line |
| a setup pass with a substituted point | the pass's proof, at its line |
| a pass replayed from another game | the proof's context (the game id), at its line |
| a face-down play claiming another number | the claim's OR proof, at its line |
| a face-down card that is not in the re-keyed hand | the slot check, at its line |
| a reshuffle step that drops or changes a card | the step's proofs, at its line |
| a key withheld, a key nobody awaits, a window key for a drawn position or beyond K | the line's checks |
| a pass not made from the secret published at the end | the audit (the secret replays every pass) |
| a re-mask withheld, or with a point that is not the card locked again | the re-mask's checks and proof, at its line |
| an unmask that takes off more than its writer's lock | the unmask's proof, at its line |
| a reshuffle step's `ahead` key that is wrong, that nobody awaits, or on a line with no step | the line's checks |
| a reveal's early key that is wrong or for a deck position, a window position given twice | the reveal's checks, at the reveal |
| format 4 (R42): a tagged first pass, a card conjured at a hand re-keying, a ±D reshuffle step (the sum kept; the proof kept or made again) | the binding shuffle proof, at its line, naming its writer |
"""

from __future__ import annotations

import msgspec
import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import standard_components
from agility_cli.engine.moves import Claim, Discard, Play, PutBack
from agility_cli.engine.setup import random_board
from agility_cli.engine.state import State, is_position
from agility_cli.record.sealed import crypto as sc
from agility_cli.record.sealed.crypto import SealError
from sealing import Line, Played, play, read, replay, start

CARDS = {c.id for c in standard_components().cards}


@pytest.fixture(scope="module")
def games() -> list[Played]:
    """Sealed games on four boards and both rules versions, greedy and random players."""
    out = []
    for seed, strategy, version, board in [
        (1, "greedy", 2, None), (2, "random", 2, None), (3, "greedy", 2, random_board(3, "a")),
        (4, "random", 2, random_board(4, "b")), (5, "greedy", 1, None), (6, "random", 1, random_board(6, "a")),
        (7, "random", 2, random_board(7, "b")),  # an Intimidation discard (R22)
    ]:
        out.append(play(seed, strategy, rules_version=version, board=board))
    return out


def test_sealed_games_play_to_the_end_and_every_rare_event_happens(games: list[Played]) -> None:
    """R42–R44: every game ends with a winner and both seal secrets published; over the games
    there are face-down decisions with re-keyed hands (R18, R22, R31), proven face-down plays,
    reshuffles (R13, four steps each) and keys lines written without a decision (R44)."""
    total: dict[str, int] = {}
    for g in games:
        assert g.final.winner is not None
        assert g.public.audit_pending(g.final) == []
        for k, v in g.counts.items():
            total[k] = total.get(k, 0) + v
    assert total["face down"] > 0 and total["claims"] > 0
    assert total["reshuffle steps"] >= 8  # at least two reshuffles, of four steps each
    assert total["keys lines"] > len(games)
    kinds = {type(line.move).__name__ for g in games for line in g.lines if line.move is not None}
    assert {"PutBack", "Discard"} <= kinds and kinds & {"BoostAction", "BoostCube"}  # Break, Intimidation, Boost


def test_a_wipe_happens_in_a_sealed_game_and_waits_for_its_cards(games: list[Played]) -> None:
    """R13/R43: three display cards numbered 7 or more are discarded once they are open."""

    wipes = 0
    for g in games:
        for _, before, _, state in read(g, {}):
            shown = [c for c in before.display if not is_position(c)]
            high = [c for c in state.discard[len(before.discard):] if not is_position(c) and state.cat.cards[c].number >= 7]
            wipes += len(high) >= 3 and len(set(high) & set(shown)) >= 2
    assert wipes >= 1


def test_the_audit_replays_every_pass_and_recovers_the_deal(games: list[Played]) -> None:
    """R42: with both secrets every pass is the one its writer's secret makes, and the setup deck
    opens to the component set's 39 cards, each once (and the dog deck to its 15 dogs)."""
    for g in games[:3]:
        sealed, state = replay(g, g.secrets)
        a, b = sealed.deck.mine[0], sealed.deck.mine[1]
        deal = {q: a.cards.get(q) or b.cards.get(q) for q in sealed.deck.pos if q.startswith("#") and int(q[1:]) < 39}
        truth = {}
        for q in deal:
            p = sealed.deck.pos[q]
            keys = [a.keys[q], b.keys[q]]
            truth[q] = sealed.deck.tables["cards"][sc.unlock(p.ct, *keys)]
        assert sorted(truth.values()) == sorted(CARDS)
        dogs = {sealed.deck.tables["dogs"][sc.unlock(sealed.deck.pos[f"@{i}"].ct, a.keys[f"@{i}"], b.keys[f"@{i}"])] for i in range(15)}
        assert len(dogs) == 15


def test_a_modified_client_reads_nothing_of_the_opponents_hand_and_at_most_k_deck_cards() -> None:
    """R42's one leak: at every line, the positions alice's secret could read (bob's key published)
    are her own cards, public ones, and at most K deck positions — never a card in bob's hand, never
    one bob put face down; and no deck position ever has both keys published."""
    g = play(7, "random", window=2)
    sealed = start(g.header, {})
    from agility_cli.record.sealed import game as sg
    state = rules.setup(g.header, standard_components())
    for seat, name, seal in g.setup:
        sg.read_setup(sealed, seat, name, seal, state)
    for line in g.lines:
        sg.check(sealed, state, line.author, line.n, line.move, line.seal)
        if state.winner is not None:
            break
        deck = sealed.deck
        for viewer in (0, 1):
            assert len(deck.window_of(viewer, state.deck)) <= 2
            for q in state.players[1 - viewer].hand:
                if is_position(q):
                    assert deck.pos[q].keys[1 - viewer] is None, (line.n, q)
        for q in state.deck:
            p = deck.pos.get(q)
            assert p is None or not p.public, (line.n, q)
        for q in state.discard:
            if is_position(q):
                assert not deck.pos[q].public


def _tampered(g: Played, index: int, **changes: object) -> list[Line]:
    lines = list(g.lines)
    line = lines[index]
    lines[index] = Line(line.author, line.n, changes.pop("move", line.move), msgspec.structs.replace(line.seal, **changes))
    return lines


def _first(g: Played, test) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, line in enumerate(g.lines) if test(line))


def test_a_wrong_key_is_caught_at_its_line(games: list[Played]) -> None:
    g = games[0]
    i = _first(g, lambda line: len(line.seal.open) >= 2)
    opened = list(g.lines[i].seal.open)
    opened[0] = (opened[0][0], opened[1][1])  # another position's key
    with pytest.raises(SealError, match="not the key committed"):
        replay(g, {}, _tampered(g, i, open=opened)[: i + 1])


def test_a_withheld_key_and_a_key_nobody_awaits_are_caught(games: list[Played]) -> None:
    g = games[0]
    i = _first(g, lambda line: len(line.seal.open) >= 1)
    with pytest.raises(SealError, match="withholds"):
        replay(g, {}, _tampered(g, i, open=list(g.lines[i].seal.open[1:]))[: i + 1])
    j = _first(g, lambda line: len(line.seal.window) >= 1)
    moved = [(g.lines[j].seal.window[0][0], g.lines[j].seal.window[0][1])]
    with pytest.raises(SealError, match="nobody awaits"):
        replay(g, {}, _tampered(g, j, open=list(g.lines[j].seal.open) + moved)[: j + 1])


def test_a_window_key_for_a_drawn_position_is_refused(games: list[Played]) -> None:
    g = games[0]
    j = _first(g, lambda line: line.n > 20 and len(line.seal.window) >= 1)
    drawn = next(q for q, _ in g.lines[0].seal.open)  # a dealt card: not in the deck any more
    window = [(drawn, g.lines[j].seal.window[0][1])]
    with pytest.raises(SealError, match="not a free deck position"):
        replay(g, {}, _tampered(g, j, window=window)[: j + 1])


def test_a_face_down_claim_of_another_number_is_caught(games: list[Played]) -> None:
    g = next(g for g in games if any(line.seal.claim for line in g.lines))
    i = _first(g, lambda line: line.seal.claim is not None)
    claim = g.lines[i].seal.claim
    assert claim is not None
    other = next(c for c in standard_components().cards if c.number != claim.number)
    lie = Claim(slot=claim.slot, number=other.number, rewards=other.rewards, proof=claim.proof)
    with pytest.raises(SealError, match="does not check"):
        replay(g, {}, _tampered(g, i, claim=lie)[: i + 1])


def test_a_face_down_card_not_in_the_hand_is_caught(games: list[Played]) -> None:
    g = next(g for g in games if any(isinstance(line.move, (PutBack, Discard)) for line in g.lines))
    i = _first(g, lambda line: isinstance(line.move, (PutBack, Discard)))
    move = g.lines[i].move
    assert isinstance(move, (PutBack, Discard))
    fake = type(move)(player=move.player, card="#9999")
    with pytest.raises(SealError, match="not a slot of the re-keyed hand"):
        replay(g, {}, _tampered(g, i, move=fake)[: i + 1])


def test_a_reshuffle_step_that_changes_a_card_is_caught(games: list[Played]) -> None:
    g = next(g for g in games if any(line.seal.reshuffle for line in g.lines))
    i = _first(g, lambda line: line.seal.reshuffle is not None and line.seal.reshuffle.mix is not None)
    step = g.lines[i].seal.reshuffle
    assert step is not None and step.mix is not None
    points = sc.unpack(step.mix.points, 32, "points")
    points[0] = sc.card_point("ab" * 32, "cards", "t01")
    bad = msgspec.structs.replace(step, mix=msgspec.structs.replace(step.mix, points=sc.pack(points)))
    with pytest.raises(SealError, match="does not check"):
        replay(g, {}, _tampered(g, i, reshuffle=bad)[: i + 1])


def _ahead(games: list[Played]) -> tuple[Played, int]:
    g = next(g for g in games if any(line.seal.ahead for line in g.lines))
    return g, _first(g, lambda line: bool(line.seal.ahead))


def test_R44_a_reshuffle_step_gives_the_keys_it_makes_owed_so_no_line_waits_for_them(games: list[Played]) -> None:
    """Section 7: a re-key step's writer gives at once, in ``ahead``, its keys for the new deck's
    cards already needed; the line is a reshuffle step, and after it none of its writer's keys is
    owed (the next line of the other seat is not kept waiting for them)."""
    g, i = _ahead(games)
    line = g.lines[i]
    assert line.seal.reshuffle is not None and line.seal.reshuffle.rekey is not None
    public, state = replay(g, {}, g.lines[: i + 1])
    assert not [q for q, seat in public.needed(state) if seat == line.author]
    assert {q for q, _ in line.seal.ahead} <= {q for p in (state.display, state.players[1 - line.author].hand) for q in p}


def test_a_wrong_or_unawaited_ahead_key_is_caught_and_a_missing_one_is_owed_next(games: list[Played]) -> None:
    g, i = _ahead(games)
    ahead = list(g.lines[i].seal.ahead)
    q, key = ahead[0]
    with pytest.raises(SealError, match="not the key committed"):
        replay(g, {}, _tampered(g, i, ahead=[(q, sc.pack_bytes(sc.ONE))] + ahead[1:])[: i + 1])
    with pytest.raises(SealError, match="nobody awaits"):
        replay(g, {}, _tampered(g, i, ahead=ahead + [("#0", key)])[: i + 1])
    j = _first(g, lambda line: line.seal.reshuffle is None and line.move is not None)
    with pytest.raises(SealError, match="not .* to write"):
        replay(g, {}, _tampered(g, j, ahead=[(q, key)])[: j + 1])
    # left out (as a file written before ``ahead`` existed): still owed, so the writer's next line must give it
    public, state = replay(g, {}, _tampered(g, i, ahead=[])[: i + 1])
    assert (q, g.lines[i].author) in public.needed(state)


def test_R44_the_reveal_gives_the_first_cards_keys_so_whoever_starts_decides_at_once(games: list[Played]) -> None:
    """Section 4: the creator's re-key pass (deal-3) carries its keys for the cards shown and the
    joiner's hand, and the joiner's first window; after the joiner's pass (line 3) nobody waits."""
    for g in games:
        seat, name, seal = g.setup[1]
        assert name == "deal-3" and seal.ahead and len(seal.window) == 2
        first = g.lines[1]  # the line after the joiner's deal-4 keys line is a decision of the start player
        assert g.lines[0].author == 1 and g.lines[0].move is None
        assert first.move is not None, f"line {first.n} is not a decision: the start waited for keys"
    assert {g.lines[1].author for g in games} == {0, 1}, "both start players are tried"


def test_a_reveal_with_a_wrong_key_or_position_is_caught_at_the_reveal(games: list[Played]) -> None:
    """Section 4: the reveal's keys given ahead are checked at the reveal itself, against its re-key
    pass's commitments and against the positions the game's first state shows or deals."""
    from agility_cli.record.sealed import game as sg
    g = games[0]
    seat, name, seal = g.setup[1]
    state = rules.setup(g.header, standard_components())

    def read(changed: object) -> None:
        sealed = start(g.header, {})
        sg.read_setup(sealed, *g.setup[0][:2], g.setup[0][2], state)
        sg.read_setup(sealed, seat, name, changed, state)  # type: ignore[arg-type]

    read(seal)
    q, key = seal.ahead[0]
    with pytest.raises(SealError, match="not the key committed"):
        read(msgspec.structs.replace(seal, ahead=[(q, sc.pack_bytes(sc.ONE))] + seal.ahead[1:]))
    with pytest.raises(SealError, match="ahead keys are for"):  # a key for a deck position: the deck order leaks
        read(msgspec.structs.replace(seal, ahead=seal.ahead[1:] + [(seal.window[0][0], seal.window[0][1])]))
    with pytest.raises(SealError, match="window keys are for"):
        read(msgspec.structs.replace(seal, window=[seal.window[0]] * 2))
    with pytest.raises(SealError, match="before the game's state is known"):
        sealed = start(g.header, {})
        sg.read_setup(sealed, *g.setup[0])
        sg.read_setup(sealed, seat, name, seal)


def test_a_pass_with_a_substituted_point_or_from_another_game_is_caught(games: list[Played]) -> None:
    g = games[0]
    seat, name, seal = g.setup[0]
    text = seal.shuffle["cards"]
    points = sc.unpack(text.points, 32, "points")
    points[3] = sc.card_point("ab" * 32, "cards", "t01")
    forged = msgspec.structs.replace(seal, shuffle={**seal.shuffle, "cards": msgspec.structs.replace(text, points=sc.pack(points))})
    from agility_cli.record.sealed import game as sg
    sealed = start(g.header, {})
    with pytest.raises(SealError, match="proof does not check"):
        sg.read_setup(sealed, seat, name, forged)
    with pytest.raises(SealError, match="proof does not check"):  # the header's passes, in another game
        sg.start(g.header, standard_components(), "cd" * 32, "alice", {})


def test_the_audit_catches_a_pass_not_made_from_the_published_secret(games: list[Played]) -> None:
    """R42: a player whose passes were not made from the secret it publishes fails the audit."""
    g = games[0]
    wrong = {"alice": g.secrets["alice"], "bob": bytes(32)}
    with pytest.raises(SealError, match="seal secret makes"):
        replay(g, wrong)


@pytest.fixture(scope="module")
def remasked() -> Played:
    """A game in which alice must draw the last deck card, which was in bob's window (R42, section 8),
    and later plays it face up: bob's machine opens it with her key alone (its own lock is 1)."""
    g = play(77, "random", window=3, file_format=3)  # a re-mask is rare (1 game in 32): format 3's game 77 has one
    assert g.counts["re-masks"] >= 1
    return g


def test_R42_a_remasked_card_played_face_up_opens_on_every_machine(remasked: Played) -> None:
    """The re-masked position is played face up later in the game; every machine (the holder's,
    the other seat's, a verifier) read it then — the other seat's tool had kept its old lock on it,
    and opened it to no card of the set, before its lock was dropped with the unmask."""
    i = _first(remasked, lambda line: bool(line.seal.remask))
    q = remasked.lines[i].seal.remask[0][0]
    later = [line for line in remasked.lines[i + 2:] if any(p == q for p, _ in line.seal.open)]
    assert later, "the re-masked card is opened again later in this game"
    assert remasked.public.deck.pos[q].public and remasked.public.deck.pos[q].card is not None


def test_R42_a_card_drawn_from_the_opponents_window_is_remasked_not_opened(remasked: Played) -> None:
    """Alice's draw of a position bob's window could read: her line re-masks it, bob's next line
    unmasks it; no key of bob's for it is ever published, the public never reads it, and bob's own
    (honest) tool never shows it, though his secret once could read it."""
    from agility_cli.record.sealed import game as sg
    from agility_cli.record.sealed.seal import personal
    g = remasked
    i = _first(g, lambda line: bool(line.seal.remask))
    q = g.lines[i].seal.remask[0][0]
    assert g.lines[i + 1].seal.unmask and g.lines[i + 1].seal.unmask[0][0] == q
    assert g.lines[i + 1].author == 1 - g.lines[i].author
    holder = g.lines[i].author
    bob = start(g.header, {g.header.players[1 - holder]: g.secrets[g.header.players[1 - holder]]})
    public = start(g.header, {})
    state, pstate = rules.setup(g.header, standard_components()), rules.setup(g.header, standard_components())
    for seat, name, seal in g.setup:
        sg.read_setup(bob, seat, name, seal, state)
        sg.read_setup(public, seat, name, seal, pstate)
    for line in g.lines[: i + 2]:
        sg.check(bob, state, line.author, line.n, line.move, line.seal)
        sg.check(public, pstate, line.author, line.n, line.move, line.seal)
    assert q in state.players[holder].hand
    assert public.deck.pos[q].keys[1 - holder] is not None and public.deck.pos[q].keys[holder] is None  # locked by her alone
    assert q in personal(state, bob.deck.mine[1 - holder]).players[holder].hand  # bob's screen: still hidden
    assert not public.deck.pos[q].public


def test_R42_a_withheld_or_false_remask_is_caught(remasked: Played) -> None:
    g = remasked
    i = _first(g, lambda line: bool(line.seal.remask))
    with pytest.raises(SealError, match="re-masks no position"):
        replay(g, {}, _tampered(g, i, remask=[])[: i + 1])
    q, text = g.lines[i].seal.remask[0]
    raw = bytearray(sc.unpack(text, 128, "x", 1)[0])
    raw[:32] = sc.mul(sc.hash_scalar(b"another"), bytes(raw[:32]))  # the point locked once more
    with pytest.raises(SealError, match="does not prove"):
        replay(g, {}, _tampered(g, i, remask=[(q, sc.pack_bytes(bytes(raw)))])[: i + 1])


def test_R42_an_unmask_that_takes_off_more_than_its_lock_is_caught(remasked: Played) -> None:
    g = remasked
    j = _first(g, lambda line: bool(line.seal.unmask))
    q, text = g.lines[j].seal.unmask[0]
    raw = bytearray(sc.unpack(text, 96, "x", 1)[0])
    raw[:32] = sc.mul(sc.hash_scalar(b"another"), bytes(raw[:32]))
    with pytest.raises(SealError, match="does not prove"):
        replay(g, {}, _tampered(g, j, unmask=[(q, sc.pack_bytes(bytes(raw)))])[: j + 1])
    with pytest.raises(SealError, match="unmasks no position"):
        replay(g, {}, _tampered(g, j, unmask=[])[: j + 1])


def test_R42_every_decision_of_a_sealed_game_is_told_from_each_view(games: list[Played]) -> None:
    """Each decision is told (narrated) from either seat's view of the state before its line, with
    the public deck: Boost's options, face-down plays and face-up plays of hand positions alike."""
    from agility_cli.engine.view import move_view, seat_view
    from agility_cli.table import narrate

    told = 0
    for g in games:
        for line, before, _, state in read(g, {}):
            if line.move is None:
                continue
            shown = before
            for seat in (0, 1):
                assert narrate.describe(seat_view(shown, seat), move_view(shown, line.move, seat), seat_view(state, seat))
            told += type(line.move).__name__.startswith("Boost")
    assert told >= 2


def test_R31_a_mini_turn_with_an_empty_hand_plays_the_top_card_its_window_reads() -> None:
    """R31 in a sealed game: with an empty hand a mini-turn plays the deck's top card face down; when
    that position is in the player's window its tool reads it, offers it by its slot, and the line
    proves its number and reward (the benchmark's game 77 of seed 1 has such a play)."""
    from agility_cli.players import sealedplay

    blind: list[int] = []

    def decide(view: State, author: int, n: int) -> None:
        if view.in_mini and view.phase == "play" and not view.players[author].hand:
            plays = [m for m in rules.legal_moves(view) if isinstance(m, Play)]
            assert plays and all(m.card == view.deck[0] for m in plays)
            blind.append(n)

    header, game, secrets = sealedplay.seeded_game(1, 2, index=77, file_format=3)  # the rare play is format 3's game 77
    g = sealedplay.play(header, standard_components(), game, secrets, "greedy", header.seed or 0, on_decide=decide)
    assert g.final.winner is not None and blind
    line = next(line for line in g.lines if line.n == blind[0])
    assert line.seal.claim is not None and line.seal.claim.slot == line.move.card  # type: ignore[union-attr]


def _fill(state: State, cards: dict[str, str]) -> State:
    """``state`` with every sealed position replaced by the card the audit recovered: a fair game's state."""
    s = state.copy()

    def real(c: str) -> str:
        return cards.get(c, c) if is_position(c) else c

    for name in ("deck", "discard", "display", "dog_deck", "dog_display"):
        setattr(s, name, [real(c) for c in getattr(s, name)])
    for p in s.players:
        p.hand = [real(c) for c in p.hand]
    s.known = [[real(c) for c in k] for k in s.known]
    s.unseen = [[real(c) for c in u] for u in s.unseen]
    s.boost_card = None if s.boost_card is None else real(s.boost_card)
    s.card = None if s.card is None else real(s.card)
    s.sealing = None
    return s


def _compared(s: State, piles: bool) -> tuple[object, ...]:
    """What the two games must agree on: everything but the PRNG, the decks' order (a sealed
    reshuffle is the players' joint one) and the hands' order (re-keyed hands are re-ordered)."""
    players = [(p.name, p.cubes, p.flex, p.exchange, sorted(p.hand), p.dogs, p.turns, p.must_discard) for p in s.players]
    rest = (s.marker, s.inspiration, s.courses, s.active, s.turn, s.phase, s.winner, s.finisher, s.final_turn,
            s.tiebreak, s.prizes, s.reward, s.sweep, s.in_mini, s.minis, s.adopted, s.moved, s.paid, s.pending,
            s.put_back, s.boost_card, s.card)
    shown = (s.display, s.discard, sorted(s.deck), s.dog_display, sorted(s.dog_deck)) if piles else ()
    return (players, rest, shown)


def test_R42_the_sealed_game_is_the_engines_game_on_the_deck_the_audit_recovered(games: list[Played]) -> None:
    """Every decision of a sealed game, replayed by the engine as a fair game on the cards the audit
    recovered (each position opened with both published secrets), is legal there and leads to the
    same state — but for the timing of R43 (a card turned up after the last decision of a turn is
    opened, and a wipe made, when the opponent next writes) and a reshuffle's order; the winner is
    the same."""

    for g in games:
        cards: dict[str, str] = {}
        steps = []
        for line, before, sealed, state in read(g, g.secrets):  # the audit: both secrets
            for q, p in sealed.deck.pos.items():
                k = [p.keys[s] if p.keys[s] is not None else sealed.deck.mine[s].keys.get(q) for s in (0, 1)]
                if q not in cards and p.ct is not None and k[0] is not None and k[1] is not None:
                    cards[q] = sealed.deck.tables[sealed.deck.pile_of(q)][sc.unlock(p.ct, k[0], k[1])]
            seen = set(before.deck + before.display + before.discard + before.players[0].hand + before.players[1].hand)
            reshuffled = any(q not in seen for q in state.deck + state.display)  # fresh positions: a new deck (R13)
            if line.move is not None:  # a card turned up but not yet opened at this line (R43): read now, not at the end
                waiting = any(is_position(c) and not sealed.deck.pos[c].public for c in state.display + state.dog_display)
                steps.append((before, line.move, state.copy(), reshuffled, waiting))
        compared = 0
        for before, move, after, reshuffled, waiting in steps:
            fair = _fill(before, cards)
            real = getattr(move, "card", None)
            mapped = msgspec.structs.replace(move, card=cards[real]) if real is not None and is_position(real) else move
            got = rules.apply(fair, mapped)  # legal in the fair game, or this raises
            piles = not (waiting or reshuffled or any(is_position(c) for c in before.display + before.dog_display))
            assert _compared(got, piles) == _compared(_fill(after, cards), piles), (g.header.seed, move)
            compared += piles
        assert got.winner == g.final.winner is not None
        # the piles are compared wherever nothing waits: a turn's last take leaves its refill to the
        # opponent's next line (R43), so that is a little under half the decisions
        assert compared > len(steps) // 3


def test_R42_the_search_plays_a_sealed_game_from_each_seats_view() -> None:
    """``strong1`` (what ``hint`` and ``analyse`` run) decides every decision of a sealed game from
    the seat's view; its samples of the hidden cards play on as fair games, reshuffles included."""
    from agility_cli.players import sealedplay

    header, game, secrets = sealedplay.seeded_game(2, 2, index=1)
    g = sealedplay.play(header, standard_components(), game, secrets, "strong1", header.seed or 0)
    assert g.final.winner is not None and g.counts["reshuffle steps"] >= 4


# ----------------------------------------------------------------------------------------------
# R42, format 4: the three attacks of issue 30 by a modified client that edits its own pass (and
# re-signs its line: the library reads the line's seal as every verifier does), each refused at its
# line, naming its writer — on a spectator's reading and on the honest opponent's machine.


NAMES = ("alice", "bob")


def _d() -> bytes:
    return sc.hash_point(b"issue 30: a point of the cheater's choosing")


def _forged_shuffle(text, ctx: bytes, inputs: list[bytes], change, witness):  # type: ignore[no-untyped-def]
    """A shuffle pass's text with its outputs changed by ``change`` (the sum kept), and its proof
    either kept (``witness`` None) or made again over the changed outputs by a modified client's
    prover from the key and permutation it holds."""
    from agility_cli.record.sealed import shuffle as sh

    outputs = sc.unpack(text.points, 32, "points")
    bad = change(list(outputs))
    assert sc.point_sum(bad) == sc.point_sum(outputs) and bad != outputs  # the format-3 sum proof would hold
    proof = sc.unpack(text.proof, sh.proof_bytes(len(outputs)), "proof", 1)[0]
    assert sh.verify_shuffle(ctx, inputs, sc.unpack(text.key, 32, "key", 1)[0], outputs, proof)  # the honest pass
    if witness is not None:
        k, perm = witness
        assert sc.mul_base(k) == sc.unpack(text.key, 32, "key", 1)[0] and outputs == [sc.mul(k, inputs[j]) for j in perm]
        proof = sh._prove(ctx, inputs, bad, k, perm, sc.SeededSource(1, statement_nonces=True))
    return msgspec.structs.replace(text, points=sc.pack(bad), proof=sc.pack_bytes(proof))


def test_R42_format_4_a_tagged_first_pass_is_refused_naming_its_creator(games: list[Played]) -> None:
    """Issue 30's first attack: the creator replaces first-pass outputs by tags (combinations of
    other outputs that keep the sum, so it can follow those cards into the deck and bob's hand) and
    proves the pass again with its key and permutation; the header is refused, naming alice."""
    from agility_cli.record.sealed import game as sg
    from agility_cli.record.sealed.deck import DerivedSource, context

    g = games[0]
    assert g.header.format == 4
    text = g.header.sealed.shuffle["cards"]  # type: ignore[union-attr]
    src = DerivedSource(g.secrets["alice"], b"cards/deal-1", statement_nonces=True)
    k, perm = src.scalar(), src.permutation(39)
    inputs = [sc.card_point("ab" * 32, "cards", c.id) for c in standard_components().cards]

    def tag(out: list[bytes]) -> list[bytes]:
        t = sc.sub(sc.add(out[5], out[6]), out[7])
        out[0], out[1] = t, sc.sub(out[1], sc.sub(t, out[0]))
        return out

    for witness in (None, (k, perm)):
        forged = _forged_shuffle(text, context("ab" * 32, "cards", "deal-1"), inputs, tag, witness)
        header = msgspec.structs.replace(g.header, sealed=msgspec.structs.replace(
            g.header.sealed, shuffle={**g.header.sealed.shuffle, "cards": forged}))  # type: ignore[union-attr]
        for held in ({}, {"bob": g.secrets["bob"]}):
            with pytest.raises(SealError, match="written by alice: its proof does not check"):
                sg.start(header, standard_components(), "ab" * 32, "alice", held)
    start(g.header, {})  # the honest header reads


def _attack_line(g: Played, i: int, kind: str, change, witness_of) -> None:  # type: ignore[no-untyped-def]
    """Line ``i``'s pass of ``kind`` (``hand`` or ``reshuffle``) with its shuffle's outputs changed, its
    proof kept and made again; refused at that line, naming its writer, by a spectator and by the
    opponent's machine; the lines before it read."""
    line = g.lines[i]
    passes = getattr(line.seal, kind)
    writer = NAMES[line.author]
    other = NAMES[1 - line.author]
    before, _ = replay(g, {}, g.lines[:i])
    inputs, ctx, witness = witness_of(before, line, passes)
    for w in (None, witness):
        forged = msgspec.structs.replace(passes, shuffle=_forged_shuffle(passes.shuffle, ctx, inputs, change, w))
        lines = _tampered(g, i, **{kind: forged})[: i + 1]
        for held in ({}, {other: g.secrets[other]}):
            with pytest.raises(SealError, match=f"written by {writer}: its proof does not check"):
                replay(g, held, lines)
    replay(g, {}, g.lines[: i + 1])  # the honest line reads


def test_R42_format_4_a_card_conjured_at_a_hand_rekeying_is_refused_naming_its_writer(games: list[Played]) -> None:
    """Issue 30's second attack: at a face-down decision (Break's put-back, a discard, a mini-turn's
    play) the holder's hand re-keying swaps a card for a chosen point and puts a non-card back,
    the sum kept, and proves the shuffle again; refused at its line, naming the holder."""
    from agility_cli.record.sealed.deck import DerivedSource, context

    g = next(g for g in games if any(line.seal.hand for line in g.lines))
    i = _first(g, lambda line: line.seal.hand is not None and len(sc.unpack(line.seal.hand.mix.points, 32, "p")) >= 2)

    def witness_of(before, line, passes):  # type: ignore[no-untyped-def]
        inputs = sc.unpack(passes.mix.points, 32, "mix points")
        src = DerivedSource(g.secrets[NAMES[line.author]], f"hand/{line.n}".encode(), statement_nonces=True)
        src.scalar()  # u, the normalising key
        k, perm = src.scalar(), src.permutation(len(inputs))
        return inputs, context("ab" * 32, "cards", f"hand-{line.n}") + b"shuffle", (k, perm)

    chosen = sc.card_point("ab" * 32, "cards", "t01")

    def conjure(out: list[bytes]) -> list[bytes]:
        out[0], out[1] = chosen, sc.add(out[1], sc.sub(out[0], chosen))
        return out

    _attack_line(g, i, "hand", conjure, witness_of)


def test_R42_format_4_a_plus_minus_d_reshuffle_step_is_refused_naming_its_writer(games: list[Played]) -> None:
    """Issue 30's third attack: a reshuffle step whose shuffle drops a card and adds a non-card (two
    outputs moved by +D and −D: the sum kept), its proof kept or made again; refused at its line,
    naming its writer (in format 3 it was accepted, and an honest line was blamed 61 lines later)."""
    from agility_cli.record.sealed.deck import DerivedSource, context

    g = next(g for g in games if any(line.seal.reshuffle and line.seal.reshuffle.shuffle for line in g.lines))
    i = _first(g, lambda line: line.seal.reshuffle is not None and line.seal.reshuffle.shuffle is not None
               and line.seal.reshuffle.mix is None)  # step 3: X shuffles and re-keys

    def witness_of(before, line, passes):  # type: ignore[no-untyped-def]
        r = before.reshuffles[0]
        assert r.step == 2
        src = DerivedSource(g.secrets[NAMES[line.author]], f"reshuffle/{r.positions[0]}/2".encode(), statement_nonces=True)
        k, perm = src.scalar(), src.permutation(len(r.points))
        return list(r.points), context("ab" * 32, "cards", f"reshuffle-{r.positions[0]}-2") + b"shuffle", (k, perm)

    def plus_minus(out: list[bytes]) -> list[bytes]:
        out[0], out[-1] = sc.add(out[0], _d()), sc.sub(out[-1], _d())
        return out

    _attack_line(g, i, "reshuffle", plus_minus, witness_of)


def test_R42_a_format_3_game_still_plays_with_sum_proofs_and_its_audit_passes() -> None:
    """A format-3 game (what files made before format 4 hold) plays to the end with its old passes:
    64-byte sum proofs, nonces drawn as before, and its audit recomputes every pass."""
    g = play(1, "greedy", file_format=3)
    assert g.header.format == 3 and g.final.winner is not None
    assert len(sc.unpack(g.header.sealed.shuffle["cards"].proof, 64, "proof", 1)) == 1  # type: ignore[union-attr]
    replay(g, g.secrets)


def test_R42_format_4_a_tagged_header_made_by_a_modified_creator_is_refused_by_the_joiner(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The first attack through the command line, against the public line format: ``new`` writes
    format 4; the creator's modified client tags its header's first pass, proves it again with the
    key and permutation its seal secret makes, and signs the header again with its own key; bob's
    ``apply`` and a spectator's ``replay`` refuse it at line 1, naming alice, and bob's file is not
    written."""
    from typer.testing import CliRunner

    from agility_cli.cli import app
    from agility_cli.engine.moves import Header
    from agility_cli.record import keys
    from agility_cli.record.lines import encode_line
    from agility_cli.record.sealed.deck import DerivedSource, context

    runner = CliRunner()
    alice_home, bob_home = tmp_path / "alice-home", tmp_path / "bob-home"
    path, bob_path = tmp_path / "game.jsonl", tmp_path / "bob.jsonl"
    made = runner.invoke(app, ["new", str(path), "--players", "alice", "bob"], env={"AGILITY_HOME": str(alice_home)})
    assert made.exit_code == 0, made.output
    raw = path.read_bytes().split(b"\n")[0]
    header = msgspec.json.decode(raw, type=Header)
    assert header.format == 4
    gid = keys.game_id(raw)
    monkeypatch.setenv("AGILITY_HOME", str(alice_home))
    secret, signing = keys.seal_secret(gid, "alice"), keys.signing_key(gid, "alice")
    assert secret is not None and signing is not None
    cards = [c.id for c in standard_components().cards]
    src = DerivedSource(secret, b"cards/deal-1", statement_nonces=True)
    k, perm = src.scalar(), src.permutation(len(cards))

    def tag(out: list[bytes]) -> list[bytes]:
        t = sc.sub(sc.add(out[5], out[6]), out[7])
        out[0], out[1] = t, sc.sub(out[1], sc.sub(t, out[0]))
        return out

    inputs = [sc.card_point(gid, "cards", c) for c in cards]
    forged = _forged_shuffle(header.sealed.shuffle["cards"], context(gid, "cards", "deal-1"), inputs, tag, (k, perm))  # type: ignore[union-attr]
    changed = msgspec.structs.replace(header, sig=msgspec.UNSET, sealed=msgspec.structs.replace(
        header.sealed, shuffle={**header.sealed.shuffle, "cards": forged}))  # type: ignore[union-attr]
    assert keys.game_id(encode_line(changed)) == gid  # the same game: the id leaves the passes out
    path.write_bytes(keys.with_signature(encode_line(changed), signing) + b"\n")
    monkeypatch.delenv("AGILITY_HOME")
    got = runner.invoke(app, ["apply", str(bob_path), "-"], input=path.read_text(), env={"AGILITY_HOME": str(bob_home)})
    assert got.exit_code != 0 and "line 1" in got.stderr and "alice" in got.stderr, got.output
    assert "written by alice: its proof does not check" in got.stderr
    assert not bob_path.exists() or not bob_path.read_bytes()
    seen = runner.invoke(app, ["replay", str(path)], env={"AGILITY_HOME": str(tmp_path / "spectator")})
    assert seen.exit_code != 0 and "line 1" in seen.stderr and "written by alice: its proof does not check" in seen.stderr


def test_R42_format_4_a_window_release_must_be_the_first_free_positions_of_the_draw_order(games: list[Played]) -> None:
    """DECISIONS' window rule (R42): a line releases the first free positions of the opponent's draw
    order that bring its window back to K.  A release of a later free position (its writer's true
    key: it would let a writer who planted the deck choose the cards the opponent draws), or of one
    position too few, is refused at its line, naming its writer."""
    g = games[0]
    i = _first(g, lambda line: line.n > 10 and len(line.seal.window) == 1)
    line = g.lines[i]
    writer = NAMES[line.author]
    mine, state = replay(g, {writer: g.secrets[writer]}, g.lines[: i + 1])
    later = max(mine.deck.free(state.deck), key=lambda q: int(q[1:]))
    released = line.seal.window[0][0]
    assert int(later[1:]) > int(released[1:])
    key = sc.pack_bytes(mine.deck.mine[line.author].keys[later])
    for window in ([(later, key)], []):
        with pytest.raises(SealError, match=f"{writer}'s window release is for .* not for the first free positions"):
            replay(g, {}, _tampered(g, i, window=window)[: i + 1])
    replay(g, {}, g.lines[: i + 1])
