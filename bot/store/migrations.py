"""The database's schema as numbered migrations: `EventStore.open` applies those a database
has not had yet (SQLite's `PRAGMA user_version`, PostgreSQL's `chouette_schema` count them),
on SQLite after a backup. Append, never edit: a database in use has had the ones before.

The n-th is schema n. A text is run on both backends (`dialect.postgres_ddl` rewrites
SQLite's words for PostgreSQL); a `Dialects` is written for each."""

from bot.store.dialect import Dialects, Migration, postgres_ddl

_TABLES = ("""
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),
        closed INTEGER NOT NULL DEFAULT 0
    );""", """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created BIGINT NOT NULL DEFAULT CAST(EXTRACT(EPOCH FROM now()) AS BIGINT),
        closed BIGINT NOT NULL DEFAULT 0,
        rowid BIGSERIAL UNIQUE  -- SQLite's implicit rowid: the order tables were opened in
    );""")
_FIRST = """
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        version INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, version)
    ) WITHOUT ROWID;
    CREATE TABLE commands (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE snapshots (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        version INTEGER NOT NULL,
        state TEXT NOT NULL
    );
    """

MIGRATIONS: tuple[Migration, ...] = (
    Dialects(_TABLES[0] + _FIRST, _TABLES[1] + postgres_ddl(_FIRST)),
    """
    CREATE TABLE discord_tables (
        table_id TEXT PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        category_id INTEGER NOT NULL,
        board_id INTEGER NOT NULL,
        kibitz_id INTEGER NOT NULL,
        team_id INTEGER NOT NULL,
        box_id INTEGER NOT NULL,
        message_id INTEGER
    );
    """,
    """
    ALTER TABLE events ADD COLUMN at INTEGER;
    CREATE TABLE dice_seeds (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        seed TEXT NOT NULL,
        PRIMARY KEY (table_id, game)
    ) WITHOUT ROWID;
    """,
    """
    ALTER TABLE discord_tables ADD COLUMN origin_id INTEGER;
    """,
    """
    CREATE TABLE outbox (
        table_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        effects TEXT NOT NULL,
        PRIMARY KEY (table_id, version)
    ) WITHOUT ROWID;
    """,
    """
    ALTER TABLE snapshots ADD COLUMN rules_version INTEGER;
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE analyses (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        plies INTEGER NOT NULL,
        result TEXT NOT NULL,
        posted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, game)
    ) WITHOUT ROWID;
    """,  # issue 21: GNU Backgammon's verdict on each game (bot/analysis/queue.py)
    """
    CREATE TABLE analysis_totals (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        player TEXT NOT NULL,
        plies INTEGER NOT NULL,
        checker_decisions INTEGER NOT NULL,
        checker_errors INTEGER NOT NULL,
        checker_loss DOUBLE PRECISION NOT NULL,
        cube_decisions INTEGER NOT NULL,
        cube_errors INTEGER NOT NULL,
        cube_loss DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, game, player)
    ) WITHOUT ROWID;
    CREATE INDEX analysis_totals_player ON analysis_totals (player);
    ALTER TABLE analyses ADD COLUMN totalled INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX analyses_untotalled ON analyses (game) WHERE totalled = 0;
    """,  # issue 21: each player's figures of each verdict, for /chouette stats; verdicts
    # stored before are totalled once, at start-up (`AnalysisStore.backfill`)
    """
    CREATE TABLE inbox (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        command TEXT NOT NULL,
        reply TEXT NOT NULL,
        at INTEGER NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID;
    CREATE INDEX inbox_pending ON inbox (at, key) WHERE done = 0;
    """,  # issue 23: DM answers for a table another process serves (bot/discord/inbox.py);
    # read every few seconds, so what waits is found by an index, not a scan of all kept
    """
    ALTER TABLE tables ADD COLUMN figures_posted INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET figures_posted = 1
        WHERE id IN (SELECT table_id FROM analyses WHERE game = 0);
    DELETE FROM analyses WHERE game = 0;
    """,  # the session's analysis figures posted beside the final sheet: a flag of the
    # table, no longer a fake game-0 row of `analyses` that every query stepped over
    """
    ALTER TABLE inbox ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE inbox ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE inbox ADD COLUMN why TEXT;
    """,  # issue 34: an inbox row that fails is tried a few times, then set aside (done,
    # failed = 1, the last error in `why`) for an operator, so the rows after it go on
)
