"""The Discord adapter: the client and what it shows, apart from the process core (the
store and its outbox, the service, the dice, the records) in `bot/`.

Imports go one way: `client` (the bot: resources, commands in, errors out) -> `presenter`
(effects onto Discord: the board, prompts, channels, timers) -> `views` (the board's buttons
and menus) -> `asks` (questions to one player) -> `channels`, `failures`. What the lower
modules need of the bot they name as a protocol (`asks.TableBot`), never by importing the
client. `cogs/` turn slash commands into table commands through the client.
"""
