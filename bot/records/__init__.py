"""What a table's event log tells afterwards: its games as records and match files
(`games`), its history with every correction (`history`), and a player's statistics across
sessions (`stats`). Read-only: nothing here appends an event."""
