"""GNU Backgammon's verdict on the bot's side: the worker process spoken to (`worker`; the
GPL program itself is the top-level `analysis/`, never imported), the queue that asks it
once a game is over (`queue`), the game as a transcript for it (`transcript`), and the
verdict in words (`text`, `view`)."""
