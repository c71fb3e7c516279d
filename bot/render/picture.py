"""What a board image shows, every text resolved: a `Picture`, plain hashable data, cheap to
make, and equal for equal boards (so equal pictures are equal images, and a picture can be
sent to another process to draw: `bot.render.board` draws it).

`picture` resolves a position and the chouette around it (the roles, the cubes, the last
play, the names shown) into the two legends, the felt, the status line and the cube strip;
`table_picture` does so for a table's state. The words are `words(english)`: the table's
language, as plain data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.render.cubes import Roles
from bot.render.felt import Felt
from bot.render.lastplay import LastPlay, last_play
from bot.render.text import readable
from bot.render.theme import DEFAULT, Shown, Theme, same
from bot.render.words import Words, english
from rules.board import Position
from rules.cube import Cube, Side
from rules.game import shooter, waiting_for
from rules.notation import position_id
from rules.roles import acting_captain
from rules.state import TableState

DEFAULT_WIDTH = 800


@dataclass(frozen=True)
class Legend:
    """One side's legend row: a checker of his, his label and sub-label (Partner, Acting
    Captain), his pips and checkers off in words ("167 pips · 3 off"), outlined when he is
    on roll."""

    side: Side
    label: str
    sub: str
    figures: str
    on_roll: bool


@dataclass(frozen=True)
class Strip:
    """The cube strip: the cubes, the roles (for the C and AC tags), each player's name
    drawn, as (key, name) pairs, and the words of its cards (`english`, or the table's
    language as plain data: `bot.words.i18n.Translation`)."""

    cubes: tuple[Cube, ...]
    roles: Roles | None
    names: tuple[tuple[str, str], ...]
    words: Words = english


@dataclass(frozen=True)
class Picture:
    """Everything a board image shows, every text resolved: equal pictures are equal images.
    Plain data, so it can also be sent to another process to draw."""

    width: int
    theme: Theme
    top: Legend
    felt: Felt
    bottom: Legend
    status: tuple[str, str]  # the status line, and the Position ID line under it
    strip: Strip


def picture(
    position: Position,
    *,
    on_roll: Side = Side.TEAM,
    dice: tuple[int, int] | None = None,
    cubes: Sequence[Cube] = (),
    roles: Roles | None = None,
    names: Mapping[Side, str] | None = None,
    status: str | None = None,
    bottom: Side = Side.TEAM,
    width: int = DEFAULT_WIDTH,
    theme: Theme = DEFAULT,
    shown: Shown = same,
    last: LastPlay | None = None,
    words: Words = english,
) -> Picture:
    """What `bot.render.board.render_board` draws (its arguments are `render_board`'s):
    cheap, and equal for equal boards."""
    shown = readable(shown)
    labels = _labels(roles, names, shown, words)
    if status is None:
        who = labels[on_roll]
        if roles is not None:
            who = shown(roles.box if on_roll is Side.BOX
                        else roles.acting_captain or roles.captain)
        status = whose_turn(who, dice, words)
    pips, off = _side_map(position.pips, on_roll), _side_map(position.off, on_roll)
    legends = {side: Legend(side, labels[side], _sub_label(side, roles, shown, words),
                            _figures(pips[side], off[side], words), side is on_roll)
               for side in Side}
    view = position if on_roll is bottom else position.swap()  # the bottom side's view
    players = sorted({key for cube in cubes for key in (cube.team_player, cube.box_player)})
    pid = words("Position ID {id}").format(id=position_id(position))
    return Picture(width, theme, legends[bottom.other], Felt(view, bottom, on_roll, dice, last),
                   legends[bottom], (status, pid),
                   Strip(tuple(cubes), roles, tuple((key, shown(key)) for key in players),
                         words))


def table_picture(state: TableState, *, width: int = DEFAULT_WIDTH,
                  theme: Theme = DEFAULT, words: Words = english) -> Picture:
    """What `bot.render.board.render_table` draws (raises as it does)."""
    game, seating = state.game, state.seating
    if game is not None and game.position is not None and game.on_roll is not None:
        position, on_roll = game.position, game.on_roll
    elif state.board is not None:
        position, on_roll = state.board
    else:
        raise ValueError("This table has no board to show yet.")
    cubes = game.cubes if game is not None else ()
    roles = None
    if seating is not None:
        acting = acting_captain(seating, cubes) if cubes else None
        roles = Roles(seating.box, seating.captain, seating.partner,
                      acting if acting != seating.captain else None, state.rules.single_cube)
    dice = game.dice if game is not None else None
    return picture(position, on_roll=on_roll, dice=dice, cubes=cubes, roles=roles,
                   status=_table_status(state, words), width=width, theme=theme,
                   shown=state.shown, last=last_play(game), words=words)


def _table_status(state: TableState, words: Words = english) -> str:
    """A table's line under the board: whose turn it is, who the table waits for, or that
    the game is over."""
    game, shown = state.game, readable(state.shown)
    if game is None:
        return words("Game {number} is over: its last position").format(
            number=state.games_played)
    waits = waiting_for(state)
    if waits:
        players = ", ".join(shown(p) for p in dict.fromkeys(player for player, _ in waits))
        if len(waits) == 1 or state.rules.single_cube:  # FIBS: the Team's one cube
            return words("Waiting for {players} to answer a cube").format(players=players)
        return words("Waiting for {players} to answer {cubes} cubes").format(
            players=players, cubes=len(waits))
    key = shooter(state)
    return whose_turn(shown(key) if key is not None else "?", game.dice, words)


def whose_turn(who: str, dice: tuple[int, int] | None, words: Words = english) -> str:
    """"Ann to play 6-5", or "Ann to roll" without dice: the line under the board."""
    if dice:
        return words("{player} to play {dice}").format(player=who, dice=f"{dice[0]}-{dice[1]}")
    return words("{player} to roll").format(player=who)


def _figures(pips: int, off: int, words: Words = english) -> str:
    """A side's pips and checkers off in words: "167 pips · 3 off"."""
    text = (words("{pips} pip") if pips == 1 else words("{pips} pips")).format(pips=pips)
    return text + words(" · {off} off").format(off=off) if off else text


def _side_map(pair: tuple[int, int], on_roll: Side) -> dict[Side, int]:
    return {on_roll: pair[0], on_roll.other: pair[1]}


def _labels(roles: Roles | None, names: Mapping[Side, str] | None,
            shown: Shown = same, words: Words = english) -> dict[Side, str]:
    labels = {Side.BOX: words("Box"), Side.TEAM: words("Team")}
    if roles is not None:
        labels = {Side.BOX: words("Box ({player})").format(player=shown(roles.box)),
                  Side.TEAM: words("Team (Captain {player})").format(
                      player=shown(roles.captain))}
    labels.update(names or {})
    return labels


def _sub_label(side: Side, roles: Roles | None, shown: Shown = same,
               words: Words = english) -> str:
    if roles is None:
        return ""
    if side is Side.BOX:
        return (words("Partner {player}").format(player=shown(roles.partner))
                if roles.partner else "")
    return (words("Acting Captain {player}").format(player=shown(roles.acting_captain))
            if roles.acting_captain else "")
