"""GNU Backgammon's verdict (contract 5's object) in words: the post-game message in #board,
a player's list of errors, and one error's numbers beside its board.

Pure functions of the analysis result. Names come through `shown` (player key -> name as a
message writes it, already escaped: `bot.words.markdown.escape`); the words are in `locale`'s
language (the table's for what #board shows, the reader's for a private reply). Equities
are gnubg's, normalised to a cube of 1; the figures are gnubg's statistics (`show statistics
game`): the checker plays with a choice, the close or actual cube decisions, their losses and
error rates (the loss per decision in thousandths, mEMG), shown with gnubg's sign (a loss
is negative), and gnubg's rating word for the overall rate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store import PlayerTotals
from bot.words.i18n import tr, translate
from rules.cube import Side

Decision = Mapping[str, Any]
Shown = Callable[[str], str]

ERROR = 0.030  # gnubg's "doubtful": a decision losing this much or more is an error
MARKS = ((0.120, "very bad"), (0.060, "bad"), (0.030, "doubtful"))  # gnubg's thresholds
NOTICED = 0.0005  # a loss that shows as 0.001 or more: listed by the command
CUBE_KINDS = ("double", "take")
CHOICES = ("double", "no double", "take", "drop", "beaver")  # a cube's choices, as gnubg's
CLOSE = 0.16  # gnubg's isCloseCubedecision: a no double within this of doubling is close
# the pinned gnubg module's rating words for an error rate per decision (its `errorrating`:
# under each limit, that word; above the last, "Beginner"), as the worker's `rating`
RATINGS = ((0.005, "Super Grandmaster"), (0.008, "Grandmaster"), (0.013, "Master"),
           (0.020, "Advanced"), (0.032, "Intermediate"))


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
        """The error rate as gnubg prints it, a loss negative: "-6.0 mEMG"."""
        return f"{-self.rate:.1f} mEMG" if round(self.rate, 1) else "0.0 mEMG"

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON numbers (`python -m bot stats`): the summed loss, and the
        rate in mEMG per decision with gnubg's sign (negative), None without a decision."""
        return {"decisions": self.decisions, "errors": self.errors,
                "loss": round(self.loss, 6),
                "rate": round(-self.rate, 6) + 0.0 if self.decisions else None}

    def text(self, what: str, locale: object = None) -> str:
        """"checker 2 errors in 14, -0.084, 6.0 mEMG" (`what`: the kind, in words)."""
        errors = (translate("1 error", locale) if self.errors == 1
                  else tr("{count} errors", locale, count=self.errors))
        return tr("{kind} {errors} in {decisions}, -{loss}, {rate}", locale, kind=what,
                  errors=errors, decisions=self.decisions, loss=format(self.loss, ".3f"),
                  rate=self.per_decision)

    def __add__(self, other: Figures) -> Figures:
        return Figures(self.decisions + other.decisions, self.errors + other.errors,
                       self.loss + other.loss)


def kept(totals: PlayerTotals) -> tuple[Figures, Figures]:
    """A player's (checker, cube) figures from a row the store keeps them in
    (`analysis_totals`: one game's, or summed by `Analyses.sums` and `Analyses.sessions`)."""
    _, checkers, checker_errors, checker_loss, cubes, cube_errors, cube_loss = totals
    return (Figures(checkers, checker_errors, checker_loss),
            Figures(cubes, cube_errors, cube_loss))


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


def rating_word(per_decision: float) -> str:
    """gnubg's rating word for an error rate per decision (EMG, not negative)."""
    return next((word for limit, word in RATINGS if per_decision < limit), "Beginner")


def rating(overall: Figures) -> str | None:
    """gnubg's rating word for a player's figures (checker and cube together), or None
    without a decision (gnubg's "n/a")."""
    return rating_word(overall.loss / overall.decisions) if overall.decisions else None


