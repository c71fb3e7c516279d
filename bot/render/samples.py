"""What the sample boards and sheets show, as data: the reference images
(`bot.render.reference`), the board's palette (`bot.render.palette.sample_picture`), the render
bench and the tests draw it. Players whose names are in other scripts (`WORLD`), and a long
session of eight players (`long_sheet`)."""

from __future__ import annotations

from fractions import Fraction

from bot.render.cubes import Roles
from bot.render.lastplay import LastPlay
from rules.board import Position
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.ledger import ScoreSheet, Transfer

ROLES = Roles(box="Bo", captain="Ann", partner="Pat", acting_captain="Cy")
TEAM = ("Ann", "Cy", "Dee", "Eve", "Fay", "Gus")
# After `sample_sheet`'s four games: Dee beat Box Cy and takes the box, Cy goes to the bottom.
NEXT_ROLES = {"Dee": "Box", "Eve": "Captain", "Ann": "2", "Bob": "3", "Cy": "4"}
# The Team's last play before the sample board: 13/8 6/4, in the Team's numbering.
LAST = LastPlay(Side.TEAM, left=(13, 6), reached=(8, 4))
# Display names in other scripts for the sample keys: the Danish, Spanish, Polish,
# Russian, Greek, Japanese and emoji names.
WORLD = {"Bo": "Søren Ærø", "Ann": "José", "Pat": "Łukasz", "Cy": "Дмитрий",
         "Dee": "Γιώργος", "Eve": "山田", "Fay": "🎲 DiceQueen", "Gus": "Ørjan Ødegård",
         "Bob": "Zoë Ångström"}


def world(key: str) -> str:
    """The display name of a sample key in `WORLD` (the key itself otherwise)."""
    return WORLD.get(key, key)


def midgame() -> Position:
    """A middle game with the Box on roll: checkers on both bars, a tall stack, two off."""
    team = {25: 1, 13: 6, 8: 2, 6: 4, 4: 2}  # the Team's own numbering
    box = {25: 1, 13: 2, 6: 3, 5: 2, 4: 2, 3: 2, 2: 1}  # the Box's own numbering, 2 off
    return Position.from_points(box, team)  # from the view of the Box, on roll


def full_strip() -> tuple[Cube, ...]:
    """Seven cubes in every state a chouette shows: dropped, in game both ways, centred at
    double stake, offered, a Partner's cube and an extra."""
    return (
        Cube("Ann", "Bo", 1, owner=None, state=CubeState.DROPPED, turned=True,
             winner=Side.BOX),
        Cube("Cy", "Bo", 2, owner=Side.TEAM, state=CubeState.TAKEN, turned=True,
             accepted=True),
        Cube("Dee", "Bo", 1, stake=2),
        Cube("Eve", "Bo", 4, owner=Side.BOX, state=CubeState.TAKEN, turned=True,
             accepted=True),
        Cube("Fay", "Bo", 2, state=CubeState.OFFERED, offered_by=Side.BOX, turned=True),
        Cube("Gus", "Pat", 1),
        Cube("Dee", "Bo", 2, owner=Side.TEAM, state=CubeState.TAKEN, turned=True,
             accepted=True, is_extra=True),
    )


def sample_sheet() -> tuple[ScoreSheet, tuple[str, ...], list[tuple[str, str]]]:
    """A short session: the sheet, the seating order and each game's (Box, Captain)."""
    players = ("Ann", "Bob", "Cy", "Dee", "Eve")
    one = Fraction(1)
    games = [
        [Transfer("Bob", "Ann", 2 * one), Transfer("Cy", "Ann", 2 * one),
         Transfer("Ann", "Dee", one), Transfer("Eve", "Ann", 4 * one)],
        [Transfer("Ann", "Bob", 2 * one), Transfer("Ann", "Cy", 2 * one),
         Transfer("Ann", "Dee", 2 * one), Transfer("Ann", "Eve", 2 * one)],
        [Transfer("Cy", "Bob", 2 * one), Transfer("Bob", "Dee", 4 * one),
         Transfer("Eve", "Bob", Fraction(1, 2))],
        [Transfer("Cy", "Dee", one), Transfer("Cy", "Eve", one), Transfer("Cy", "Ann", 2 * one),
         Transfer("Cy", "Bob", one)],
    ]
    roles = [("Ann", "Bob"), ("Ann", "Bob"), ("Bob", "Cy"), ("Cy", "Dee")]
    return ScoreSheet.of(games, players), players, roles


def long_sheet() -> tuple[ScoreSheet, tuple[str, ...], list[tuple[str, str]]]:
    """Eight players, 35 games (the phone case): the sheet, the seating order and each
    game's (Box, Captain). The Box rotates through the players; he wins the odd games from
    every Team player (2 points from the Captain, 1 from the others) and loses the even ones."""
    players = ("Bo", "Ann", "Pat", "Cy", "Dee", "Eve", "Fay", "Gus")
    games, roles = [], []
    for number in range(35):
        box = players[number % 8]
        team = [p for p in players if p != box]
        captain = team[number % 7]
        won = number % 2 == 0
        games.append([Transfer(*((p, box) if won else (box, p)),
                               Fraction(2 if p == captain else 1)) for p in team])
        roles.append((box, captain))
    return ScoreSheet.of(games, players), players, roles
