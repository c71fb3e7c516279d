"""Cube: one doubling contract between a Team-side and a Box-side player of a chouette.

Every Team member has his own cube against the Box (Atlanta 1.4); a Partner, a player who gave
an extra (Atlanta 5.7) or who bought a sold cube is just another `box_player` or `team_player`
on a cube of his own. A `Cube` is immutable: each transition returns a new one, and every
outcome (a drop, a settlement, a game played out) is a `Transfer` for the ledger.

Value and stake. `value` counts the doublings from 1 (1, 2, 4, ...), the same for every
player; `stake` is the player's stake multiple (Atlanta 2.2). The points at stake are
`value * stake`, which is also `face`, the number Atlanta's physical cube shows: a
double-stakes player's cube "begins showing 2" is value 1, stake 2, face 2. Keeping them apart
lets the table compare cubes "on the same level" (Danish rules, Atlanta 5.10) whatever the
stakes, and every message shows the face, as the players see it.

Where a cube stands in its game (`CubeState`: centred, offered, beavered, ..., dropped) and
the words for it are rules/cube_state.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.board import GameKind
from rules.cube_state import OVER, PENDING, STATES, TURNS, CubeState, verb
from rules.errors import CubeNotAvailable
from rules.ledger import Transfer, pay
from rules.messages import Phrase, Player


class Side(Enum):
    """The two sides of a cube: the Team player's and the Box's."""

    TEAM = "team"
    BOX = "box"

    @property
    def other(self) -> Side:
        """The opposite side."""
        return Side.BOX if self is Side.TEAM else Side.TEAM

    def __repr__(self) -> str:
        return f"Side.{self.name}"


def _power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def scored(kind: GameKind, accepted: bool, jacoby: bool) -> int:
    """How many times its face a cube scores for a game played out: the kind's (single 1,
    gammon 2, backgammon 3), except that with `jacoby` a cube never turned and taken scores
    a single only (Atlanta 4.1)."""
    return kind.value if accepted or not jacoby else 1


@dataclass(frozen=True, slots=True)
class Cube:
    """One doubling contract in one game; transitions return a new Cube."""

    team_player: str
    box_player: str
    value: int = 1
    stake: int = 1
    owner: Side | None = None
    state: CubeState = CubeState.CENTRED
    offered_by: Side | None = None  # the side that opened the pending turn (its doubler)
    turned: bool = False  # turned at least once, taken or not (Atlanta 3.3)
    accepted: bool = False  # turned and accepted at least once (Atlanta 1.5)
    frozen: Side | None = None  # this side may only take (the euro penalty)
    is_extra: bool = False  # a side cube, not a player's own: an extra given by box_player
    # to team_player (Atlanta 5.7), or a penalty cube (`penalty`, Atlanta 3.6)
    penalty: bool = False
    winner: Side | None = None  # the side that won a DROPPED cube
    holder: str = ""  # who bought team_player's game (FIBS): he decides, wins and loses it

    def __post_init__(self) -> None:
        if not self.team_player or not self.box_player or self.team_player == self.box_player:
            raise ValueError(f"A cube needs two different players: {self.team_player!r}, "
                             f"{self.box_player!r}")
        if not _power_of_two(self.value):
            raise ValueError(f"A cube's value is a power of two, not {self.value}")
        if self.stake < 1:
            raise ValueError(f"A stake multiple is at least 1, not {self.stake}")
        if (self.state in PENDING) != (self.offered_by is not None):
            raise ValueError(f"A {self.state.value} cube can't have offered_by={self.offered_by}")

    # -- questions the table asks ------------------------------------------------------------

    @property
    def face(self) -> int:
        """The number the cube shows, and the points at stake before gammons: value * stake."""
        return self.value * self.stake

    @property
    def live(self) -> bool:
        """Still part of this game: not dropped or settled."""
        return self.state not in OVER

    @property
    def in_game(self) -> bool:
        """Turned and accepted, and not since dropped or settled (Atlanta 1.5, 3.2, 4.1)."""
        return self.accepted and self.live

    @property
    def pending(self) -> bool:
        """A turn of this cube is waiting for an answer."""
        return self.state in PENDING

    @property
    def to_act(self) -> Side | None:
        """The side that must answer the pending turn, if any."""
        if self.offered_by is None:
            return None
        if self.state in (CubeState.OFFERED, CubeState.RACCOONED):
            return self.offered_by.other
        return self.offered_by

    @property
    def doublers(self) -> frozenset[Side]:
        """The sides that may double this cube now (the table adds the timing rules)."""
        if self.state is CubeState.CENTRED:
            sides = frozenset(Side)
        elif self.state is CubeState.TAKEN and self.owner is not None:
            sides = frozenset({self.owner})
        else:
            sides = frozenset()
        if self.frozen is not None:
            sides -= {self.frozen}
        return sides

    def may_double(self, side: Side) -> bool:
        """Whether `side` may double this cube now."""
        return side in self.doublers

    def player(self, side: Side) -> str:
        """The player on `side` of this cube: on the Team's, whoever holds its game now."""
        return (self.holder or self.team_player) if side is Side.TEAM else self.box_player

    def side_of(self, player: str) -> Side:
        """The side `player` is on, for a command naming its sender."""
        if player == self.player(Side.TEAM):
            return Side.TEAM
        if player == self.box_player:
            return Side.BOX
        raise CubeNotAvailable(code="no_part", player=Player(player), cube=self.named())

    # -- transitions -------------------------------------------------------------------------

    def offer(self, by: Side) -> Cube:
        """`by` turns the cube (a double or redouble); the other side must answer."""
        self._require_live("double", by)
        if self.pending:
            raise CubeNotAvailable(code="cannot_now", action=verb("double"),
                                   waiting=self.waiting(by))
        self._not_frozen(by, "double")
        if self.owner is by.other:
            holder = Player(self.player(by.other))
            own = self.player(Side.TEAM) == self.team_player
            if by is Side.TEAM:
                raise CubeNotAvailable(code="owns_your_cube" if own else "owns_cube_named",
                                       holder=holder, cube=self.named(by), face=self.face)
            raise CubeNotAvailable(code="owns_the_cube" if own else "owns_cube_bought",
                                   holder=holder, seller=Player(self.team_player),
                                   face=self.face)
        return dataclasses.replace(self, value=self.value * 2, state=CubeState.OFFERED,
                                   offered_by=by, turned=True)

    def take(self) -> Cube:
        """The side to act accepts the pending turn; the taker of the double owns the cube."""
        self._require_pending("take")
        assert self.offered_by is not None
        return dataclasses.replace(self, owner=self.offered_by.other, state=CubeState.TAKEN,
                                   offered_by=None, accepted=True)

    def beaver(self, *, allowed: bool) -> Cube:
        """The doubled side takes, turns the cube once more and keeps it (Atlanta 5.3)."""
        if not allowed:
            raise CubeNotAvailable(code="no_beavers")
        return self._turn_again(CubeState.OFFERED, CubeState.BEAVERED, "beaver")

    def raccoon(self, *, allowed: bool) -> Cube:
        """The doubler turns a beavered cube once more; the beaverer keeps it (Atlanta 5.4)."""
        if not allowed:
            raise CubeNotAvailable(code="no_raccoons")
        return self._turn_again(CubeState.BEAVERED, CubeState.RACCOONED, "raccoon")

    def aardvark(self, *, allowed: bool) -> Cube:
        """The beaverer turns a raccooned cube once more and keeps it (Villages 10 forbids)."""
        if not allowed:
            raise CubeNotAvailable(code="no_aardvarks")
        return self._turn_again(CubeState.RACCOONED, CubeState.AARDVARKED, "aardvark")

    def withdraw(self) -> Cube:
        """The doubler takes back a double not yet answered (FIBS: an accidental turn)."""
        if self.state is not CubeState.OFFERED:
            raise CubeNotAvailable(code="withdraw_unanswered")
        return dataclasses.replace(self, value=self.value // 2, offered_by=None,
                                   state=CubeState.CENTRED if self.owner is None
                                   else CubeState.TAKEN)

    def drop(self) -> tuple[Cube, Transfer]:
        """The side to act refuses the pending turn and pays the value before it.

        A refused double pays the value before the double; a refused beaver the value before
        the beaver (Atlanta 5.4), and so on: always half the value shown, times the stake.
        Refusing an extra outright (Atlanta 5.7) pays the full face, which returns the premium
        and loses one point more ("a net of one point"). The dropped cube keeps the value in
        force before the refused turn and is out of the game.
        """
        dropper = self._require_pending("drop")
        self._not_frozen(dropper, "drop")
        before = self.value // 2
        lost = self.value if self.is_extra and not self.accepted else before
        refused = TURNS[self.state].text()  # "the double"
        cube = dataclasses.replace(self, value=before, state=CubeState.DROPPED, offered_by=None,
                                   winner=dropper.other)
        reason = f"{self.player(dropper)} dropped {refused} to {self.face}"
        return cube, Transfer(self.player(dropper), self.player(dropper.other),
                              Fraction(lost * self.stake), reason)

    def retract_take(self) -> tuple[Cube, Transfer]:
        """The taker of a double drops it after all (Atlanta 5.7: a lone taker who will not
        accept the extras offered): as if he had refused the double, he pays the value
        before it and the cube is out."""
        if self.state is not CubeState.TAKEN or self.owner is None:
            raise CubeNotAvailable(code="retract_just_taken", cube=self.named(),
                                   state=STATES[self.state])
        taker = self.owner
        before = self.value // 2
        cube = dataclasses.replace(self, value=before, state=CubeState.DROPPED, owner=None,
                                   winner=taker.other)
        return cube, Transfer(self.player(taker), self.player(taker.other),
                              Fraction(before * self.stake),
                              f"{self.player(taker)} dropped the double to {self.face} "
                              "after all")

    def void(self) -> Cube:
        """An offer that lapses unanswered (an extra whose taker dropped the Box's double
        after all): out of the game, nothing paid."""
        return dataclasses.replace(self, state=CubeState.SETTLED, offered_by=None)

    def auto_double(self) -> Cube:
        """An automatic double: a centred cube turned up, still centred, not in the game."""
        if self.state is not CubeState.CENTRED:
            raise CubeNotAvailable(code="automatic_centred", cube=self.named(),
                                   state=STATES[self.state])
        return dataclasses.replace(self, value=self.value * 2)

    def result(self, kind: GameKind, winner: Side, jacoby: bool) -> Transfer:
        """The points for the game played out: face times the kind (SINGLE 1, GAMMON 2,
        BACKGAMMON 3), except that with `jacoby` a cube not in the game scores singles only
        (Atlanta 4.1)."""
        self._require_live("score")
        if self.pending:
            raise CubeNotAvailable(code="not_scored_yet", waiting=self.waiting())
        multiple = scored(kind, self.accepted, jacoby)
        what = kind.name.lower() if multiple == kind.value else "single game (Jacoby)"
        return Transfer(self.player(winner.other), self.player(winner),
                        Fraction(self.face * multiple), f"{self.player(winner)} won a {what} "
                        f"with the cube at {self.face}")

    def settle(self, points: Fraction | int, payer: Side) -> tuple[Cube, tuple[Transfer, ...]]:
        """Ends the contract for an agreed amount (Atlanta 4.4-4.5, FIBS half-point buy-outs).

        Zero points is a wash (Atlanta 3.6, 6.1): the cube is over and nothing is recorded.
        A settlement may answer a pending turn as well.
        """
        self._require_live("settle")
        amount = _amount(points, Phrase("what_settlement"))
        reason = f"{self.player(payer)} settled {self.named()} at {self.face}"
        cube = dataclasses.replace(self, state=CubeState.SETTLED, offered_by=None)
        return cube, pay(self.player(payer), self.player(payer.other), amount, reason)

    def sell(self, buyer: str, price: Fraction | int) -> tuple[Cube, tuple[Transfer, ...]]:
        """The Team player holding this cube's game sells it to `buyer`, a teammate who
        pays him `price` and plays it on (FIBS: a non-doubler sells his game for half the
        cube's value, also while his side's double waits for an answer). The cube keeps its
        `team_player` (it is his seat's cube); `holder` says who decides, wins and loses it.
        A sale to the opponent on this cube is a settlement: use `settle`."""
        self._require_live("sell", Side.TEAM)
        if self.pending and self.offered_by is not Side.TEAM:
            raise CubeNotAvailable(code="no_sale_now", waiting=self.waiting(Side.TEAM))
        seller = self.player(Side.TEAM)
        if not buyer or buyer in (seller, self.box_player):
            if not buyer:
                raise CubeNotAvailable(code="opponent_settles_nobody", seller=Player(seller),
                                       cube=self.named())
            raise CubeNotAvailable(code="opponent_settles", buyer=Player(buyer),
                                   seller=Player(seller), cube=self.named())
        amount = _amount(price, Phrase("what_price"))
        cube = dataclasses.replace(self, holder="" if buyer == self.team_player else buyer)
        return cube, pay(buyer, seller, amount, f"{buyer} bought {seller}'s game at {self.face}")

    def freeze(self, side: Side) -> Cube:
        """A penalty: `side` may only take on this cube for the game (euro ¶13)."""
        self._require_live("freeze")
        return dataclasses.replace(self, frozen=side)

    def award(self, to: Side) -> Cube:
        """A penalty: `to` takes ownership of a centred cube at its value (Atlanta 3.6); it is
        owned but not in the game, since nobody turned and accepted it."""
        if self.state is not CubeState.CENTRED:
            raise CubeNotAvailable(code="award_centred", cube=self.named(),
                                   state=STATES[self.state])
        return dataclasses.replace(self, owner=to, state=CubeState.TAKEN)

    @classmethod
    def penalty_cube(cls, offender: str, aggrieved: str, side: Side, *, stake: int = 1) -> Cube:
        """Atlanta 3.6: the aggrieved Box (`side` BOX) or Captain (TEAM) owns a new cube at its
        starting value for which `offender`, already out of the game, is liable; it plays out
        with the game but does not keep the game going."""
        team, box = (offender, aggrieved) if side is Side.BOX else (aggrieved, offender)
        return cls(team, box, stake=stake, owner=side, state=CubeState.TAKEN, is_extra=True,
                   penalty=True)

    @classmethod
    def extra(
        cls, giver: str, taker: str, *, value: int = 1, stake: int = 1
    ) -> tuple[Cube, Transfer]:
        """An extra (Atlanta 5.7; Danish sell-cube): `giver`, who dropped, pays `taker` the
        undoubled value and offers him a new cube at double it. The taker takes (or beavers)
        and then holds it against the giver, who plays on the Box's side; `drop()` refuses it
        for a net loss of one point."""
        cube = cls(taker, giver, value=value * 2, stake=stake, state=CubeState.OFFERED,
                   offered_by=Side.BOX, turned=True, is_extra=True)
        premium = Transfer(giver, taker, Fraction(value * stake), f"{giver} gave {taker} an "
                           f"extra at {cube.face}")
        return cube, premium

    # -- helpers -----------------------------------------------------------------------------

    def named(self, viewer: Side | None = None) -> Phrase:
        """This cube in words, to the player on `viewer`'s side when one is named: his own
        cube is "your cube", never his name; a game he bought or an extra is told apart from
        his own cube against the same opponent (None: to a third party)."""
        team, box = Player(self.player(Side.TEAM)), Player(self.box_player)
        seller = Player(self.team_player)
        bought = team != seller
        if viewer is Side.TEAM:
            if self.is_extra:
                return Phrase("cube_extra_from", box=box)
            if bought:
                return Phrase("cube_bought", seller=seller, box=box)
            return Phrase("cube_yours", box=box)
        if viewer is Side.BOX:
            if self.is_extra:
                return Phrase("cube_extra_given", team=team)
            if bought:
                return Phrase("cube_with_bought", team=team, seller=seller)
            return Phrase("cube_with", team=team)
        if self.is_extra:
            return Phrase("cube_extra", box=box, team=team)
        if bought:
            return Phrase("cube_of_bought", team=team, box=box, seller=seller)
        return Phrase("cube_of", team=team, box=box)

    def waiting(self, viewer: Side | None = None) -> Phrase:
        """The pending turn in words, to the player on `viewer`'s side: who answers what."""
        side = self.to_act
        assert side is not None
        turn = TURNS[self.state]
        if side is viewer:
            return Phrase("you_answer_first", turn=turn, face=self.face, cube=self.named(viewer))
        return Phrase("has_to_answer", player=Player(self.player(side)), turn=turn, face=self.face)

    def _require_live(self, action: str, viewer: Side | None = None) -> None:
        if not self.live:
            raise CubeNotAvailable(code="cube_out", action=verb(action),
                                   cube=self.named(viewer), state=STATES[self.state])

    def _require_pending(self, action: str) -> Side:
        side = self.to_act
        self._require_live(action, side)
        if side is None:
            raise CubeNotAvailable(code="no_double_to", action=verb(action), cube=self.named())
        return side

    def _not_frozen(self, side: Side, action: str) -> None:
        if self.frozen is side:  # euro ¶13 "offensively frozen, only takes allowed"
            raise CubeNotAvailable(code="cube_frozen", action=verb(action), cube=self.named(side))

    def _turn_again(self, before: CubeState, after: CubeState, action: str) -> Cube:
        side = self._require_pending(action)
        if self.state is not before:
            raise CubeNotAvailable(code="cannot_now", action=verb(action),
                                   waiting=self.waiting(side))
        self._not_frozen(side, action)
        assert self.offered_by is not None
        return dataclasses.replace(self, value=self.value * 2, state=after,
                                   owner=self.offered_by.other, accepted=True)


def _amount(points: Fraction | int, what: Phrase) -> Fraction:
    amount = Fraction(points)
    if amount < 0:
        raise CubeNotAvailable(code="negative_amount", what=what, amount=str(amount))
    return amount
