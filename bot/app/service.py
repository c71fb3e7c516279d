"""TableService: commands to tables, one at a time per table, stored before they are seen.

`handle` takes a command with its idempotency key (the Discord interaction id, or a
transcript's line): under the table's lock it asks the rules to decide, stores the events,
the outcome and its effects (the outbox: what Discord must still show) in one transaction,
and only then updates the cached state and returns the outcome with its effects. The same
key again returns the stored outcome and applies nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping

from bot.app.effects import Outcome, effects_for
from bot.app.locks import TableLocks
from bot.store import EventStore, Loaded
from rules.commands import Command
from rules.errors import RuleError
from rules.state import TableState, replay
from rules.table import decide

ENDED_KEPT = 64  # ended tables whose state is kept, the latest (see `TableService`)


class TableService:
    """Serialises commands per table and keeps the open tables' states in memory (and the
    keys of the commands each has stored). Of the ended tables only the latest states are
    kept (`ENDED_KEPT`: their last show, their analysis, read without a replay on the event
    loop), and none of their keys (a key asked is looked up in the store), so a bot up for
    months does not hold every session it ever ran."""

    def __init__(self, store: EventStore, *, outbox: bool = False) -> None:
        self.store = store
        self.outbox = outbox  # keep what Discord must show until it is delivered
        # the deadlines a new state starts (`Flow.deadlines`, set by the bot), kept in the
        # command's own transaction: no transaction of their own before its board shows them
        self.deadlines: Callable[[str, TableState], Awaitable[Mapping[str, str]]] | None = None
        self._locks = TableLocks()
        self._tables: dict[str, Loaded] = {}
        self._keys: dict[str, set[str]] = {}  # keys stored per loaded table: no lookup for new
        self._ended: OrderedDict[str, Loaded] = OrderedDict()  # the latest ended, oldest first

    async def resume(self, only: Callable[[str], Awaitable[bool]] | None = None) -> list[str]:
        """Load every open table (after a restart), or those `only` keeps (a process serving
        some shards: `ChouetteBot.serves_table`); returns their ids."""
        ids = [t for t in await self.store.events.table_ids() if only is None or await only(t)]
        for table_id in ids:
            async with self._locks(table_id):
                self._tables.pop(table_id, None)
                await self._loaded(table_id)
        return ids

    async def state(self, table_id: str) -> TableState:
        """The table's current state."""
        async with self._locks(table_id):
            return (await self._loaded(table_id)).state

    async def current(self, table_id: str) -> Loaded:
        """The table's current state and the version of its last event."""
        async with self._locks(table_id):
            return await self._loaded(table_id)

    def forget(self, table_id: str) -> None:
        """Drop the table's cached state: read from the store next time (a table another
        process serves, whose state moves on there; an ended table)."""
        self._tables.pop(table_id, None)
        self._keys.pop(table_id, None)
        self._ended.pop(table_id, None)

    async def _loaded(self, table_id: str) -> Loaded:
        loaded = self._tables.get(table_id) or self._ended.get(table_id)
        if loaded is None:
            loaded = await self.store.events.load(table_id)
            if loaded.state.ended:
                self._keep_ended(table_id, loaded)
            else:  # (the keys read after the state: all of its own)
                self._keys[table_id] = await self.store.events.keys(table_id)
                self._tables[table_id] = loaded
        return loaded

    def _keep_ended(self, table_id: str, loaded: Loaded) -> None:
        """Keep an ended table's state among the latest `ENDED_KEPT`."""
        self._ended[table_id] = loaded
        self._ended.move_to_end(table_id)
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)

    async def _stored(self, table_id: str, key: str | None) -> Outcome | None:
        """The outcome already stored under `key`, if any (looked up in the store unless
        the table is kept and the key is not among its keys: a new command)."""
        await self._loaded(table_id)
        keys = self._keys.get(table_id)
        if key is None or (keys is not None and key not in keys):
            return None
        stored = await self.store.events.outcome(table_id, key)
        return stored if isinstance(stored, Outcome) else None

    async def handle(self, table_id: str, command: Command, key: str | None = None) -> Outcome:
        """Apply `command` to the table once; a refusal is an Outcome, not an exception."""
        async with self._locks(table_id):
            stored = await self._stored(table_id, key)
            if stored is not None:
                return stored
            loaded = await self._loaded(table_id)
            try:
                events = decide(loaded.state, command)
            except RuleError as exc:
                return await self._remember(table_id, loaded, key, Outcome(
                    False, str(exc), code=exc.code, params=exc.params))
            state = replay(events, loaded.state)
            outcome = Outcome(True, "", effects_for(loaded.state, state, events),
                              version=loaded.version + len(events))
            try:
                version = await self.store.events.append(
                    table_id, loaded.version, events, key, outcome, state,
                    outcome.effects if self.outbox else None,
                    await self.deadlines(table_id, state) if self.deadlines and events else None)
            except BaseException:
                self.forget(table_id)  # reload from the store next time
                raise
            if state.ended:
                self.forget(table_id)
                self._keep_ended(table_id, Loaded(state, version))
                return outcome
            self._tables[table_id] = Loaded(state, version)
            self._note(table_id, key)
            return outcome

    async def refuse(self, table_id: str, key: str, reason: str) -> Outcome:
        """Record that the input with `key` was refused before it was a command (bad JSON)."""
        async with self._locks(table_id):
            stored = await self._stored(table_id, key)
            if stored is not None:
                return stored
            return await self._remember(table_id, await self._loaded(table_id), key,
                                        Outcome(False, reason))

    async def _remember(self, table_id: str, loaded: Loaded, key: str | None,
                        outcome: Outcome) -> Outcome:
        if key is not None:
            await self.store.events.append(table_id, loaded.version, (), key, outcome)
            self._note(table_id, key)
        return outcome

    def _note(self, table_id: str, key: str | None) -> None:
        """A key stored, noted among the table's kept keys (if they are kept: else every
        key is looked up in the store)."""
        if key is not None and table_id in self._keys:
            self._keys[table_id].add(key)
