"""`python -m bot move-to URL`: the SQLite store copied to an empty PostgreSQL database, then
checked (every table's rows and every chouette table's state compared) before it is used."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bot.store import EventStore, StoreError
from bot.store.dialect import is_url, shown, url_problem


async def move_to(source: Path, url: str) -> dict[str, int]:
    """Copy every row of the SQLite store `source` into the PostgreSQL database `url` (which
    must hold no rows yet), in one transaction, and check the copy; returns the rows copied
    per table. Stop the bot first: what it writes during the copy would fail the check."""
    if not is_url(url):
        raise StoreError(f"{shown(url)!r} is not a PostgreSQL URL (postgresql://user:"
                         "password@host/database).")
    if problem := url_problem(url):
        raise StoreError(f"Can't move to PostgreSQL: {problem}.")
    if not source.is_file():
        raise StoreError(f"There is no database at {source}.")
    async with EventStore(source) as old, EventStore(url) as new:
        layout = await old.whole.layout()
        if full := await new.whole.filled(list(layout)):
            raise StoreError(f"{shown(url)} is not empty ({', '.join(full)} have rows): move "
                             "to a new database, or drop this one's tables first.")
        copied = await new.whole.copy_from(old.whole, layout)
        await _check(old, new, {name: columns for name, (columns, _) in layout.items()})
    return copied


async def _check(old: EventStore, new: EventStore, layout: dict[str, list[str]]) -> None:
    """The same rows in every table, and every chouette table loading to the same state."""
    for name, columns in layout.items():
        if Counter(await old.whole.rows(name, columns)) != Counter(
                await new.whole.rows(name, columns)):
            raise StoreError(f"The copy of {name} in {new.name} differs from {old.name}: "
                             "was the bot running? Stop it, drop the copy's tables, and move "
                             "again.")
    ids = await old.events.table_ids(open_only=False)
    if await new.events.table_ids(open_only=False) != ids:
        raise StoreError(f"The tables of {new.name} are not those of {old.name}.")
    for table_id in ids:
        if await old.events.load(table_id) != await new.events.load(table_id):
            raise StoreError(f"Table {table_id} loads differently from {new.name}: keep "
                             f"using {old.name} and report this.")
