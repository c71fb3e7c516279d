"""The club's web pages (read-only): a session's page with its sheet, games, figures and
dice, each game's replay with gnubg's verdict beside the board, and a server's standings,
served by aiohttp from the store (`server.py`), at links no one can guess (`links.py`)."""
