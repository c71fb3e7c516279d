"""The bot's own dispatch of its components (`bot/discord/router.py`): a click reaches the
handler whose pattern its whole custom id matches; every custom id the bot writes reaches
the handler meant for it; an id of ours that no pattern knows any more is answered, not left
to fail; a handler's error is told to the user privately."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord import actions, failures, views
from bot.discord.router import Route, Router, picked, typed


class Response:
    """What an interaction's answers were (the parts of discord.py's `InteractionResponse`
    the router and `failures.tell` use)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, **_: Any) -> None:
        self.sent.append(text)


def interaction(custom_id: str, kind: discord.InteractionType = discord.InteractionType.component,
                **data: Any) -> Any:
    return SimpleNamespace(type=kind, data={"custom_id": custom_id, **data}, extras={},
                           locale="en-US", response=Response(), user=SimpleNamespace(id=5))


async def test_a_click_reaches_the_route_its_whole_custom_id_matches() -> None:
    seen: list[tuple[str, str]] = []

    async def button(click: Any, match: re.Match[str]) -> None:
        seen.append(("button", match["table"]))

    async def confirm(click: Any, match: re.Match[str]) -> None:
        seen.append(("confirm", match["verb"]))

    router = Router([Route(r"chouette:(?P<table>\d+):confirm", button),
                     Route(r"chouette:\d+:confirm:(?P<verb>double|answer)", confirm)])
    await router.dispatch(interaction("chouette:7:confirm"))
    await router.dispatch(interaction("chouette:7:confirm:answer", discord.InteractionType
                                      .modal_submit))
    other = interaction("someone-else:1")  # not the bot's: left alone
    await router.dispatch(other)
    command = interaction("chouette:7:confirm", discord.InteractionType.application_command)
    await router.dispatch(command)  # the command tree's
    assert seen == [("button", "7"), ("confirm", "answer")]
    assert other.response.sent == [] and command.response.sent == []


def test_every_custom_id_the_bot_writes_reaches_its_handler() -> None:
    """Each builder writes an id that the first route it matches in `actions.ROUTES` (as
    the router tries them) hands to the handler meant for it: a builder and its route
    changed apart would fail here, not as "a button of an older version" on a board."""
    written = [
        *((actions.table_button("7", name).custom_id, actions._click)
          for name in actions.ACTIONS),
        (views.move_select("7", ["24/18 13/11"]).custom_id, views._move),
        (views.move_select("7", ["24/18 13/11"], part="2").custom_id, views._move),
        (views.first_move_select("7", ["24/18"]).custom_id, views._first_move),
        (views.move_form("7").custom_id, views._typed_move),
        *((views.pick_select("7", verb, choice, {"5": "Ann"}).custom_id, views._pick)
          for verb, choice in (("double", "double"), ("answer", "take"), ("answer", "beaver"))),
        *((views.pick_confirm("7", verb, order).custom_id, views._confirm_picks)
          for verb in ("double", "answer") for order in (False, True)),
        (views.invite_button("7", "5", "Ann").custom_id, views._invite),
    ]
    for custom_id, handler in written:
        assert custom_id is not None
        routed = next((r.handle for r in actions.ROUTES if re.fullmatch(r.pattern, custom_id)),
                      None)
        assert routed is handler, custom_id


async def test_a_button_of_an_older_version_is_answered() -> None:
    router = Router([Route(r"chouette:(?P<table>\d+):roll", lambda *_: _never())])
    old = interaction("chouette:7:retired:3")
    await router.dispatch(old)
    assert old.response.sent == ["This button is from an older version of the bot: use the "
                                 "buttons of the table's latest board."]


async def _never() -> None:
    raise AssertionError("no click should reach this route")


async def test_a_handlers_error_is_told_to_the_user(monkeypatch: Any) -> None:
    told: list[tuple[Any, BaseException, str]] = []

    async def tell(click: Any, error: BaseException, where: str) -> None:
        told.append((click, error, where))

    async def broken(click: Any, match: re.Match[str]) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(failures, "tell", tell)
    click = interaction("chouette:7:roll")
    await Router([Route(r"chouette:\d+:roll", broken)]).dispatch(click)
    assert [(c, str(e), w) for c, e, w in told] == [(click, "a bug", "broken")]


def test_picks_and_typed_values_are_read_from_the_interaction() -> None:
    assert picked(interaction("chouette:7:move", values=["8/5 6/5"])) == ["8/5 6/5"]
    assert picked(interaction("chouette:7:move")) == []
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "play", "value": "24/18"}]}]
    labelled = [{"type": 18, "component": {"type": 4, "custom_id": "play", "value": "13/7"}}]
    assert typed(interaction("chouette:7:typed", components=rows)) == {"play": "24/18"}
    assert typed(interaction("chouette:7:typed", components=labelled)) == {"play": "13/7"}
