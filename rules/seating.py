"""Who sits where: the `Seating`, seats by the dice, joining and leaving, the Partner.

The pieces the rotations (`rules/rotation.py`) and the table's handlers share. All pure: dice
are passed in, nothing is drawn. Refusals: `SeatingError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Literal

from rules.errors import SeatingError
from rules.messages import Player, Players

PartnerFrom = Literal["bottom", "after_captain", "captain"]


@dataclass(frozen=True)
class Seating:
    """Who sits where for the next game; `team[0]` is the Captain, the Partner is not in it.

    `partner_place`: how many Team players stand ahead of the Partner in the rotation (Atlanta
    6.3 "retains the position he would have had"); None without one or where the Partner has
    no place (FIBS, Danish). `newcomers` joined since the last game (Atlanta 6.5).
    """

    box: str
    partner: str | None
    team: tuple[str, ...]
    partner_place: int | None = None
    newcomers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        players = self.players
        twice = sorted({p for p in players if players.count(p) > 1})
        if twice:
            raise SeatingError(code="sits_twice", players=Players(twice))
        if not self.team:
            raise SeatingError(code="needs_captain")
        place = self.partner_place
        if place is not None and (self.partner is None or not 1 <= place <= len(self.team)):
            raise SeatingError(code="partner_place", most=len(self.team), place=place,
                               partner=Player(str(self.partner)))
        if not set(self.newcomers) <= set(self.team):
            raise SeatingError(code="newcomers_team")

    @property
    def captain(self) -> str:
        """The Team player who rolls and plays for the Team."""
        return self.team[0]

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone seated: the Box, the Partner if any, then the Team in rotation order."""
        return (self.box, *(() if self.partner is None else (self.partner,)), *self.team)



@dataclass(frozen=True)
class Reroll:
    """Tied rolls: each group must roll again before the order is known; nothing is decided."""

    groups: tuple[tuple[str, ...], ...]


def queue_of(seating: Seating) -> list[str]:
    """The rotation order of everyone but the Box: the Team, a placed Partner at his place."""
    queue = list(seating.team)
    if seating.partner is not None and seating.partner_place is not None:
        queue.insert(seating.partner_place, seating.partner)
    return queue


def seat_from(box: str, partner: str | None, queue: Sequence[str], *, stays: bool = True,
          newcomers: Sequence[str] = ()) -> Seating:
    """Seat from a rotation queue in which a placed Partner stands at his place.

    A Partner whose place reaches the top drops to the bottom if he `stays` (Atlanta 6.4),
    else captains, as he must when no one else is left to.
    """
    order = list(queue)
    placed = partner is not None and partner in order
    if placed and order[0] == partner:
        if stays and len(order) > 1:
            order.append(order.pop(0))
        else:
            partner, placed = None, False
    team = [p for p in order if p != partner]
    if partner is not None and not team:
        team, partner, placed = [partner], None, False
    place = order.index(partner) if placed and partner is not None else None
    return Seating(box, partner, tuple(team), place, tuple(p for p in newcomers if p in team))



Rolls = Mapping[str, tuple[int, ...]]


