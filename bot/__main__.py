"""`python -m bot`: the command line (run the bot, list legal plays, ...)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.app import scenario
from bot.app.dice import GameDice, games_dice
from bot.config import Settings, SettingsError
from bot.records import cubes, games
from bot.store import EventStore, StoreError
from bot.store.dialect import is_url, url_problem
from rules.board import legal_plays
from rules.errors import RuleError
from rules.events import Event
from rules.notation import position_from_id, position_id


def legal(lines: TextIO, out: TextIO) -> int:
    """Contract 1: one JSON line in, `{"id", "dice", "results"}` out; results sorted IDs."""
    status = 0
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            query = json.loads(line)
            pid, dice = query["id"], query["dice"]
            if not (isinstance(dice, list) and len(dice) == 2
                    and all(isinstance(d, int) for d in dice)):
                raise RuleError("dice must be a list of two whole numbers")
            plays = legal_plays(position_from_id(pid), (dice[0], dice[1]))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            # One answer per line even so, so a reader pairing lines with answers stays in step.
            print(f"line {n}: {exc}", file=sys.stderr)
            out.write(json.dumps({"line": n, "error": str(exc)}) + "\n")
            status = 1
            continue
        results = sorted({position_id(p.position) for p in plays})
        out.write(json.dumps({"id": pid, "dice": dice, "results": results}) + "\n")
    return status


def bad_input(message: object) -> int:
    """Say what is wrong with the input on stderr, in one line; the exit status 2."""
    print(f"chouette-bot: {message}", file=sys.stderr)
    return 2


class InputError(ValueError):
    """A file given on the command line can't be read as text (missing, not UTF-8)."""


def read_text(path: str) -> str:
    """The text of the file `path`, or an InputError saying why not in one line."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"can't read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text: save it as UTF-8.") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one subcommand; the exit status is returned."""
    args = command_line().parse_args(argv)
    if is_url(db := getattr(args, "db", None)) and (problem := url_problem(db)):
        return bad_input(f"--db: {problem}.")
    return COMMANDS[args.command].handler(args)


