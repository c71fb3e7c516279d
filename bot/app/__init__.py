"""The application: a command to a table stored and answered (`service`), what it shows
(`effects`), what the bot does by itself between the players' actions (`flow`), the
server's dice, the locks per table, background tasks, and the transcripts of contract 2
(`scenario`). It knows the rules, the store and the words, never Discord."""
