"""Each Team player's own game: his cube against the Box, as a money game of its own, written
as a Jellyfish .mat file that GNU Backgammon (`import mat`) and eXtreme Gammon read.

In a chouette every Team player has his own cube against the Box (against the Box's Partner
too, where the table gives him a cube against each): each such cube is a two-player money game,
the Box's and the Captain's checker plays with that cube's doubles, beavers, raccoons, takes
and drops, to its drop or the game's result. The file holds one .mat game per cube: gnubg
then rates it as the bot's analysis does (docs/analysis.md), decision by decision.

Pure functions over a table's events in order (standard library, `rules/` and the game walk
of `bot.records.games`). A .mat has no place for the table's rules: its header names them
(`[Jacoby]`, `[Beaver]`, as eXtreme Gammon writes them) and says which gnubg settings to use,
since gnubg takes Jacoby and beavers from its own settings when it imports (docs/records.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.records.games import BoardGame, RecordError, board_games, mat_game, played
from rules.board import GameKind
from rules.cube import Cube, Side, scored
from rules.events import CubeTurned, Event, GameEnded, Moved, Rolled
from rules.ruleset import RuleSet

# a cube's turn as the .mat writes it (gnubg's ParseMatMove reads "Doubles", "Beavers",
# "Raccoons", "Takes", "Drops"); an aardvark is one more redouble, as a raccoon
_REDOUBLES = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons",
              "aardvark": "Raccoons"}


@dataclass
class CubeGame:
    """One cube's money game: game `number`, the Team player `team` against `box` (the Box or
    his Partner), every action in order as (side, .mat text), and how it ended: `winner`
    and the `points` that cube won (None while it is going on, or where a rule gnubg does
    not know went on with it: `stopped` says which)."""

    number: int
    team: str
    box: str
    names: dict[str, str]
    rules: RuleSet
    start: int  # the cube when the game started (an automatic double makes it 2)
    value: int = 1  # the cube's value now
    taken: bool = False  # turned and taken (a beaver takes): gammons count under Jacoby
    cells: list[tuple[Side, str]] = field(default_factory=list)
    winner: Side | None = None
    points: int | None = None
    stopped: str = ""
    _beavered: bool = False

    @property
    def over(self) -> bool:
        """The cube's game has its result, or stopped at a rule gnubg has no action for."""
        return self.winner is not None or bool(self.stopped)

    def shown(self, side: Side) -> str:
        """The name of the cube's player on `side`."""
        player = self.box if side is Side.BOX else self.team
        return self.names.get(player, player)


def _own(cube: Cube) -> bool:
    return not cube.is_extra and not cube.penalty


def cube_games(events: Iterable[Event]) -> list[CubeGame]:
    """Every Team cube's game, game by game (in the order the games started), each game's
    cubes in the order of its `GameStarted`."""
    return [cube for game in board_games(events) for cube in cubes_of(game)]


def cubes_of(game: BoardGame) -> list[CubeGame]:
    """Each Team cube's game in one game played on the board, in the order of its
    `GameStarted`."""
    names = {m.player: m.shown for m in game.before.members}
    started = game.started
    found = {(c.team_player, c.box_player): CubeGame(started.number, c.team_player,
                                                      c.box_player, names, game.before.rules,
                                                      c.value, c.value)
             for c in started.cubes if _own(c)}

    def play(side: Side, text: str) -> None:
        for cube in found.values():
            if not cube.over:
                cube._beavered = False
                cube.cells.append((side, text))

    dice = started.dice
    for event in game.events:
        match event:
            case Rolled(side, rolled, passed):
                dice = rolled
                if passed:
                    play(side, f"{rolled[0]}{rolled[1]}:")
            case Moved(side, text) if dice is not None:
                play(side, f"{dice[0]}{dice[1]}: {text}")
            case CubeTurned(cube) if _own(cube) and (cube.team_player,
                                                     cube.box_player) in found:
                mine = found[cube.team_player, cube.box_player]
                if not mine.over:
                    _turned(mine, event)
            case GameEnded(winner, kind):
                for mine in found.values():
                    if not mine.over:
                        mine.winner, mine.points = winner, _points(mine, kind)
    return list(found.values())