def order_by_rolls(rolls: Rolls, rerolls: Sequence[Rolls] = ()) -> tuple[str, ...] | Reroll:
    """Players by roll, highest total first (doubles count once); `rerolls[i]` breaks ties.

    Ties not yet re-rolled come back as a `Reroll`, never settled at random.
    """
    levels = [rolls, *rerolls]
    for player, dice in ((p, d) for level in levels for p, d in level.items()):
        if not dice or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise SeatingError(code="roll_not_dice", player=Player(player), dice=str(dice))
    used: list[set[str]] = [set() for _ in levels]
    ties: list[tuple[str, ...]] = []

    def rank(group: list[str], depth: int) -> list[str]:
        level = levels[depth]
        missing = [p for p in group if p not in level]
        if missing:
            raise SeatingError(code="reroll_too", players=Players(missing),
                               tied=Players(p for p in group if p not in missing))
        used[depth].update(group)
        ordered: list[str] = []
        by_total = sorted(group, key=lambda p: -sum(level[p]))
        for _, same in groupby(by_total, key=lambda p: sum(level[p])):
            tied = list(same)
            if len(tied) == 1:
                ordered += tied
            elif depth + 1 < len(levels) and any(p in levels[depth + 1] for p in tied):
                ordered += rank(tied, depth + 1)
            else:
                ties.append(tuple(tied))
                ordered += tied
        return ordered

    order = rank(list(rolls), 0)
    for depth in range(1, len(levels)):
        extra = sorted(set(levels[depth]) - used[depth])
        if extra:
            raise SeatingError(code="not_tied", players=Players(extra))
    return Reroll(tuple(ties)) if ties else tuple(order)


def seat_by_rolls(rolls: Rolls, rerolls: Sequence[Rolls] = ()) -> Seating | Reroll:
    """Seat a new table by rolls: highest Box, next Captain, the rest in order (Atlanta 1.3).

    Two dice (Atlanta, FIBS, Villages) or one (Danish). No Partner yet: Atlanta asks the last
    on the Team first (`partner_candidates`); FIBS takes the third highest (`fibs_partner`).
    """
    order = order_by_rolls(rolls, rerolls)
    if isinstance(order, Reroll):
        return order
    if len(order) < 2:
        raise SeatingError(code="two_to_roll")
    return Seating(order[0], None, order[1:])


def join(seating: Seating, players: Sequence[str], *, max_players: int | None = None) -> Seating:
    """Add players in the order given at the end of the Team (Atlanta 6.5, FIBS, Villages 4).

    Join after the rotation, so they stand behind the game's loser; several joiners come in
    the order of their own rolls (`order_by_rolls`).
    """
    seated = [p for p in players if p in seating.players]
    if seated:
        raise SeatingError(code="already_sits", players=Players(seated))
    if len(set(players)) != len(players):
        raise SeatingError(code="joiner_twice")
    if max_players is not None and len(seating.players) + len(players) > max_players:
        room = max(0, max_players - len(seating.players))
        raise SeatingError(code="room_for", most=max_players, room=room)
    return replace(seating, team=seating.team + tuple(players),
                   newcomers=seating.newcomers + tuple(players))


def leave(seating: Seating, player: str) -> Seating:
    """Take a player off the table between games; the order closes up behind him.

    Reading chosen: the Captain takes a departed Box's seat (FIBS: a Box who drops off is
    beaten by the Captain), the Partner keeps his; a placed Partner whose turn comes this way
    stays and drops to the bottom (Atlanta 6.4). A Box left alone may take a new Partner.
    """
    if player not in seating.players:
        raise SeatingError(code="not_at_table_of", player=Player(player),
                           players=Players(seating.players))
    if len(seating.players) <= 2:
        raise SeatingError(code="leave_two", player=Player(player))
    if player == seating.partner:
        return Seating(seating.box, None, seating.team, None, seating.newcomers)
    queue = queue_of(seating)
    box = seating.captain if player == seating.box else seating.box
    queue.remove(box if player == seating.box else player)
    return seat_from(box, seating.partner, queue, newcomers=seating.newcomers)


def partner_candidates(seating: Seating, *,
                       partner_from: PartnerFrom = "bottom") -> tuple[str, ...]:
    """The Team players in the order they are asked to be Partner; empty if none can be.

    "bottom" (Atlanta 1.3, 6.5): up the rotation from its bottom; "after_captain" (FIBS): down
    it from the player after the Captain; "captain" (euro): down it from the Captain. The
    Captain comes last in the first two.
    Reading chosen: Atlanta 6.5's newcomers are asked after everyone but the Captain.
    """
    if seating.partner is not None:
        raise SeatingError(code="already_partner", partner=Player(seating.partner))
    team = seating.team
    if len(team) < 2:
        return ()
    if partner_from == "captain":
        return team
    if partner_from == "after_captain":
        return (*team[1:], team[0])
    upwards = team[:0:-1]
    regulars = tuple(p for p in upwards if p not in seating.newcomers)
    return (*regulars, *(p for p in upwards if p in seating.newcomers), team[0])


