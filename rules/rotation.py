"""The five rotations: who sits where for the next game (seats, joins, the Partner: seating.py).

After each game the rule set's rotation (`ROTATIONS[name]`) turns the `Seating` and a
`GameSummary` into the next `Seating`. All pure: dice are passed in, nothing is drawn. Every
rotation takes the same keyword options, named as in `RuleSet`; each docstring maps its
document onto them and gives the reading chosen where it is unclear. Refusals: `SeatingError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.errors import BadOption, SeatingError
from rules.messages import Player, Players
from rules.seating import Seating, fibs_partner, queue_of, seat_from, skip_away

Side = Literal["box", "team"]
Retention = Literal["win", "win_no_loss", "win_profit", "beat_all"]



@dataclass(frozen=True)
class GameSummary:
    """The facts of one finished game that the rotation rules read, as plain data.

    A Team player not in `dropped`, `doubled_out` or `settled` played the game to its end.
    `box_net` is the Box side's (Box and Partner) net for the game as the rule set counts it
    to keep the box: Box-Partner deals never count (Atlanta 4.5), euro leaves penalties out.
    """

    winner: Side  # won the game played out or ended by the last drop (FIBS, Villages 15)
    box_net: Fraction
    dropped: tuple[str, ...] = ()  # passed a Box double, in the order they passed
    doubled_out: tuple[str, ...] = ()  # the Box passed their double: they won and sat out
    settled: Mapping[str, Fraction] = field(default_factory=dict)  # Box paid them; 0: neither
    acting_captains: tuple[str, ...] = ()  # in order (Atlanta 6.2, Villages 11a/12b)
    partner_stays: bool = True  # his turn to captain comes: he stays Partner (Atlanta 6.4)
    new_box_plays_alone: bool = False  # the losing Box does not become Partner (Atlanta 6.3)
    away: frozenset[str] = frozenset()  # FIBS: away at the top of the rotation, to the back

    def beat_box(self, player: str) -> bool | None:
        """Whether a Team player beat the Box this game; None for a cube settled for zero."""
        if player in self.dropped:
            return False
        if player in self.doubled_out:
            return True
        if player in self.settled:
            amount = self.settled[player]
            return None if amount == 0 else amount > 0
        return self.winner == "team"




def _check(seating: Seating, summary: GameSummary) -> None:
    """Refuse a summary that names players off the Team or one player leaving twice."""
    out = [*summary.dropped, *summary.doubled_out, *summary.settled]
    strangers = [p for p in {*out, *summary.acting_captains} if p not in seating.team]
    if strangers:
        raise SeatingError(code="summary_strangers", team=Players(seating.team),
                           strangers=Players(sorted(strangers)))
    if len(set(out)) != len(out):
        raise SeatingError(code="leaves_once")
    if len(set(summary.acting_captains)) != len(summary.acting_captains):
        raise SeatingError(code="acting_once")
    if seating.captain in summary.acting_captains:
        raise SeatingError(code="captain_not_acting", captain=Player(seating.captain))


def _retains(seating: Seating, summary: GameSummary, won: bool, retention: Retention) -> bool:
    """Whether a Box who `won` his contest keeps the box under `retention`."""
    net, team = summary.box_net, seating.team
    return won and {"win": True, "win_no_loss": net >= 0, "win_profit": net > 0,
                    "beat_all": not any(summary.beat_box(p) for p in team)}[retention]



def atlanta(seating: Seating, summary: GameSummary, *,
            box_retention: Retention = "win_profit", partner_min_players: int = 6) -> Seating:
    """Seat the next game by the Atlanta rules 6.1-6.4 (1.2: a Partner from 6 players).

    6.1 the winner of Box v. initial Captain (`beat_box`) is Box; a Box who wins keeps it as
    `box_retention` says, else (or on a zero settlement) he goes behind the Captain at the end
    and the two after the Captain are Box and Captain. 6.2 the first Acting Captain captains
    next. 6.3 the Partner keeps his place; the losing Box becomes Partner unless
    `new_box_plays_alone` or the table is under `partner_min_players`. 6.4 `partner_stays`.
    Reading chosen: without the profit the player behind the Captain takes the box even if
    he was the first Acting Captain (6.1 over 6.2), or the Partner at his place.
    Reading chosen: 6.3's Partner rules apply to any win by the Captain, in the game too.
    Reading chosen: the first Acting Captain captains next even if the Partner's place was
    ahead of his. A partnership lasts while the Box keeps the box, even on a table shrunk
    below `partner_min_players` (4.5, as FIBS says).
    """
    _check(seating, summary)
    captain, old_box = seating.captain, seating.box
    queue = queue_of(seating)
    if seating.partner is not None and seating.partner_place is None:
        queue.append(seating.partner)
    queue.remove(captain)
    verdict = summary.beat_box(captain)
    partner = seating.partner
    if verdict is True:
        alone = summary.new_box_plays_alone or len(seating.players) < partner_min_players
        box, partner = captain, None if partner is None or alone else old_box
        queue.append(old_box)
    elif _retains(seating, summary, verdict is False, box_retention):
        box = old_box
        queue.append(captain)
    else:
        queue += [captain, old_box]
        box, partner = queue.pop(0), None
    first = summary.acting_captains[0] if summary.acting_captains else None
    if first is not None and first != box:
        queue.remove(first)
        queue.insert(0, first)
    return seat_from(box, partner, queue, stays=summary.partner_stays)


def euro(seating: Seating, summary: GameSummary, *,
         box_retention: Retention = "win_profit", partner_min_players: int = 6) -> Seating:
    """Seat the next game by the euro rules: Atlanta's rotation in other words.

    Captain beats Box (game or cube): he is Box. Box beats Captain: he stays with an overall
    profit (> 0; leave penalties out of `box_net`), else the next two are Box and Captain and
    the old Captain and Box go last. The first Acting Captain is Captain next, or even Box.
    A Partner (over 5 players) is the Captain moved to the Box side (`partner_from="captain"`).
    Reading chosen: silent on how the Partner rotates, so Atlanta 6.3/6.4 apply.
    """
    return atlanta(seating, summary, box_retention=box_retention,
                   partner_min_players=partner_min_players)


def fibs(seating: Seating, summary: GameSummary, *,
         box_retention: Retention = "win", partner_min_players: int = 6) -> Seating:
    """Seat the next game by the FIBS Chouette Regulations, "Order of play".

    `winner` decides, even if the Captain passed a cube. Box wins: Box and Partner stay, the
    Captain goes to the bottom. Box loses: he goes to the bottom, the Captain is Box, a Partner
    captains. From `partner_min_players` a Box alone takes the player after the Captain
    (`fibs_partner`); below it a partnership lasts until the box run ends. `away` players
    reaching the top go to the back. `box_retention` beyond "win" is a house option.
    """
    _check(seating, summary)
    queue = list(seating.team[1:])
    won = summary.winner == "box"
    if _retains(seating, summary, won, box_retention):
        box, partner = seating.box, seating.partner
        queue.append(seating.captain)
    else:
        box, partner = seating.captain, None
        queue.append(seating.box)
        if seating.partner is not None:
            queue.insert(0, seating.partner)
    seated = skip_away(seat_from(box, partner, queue), summary.away)
    return fibs_partner(seated, partner_min_players=partner_min_players)


def villages(seating: Seating, summary: GameSummary, *,
             box_retention: Retention = "win_no_loss", partner_min_players: int = 6) -> Seating:
    """Seat the next game by the Villages rules 4, 11a, 12b, 15 (rule 1: no Partner).

    15: the Box stays while he wins the game and is at least even (`box_retention`); when he
    loses the game the Captain is Box and the Box goes to the bottom. 11a (`doubled_out`
    Captain): Box if his team wins, the Acting Captain captaining; Captain again if the Box
    wins. 12b (`dropped` Captain): falls to the bottom. `partner_min_players` is unused.
    Reading chosen: an Acting Captain who finishes keeps the top whoever wins (Atlanta 6.2);
    12b applies to him too. A Box who wins the game but is behind on money is not "winning"
    and 15 is silent on who then takes the box: Atlanta 6.1 (the seeds' fallback) says the
    Box "goes to the end of the Team behind the Captain, the player behind the original
    Captain becomes the Box, and the next player becomes the Captain": the Team is seated
    as for the Box's win (11a: a protected Captain captains again) and its first other
    player is Box, the old Box last.
    """
    _check(seating, summary)
    if seating.partner is not None:
        raise SeatingError(code="villages_no_partner")
    chain = (seating.captain, *summary.acting_captains)
    fallen = [c for c in chain if c in summary.dropped]
    protected = next((c for c in chain if c in summary.doubled_out), None)
    queue = [p for p in seating.team if p not in fallen] + fallen
    if summary.winner == "box":
        if seating.captain not in (*fallen, protected):
            queue = [*queue[1:], seating.captain]
        if _retains(seating, summary, True, box_retention):
            return seat_from(seating.box, None, queue)
        # 15 silent: as Atlanta 6.1 (a protected Captain alone on the Team takes it)
        box = next((p for p in queue if p != protected), queue[0])
    else:
        box = protected if protected is not None else queue[0]
    queue.remove(box)
    return seat_from(box, None, [*queue, seating.box])


def danish(seating: Seating, summary: GameSummary, *,
           box_retention: Retention = "beat_all", partner_min_players: int = 6) -> Seating:
    """Seat the next game by the Danish "winners move up" rules (four worked examples).

    The Box stays until he loses to anyone; then the winners in rank order (the first is Box),
    the losers, the Captain if he lost, the old Box. Acting Captains change nothing. If the
    Box loses, his Partner is Box and the top winner Partner (from `partner_min_players`).
    Reading chosen: a player's win is his own cube's result (`beat_box`); zero is no win.
    """
    if box_retention != "beat_all":
        raise BadOption(code="danish_beat_all")
    _check(seating, summary)
    captain, rest = seating.captain, seating.team[1:]
    winners = [p for p in seating.team if summary.beat_box(p)]
    if not winners:
        return seat_from(seating.box, seating.partner, [*rest, captain])
    order = [*winners, *(p for p in rest if p not in winners)]
    order += [] if captain in winners else [captain]
    order.append(seating.box)
    if seating.partner is None:
        return seat_from(order[0], None, order[1:])
    partner = order.pop(0) if len(seating.players) >= partner_min_players else None
    return seat_from(seating.partner, partner, order)


ROTATIONS: dict[str, Callable[..., Seating]] = {
    "atlanta": atlanta, "fibs": fibs, "villages": villages, "danish": danish, "euro": euro,
}
