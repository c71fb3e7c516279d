"""A server's standings and a player's own page, as data for their templates.

Read from what #board showed alone: each of the server's tables' event log (the sheet's
points, who joined under which name, the games) and gnubg's verdicts on its games (each
player's figures per session, `Analyses.sessions`). A session counts in the month it was
opened (its first event, UTC). Names are as the tables name them, not escaped: the
templates escape every value, and the charts (`bot.web.chart`) every name they write.

The store reads (`read`, `player`, `played`) are apart from the pure computation (`months`,
`in_month`, `running`, `standings`, `rates`, ...), which is tested without a store.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from urllib.parse import quote

from bot.analysis.text import Figures, kept
from bot.records.stats import BOARD_EVENTS, PlayerStats, fold, session_stats
from bot.store import EventStore
from bot.web.chart import Chart, Series
from bot.web.links import Links
from bot.web.session import PlayerFigures, figures_of
from rules.ledger import format_points

Split = tuple[Figures, Figures]  # a player's (checker, cube) figures


@dataclass(frozen=True)
class Played:
    """One session at the server's tables: its table, when it was opened (its first event,
    Unix seconds; None where the store kept no time) and each player's record in it."""

    table_id: str
    opened: int | None
    players: dict[str, PlayerStats]


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: his totals, his gnubg figures (None where no game
    of his was analysed) and his own page's path."""

    key: str
    name: str
    points: str
    sessions: int
    games: int
    figures: PlayerFigures | None
    link: str


@dataclass(frozen=True)
class Standings:
    """Everything the standings' page shows: the players by points (highest first), the
    months with a session (newest first), the month chosen (None: all time) and the chart
    of each player's running score, session by session."""

    players: tuple[Standing, ...]
    months: tuple[str, ...]
    month: str | None
    sessions: int
    chart: Chart


@dataclass(frozen=True)
class SessionLine:
    """One of a player's sessions: when it was opened ("" if no time was kept), his points
    and games in it, his gnubg figures there (None if not analysed), its page's path."""

    when: str
    points: str
    games: int
    figures: PlayerFigures | None
    link: str


@dataclass(frozen=True)
class PlayerPage:
    """A player's own page: his totals and figures over all time, each session (newest
    first) and the chart of his overall rate per analysed session (oldest first)."""

    key: str
    name: str
    points: str
    sessions: int
    games: int
    first: str
    last: str
    figures: PlayerFigures | None
    lines: tuple[SessionLine, ...]
    chart: Chart


# -- pure computation ------------------------------------------------------------------------

def month_of(at: int | None) -> str | None:
    """The UTC month of a time, "YYYY-MM" (None for no time)."""
    return None if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m")


def day(at: int | None) -> str:
    """The UTC day of a time, "YYYY-MM-DD" ("" for no time)."""
    return "" if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


def in_order(played: Iterable[Played]) -> list[Played]:
    """The sessions in the order they were opened (those without a time first)."""
    return sorted(played, key=lambda p: (p.opened is not None, p.opened or 0))


def months(played: Iterable[Played]) -> tuple[str, ...]:
    """The months in which a session was opened, newest first."""
    return tuple(sorted({m for p in played if (m := month_of(p.opened))}, reverse=True))


def in_month(played: Iterable[Played], month: str | None) -> list[Played]:
    """The sessions opened in `month` ("YYYY-MM"), or all of them for None."""
    return [p for p in played if month is None or month_of(p.opened) == month]


def by_points(records: Mapping[str, PlayerStats]) -> list[PlayerStats]:
    """The players' records, the most points first (then the most games, then by name)."""
    return sorted(records.values(), key=lambda r: (-r.points, -r.games, r.shown.casefold()))


def running(played: Sequence[Played]) -> Chart:
    """Each player's running score: his points summed after each session (in the order
    given, 0 before his first), a series a player, most points at the end first; each
    point labelled with its session's day."""
    totals: dict[str, Fraction] = {}
    lines: dict[str, list[float]] = {}
    for number, session in enumerate(played):
        for key, record in session.players.items():
            totals[key] = totals.get(key, Fraction(0)) + record.points
            lines.setdefault(key, [0.0] * number)
        for key, line in lines.items():
            line.append(float(totals[key]))
    names = fold(p.players for p in played)
    return Chart(tuple(Series(record.shown, tuple(lines[record.player]))
                       for record in by_points(names)),
                 tuple(day(p.opened) for p in played))


def worded(key: str, found: Split | None) -> PlayerFigures | None:
    """A player's figures in words (`figures_of`), None without a decision analysed."""
    if found is None or not (found[0].decisions or found[1].decisions):
        return None
    return figures_of({key: found}, lambda k: k, lambda t: t)[0]  # the page translates


def standings(played: Sequence[Played], figures: Mapping[str, Split],
              link: Callable[[str], str]) -> tuple[Standing, ...]:
    """Each player's line over `played`, the most points first: his totals, his figures
    (`figures`, by key) and his page's path (`link`, by key)."""
    return tuple(Standing(r.player, r.shown, format_points(r.points), r.sessions, r.games,
                          worded(r.player, figures.get(r.player)), link(r.player))
                 for r in by_points(fold(p.players for p in played)))


