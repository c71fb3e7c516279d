"""The load runner on two bot processes, shards 0 and 1 of 2, sharing one PostgreSQL.

`load_tables.py` (the fake Discord's black-box load runner, `../shared/e2e/`, or the folder
`LOAD_TABLES` names) starts one bot; here its driver starts a second on the same fake, each
process serving the servers of its shard, both on a PostgreSQL 16 that pgserver starts (or
the `CHOUETTE_DATABASE_URL` given). The runner's own report counts shard 0's process; the
line after it gives each process's CPU and their sum an interaction. Run by hand, as the
runner is:

    .venv/bin/python -m bench.load_shards 200 --think 2,8 --actions 12 --servers 8
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("LOAD_TABLES") or str(ROOT.parent / "shared" / "e2e"))

import load_tables  # noqa: E402
from driver import Driver  # noqa: E402

CPU: dict[str, float] = {}  # each process's CPU seconds over the run, by shard


class TwoShards(Driver):
    """The runner's driver (shard 0's process) and a second process on shard 1, one fake."""

    def __init__(self, cwd: Path, *, env: dict[str, str], **options: Any) -> None:
        super().__init__(cwd, env={**env, "CHOUETTE_SHARD_COUNT": "2",
                                   "CHOUETTE_SHARD_IDS": "0"}, **options)
        log = Path(str(options["log_path"]) + ".shard1")
        self.other = Driver(cwd, env={**env, "CHOUETTE_SHARD_COUNT": "2",
                                      "CHOUETTE_SHARD_IDS": "1"},
                            **{**options, "log_path": log})
        self.at_start: dict[str, float] = {}

    async def start(self) -> None:
        await super().start()
        await self.other.start()
        self.at_start = self._cpu()

    async def stop(self) -> None:  # (the runner may stop it twice)
        if self.at_start:
            CPU.update({k: v - self.at_start[k] for k, v in self._cpu().items()})
            self.at_start = {}
        await self.other.stop()
        await super().stop()

    def _cpu(self) -> dict[str, float]:
        return {"0": load_tables.proc_stat(self.bot.pid)["cpu"],
                "1": load_tables.proc_stat(self.other.bot.pid)["cpu"]}


class HalfEach(load_tables.TimedFake):  # type: ignore[misc]
    """The runner's fake, its servers on shards 0, 1, 0, ... in turn: half the tables on
    each process."""

    def add_guild(self, name: str, **options: Any) -> dict[str, Any]:
        options.setdefault("shard", (len(getattr(self, "guilds", ())) % 2, 2))
        return super().add_guild(name, **options)


def main() -> None:
    load_tables.Driver = TwoShards  # the runner makes its driver and fake by these names
    load_tables.TimedFake = HalfEach
    if os.environ.get("CHOUETTE_DATABASE_URL"):
        run()
        return
    import pgserver

    with tempfile.TemporaryDirectory() as folder:
        server = pgserver.get_server(folder, cleanup_mode="stop")
        server.psql("CREATE DATABASE load;")
        os.environ["CHOUETTE_DATABASE_URL"] = server.get_uri("load")
        run()


def run() -> None:
    results: list[dict[str, Any]] = []
    report = load_tables.report

    def reported(res: dict[str, Any]) -> str:
        results.append(res)
        return report(res)

    load_tables.report = reported
    load_tables.main()
    for res in results:
        total = sum(CPU.values())
        print(f"  two shards: bot CPU {CPU.get('0', 0):.2f} s (shard 0) + {CPU.get('1', 0):.2f} s "
              f"(shard 1) = {total:.2f} s; {1000 * total / max(1, res['actions']):.2f} ms an "
              f"interaction ({res['actions']} interactions)")


if __name__ == "__main__":
    main()
