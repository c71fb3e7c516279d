"""The chouette rules, pure: no Discord, no I/O, no asyncio, no clock, no randomness of its own."""
