"""The process around the rules, in rooms by concern; each imports only the rooms below it
(`tests/bot/test_layers.py`):

- `bot/discord/`: the Discord adapter (the client, the board, the buttons, the questions,
  the channels);
- `bot/analysis/`: GNU Backgammon's verdict, asked of the worker process and told in words;
- `bot/records/`: a table's games, history and statistics read back from its events;
- `bot/app/`: the application: commands to tables (`service`), what they show (`effects`),
  the game's own flow, the server's dice, the background tasks;
- `bot/render/`: the images (Pillow), drawn in processes of their own;
- `bot/store/`: the event store on SQLite or PostgreSQL, its schema and its codec;
- `bot/words/`: the catalogues and the players' names as Discord shows them.

Beside them, the process itself: `__main__` (the command line), `startup`, `config` (the
settings), `health`.
"""
