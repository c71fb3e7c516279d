"""Which cube a Team-side player's answer is for, and how a refusal names his cubes to him.

A player may have several cubes waiting at once: his own, a game he bought (FIBS §2, Atlanta
4.4) against the same Box, extras offered to him (Atlanta 5.7). He names one by the player
across it, or by its seat where two are against the same player; a refusal lists them in his
own words ("your cube against ann", "the game you bought from di").
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.commands import BadCommand
from rules.cube import Cube, Side
from rules.errors import NotYourTurn
from rules.messages import Phrase, Phrases, Player, Players
from rules.roles import cube_of
from rules.state import Game


def extras_waiting(game: Game, taker: str, givers: Sequence[str] | None) -> list[Cube]:
    """The extras offered to `taker` that an answer of his names (all when `givers` is
    None), when nothing else waits for him; an empty list otherwise."""
    waiting = [c for c in game.cubes if c.to_act is not None and c.player(c.to_act) == taker]
    if not waiting or not all(c.is_extra and c.team_player == taker for c in waiting):
        return []
    return [c for c in waiting if givers is None or c.box_player in givers]


def awaiting(game: Game, player: str, others: Sequence[str] | None) -> Cube:
    """The one cube waiting for `player`'s answer (his own, or an extra he gave or holds);
    `others` names it when several wait: by the player across it, or by its seat (a game he
    bought is named by its seller, his own cube by himself)."""
    involved = [c for c in game.cubes if player in (c.player(Side.TEAM), c.box_player)]
    if not involved:
        raise NotYourTurn(code="no_cube_in_game", player=Player(player))
    waiting = [c for c in involved if c.to_act is not None and c.player(c.to_act) == player]
    labels = _labels(waiting, player)
    if others is not None:
        named = [c for c in waiting if labels[id(c)] in others
                 or (c.team_player in others and not c.is_extra)]
        if waiting and not named:
            raise NotYourTurn(code="no_cube_waiting" if others else "no_cube_waiting_nobody",
                              players=Players(map(str, others)),
                              waiting=_listed(waiting, player))
        waiting = named
    if not waiting:
        own = cube_of(game, player) or involved[0]
        raise NotYourTurn(code="nothing_waits_status", status=own.status(own.side_of(player)))
    if len(waiting) > 1:
        raise BadCommand(code="several_wait", waiting=_listed(waiting, player))
    return waiting[0]


def _labels(cubes: list[Cube], player: str) -> dict[int, str]:
    """The name `player` gives each cube in `cubes`: the player across it, or where two are
    against the same player (his own cube and a game he bought), its seat."""
    across = {id(c): c.player(c.side_of(player).other) for c in cubes}
    twice = {name for name in across.values() if list(across.values()).count(name) > 1}
    return {id(c): c.team_player if across[id(c)] in twice and not c.is_extra else across[id(c)]
            for c in cubes}


def _listed(cubes: list[Cube], player: str) -> Phrases:
    """The cubes waiting for `player`, each in words and with the name that picks it."""
    labels = _labels(cubes, player)
    return Phrases(Phrase("cube_label", cube=c.named(c.side_of(player)),
                          label=Player(labels[id(c)])) for c in cubes)
