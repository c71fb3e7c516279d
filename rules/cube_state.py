"""Where a cube stands in its game, and the words for its states and turns.

CENTRED (nobody owns it; automatic doubles keep it there), OFFERED (turned by `offered_by`,
the other side answers), BEAVERED (the taker turned it again and keeps it; the doubler
answers), RACCOONED (the doubler turned it once more; the taker answers), AARDVARKED (the
taker once more; the doubler answers, and nothing further), TAKEN (owned, nothing pending),
DROPPED and SETTLED (over for this game). While a turn is pending the cube's value already
shows the new value, as the cube on the board does (Atlanta 5.2). The cube itself, and how
it moves from one state to the next, is rules/cube.py.
"""

from __future__ import annotations

from enum import Enum

from rules.messages import Phrase


class CubeState(Enum):
    """Where a cube stands in its game (see the module docstring)."""

    CENTRED = "centred"
    OFFERED = "offered"
    BEAVERED = "beavered"
    RACCOONED = "raccooned"
    AARDVARKED = "aardvarked"
    TAKEN = "taken"
    DROPPED = "dropped"
    SETTLED = "settled"

    def __repr__(self) -> str:
        return f"CubeState.{self.name}"


PENDING = (CubeState.OFFERED, CubeState.BEAVERED, CubeState.RACCOONED, CubeState.AARDVARKED)
OVER = (CubeState.DROPPED, CubeState.SETTLED)
# the turns waiting for an answer: words of a refusal, translated where it is shown
# (rules/messages.py), and in English the reason of a drop's transfer
TURNS = {
    CubeState.OFFERED: Phrase("turn_double"),
    CubeState.BEAVERED: Phrase("turn_beaver"),
    CubeState.RACCOONED: Phrase("turn_raccoon"),
    CubeState.AARDVARKED: Phrase("turn_aardvark"),
}
STATES = {
    CubeState.CENTRED: Phrase("state_centred"),
    CubeState.OFFERED: Phrase("state_offered"),
    CubeState.BEAVERED: Phrase("state_beavered"),
    CubeState.RACCOONED: Phrase("state_raccooned"),
    CubeState.AARDVARKED: Phrase("state_aardvarked"),
    CubeState.TAKEN: Phrase("state_taken"),
    CubeState.DROPPED: Phrase("state_dropped"),
    CubeState.SETTLED: Phrase("state_settled"),
}
_VERBS = {
    "double": Phrase("verb_double"), "take": Phrase("verb_take"), "drop": Phrase("verb_drop"),
    "beaver": Phrase("verb_beaver"), "raccoon": Phrase("verb_raccoon"),
    "aardvark": Phrase("verb_aardvark"), "score": Phrase("verb_score"),
    "settle": Phrase("verb_settle"), "sell": Phrase("verb_sell"), "freeze": Phrase("verb_freeze"),
}


def verb(action: str) -> Phrase:
    """An action on a cube (`take`) as a word of a refusal, translated where it is shown."""
    return _VERBS[action]
