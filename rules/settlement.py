"""Settlements and penalties at a chouette table: cubes ended or changed by agreement or ruling.

`settle`: two players end the cube between them for an agreed number of points (Atlanta
4.4-4.5; a FIBS buy-out is the Box paying half a point). The command is the agreement: the
Discord layer asks the other player to confirm before it sends it. Zero points is a wash.
`penalty`: a ruling on a player who consulted out of turn (Atlanta 3.6: the Box takes his
cube at its starting value, or washes it; euro: the cube is frozen, takes only).
`extra`: a player who dropped the Box's double gives the taker a cube of his own (Atlanta 5.7,
Danish sell cube). `resign`, `accept`, `reject`: a resignation offered and answered per cube.
"""

from __future__ import annotations

from fractions import Fraction

from rules.board import GameKind
from rules.cite import citation
from rules.commands import (
    Accept,
    BadCommand,
    Buy,
    OfferSale,
    Payment,
    Penalty,
    Reject,
    Resign,
    ResignationAnswer,
    Sell,
    Settle,
    handles,
    sender,
)
from rules.cube import Cube, Side
from rules.errors import CubeNotAvailable, NotYourTurn, RuleError
from rules.events import (
    CubeTurned,
    Event,
    OddHalfRolled,
    PartnershipSettled,
    PointsPaid,
    ResignationAnswered,
    ResignationOffered,
    SaleOffered,
)
from rules.game import box_consults_fully, finish, in_game, no_pending
from rules.ledger import pay
from rules.messages import Phrase, Player, Players
from rules.proxies import captain_now
from rules.roles import cube_of, cubes_of
from rules.rolloff import next_roll, whole
from rules.seating import Seating
from rules.state import Game, TableState


@handles(Settle)
def _settle(state: TableState, cmd: Settle) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    other = cmd.with_
    points = _points(cmd.points)
    if {by, other} == {seating.box, seating.partner} and state.rules.partner_cubes == "shared":
        return _partners_settle(state, cmd, game, by, other, points)
    rule = state.rules.settlements
    if rule == "never":
        raise CubeNotAvailable(code="no_settlements")
    cube = next((c for c in game.cubes if c.live and not c.is_extra
                 and {c.player(Side.TEAM), c.box_player} == {by, other}), None)
    cube = cube or next((c for c in game.cubes if c.live and c.is_extra
                         and {c.team_player, c.box_player} == {by, other}), None)
    if cube is None:
        raise CubeNotAvailable(code="no_cube_between", other=Player(other))
    if cube.pending:
        raise NotYourTurn(code="settle_after_answer")
    if rule == "after_initial" and cube.owner is None:
        raise CubeNotAvailable(code="no_initial_settlement",
                               rule=citation(state, fibs="FIBS §2 ¶4"))
    by_side = cube.side_of(by)
    payer_side = by_side if points >= 0 else by_side.other
    points, rolled = whole(state, cmd, abs(points), by_pays=payer_side is by_side)
    action = (Phrase("turned_settle_rolled", rolled=rolled) if rolled
              else Phrase("turned_settle", points=points))
    settled, transfers = cube.settle(points, payer_side)
    events: list[Event] = [CubeTurned(settled, action, by)]
    events += [PointsPaid(t) for t in transfers]
    return finish(state, _odd_half(state, cmd, events))


def _partners_settle(state: TableState, cmd: Settle, game: Game, by: str, other: str,
                     points: Fraction) -> tuple[Event, ...]:
    """Atlanta 4.5: the Box and his Partner settle their shares between them (FIBS: the
    Partner sells his to the shooter for half a point); the game, the rotation and the
    partnership go on, but what the Box side wins or loses from now on is the Box's."""
    if game.shared_until is not None:
        raise CubeNotAvailable(code="partners_settled")
    payer, payee = (by, other) if points >= 0 else (other, by)
    amount, rolled = whole(state, cmd, abs(points), by_pays=payer == by)
    paid = pay(payer, payee, amount, f"{payer} bought {payee}'s share"
               + (f": {rolled}" if rolled else ""))
    return (PartnershipSettled(payer), *(PointsPaid(t) for t in paid))


