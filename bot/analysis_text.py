"""GNU Backgammon's verdict (contract 5's object) in words: the post-game message in #board,
a player's list of errors, and one error's numbers beside its board.

Pure functions of the analysis result. Names come through `shown` (player key -> name as a
message writes it, already escaped: `bot.markdown.escape`). Equities are gnubg's, normalised
to a cube of 1; an error rate is gnubg's: the loss per decision in thousandths (mEMG).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.cube import Side

Decision = Mapping[str, Any]
Shown = Callable[[str], str]

ERROR = 0.030  # gnubg's "doubtful": a decision losing this much or more is an error
MARKS = ((0.120, "very bad"), (0.060, "bad"), (0.030, "doubtful"))  # gnubg's thresholds
NOTICED = 0.0005  # a loss that shows as 0.001 or more: listed by the command
CUBE_KINDS = ("double", "take")
_PAST = {"take": "took", "drop": "dropped", "beaver": "beavered"}


@dataclass(frozen=True)
class Figures:
    """One player's decisions of one kind: how many, how many errors (>= 0.030), their
    summed loss; `rate` is gnubg's error rate in mEMG (loss per decision x 1000)."""

    decisions: int = 0
    errors: int = 0
    loss: float = 0.0

    @property
    def rate(self) -> float:
        return self.loss / self.decisions * 1000 if self.decisions else 0.0

    @property
    def per_decision(self) -> str:
        """The error rate as the messages write it: "6.0 mEMG"."""
        return f"{self.rate:.1f} mEMG"

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON numbers (`python -m bot stats`): the rate in mEMG per
        decision, None without a decision."""
        return {"decisions": self.decisions, "errors": self.errors,
                "loss": round(self.loss, 6),
                "rate": round(self.rate, 6) if self.decisions else None}

    def text(self, what: str) -> str:
        """"checker 2 errors in 14, -0.084, 6.0 mEMG"."""
        errors = "1 error" if self.errors == 1 else f"{self.errors} errors"
        return f"{what} {errors} in {self.decisions}, -{self.loss:.3f}, {self.per_decision}"

    def __add__(self, other: Figures) -> Figures:
        return Figures(self.decisions + other.decisions, self.errors + other.errors,
                       self.loss + other.loss)


@dataclass(frozen=True)
class Analysed:
    """A player's figures summed over many analysed games (`/chouette stats`), and how many
    of those games were analysed at each depth (plies -> games)."""

    checker: Figures = Figures()
    cube: Figures = Figures()
    depths: Mapping[int, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return sum(self.depths.values())

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON numbers: checker and cube apart, the games analysed and how
        many at each depth (plies -> games)."""
        return {"games": self.games, "plies": dict(sorted(self.depths.items())),
                "checker": self.checker.as_json(), "cube": self.cube.as_json()}


def rated(decision: Decision) -> bool:
    """Whether a decision counts in the figures: every cube decision, and every checker play
    with a choice (gnubg leaves forced plays out of its error rate; they have no details)."""
    return decision["kind"] in CUBE_KINDS or "details" in decision


def figures(decisions: Iterable[Decision], player: str) -> tuple[Figures, Figures]:
    """`player`'s (checker, cube) figures over `decisions`."""
    checker, cube = Figures(), Figures()
    for d in decisions:
        if d["player"] != player or not rated(d):
            continue
        loss = float(d["loss"])
        mine = Figures(1, int(loss >= ERROR), loss)
        if d["kind"] in CUBE_KINDS:
            cube += mine
        else:
            checker += mine
    return checker, cube


def players(decisions: Sequence[Decision]) -> list[str]:
    """Everyone who made a decision, in the order of their first."""
    return list(dict.fromkeys(d["player"] for d in decisions))


def totals(result: Mapping[str, Any]) -> dict[str, tuple[Figures, Figures]]:
    """Each player's (checker, cube) figures in one verdict ({} for a verdict the worker
    could not make): what `/chouette stats` sums over the games (kept per game by
    `bot.analysis_queue.AnalysisStore`)."""
    decisions = list(result.get("decisions") or ())
    return {player: figures(decisions, player) for player in players(decisions)}


def mark(loss: float) -> str:
    """gnubg's word for a decision's loss ("very bad", "bad", "doubtful"), or ""."""
    return next((word for limit, word in MARKS if loss >= limit), "")


def worst(decisions: Iterable[Decision]) -> Decision | None:
    """The decision that lost most (the first of equals), or None if none lost anything."""
    found = max(decisions, key=lambda d: float(d["loss"]), default=None)
    return found if found is not None and float(found["loss"]) >= NOTICED else None


def _cube(d: Decision, shown: Shown, value: int) -> str:
    team = d["cube"]["team"]
    whose = "a" if team == d["player"] else f"{shown(team)}'s"
    return f"{whose} {value}-cube"


def what(d: Decision, shown: Shown) -> str:
    """What was done and what gnubg says was right: "dropped a 2-cube that was a take"."""
    if d["kind"] == "take":
        value = int(d["cube"]["value"]) * 2
        best = "a take" if d["best"] == "take" else f"a {d['best']}"
        return f"{_PAST.get(d['played'], d['played'])} {_cube(d, shown, value)} that was {best}"
    if d["kind"] == "double":
        team = d["cube"]["team"]
        whose = "the" if team == d["player"] else f"{shown(team)}'s"
        to = int(d["cube"]["value"]) * 2
        if d["played"] == "double":
            return f"doubled {whose} cube to {to} when it was no double"
        return f"did not double {whose} cube to {to} when it was a double"
    dice = "-".join(str(n) for n in d.get("dice") or ())
    return f"played {d['played']} with {dice}, best {d['best']}"


