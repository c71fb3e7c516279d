"""A lock per table that lasts only while it is used.

The service, the flow and the boards each take turns per table. A `defaultdict` of locks
kept one for every table the process ever served: a bot up for months holds none now for
the tables it no longer serves."""

from __future__ import annotations

import asyncio


class TableLocks:
    """An `asyncio.Lock` per key, made when first taken and dropped when nobody holds or
    awaits it: `async with locks(key): ...`."""

    def __init__(self) -> None:
        self._held: dict[str, _Turn] = {}

    def __call__(self, key: str) -> _Turn:
        turn = self._held.get(key)
        if turn is None:
            turn = self._held[key] = _Turn(self, key)
        return turn

    def locked(self, key: str) -> bool:
        """Whether someone holds the key's lock now."""
        turn = self._held.get(key)
        return turn is not None and turn.lock.locked()

    def __len__(self) -> int:
        return len(self._held)


class _Turn:
    __slots__ = ("_locks", "key", "lock", "users")

    def __init__(self, locks: TableLocks, key: str) -> None:
        self._locks, self.key = locks, key
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting

    async def __aenter__(self) -> None:
        self.users += 1  # before the first await: `locks(key)` and this are one step
        try:
            await self.lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.lock.release()
        self._leave()

    def _leave(self) -> None:
        self.users -= 1
        if not self.users and self._locks._held.get(self.key) is self:
            del self._locks._held[self.key]