def take_partner(seating: Seating, player: str, *, keep_place: bool = True,
                 partner_min_players: int = 0) -> Seating:
    """Make a Team player the Partner; if he was Captain, the next in line captains.

    `keep_place`: he keeps his place in the rotation (Atlanta 6.3), at the bottom if he was
    Captain (6.4); FIBS and Danish give none.
    """
    if seating.partner is not None:
        raise SeatingError(code="partner_one_only", partner=Player(seating.partner))
    if player not in seating.team:
        raise SeatingError(code="partner_from_team", players=Players(seating.team))
    if len(seating.team) < 2:
        raise SeatingError(code="captain_needed")
    if len(seating.players) < partner_min_players:
        raise SeatingError(code="partner_min", least=partner_min_players,
                           players=len(seating.players))
    index = seating.team.index(player)
    team = tuple(p for p in seating.team if p != player)
    place = (index or len(team)) if keep_place else None
    newcomers = tuple(p for p in seating.newcomers if p != player)
    return Seating(seating.box, player, team, place, newcomers)


def drop_partner(seating: Seating) -> Seating:
    """End the partnership: the Partner rejoins the Team at his place, or else as Captain.

    Atlanta 6.4 option 2 between games; FIBS "the partner of the box becomes the new captain".
    """
    if seating.partner is None:
        raise SeatingError(code="no_partner_to_release")
    place = 0 if seating.partner_place is None else seating.partner_place
    team = (*seating.team[:place], seating.partner, *seating.team[place:])
    return Seating(seating.box, None, team, None, seating.newcomers)


def fibs_partner(seating: Seating, *, partner_min_players: int = 6) -> Seating:
    """FIBS: from 6 players the Box must have a Partner, the player next after the Captain.

    The rotation calls it; call it after joins and leaves too. Smaller tables stay as they are.
    """
    if seating.partner is not None or len(seating.players) < partner_min_players:
        return seating
    return take_partner(seating, seating.team[1], keep_place=False)


def fibs_shrunk(seating: Seating, *, just_won: bool, partner_min_players: int = 6) -> Seating:
    """FIBS §1 ¶3: "If there are 5 or fewer players, there is no partner's in the box --
    however if a partnership in the box just won and somebody leaves ... the partnership
    remains intact for the remainder of the box run". Below `partner_min_players` a
    partnership that did not just win ends: its Partner goes back to where the rotation
    took him from, next after the Captain (`fibs_partner`)."""
    if seating.partner is None or just_won or len(seating.players) >= partner_min_players:
        return seating
    team = (*seating.team[:1], seating.partner, *seating.team[1:])
    return Seating(seating.box, None, team, None, seating.newcomers)


def skip_away(seating: Seating, away: frozenset[str]) -> Seating:
    """FIBS Stepping away: an away player at the top of the rotation moves to the back."""
    team = list(seating.team)
    for _ in range(len(team)):
        if team[0] not in away:
            return replace(seating, team=tuple(team))
        team.append(team.pop(0))
    return seating


def resign_box(seating: Seating, *, allowed: bool = True) -> Seating:
    """The Box gives up the box: the Captain takes it and the old Box goes to the bottom.

    Villages 15 allows it; FIBS does not ("a player is not permitted to pass the box").
    """
    if not allowed:
        raise SeatingError(code="no_passing")
    team = (drop_partner(seating) if seating.partner else seating).team
    rest = [p for p in team if p != seating.captain]
    return seat_from(seating.captain, None, [*rest, seating.box])
