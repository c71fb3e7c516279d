"""The chouette rules, pure: no Discord, no I/O, no asyncio, no clock, no randomness of its own."""

# The version of the fold (`rules.state.replay`) that snapshots of a table's state are made
# with. Bump it with any change that makes the same events fold to a different state (a fix
# to `evolve`, a new field of the state): the event store then ignores older snapshots and
# replays those tables from their events. tests/bot/test_rules_version.py notices a change
# of the fold and says what to record.
RULES_VERSION = 7