def _turned(mine: CubeGame, event: CubeTurned) -> None:
    """One turn of the cube: a .mat cell, or the end of the cube's game."""
    cube, action = event.cube, event.action
    if action in _REDOUBLES:
        # the doubler offers; a beaver or raccoon is turned by the side that now owns it
        side = cube.offered_by if action == "double" else cube.owner
        assert side is not None
        mine.cells.append((side, f"{_REDOUBLES[str(action)]} => {cube.value}"))
        mine._beavered, mine.value = action == "beaver", cube.value
        mine.taken = mine.taken or action != "double"
    elif action == "take":
        assert cube.owner is not None
        if not mine._beavered:  # a beaver's take is the doubler's next roll (.mat, gnubg)
            mine.cells.append((cube.owner, "Takes"))
        mine._beavered, mine.taken = False, True
    elif action == "drop":
        assert cube.winner is not None
        mine.cells.append((cube.winner.other, "Drops"))
        mine.winner, mine.points, mine.value = cube.winner, cube.value, cube.value
    else:  # a settlement, a sale, a withdrawn double, ...: no .mat (nor gnubg) action
        mine.stopped = str(action) if isinstance(action, str) else action.code


def _points(mine: CubeGame, kind: str) -> int:
    """The cube's points for a result (at its value: no stake), as the rules score it."""
    return mine.value * scored(GameKind[kind.upper()], mine.taken, mine.rules.jacoby)


# -- the .mat file ---------------------------------------------------------------------------


def to_mat(cubes: Sequence[CubeGame]) -> str:
    """The cubes' games as a Jellyfish .mat money session ("0 point match"), one .mat game
    per cube: the Box-side player on the left (gnubg's player 0), the Team player on the
    right. Each line holds the left side's action then the right side's, as gnubg writes
    them; a side's turn the other does not answer leaves its cell empty."""
    rules = cubes[0].rules if cubes else RuleSet()
    lines = ['; [Site "chouette-bot"]',
             f'; [Jacoby "{"On" if rules.jacoby else "Off"}"]',
             f'; [Beaver "{"On" if rules.beavers else "Off"}"]',
             "; Each Team player's own cube against the Box, as a money game of its own: the "
             "Box's and the Captain's checker plays, that cube's doubles and answers.",
             f"; For GNU Backgammon: set jacoby {'on' if rules.jacoby else 'off'}, "
             f"set beavers {3 if rules.beavers else 0}, then import mat this file."]
    lines += [f"; Game {c.number}, {c.shown(Side.TEAM)}'s cube starts at {c.start} (an "
              "automatic double): a .mat can't say so, gnubg starts it at 1"
              for c in cubes if c.start > 1]
    lines += [f"; Game {c.number}, {c.shown(Side.TEAM)}'s cube: the file stops where the "
              f"table went on by a rule gnubg has no action for ({c.stopped})"
              for c in cubes if c.stopped]
    lines += ["", " 0 point match", ""]
    score = {Side.BOX: 0, Side.TEAM: 0}
    for n, cube in enumerate(cubes, 1):
        before = dict(score)  # the header's scores: before this game
        steps = list(cube.cells)
        if cube.winner is not None and cube.points is not None:
            score[cube.winner] += cube.points
            steps.append((cube.winner, f"Wins {cube.points} point"
                                       f"{'s' if cube.points > 1 else ''}"))
        cells: list[str] = []
        for side, text in steps:  # left (Box) in even places, right (Team) in odd
            if len(cells) % 2 != (side is Side.TEAM):
                cells.append("")
            cells.append(text)
        lines += [*mat_game(n, f"{cube.shown(Side.BOX)} (Box)", cube.shown(Side.TEAM), before,
                            cells), ""]
    return "\n".join(lines) + "\n"


def export(events: Iterable[Event], player: str, game: int | None = None) -> str:
    """The .mat of `player`'s own cubes (his key, or his name as shown) in game `game` or
    in every game played on the board; RecordError when he had no cube of his own there
    (the Box has none: his side of each cube is in its Team player's file)."""
    events = list(events)
    records = played(events)
    if game is not None and all(r.number != game for r in records):
        there = ", ".join(str(r.number) for r in records)
        raise RecordError(f"There is no game {game} on the board at this table "
                          f"(games: {there}).")
    every = cube_games(events)
    keys = {c.team for c in every} | {r.box for r in records}
    names = {c.names.get(k, k).casefold(): k for c in every for k in (c.team, c.box)}
    key = player if player in keys else names.get(player.casefold(), player)
    mine = [c for c in every if c.team == key and game in (None, c.number)]
    if not mine:
        where = f"game {game}" if game is not None else "any game on the board here"
        who = next((c.names[key] for c in every if key in c.names), player)
        raise RecordError(f"{who} had no cube of their own in {where}: only a Team player "
                          "has one (the Box's side of each cube is in that player's file).")
    return to_mat(mine)