def counted(d: Decision) -> float | None:
    """The loss gnubg's statistics count for a decision, or None where they count nothing
    (the worker's `analysis.verdict.statistics`): a checker play with a choice; a double;
    a no double that was close or missed (the better of No double and the double, less the
    lower of Double/take and 1, under 0.16); a take or a drop, rated between the two alone
    (DT - DP for a take where the pass was better, DP - DT for a drop where the take was);
    never a beaver."""
    if d["kind"] not in CUBE_KINDS:
        return float(d["loss"]) if "details" in d else None
    cube = d.get("details")
    played = d.get("played")
    if d["kind"] == "double":
        if played == "double" or not cube:  # a verdict without gnubg's numbers: all
            return float(d["loss"])
        best = max(cube["nd"], min(cube["dt"], cube["dp"]))
        return float(d["loss"]) if best - min(cube["dt"], 1.0) < CLOSE else None
    if played == "beaver":
        return None
    if not cube or played not in ("take", "drop"):
        return float(d["loss"])
    gap = float(cube["dt"]) - float(cube["dp"])
    return max(gap if played == "take" else -gap, 0.0)


def rated(decision: Decision) -> bool:
    """Whether gnubg's statistics count a decision (forced plays, clear no doubles and
    beavers they do not)."""
    return counted(decision) is not None


def figures(decisions: Iterable[Decision], player: str) -> tuple[Figures, Figures]:
    """`player`'s (checker, cube) figures over `decisions`, counted as gnubg counts them
    (what the decisions list holds: the answer that ends a beaver is not in it, see
    `totals`)."""
    checker, cube = Figures(), Figures()
    for d in decisions:
        loss = counted(d) if d["player"] == player else None
        if loss is None:
            continue
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
    could not make), gnubg's statistics: the worker's counts and rates (contract 5's
    `unforced`, `cube_close`, `rates`), the errors among the decisions listed. A verdict
    made before the worker gave them is counted from its decisions (`figures`). What
    `/chouette stats` sums over the games (kept per game by
    `bot.analysis.queue.AnalysisStore`)."""
    decisions = list(result.get("decisions") or ())
    rows: Mapping[str, Any] = result.get("players") or {}
    found = {}
    for player in dict.fromkeys([*players(decisions), *rows]):
        checker, cube = figures(decisions, player)
        row = rows.get(player) or {}
        if "unforced" in row and "cube_close" in row:
            rates = row.get("rates") or {}
            cube_loss = -float(rates.get("cube") or 0.0) * row["cube_close"] / 1000
            checker = Figures(row["unforced"], checker.errors, float(row["move_loss"]))
            cube = Figures(row["cube_close"], cube.errors, max(cube_loss, 0.0))
        if checker.decisions or cube.decisions:
            found[player] = (checker, cube)
    return found


def summed(games: Iterable[Mapping[str, Any]]) -> dict[str, tuple[Figures, Figures]]:
    """Each player's figures over several verdicts (`totals` of each, added)."""
    found: dict[str, tuple[Figures, Figures]] = {}
    for result in games:
        for player, (checker, cube) in totals(result).items():
            was = found.get(player, (Figures(), Figures()))
            found[player] = (was[0] + checker, was[1] + cube)
    return found


def mark(loss: float, locale: object = None) -> str:
    """gnubg's word for a decision's loss ("very bad", "bad", "doubtful"), or ""."""
    word = next((word for limit, word in MARKS if loss >= limit), "")
    return translate(word, locale) if word else ""


def _marked(loss: float, locale: object = None) -> str:
    """" (bad)" after an error, or "" for a loss under gnubg's marks."""
    word = mark(loss, locale)
    return f" ({word})" if word else ""


def worst(decisions: Iterable[Decision]) -> Decision | None:
    """The decision that lost most (the first of equals), or None if none lost anything."""
    found = max(decisions, key=lambda d: float(d["loss"]), default=None)
    return found if found is not None and float(found["loss"]) >= NOTICED else None


def _an(value: int) -> bool:
    """Whether a number is said with a vowel first: "an 8-cube", "an 11-cube"."""
    digits = str(value)
    return digits.startswith("8") or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))


def _cube(d: Decision, shown: Shown, value: int, locale: object = None) -> str:
    """"a 2-cube", "an 8-cube" (the player's own), or "carol's 2-cube"."""
    team = d["cube"]["team"]
    if team == d["player"]:
        if _an(value):
            return tr("an {value}-cube", locale, value=value)
        return tr("a {value}-cube", locale, value=value)
    return tr("{player}'s {value}-cube", locale, player=shown(team), value=value)


def _answer(answer: str, locale: object = None) -> str:
    """An answer to a double as gnubg's best: "a take", "a drop", "a beaver"."""
    if answer == "take":
        return translate("a take", locale)
    if answer == "drop":
        return translate("a drop", locale)
    if answer == "beaver":
        return translate("a beaver", locale)
    return f"a {answer}"


