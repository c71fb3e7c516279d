"""Commands copied to a test server (CHOUETTE_DEV_GUILD_ID) are taken off it when the
setting is removed, so its members don't see /chouette twice."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.e2e.support import INVITE, PROJECT, Driver, FakeDiscord


def test_commands_of_a_removed_test_server_are_cleared(tmp_path: Path) -> None:
    async def main() -> None:
        fake = FakeDiscord(bot_permissions=INVITE)
        drv = Driver(PROJECT, python=sys.executable, fake=fake, guild_ready_timeout=0.2,
                     log_path=tmp_path / "bot.log",
                     env={"CHOUETTE_DB": str(tmp_path / "c.sqlite3"),
                          "CHOUETTE_ENV_FILE": str(tmp_path / "none.env"),
                          "CHOUETTE_DEV_GUILD_ID": fake.guild_id})
        try:
            await drv.start()
            assert "chouette open" in drv.command_names(fake.guild_id)
            assert not fake.commands[None]  # nothing global yet
            del drv.extra_env["CHOUETTE_DEV_GUILD_ID"]
            await drv.restart(require_commands=True)
            await drv.wait_for(lambda: not fake.commands.get(fake.guild_id))
            assert fake.commands[None]  # global now, and only there: listed once
            assert drv.command_names().count("chouette open") == 1
            assert "removed the commands copied to the test server" in drv.bot_log()
        finally:
            await drv.stop()

    asyncio.run(main())
