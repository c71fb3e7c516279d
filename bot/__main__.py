"""`python -m bot`: the command line (run the bot, list legal plays, ...)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from bot import scenario
from bot.config import Settings, SettingsError
from bot.store import StoreError
from rules.board import legal_plays
from rules.errors import RuleError
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
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            # One answer per line even so, so a reader pairing lines with answers stays in step.
            print(f"line {n}: {exc}", file=sys.stderr)
            out.write(json.dumps({"line": n, "error": str(exc)}) + "\n")
            status = 1
            continue
        results = sorted({position_id(p.position) for p in plays})
        out.write(json.dumps({"id": pid, "dice": dice, "results": results}) + "\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one subcommand; the exit status is returned."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("legal", help="read {id, dice} JSON lines on stdin, write the legal results")
    scenario = sub.add_parser("scenario", help="run a session transcript (JSON lines)")
    scenario.add_argument("file", help="the transcript, one JSON command a line")
    scenario.add_argument("--db", help="run through the event store at this path")
    sub.add_parser("run", help="start the Discord bot (token from .env)")
    args = parser.parse_args(argv)
    if args.command == "legal":
        return legal(sys.stdin, sys.stdout)
    if args.command == "scenario":
        return run_scenario(args.file, args.db)
    return run()


def run_scenario(path: str, db: str | None) -> int:
    """Contract 2: print the report of a transcript as one JSON object."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"chouette-bot: can't read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = (scenario.run(text.splitlines()) if db is None
                  else asyncio.run(scenario.run_stored(text, db)))
    except StoreError as exc:
        print(f"chouette-bot: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def run() -> int:
    """Start the Discord bot; a missing setting is reported in one line, not a traceback."""
    try:
        Settings.load().require_token()
    except SettingsError as exc:
        print(f"chouette-bot: {exc}", file=sys.stderr)
        return 2
    print("chouette-bot: the Discord client is not built yet (see the open issues); "
          "`python -m bot legal` works.", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