def what(d: Decision, shown: Shown, locale: object = None) -> str:
    """What was done and what gnubg says was right: "dropped a 2-cube that was a take"."""
    if d["kind"] == "take":
        cube = _cube(d, shown, int(d["cube"]["value"]) * 2, locale)
        best = _answer(str(d["best"]), locale)
        if d["played"] == "take":
            return tr("took {cube} that was {best}", locale, cube=cube, best=best)
        if d["played"] == "drop":
            return tr("dropped {cube} that was {best}", locale, cube=cube, best=best)
        if d["played"] == "beaver":
            return tr("beavered {cube} that was {best}", locale, cube=cube, best=best)
        return f"{d['played']} {cube} that was {best}"
    if d["kind"] == "double":
        team = d["cube"]["team"]
        to = int(d["cube"]["value"]) * 2
        doubled = d["played"] == "double"
        if team == d["player"]:
            return (tr("doubled the cube to {value} when it was no double", locale, value=to)
                    if doubled else
                    tr("did not double the cube to {value} when it was a double", locale,
                       value=to))
        return (tr("doubled {player}'s cube to {value} when it was no double", locale,
                   player=shown(team), value=to)
                if doubled else
                tr("did not double {player}'s cube to {value} when it was a double", locale,
                   player=shown(team), value=to))
    dice = "-".join(str(n) for n in d.get("dice") or ())
    return tr("played {play} with {dice}, best {best}", locale, play=d["played"], dice=dice,
              best=d["best"])


def phrase(d: Decision, shown: Shown, locale: object = None) -> str:
    """"bob: dropped a 2-cube that was a take, -0.132"."""
    return f"{shown(d['player'])}: {what(d, shown, locale)}, -{float(d['loss']):.3f}"


def _parts(checker: Figures, cube: Figures, locale: object = None) -> list[str]:
    """A player's checker and cube figures in words (a kind he had none of left out), then
    his overall rate and gnubg's rating word for it."""
    parts = [f.text(kind, locale) for f, kind in ((checker, translate("checker", locale)),
                                                  (cube, translate("cube", locale)))
             if f.decisions]
    overall = checker + cube
    word = rating(overall)
    if word is not None:
        parts.append(tr("overall {rate} ({rating})", locale, rate=overall.per_decision,
                        rating=translate(word, locale)))
    return parts


def player_lines(found: Mapping[str, tuple[Figures, Figures]], shown: Shown,
                 locale: object = None) -> list[str]:
    """One line a player: his checker and cube figures apart (a kind he had none of left
    out), his overall rate and rating (`found`: `totals` or `summed`)."""
    lines = []
    for player, (checker, cube) in found.items():
        parts = _parts(checker, cube, locale)
        if parts:
            lines.append(f"{shown(player)}: " + " · ".join(parts))
    return lines


def post_game(result: Mapping[str, Any], game: int, plies: int, shown: Shown,
              locale: object = None) -> str:
    """The message in #board after game `game`: each player's checker and cube figures
    apart, and the worst error of the game named. A few lines, never a wall. In `locale`'s
    language (the table's)."""
    decisions = list(result["decisions"])
    lines = [tr("**GNU Backgammon on game {game}** ({plies}-ply; errors are losses of "
                "{error} or more; `/chouette analysis` for the details)", locale, game=game,
                plies=plies, error=format(ERROR, ".3f"))]
    lines += player_lines(totals(result), shown, locale)
    bad = worst(decisions)
    if bad is None:
        lines.append(translate("No error: gnubg agrees with every decision.", locale))
    else:
        lines.append(tr("Worst: {error}", locale, error=phrase(bad, shown, locale))
                     + _marked(float(bad["loss"]), locale))
    return "\n".join(lines)


def listed(decisions: Iterable[Decision], player: str | None) -> list[Decision]:
    """The decisions a player's list shows: those that lost anything, in the order made
    (of `player`, or of everyone)."""
    return [d for d in decisions if (player is None or d["player"] == player)
            and float(d["loss"]) >= NOTICED]