def rates(name: str, played: Sequence[Played], figures: Mapping[str, Split]) -> Chart:
    """A player's overall rate (mEMG per decision, gnubg's sign: a loss is negative) in
    each session of `played` with a decision of his analysed (`figures`, by table)."""
    labels, values = [], []
    for session in played:
        checker, cube = figures.get(session.table_id, (Figures(), Figures()))
        if (checker + cube).decisions:
            labels.append(day(session.opened))
            values.append(-(checker + cube).rate)
    return Chart((Series(name, tuple(values)),) if values else (), tuple(labels))


def page_of(key: str, played: Sequence[Played], figures: Mapping[str, Split],
            links: Mapping[str, str]) -> PlayerPage | None:
    """A player's own page from the sessions (in the order opened), his figures by table
    and each session page's path by table; None if he sat at none of them."""
    mine = [p for p in played if key in p.players]
    if not mine:
        return None
    record = fold({key: p.players[key]} for p in mine)[key]
    every = _summed(figures.get(p.table_id) for p in mine)
    lines = tuple(SessionLine(day(p.opened), format_points(p.players[key].points),
                              p.players[key].games, worded(key, figures.get(p.table_id)),
                              links[p.table_id]) for p in reversed(mine))
    return PlayerPage(key, record.shown, format_points(record.points), record.sessions,
                      record.games, day(record.first_played), day(record.last_played),
                      worded(key, every), lines, rates(record.shown, mine, figures))


def _summed(found: Iterable[Split | None]) -> Split:
    """(checker, cube) figures added up, a session without any left out."""
    checker, cube = Figures(), Figures()
    for one in found:
        if one is not None:
            checker, cube = checker + one[0], cube + one[1]
    return checker, cube


# -- the store -------------------------------------------------------------------------------

Seen = MutableMapping[str, tuple[int, "Played | None"]]  # table -> (version, its session)


async def played(store: EventStore, guild_id: int, seen: Seen | None = None) -> list[Played]:
    """Every session at the server's tables that someone joined or played, in the order
    opened: each table's events but the board's rolls and moves, decoded and replayed in a
    worker thread (`session_stats`); a table `seen` at its present version is not read
    again."""
    out = []
    seen = {} if seen is None else seen
    for channels in await store.channels.of_guild(guild_id, open_only=False):
        table_id = channels.table_id
        version = await store.events.version(table_id)
        if seen.get(table_id, (-1, None))[0] != version:
            rows = await store.events.versioned(table_id, skip=BOARD_EVENTS)
            seen[table_id] = (version, await asyncio.to_thread(_session, store, table_id, rows))
        if (found := seen[table_id][1]) is not None:
            out.append(found)
    return in_order(out)


def _session(store: EventStore, table_id: str,
             rows: list[tuple[int, int | None, str]]) -> Played | None:
    """One table's session from its events' rows (decoded here: in a worker thread), or
    None if nobody joined it."""
    events = store.events.stored_of(rows)
    records = session_stats(events)
    opened = next((e.at for e in events if e.at is not None), None)
    return Played(table_id, opened, records) if records else None


async def by_table(store: EventStore, guild_id: int, key: str) -> dict[str, Split]:
    """A player's gnubg figures in each session at the server's tables, by table."""
    return {table: kept(totals) for table, _, _, totals
            in await store.analyses.sessions(guild_id, key)}


def player_path(club: str, key: str) -> str:
    """The path of a player's own page under the club's standings' path."""
    return f"{club}/player/{quote(key, safe='')}"


async def read(store: EventStore, links: Links, guild_id: int, month: str | None,
               seen: Seen | None = None) -> Standings:
    """The server's standings over `month` ("YYYY-MM"), or all time (`seen`: the tables
    read before, as `played` keeps them)."""
    every = await played(store, guild_id, seen)
    chosen = in_month(every, month)
    keys = {key for p in chosen for key in p.players}
    tables = {p.table_id for p in chosen}
    figures = {}
    for key in keys:
        found = await by_table(store, guild_id, key)
        figures[key] = _summed(s for t, s in found.items() if t in tables)
    club = await links.club(guild_id) or ""
    return Standings(standings(chosen, figures, lambda key: player_path(club, key)),
                     months(every), month, len(chosen), running(chosen))


async def player(store: EventStore, links: Links, guild_id: int, key: str,
                 seen: Seen | None = None) -> PlayerPage | None:
    """A player's own page on the server, or None if he never sat at its tables (`seen`:
    the tables read before, as `played` keeps them)."""
    every = await played(store, guild_id, seen)
    mine = [p for p in every if key in p.players]
    if not mine:
        return None
    paths = {p.table_id: await links.session(p.table_id) for p in mine}
    return page_of(key, mine, await by_table(store, guild_id, key), paths)