def command_line() -> argparse.ArgumentParser:
    """The command line: one subparser a command of `COMMANDS`, in its order."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        subparser = sub.add_parser(name, help=command.help, description=command.description)
        if command.arguments is not None:
            command.arguments(subparser)
    return parser


@dataclass(frozen=True)
class Command:
    """A subcommand: its help, its handler (the exit status), its arguments, its description."""

    help: str
    handler: Callable[[argparse.Namespace], int]
    arguments: Callable[[argparse.ArgumentParser], None] | None = None
    description: str | None = None


def _scenario_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the transcript, one JSON command a line")
    parser.add_argument("--db", help="run through the event store at this path")


def _render_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--id", required=True, help="the gnubg Position ID")
    parser.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"), help="the roll")
    parser.add_argument("--out", required=True, help="the PNG file to write")
    parser.add_argument("--width", type=int, default=800, help="image width in pixels")


def _verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="the event store, a file or a postgresql:// URL "
                        "(with --table)")
    parser.add_argument("--table", help="the table id (its #board channel's category)")
    parser.add_argument("--game", type=int, help="only this game (default: every game)")
    parser.add_argument("--seed", help="a revealed seed, in hexadecimal (with --commitment)")
    parser.add_argument("--commitment", help="the SHA-256 published when the game began")
    parser.add_argument("--dice", nargs="*", type=int, default=[],
                        help="every die of the game in order, opening rolls first")


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="the event store, a file or a postgresql:// URL "
                        "(with --table)")
    parser.add_argument("--table", help="the table id (its #board channel's category)")
    parser.add_argument("--scenario", help="a transcript to run instead (JSON lines)")
    parser.add_argument("--game", type=int, help="only this game (default: every game)")
    parser.add_argument("--player", help="only his own cube's games (his key or name)")
    parser.add_argument("--out", required=True, help="the .mat file to write")


def _stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True,
                        help="the event store, a file or a postgresql:// URL")
    parser.add_argument("--player", help="only this player (his key: a Discord user id)")


def _analyse_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a play-mode transcript (JSON lines)")
    parser.add_argument("--plies", type=int, default=0, help="gnubg's depth (default 0)")


def _db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="the database (default: CHOUETTE_DB, as `run` uses)")


def _backup_arguments(parser: argparse.ArgumentParser) -> None:
    _db_argument(parser)
    parser.add_argument("--out", help="the copy (default: backups/ beside the database, "
                        "named by the time)")


def _health_arguments(parser: argparse.ArgumentParser) -> None:
    _db_argument(parser)
    parser.add_argument("--max-age", type=float, default=90.0,
                        help="seconds a heartbeat stays fresh (default 90)")


def _web_arguments(parser: argparse.ArgumentParser) -> None:
    _db_argument(parser)
    parser.add_argument("--bind", help="host:port (default: CHOUETTE_WEB_BIND, 127.0.0.1:8080)")


def _move_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="postgresql://user:password@host/database")
    parser.add_argument("--db", help="the SQLite database (default: CHOUETTE_DB)")


# Each subcommand, in the order `--help` lists them (the handlers call functions defined below).
COMMANDS: dict[str, Command] = {
    "legal": Command("read {id, dice} JSON lines on stdin, write the legal results",
                     lambda args: legal(sys.stdin, sys.stdout)),
    "scenario": Command("run a session transcript (JSON lines)",
                        lambda args: run_scenario(args.file, args.db), _scenario_arguments),
    "run": Command("start the Discord bot (token from .env)", lambda args: run()),
    "render": Command("draw the board of a Position ID as a PNG",
                      lambda args: elsewhere(args),
                      _render_arguments),
    "verify": Command("check a game's dice against its revealed seed",
                      lambda args: verify_dice(args), _verify_arguments,
                      "Recompute every roll from the revealed seed: from a table in the event "
                      "store, or from numbers copied off Discord."),
    "export": Command("write games as a .mat file GNU Backgammon imports",
                      lambda args: export_games(args), _export_arguments,
                      "Export a table's games (or one game) as a Jellyfish .mat money "
                      "session: from the event store (--db, --table) or from a play-mode "
                      "transcript (--scenario)."),
    "stats": Command("players' statistics over every table, as JSON",
                     lambda args: print_stats(args.db, args.player), _stats_arguments),
    "analyse": Command("GNU Backgammon's verdict on a transcript's decisions, as JSON (needs "
                       "the analysis extra)",
                       lambda args: analyse_transcript(args.file, args.plies),
                       _analyse_arguments),
    "backup": Command("copy the database safely, even while the bot runs",
                      lambda args: backup_database(args.db, args.out), _backup_arguments,
                      "Copy the event store with SQLite's online backup API (a consistent "
                      "copy, the WAL included, while the bot writes)."),
    "health": Command("whether the running bot is well (exit 0) or not (exit 1): its "
                      "heartbeat file is fresh",
                      lambda args: check_health(args.db, args.max_age), _health_arguments,
                      "Exit 0 if the bot using CHOUETTE_DB touched its heartbeat file "
                      "recently (it does every 30 s while connected to Discord with its "
                      "database answering), else 1 with the reason."),
    "move-to": Command("copy the SQLite store to an empty PostgreSQL database, checked",
                       lambda args: move_store(args.db, args.url), _move_arguments,
                       "Copy every row of the SQLite store into an empty PostgreSQL database "
                       "in one transaction, then compare the rows and every table's state. "
                       "Stop the bot first."),
    "web": Command("serve the club's pages (read-only) from the store, until stopped",
                   lambda args: elsewhere(args), _web_arguments),
    "links": Command("print each table's page path, one JSON line a table",
                     lambda args: elsewhere(args), _db_argument),
}


def elsewhere(args: argparse.Namespace) -> int:
    """The commands whose code lives in its room, imported only for them (Pillow, aiohttp,
    Jinja2): a board drawn (contract 3), the club's pages served or their paths (6)."""
    if args.command == "render":
        from bot.render.command import render_board
        return render_board(args.id, args.dice, args.out, args.width)
    from bot.web import command
    return command.web(args.db, args.bind) if args.command == "web" else command.links(args.db)


def analyse_transcript(path: str, plies: int) -> int:
    """Contract 5: print gnubg's verdict on every decision of a transcript (the worker's)."""
    from bot.analysis.worker import AnalysisError, analyse_game

    try:
        lines = read_text(path).splitlines()
        print(json.dumps(asyncio.run(analyse_game(lines, plies))))
    except (InputError, AnalysisError) as exc:
        return bad_input(exc)
    return 0


def check_health(db: str | None, max_age: float) -> int:
    """0 if the running bot's heartbeat is fresh; else 1 and why, on stderr."""
    from bot.health import check, heartbeat_file

    try:
        database = Path(db) if db else Settings.load().database_file
    except SettingsError as exc:
        return bad_input(exc)
    problem = check(heartbeat_file(database), max_age)
    if problem is not None:
        print(f"chouette-bot: unwell: {problem}", file=sys.stderr)
        return 1
    return 0


def move_store(db: str | None, url: str) -> int:
    """Copy the SQLite store to the PostgreSQL database `url` and check the copy."""
    from bot.store.dialect import shown
    from bot.store.move import move_to

    try:
        source = Path(db) if db else Settings.load().database_file
        copied = asyncio.run(move_to(source, url))
    except (SettingsError, StoreError) as exc:
        return bad_input(exc)
    rows = ", ".join(f"{n} {name}" for name, n in copied.items())
    print(f"Copied {source} to {shown(url)} and checked it ({rows}). Now set "
          "CHOUETTE_DATABASE_URL to that URL and start the bot.")
    return 0


