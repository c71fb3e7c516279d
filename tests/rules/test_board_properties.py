"""Invariants of the engine over random positions, and a check against a naive second engine."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import CHECKERS, Position, legal_plays
from rules.notation import format_play, parse_play, position_from_id, position_id

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal board: each side drops up to 15 checkers on points the other has left free."""
    player, opponent = [0] * 25, [0] * 25
    home_only = draw(st.booleans())
    for side, other in ((player, opponent), (opponent, player)):
        for _ in range(draw(st.integers(1, CHECKERS))):
            p = draw(st.integers(0, 5 if home_only else 24))
            if p == 24 or not other[23 - p]:
                side[p] += 1
    return Position(tuple(player), tuple(opponent))


def naive_results(pos: Position, roll: tuple[int, int]) -> set[Position]:
    """Every sequence of single moves, tried in every order; keep those using the most dice."""
    a, b = roll
    orders = [[a] * 4] if a == b else [[a, b], [b, a]]

    def single(p: Position, die: int) -> list[Position]:
        me, them = list(p.player), list(p.opponent)
        out = []
        sources = [25] if me[24] else [s for s in range(1, 25) if me[s - 1]]
        for s in sources:
            d = s - die
            if d >= 1:
                if them[24 - d] >= 2:
                    continue
                m2, t2 = me[:], them[:]
                m2[s - 1] -= 1
                m2[d - 1] += 1
                if t2[24 - d] == 1:
                    t2[24 - d] = 0
                    t2[24] += 1
                out.append(Position(tuple(m2), tuple(t2)))
            else:
                home = not any(me[6:25])
                highest = max(i + 1 for i in range(25) if me[i])
                if home and (d == 0 or s == highest):
                    m2 = me[:]
                    m2[s - 1] -= 1
                    out.append(Position(tuple(m2), p.opponent))
        return out

    finals: list[tuple[int, Position, int]] = []  # (dice used, position, first die)

    def walk(p: Position, left: list[int], used: int, first: int) -> None:
        nexts = single(p, left[0]) if left else []
        if not nexts:
            finals.append((used, p, first))
        for q in nexts:
            walk(q, left[1:], used + 1, first or left[0])

    for order in orders:
        walk(pos, order, 0, 0)
    most = max(used for used, _, _ in finals)
    if most == 0:
        return {pos}
    kept = [(p, first) for used, p, first in finals if used == most]
    if a != b and most == 1:  # one die only: the larger if it can be played
        return {p for p, first in kept if first == max(a, b)} or {p for p, _ in kept}
    return {p for p, _ in kept}


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_engine_agrees_with_the_naive_engine(pos: Position, roll: tuple[int, int]) -> None:
    assert {p.position for p in legal_plays(pos, roll)} == naive_results(pos, roll)


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_play_keeps_fifteen_checkers_and_drops_pips_by_the_dice_used(
    pos: Position, roll: tuple[int, int]
) -> None:
    before_me, before_them = pos.pips
    off_me, off_them = pos.off
    for play in legal_plays(pos, roll):
        after = play.position
        assert sum(after.player) + after.off[0] == CHECKERS
        assert sum(after.opponent) + after.off[1] == CHECKERS
        moved = sum(m.src - m.dst for m in play.moves)
        assert after.pips[0] == before_me - moved
        hits = sum(m.hit for m in play.moves)
        assert after.opponent[24] == pos.opponent[24] + hits
        # A hit sends a checker from his point (25 - dst for him) to his bar (25).
        assert after.pips[1] == before_them + sum(m.dst for m in play.moves if m.hit)
        assert after.off[1] == off_them and after.off[0] >= off_me
        # Each move uses one die (a bear-off may use a larger one).
        assert all(m.src - m.dst in roll or m.dst == 0 for m in play.moves)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_id_round_trips(pos: Position) -> None:
    assert position_from_id(position_id(pos)) == pos
    assert pos.swap().swap() == pos


@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_every_generated_play_is_found_legal_by_the_parser(
    pos: Position, roll: tuple[int, int]
) -> None:
    for play in legal_plays(pos, roll):
        assert parse_play(format_play(play), pos, roll).position == play.position
