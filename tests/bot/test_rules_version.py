"""`rules.RULES_VERSION` moves with the fold: the event store trusts a snapshot only when it
was made under the same version, so a change to what events fold to (rules/, or how the
codec writes a state) must come with a new version, or old snapshots would be read as if
the fix had always been there, or not be read at all."""

import hashlib
from pathlib import Path

from bot.app import scenario
from bot.store.codec import dumps
from rules import RULES_VERSION
from rules.state import TableState
from rules.state import evolve as fold_one

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# RULES_VERSION -> the fingerprint of the states the scenario transcripts fold to.
FOLDS = {1: "6b8c862e27f97df3b4d03349047868d607eca2115dbfb2b8d6dcf993515bd955",
         2: "8c93f1f88166427906afdb0eac23db5e0530398f1c820d1d7daa8484c82b0c08",
         # 3: Acting Captains no longer made by the order of the accepts of resignations
         # (no transcript resigns: the same fingerprint)
         3: "8c93f1f88166427906afdb0eac23db5e0530398f1c820d1d7daa8484c82b0c08",
         # 4: issue 18: a new option (result_agreement) and ResultProposed's `agreed` and
         # `waiting` in the state; new transcripts and preset defaults
         4: "7cd2579896d3ae32c20e6a29851506579e013692000541975f9e272e5c50c3b5",
         # 5: issue 20: Member.name is Member.player (the player's key), as snapshots write it;
         # issue 22 added TableState.language: a snapshot without it reads back as "", what
         # its events (TableOpened without a language) fold to, so the version stays
         5: "00918017b49d8a908f2bd088f4283239e1292e026e7046d5ea2a3acdae2d0bd5",
         # 6: issue 34: a new option (partner_invited) and TableState.invited, the Box's
         # invitations to be Partner (PartnerInvited)
         6: "0e929649ce3ff29b8f56bcef14876ddf0f935d9e3f8582fe46f9c64492953789",
         # 7: issue 34: TableState.asked and .offers, the raccoons and aardvarks asked by
         # consent (TurnAsked) and the games offered for sale (SaleOffered)
         7: "0d7d4d22e7946e0024a1839611a6617e1306609e7751a721b119fb56e4eea31a"}


def fingerprint() -> str:
    """A hash of every state along every scenario transcript, as snapshots write them."""
    digest = hashlib.sha256()
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        state = TableState()
        for event in scenario.transcript(path.read_text().splitlines()):
            state = fold_one(state, event)
            digest.update(dumps(state).encode())
    return digest.hexdigest()


def test_the_rules_version_moves_with_the_fold() -> None:
    now = fingerprint()
    assert FOLDS.get(RULES_VERSION) == now, (
        "What the scenario transcripts fold to has changed (rules/ or bot/store/codec.py), and "
        "snapshots made before it would be trusted: add 1 to RULES_VERSION in "
        f"rules/__init__.py and record {{{RULES_VERSION + 1}: {now!r}}} in FOLDS here. "
        "(If the fold did not change but this fingerprint did, record it for the same "
        "version.)")
