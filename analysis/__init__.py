# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""The analysis worker: GNU Backgammon's verdict on a chouette's decisions (contract 5).

Its own program under GPL-3.0-or-later (it links GNU Backgammon's engine), run by the bot
as a separate process that speaks JSON lines: `python -m analysis` (see analysis/README.md).
"""
