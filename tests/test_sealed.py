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
    g = play(77, "random", window=3)
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

    header, game, secrets = sealedplay.seeded_game(1, 2, index=77)
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
