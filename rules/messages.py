"""The words of the rules' refusals: one catalogue, a code for each, whole sentences with
named fields, so a later issue can translate it (gettext) without touching a rule.

A refusal (`rules.errors.RuleError`) carries its code and parameters; the text is written
where the message is shown, with each player (`Player`, `Players`) named then. Refusals not
yet converted still carry their English text (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


class Player(str):
    """A parameter that is a player's key (on Discord his id), named when written."""


class Players(tuple[str, ...]):
    """Several players' keys, written as a list of their names."""


MESSAGES: dict[str, str] = {
    # rules/absence.py, rules/proxies.py
    "not_at_table": "{player} is not at this table.",
    "not_at_table_quoted": "{player!r} is not at this table.",
    "already_away": "{player} is already away.",
    "already_back": "{player} is already back.",
    "proxy_not_a_player": "A proxy is another player at this table, not {proxy}.",
    "proxy_other_side": "{proxy} plays on the other side: name a proxy from your own side, "
                        "or a player out of this game.",
    "proxy_circle": "{proxy} already acts for you through his own proxies: choose someone "
                    "else.",
    "disconnect_moderators": "Only moderators (Manage Server, or the server's moderator "
                             "role) report a disconnection.",
    "already_disconnected": "{player} is disconnected already: he is back with `back`.",
    "no_decision_waiting": "No decision of {player}'s is waiting.",
    "not_his_proxy": "{by} may not act for {player}: his proxy is {proxy}.",
    "not_his_proxy_nobody": "{by} may not act for {player}: his proxy is nobody.",
    "absent_cube_unnamed": "{absent} is away with nobody named to control his cube: the Box "
                           "doubles him only by doubling the entire Team ({live}), his take "
                           "then deemed ({rule}); or double the others without him.",
    # rules/authority.py
    "runs_table": "Only the players at this table or a moderator may {doing}; to play, "
                  "`/chouette join` first.",
    "runs_table_host": "Only the players at this table, its host ({host}) or a moderator "
                       "may {doing}; to play, `/chouette join` first.",
    "blind_moderators": "Only a moderator blinds or unblinds a kibitzer.",
    "blind_a_player": "{player} plays at this table: moderators blind kibitzers only. A "
                      "player who consults out of turn answers to the rule set's penalties "
                      "(`/chouette penalty`).",
    "already_blinded": "{player} is already blinded here.",
    "not_blinded": "{player} is not blinded here.",
}


def text(code: str, params: Mapping[str, object], name: Callable[[str], str] = str) -> str:
    """The message `code` in words, each player parameter written as `name(key)`."""
    words = {key: name(value) if isinstance(value, Player)
             else ", ".join(map(name, value)) if isinstance(value, Players) else value
             for key, value in params.items()}
    return MESSAGES[code].format(**words)