def backup_database(db: str | None, out: str | None) -> int:
    """Copy the database to `out` (default: a dated file in CHOUETTE_BACKUP_DIR, else in
    backups/ beside the database)."""
    from bot.store.sqlite import backup

    try:
        settings = Settings.load()
        source = Path(db) if db else settings.database
        if not isinstance(source, Path):
            raise StoreError("The store is on PostgreSQL (CHOUETTE_DATABASE_URL): back it "
                             "up with pg_dump (README: PostgreSQL).")
        folder = settings.backup_dir or source.parent / "backups"
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        target = Path(out) if out else folder / f"{source.stem}-{stamp}.sqlite3"
        print(backup(source, target))
    except (SettingsError, StoreError) as exc:
        return bad_input(exc)
    return 0


def print_stats(path: str, player: str | None) -> int:
    """Print {player: record} as JSON (only `player`'s; {} if he never played), each with
    GNU Backgammon's figures over his analysed games (`analysis`), as `/chouette stats`."""
    from bot.analysis.queue import AnalysisStore
    from bot.analysis.text import Analysed
    from bot.records.stats import read_stats

    async def read() -> dict[str, object]:
        if not is_url(path) and not Path(path).is_file():
            raise StoreError(f"There is no database at {path}.")
        async with EventStore(path) as store:
            found = await read_stats(store, player=player)
            rows = AnalysisStore(store)
            await rows.backfill()  # (verdicts stored before migration 8: once, as the bot)
            analysed = await rows.players(player=player)
        return {key: record.as_json() | {"analysis": analysed.get(key, Analysed()).as_json()}
                for key, record in found.items()}

    try:
        print(json.dumps(asyncio.run(read()), indent=2))
    except StoreError as exc:
        return bad_input(exc)
    return 0


def export_games(args: argparse.Namespace) -> int:
    """Write the .mat of a stored table's or a transcript's games; 2 on bad input."""
    try:
        if args.scenario is not None:
            events = scenario.transcript(read_text(args.scenario).splitlines())
        elif args.db is not None and args.table is not None:
            events = asyncio.run(_stored_events(args.db, args.table))
        else:
            raise RuleError("export needs --db and --table, or --scenario.")
        Path(args.out).write_text(cubes.export(events, args.player, args.game) if args.player
                                  else games.export(events, args.game), encoding="utf-8")
    except (RuleError, StoreError, InputError) as exc:
        return bad_input(exc)
    except OSError as exc:
        return bad_input(f"{exc.filename}: {exc.strerror}")
    return 0


async def _stored_events(path: str, table: str) -> list[Event]:
    if not is_url(path) and not Path(path).is_file():
        raise StoreError(f"There is no database at {path}.")
    async with EventStore(path) as store:
        events = [s.event for s in await store.events.stored(table)]
    if not events:
        raise StoreError(f"There is no table {table} in {path}.")
    return events


def verify_dice(args: argparse.Namespace) -> int:
    """Print each game's verdict; the status is 1 when any die fails, 2 on bad input."""
    if args.seed is not None and args.commitment is not None:
        games = [GameDice(args.game or 0, args.commitment, args.seed, tuple(args.dice))]
    elif args.db is not None and args.table is not None:
        try:
            games = games_dice(asyncio.run(_stored_events(args.db, args.table)))
        except StoreError as exc:
            return bad_input(exc)
        games = [g for g in games if args.game in (None, g.number)]
        if not games:
            which = f"game {args.game}" if args.game else "any game"
            return bad_input(f"table {args.table} has no committed dice for {which}.")
    else:
        return bad_input("verify needs --db and --table, or --seed and --commitment "
                         "(and --dice).")
    failed = False
    for game in games:
        failed = failed or bool(game.problems())
        print(f"game {game.number}: {game.verdict()}")
    return 1 if failed else 0


def run_scenario(path: str, db: str | None) -> int:
    """Contract 2: print the report of a transcript as one JSON object."""
    try:
        text = read_text(path)
        result = (scenario.run(text.splitlines()) if db is None
                  else asyncio.run(scenario.run_stored(text, db)))
    except (InputError, StoreError) as exc:
        return bad_input(exc)
    print(json.dumps(result))
    return 0


def run() -> int:
    """Start the Discord bot; a start-up failure (a setting, the token, the portal's intent,
    an unusable database, Discord out of reach) is one line on stderr, not a traceback."""
    from bot.discord import client, startup

    settings: Settings | None = None
    try:
        settings = Settings.load()
        client.run(settings)
    except KeyboardInterrupt:  # Ctrl-C before the bot was up (after, it stops cleanly)
        return 130
    except Exception as exc:
        failure = startup.failure(exc, settings)
        if failure is None:
            raise
        return failure.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