def error_list(games: Mapping[int, Mapping[str, Any]], player: str | None,
               shown: Shown, locale: object = None) -> tuple[str, list[Decision]]:
    """A player's (or everyone's) figures and numbered errors over `games` (game number ->
    result): the text, and the decisions numbered 1, 2, ... in it."""
    every = [d for number in sorted(games) for d in _numbered(games[number], number)]
    found = summed(games[number] for number in sorted(games))
    who = [player] if player is not None else list(found)
    lines = []
    for p in who:
        parts = _parts(*found.get(p, (Figures(), Figures())), locale)
        lines.append(f"{shown(p)}: "
                     + (" · ".join(parts) or translate("no decision", locale)))
    errors = listed(every, player)
    for index, d in enumerate(errors, 1):
        lines.append(tr("`{index}.` game {game}: {player} {error}, -{loss}", locale,
                        index=index, game=d["game"], player=shown(d["player"]),
                        error=what(d, shown, locale), loss=format(float(d["loss"]), ".3f"))
                     + _marked(float(d["loss"]), locale))
    if not errors:
        lines.append(translate("No error: gnubg agrees with every decision.", locale))
    return "\n".join(lines), errors


def _numbered(result: Mapping[str, Any], number: int) -> list[Decision]:
    """A game's decisions, each with its game's number at the table (a transcript of one
    game numbers it 1)."""
    return [{**d, "game": number} for d in result["decisions"]]


def numbers(d: Decision, plies: int, locale: object = None) -> str:
    """gnubg's numbers for one decision: ND / DT / DP for a cube, the best plays for a move."""
    details = d.get("details") or {}
    head = tr("gnubg at {plies}-ply", locale, plies=plies)
    loss = f"{float(d['loss']):.3f}"
    if d["kind"] in CUBE_KINDS and details:
        cube = tr("No double {nd} · Double, take {dt} · Double, pass {dp}", locale,
                  nd=format(details["nd"], "+.3f"), dt=format(details["dt"], "+.3f"),
                  dp=format(details["dp"], "+.3f"))
        seen = (translate(" (the doubler's equities: take = -DT, drop = -1)", locale)
                if d["kind"] == "take" else "")
        return tr("{head}{seen}: {cube}. Best: {best}; played: {played}, -{loss}.", locale,
                  head=head, seen=seen, cube=cube, best=translate(str(d["best"]), locale),
                  played=translate(str(d["played"]), locale), loss=loss)
    if details:
        plays = "; ".join(f"{i}. {p['play']} {p['equity']:+.3f}"
                          for i, p in enumerate(details["plays"], 1))
        played = details["played"]
        return tr("{head}, best plays: {plays}. Played: {play} {equity} (rank {rank}), "
                  "-{loss}.", locale, head=head, plays=plays, play=played["play"],
                  equity=format(played["equity"], "+.3f"), rank=played["rank"], loss=loss)
    return tr("{head}: forced play.", locale, head=head)


def side_to_move(d: Decision, box: str) -> Side:
    """The side whose turn the decision's Position ID shows (for `take`, the doubler's):
    a cube decision says it by its cube's Team player; a play by its player (`box`: the
    game's Box; an Acting Box's plays are drawn as the Team's)."""
    if d["kind"] in CUBE_KINDS:
        team = d["player"] == d["cube"]["team"]
        return Side.TEAM if team != (d["kind"] == "take") else Side.BOX
    return Side.BOX if d["player"] == box else Side.TEAM


def session(games: Mapping[int, Mapping[str, Any]], plies: Iterable[int],
            shown: Shown, locale: object = None) -> str:
    """The message beside the final sheet: each player's checker and cube figures over every
    game analysed, and the worst error of the session, in `locale`'s language (the
    table's)."""
    every = [d for number in sorted(games) for d in _numbered(games[number], number)]
    depth = "/".join(f"{p}-ply" for p in sorted(set(plies)))
    numbers = sorted(games)
    which = (tr("game {number}", locale, number=numbers[0]) if len(numbers) == 1
             else tr("{count} games", locale, count=len(numbers)))
    lines = [tr("**GNU Backgammon over the session** ({games}, {depth}; "
                "`/chouette analysis` for each error)", locale, games=which, depth=depth)]
    lines += player_lines(summed(games[number] for number in numbers), shown, locale)
    bad = worst(every)
    if bad is not None:
        lines.append(tr("Worst: game {game}, {error}", locale, game=bad["game"],
                        error=phrase(bad, shown, locale))
                     + _marked(float(bad["loss"]), locale))
    return "\n".join(lines)