def phrase(d: Decision, shown: Shown) -> str:
    """"bob: dropped a 2-cube that was a take, -0.132"."""
    return f"{shown(d['player'])}: {what(d, shown)}, -{float(d['loss']):.3f}"


def player_lines(decisions: list[Decision], shown: Shown) -> list[str]:
    """One line a player: his checker and cube figures apart (a kind he had none of left out)."""
    lines = []
    for player in players(decisions):
        checker, cube = figures(decisions, player)
        parts = [f.text(kind) for f, kind in ((checker, "checker"), (cube, "cube"))
                 if f.decisions]
        if parts:
            lines.append(f"{shown(player)}: " + " · ".join(parts))
    return lines


def post_game(result: Mapping[str, Any], game: int, plies: int, shown: Shown) -> str:
    """The message in #board after game `game`: each player's checker and cube figures
    apart, and the worst error of the game named. A few lines, never a wall."""
    decisions = list(result["decisions"])
    lines = [f"**GNU Backgammon on game {game}** ({plies}-ply; errors are losses of "
             f"{ERROR:.3f} or more; `/chouette analysis` for the details)"]
    lines += player_lines(decisions, shown)
    bad = worst(decisions)
    if bad is None:
        lines.append("No error: gnubg agrees with every decision.")
    else:
        word = mark(float(bad["loss"]))
        lines.append(f"Worst: {phrase(bad, shown)}" + (f" ({word})" if word else ""))
    return "\n".join(lines)


def listed(decisions: Iterable[Decision], player: str | None) -> list[Decision]:
    """The decisions a player's list shows: those that lost anything, in the order made
    (of `player`, or of everyone)."""
    return [d for d in decisions if (player is None or d["player"] == player)
            and float(d["loss"]) >= NOTICED]


def error_list(games: Mapping[int, Mapping[str, Any]], player: str | None,
               shown: Shown) -> tuple[str, list[Decision]]:
    """A player's (or everyone's) figures and numbered errors over `games` (game number ->
    result): the text, and the decisions numbered 1, 2, ... in it."""
    every = [d for number in sorted(games) for d in _numbered(games[number], number)]
    who = [player] if player is not None else players(every)
    lines = []
    for p in who:
        checker, cube = figures(every, p)
        parts = [f.text(kind) for f, kind in ((checker, "checker"), (cube, "cube"))
                 if f.decisions]
        lines.append(f"{shown(p)}: " + (" · ".join(parts) or "no decision"))
    errors = listed(every, player)
    for index, d in enumerate(errors, 1):
        word = mark(float(d["loss"]))
        lines.append(f"`{index}.` game {d['game']}: {shown(d['player'])} {what(d, shown)}, "
                     f"-{float(d['loss']):.3f}" + (f" ({word})" if word else ""))
    if not errors:
        lines.append("No error: gnubg agrees with every decision.")
    return "\n".join(lines), errors


def _numbered(result: Mapping[str, Any], number: int) -> list[Decision]:
    """A game's decisions, each with its game's number at the table (a transcript of one
    game numbers it 1)."""
    return [{**d, "game": number} for d in result["decisions"]]


def numbers(d: Decision, plies: int) -> str:
    """gnubg's numbers for one decision: ND / DT / DP for a cube, the best plays for a move."""
    details = d.get("details") or {}
    head = f"gnubg at {plies}-ply"
    if d["kind"] in CUBE_KINDS and details:
        cube = (f"No double {details['nd']:+.3f} · Double, take {details['dt']:+.3f} · "
                f"Double, pass {details['dp']:+.3f}")
        seen = " (the doubler's equities: take = -DT, drop = -1)" if d["kind"] == "take" else ""
        return (f"{head}{seen}: {cube}. Best: {d['best']}; played: {d['played']}, "
                f"-{float(d['loss']):.3f}.")
    if details:
        plays = [f"{i}. {p['play']} {p['equity']:+.3f}"
                 for i, p in enumerate(details["plays"], 1)]
        played = details["played"]
        return (f"{head}, best plays: " + "; ".join(plays) + f". Played: {played['play']} "
                f"{played['equity']:+.3f} (rank {played['rank']}), -{float(d['loss']):.3f}.")
    return f"{head}: forced play."


def side_to_move(d: Decision, box: str) -> Side:
    """The side whose turn the decision's Position ID shows (for `take`, the doubler's):
    a cube decision says it by its cube's Team player; a play by its player (`box`: the
    game's Box; an Acting Box's plays are drawn as the Team's)."""
    if d["kind"] in CUBE_KINDS:
        team = d["player"] == d["cube"]["team"]
        return Side.TEAM if team != (d["kind"] == "take") else Side.BOX
    return Side.BOX if d["player"] == box else Side.TEAM


def session(games: Mapping[int, Mapping[str, Any]], plies: Iterable[int],
            shown: Shown) -> str:
    """The message beside the final sheet: each player's checker and cube figures over every
    game analysed, and the worst error of the session."""
    every = [d for number in sorted(games) for d in _numbered(games[number], number)]
    depth = "/".join(f"{p}-ply" for p in sorted(set(plies)))
    numbers = sorted(games)
    which = (f"game {numbers[0]}" if len(numbers) == 1
             else f"{len(numbers)} games")
    lines = [f"**GNU Backgammon over the session** ({which}, {depth}; "
             "`/chouette analysis` for each error)"]
    lines += player_lines(every, shown)
    bad = worst(every)
    if bad is not None:
        word = mark(float(bad["loss"]))
        lines.append(f"Worst: game {bad['game']}, {phrase(bad, shown)}"
                     + (f" ({word})" if word else ""))
    return "\n".join(lines)