def _points(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise BadCommand(code="settle_points")
    try:
        amount = Fraction(str(value)).limit_denominator(64)
    except (ValueError, ZeroDivisionError) as exc:
        raise BadCommand(code="settle_not_points", points=value) from exc
    return amount


@handles(Sell)
def _sell(state: TableState, cmd: Sell) -> tuple[Event, ...]:
    """A Team player sells his game (his interest in his cube) for points, and the buyer
    plays it on (Atlanta 4.4: B takes A's offer, or the Box preempts it, paying B himself,
    and spectators or players out of the game may buy too; FIBS §2 ¶2, ¶8: a player who won't
    go along with his side's double sells for half the cube's value before it, to the Box
    first, then the Captain, then any teammate). A sale to the Box is a buy-out: the game
    ends for the seller. `from` sells to `to` for `points` (FIBS: always the half); the
    command is both players' agreement (the Discord layer asks the one who did not send it)."""
    by = sender(cmd)
    seller = by if cmd.from_ is None else cmd.from_
    seating, cube, price = _sale(state, by, seller, cmd.to, cmd.points)
    buyer = cmd.to
    price, rolled = whole(state, cmd, price, by_pays=by == buyer)  # Atlanta 4.3
    if buyer == seating.box:  # the Box's preemption: a buy-out, the game ends for the seller
        ended, paid = cube.settle(price, Side.BOX)
        bought = (Phrase("turned_bought_out_rolled", price=price, rolled=rolled) if rolled
                  else Phrase("turned_bought_out", price=price))
        events: list[Event] = [CubeTurned(ended, bought, buyer)]
        return finish(state, _odd_half(state, cmd, events + [PointsPaid(t) for t in paid]))
    sold, paid = cube.sell(buyer, price)
    to = (Phrase("turned_sold_rolled", buyer=Player(buyer), price=price, rolled=rolled)
          if rolled else Phrase("turned_sold", buyer=Player(buyer), price=price))
    return (CubeTurned(sold, to, seller),
            *(PointsPaid(t) for t in paid))


def _sale(state: TableState, by: str, seller: str, buyer: str,
          points: object) -> tuple[Seating, Cube, Fraction]:
    """A sale of `seller`'s game to `buyer` agreed by `by`, as the rules allow it now: the
    seating, the seller's cube and the price (before a fraction is rolled off)."""
    game, seating = in_game(state)
    rules = state.rules
    if rules.settlements == "never":
        raise CubeNotAvailable(code="no_sales")
    if by not in (seller, buyer):
        raise NotYourTurn(code="sale_agreed_by", seller=Player(seller), buyer=Player(buyer))
    cube = cube_of(game, seller) or next(iter(cubes_of(game, seller)), None)
    if cube is None or not cube.live:
        raise CubeNotAvailable(code="nothing_to_sell" if by == seller else "nothing_to_sell_his",
                               seller=Player(seller))
    if buyer == seating.partner or (rules.single_cube and buyer != seating.box
                                    and buyer not in seating.team):
        raise BadCommand(code="buyer_one_cube" if rules.single_cube else "buyer",
                         buyer=Player(buyer), seller=Player(seller))
    if buyer == seating.box and cube.pending and cube.offered_by is not Side.TEAM:
        raise CubeNotAvailable(code="answer_before_sale" if by == seller
                               else "answer_before_sale_his", seller=Player(seller))
    half = Fraction(cube.face, 4 if cube.pending else 2)  # half the value before a double
    return seating, cube, (half if rules.single_cube
                           else _points(str(half) if points is None else points))


@handles(OfferSale)
def _offer(state: TableState, cmd: OfferSale) -> tuple[Event, ...]:
    """A Team player offers his game to a buyer: kept until the buyer accepts (`buy`) or
    the seller's cube moves on (the sale is checked as if made now)."""
    by = sender(cmd)
    _sale(state, by, by, cmd.to, cmd.points)
    return (SaleOffered(by, cmd.to, None if cmd.points is None else str(cmd.points)),)


@handles(Buy)
def _buy(state: TableState, cmd: Buy) -> tuple[Event, ...]:
    """The buyer accepts a game offered him: the sale at the price offered."""
    in_game(state)
    by = sender(cmd)
    offer = next((o for o in state.offers if o.seller == cmd.from_ and o.buyer == by), None)
    if offer is None:
        raise NotYourTurn(code="no_sale_offered", seller=Player(cmd.from_))
    return _sell(state, Sell(by=by, from_=offer.seller, to=by, points=offer.points,
                             rolloff=cmd.rolloff, next_roll=cmd.next_roll))


@handles(Penalty)
def _penalty(state: TableState, cmd: Penalty) -> tuple[Event, ...]:
    """A ruling on a player who consulted without the right. Atlanta 3.6: the Box takes the
    offender's cube at its starting value (`award`) or washes it (`wash`); an offender
    already out of the game pays the aggrieved Box or Captain half a starting cube (`half`),
    or is liable for another cube the aggrieved owns at its starting value (`cube`);
    a Partner who consulted before two cubes were turned pays the Captain a starting cube
    (`partner`). euro ¶13: a minor offence freezes the cube, takes only (`freeze`); a major
    one, or an offender out of the game, pays the original stake (`stake`)."""
    game, seating = in_game(state)
    by = sender(cmd)
    offender = cmd.player
    action = cmd.action
    rule = state.rules.consultation_penalty
    allowed = {"ownership_or_wash": ("award", "wash", "half", "cube", "partner"),
               "frozen_cube": ("freeze", "stake")}.get(rule, ())
    if action not in allowed:
        raise RuleError(code="penalties" if allowed else "penalties_not_set",
                        penalties=", ".join(allowed))
    member = state.member(offender)
    stake = Fraction(member.stake if member else 1)
    if action == "partner":
        if by != seating.captain or offender != seating.partner:
            raise NotYourTurn(code="captain_claims", captain=Player(seating.captain),
                              rule=citation(state, "Atlanta 3.6"))
        if box_consults_fully(state):
            raise RuleError(code="consult_fully")
        return _fine(offender, by, Fraction(1), "consulted before two cubes were turned")
    cube = cube_of(game, offender)
    live = cube is not None and cube.live
    if action in ("half", "cube", "stake"):
        if action != "stake" and (live or by not in (seating.box, captain_now(state))):
            raise NotYourTurn(code="half_cube_claim", rule=citation(state, "Atlanta 3.6"))
        if offender not in seating.players or offender == by:
            raise BadCommand(code="not_in_game", player=Player(offender))
        if action == "cube":
            if any(c.penalty and offender in (c.team_player, c.box_player) for c in game.cubes):
                raise CubeNotAvailable(code="penalty_cube_held", player=Player(offender))
            side = Side.BOX if by == seating.box else Side.TEAM
            taken = Cube.penalty_cube(offender, by, side, stake=int(stake))
            return (CubeTurned(taken, "taken against the offender (penalty)", by),)
        points, rolled = whole(state, cmd, stake / 2 if action == "half" else stake,
                               by_pays=False)  # Atlanta 4.3: half a cube is rolled off
        return tuple(_odd_half(state, cmd, list(_fine(
            offender, by, points, "consulted without the right"
            + (f": {rolled}" if rolled else "")))))
    if by != seating.box and action != "freeze":
        raise NotYourTurn(code="box_chooses_penalty", box=Player(seating.box),
                          rule=citation(state, "Atlanta 3.6"))
    if cube is None or not cube.live:
        raise CubeNotAvailable(code="no_cube_half" if rule == "ownership_or_wash"
                               else "no_cube_stake", player=Player(offender))
    if action == "freeze":
        return (CubeTurned(cube.freeze(Side.TEAM), "frozen (penalty)", by),)
    if action == "award":
        return (CubeTurned(cube.award(Side.BOX), "taken by the Box (penalty)", by),)
    washed, _ = cube.settle(0, Side.BOX)
    return finish(state, [CubeTurned(washed, "washed (penalty)", by)])


def _odd_half(state: TableState, cmd: Payment, events: list[Event]) -> list[Event]:
    """`events`, and in scorekeeper mode the bot's roll for an odd half point that the Box
    and his Partner share (FIBS §2 ¶2: `next_roll`; refused without it)."""
    seating = state.seating
    rules = state.rules
    if (state.mode != "scorekeeper" or rules.odd_point != "next_roll" or seating is None
            or seating.partner is None or rules.partner_cubes != "shared"):
        return events
    if not any(isinstance(e, PointsPaid) and not e.own and seating.box in (
            e.transfer.payer, e.transfer.payee) and e.transfer.points.denominator == 2
               for e in events):
        return events
    return [*events, OddHalfRolled(next_roll(state, cmd))]


def _fine(offender: str, to: str, points: Fraction, why: str) -> tuple[Event, ...]:
    return tuple(PointsPaid(t) for t in pay(offender, to, points, f"penalty: {offender} {why}"))


_KINDS = {"single": GameKind.SINGLE, "gammon": GameKind.GAMMON,
          "backgammon": GameKind.BACKGAMMON}
_KIND_WORDS = {"single": Phrase("kind_single"), "gammon": Phrase("kind_gammon"),
               "backgammon": Phrase("kind_backgammon")}  # a kind in the record's words


@handles(Resign)
def _resign(state: TableState, cmd: Resign) -> tuple[Event, ...]:
    """A side offers to resign: the Box on all the Team's cubes (or the named ones), a Team
    player on his own cube; each is accepted or rejected by the other player of the cube."""
    game, seating = in_game(state)
    by = sender(cmd)
    kind = cmd.kind
    if kind not in _KINDS:
        raise BadCommand(code="resign_kind")
    no_pending(state, Phrase("doing_resignation"))
    if by == seating.box:
        names = list(cmd.cubes or ()) or list(dict.fromkeys(
            c.player(Side.TEAM) for c in game.cubes if c.live and not c.is_extra))
        side = Side.BOX
    else:
        names, side = [by], Side.TEAM
    if not names or not all(cubes_of(game, p) for p in names):
        raise CubeNotAvailable(code="resign_live", players=Players(dict.fromkeys(
            c.player(Side.TEAM) for c in game.cubes if c.live and not c.is_extra)))
    return tuple(ResignationOffered(p, side, kind) for p in names)


@handles(Accept, Reject)
def _answer_resignation(state: TableState, cmd: ResignationAnswer) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    offers = {p: (side, kind) for p, side, kind in game.resignations}
    if by == seating.box:
        names = list(cmd.cubes or ()) or [p for p, (s, _) in offers.items()
                                             if s is Side.TEAM]
        mine = [p for p in names if p in offers and offers[p][0] is Side.TEAM]
    else:
        mine = [by] if by in offers and offers[by][0] is Side.BOX else []
    if not mine:
        raise NotYourTurn(code="no_resignation")
    events: list[Event] = []
    for player in mine:
        events.append(ResignationAnswered(player, isinstance(cmd, Accept)))
        for cube in cubes_of(game, player) if isinstance(cmd, Accept) else []:
            side, kind = offers[player]  # the Box resigns for his side (a Partner's cubes too)
            won = cube.result(_KINDS[kind], side.other, jacoby=state.rules.jacoby)
            ended, paid = cube.settle(won.points, side)
            events.append(CubeTurned(ended, Phrase("turned_resigned", kind=_KIND_WORDS[kind]),
                                     by))
            events += [PointsPaid(t) for t in paid]
    return finish(state, events)
