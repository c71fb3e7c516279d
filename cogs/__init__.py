"""Thin discord.py cogs: Discord input -> table command -> service -> effects as messages."""
