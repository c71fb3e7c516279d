"""The bot's lean path to Discord's REST: answers and messages without the models it never reads.

discord.py answers an interaction with `?with_response=1` and builds what Discord sends back
(the board message: its text, components, attachment) into an `InteractionCallbackResponse`
holding an `InteractionMessage`; a message posted or edited in a channel comes back as a whole
`Message`. The bot reads none of it, at most a posted message's id: under load that was about
5% of its CPU (issue 23). Here the same requests are made without asking for the answer
(Discord then answers an interaction 204 No Content) or without building it into a model.

The payloads are built by discord.py's own helpers (files, attachments, views and the client's
`allowed_mentions` encoded as before), the requests go through its webhook adapter and
`HTTPClient` (rate limits, retries, `discord.HTTPException` and its subclasses raised as
before) and the interaction's response is marked done (`is_done()`, followups). No view or
form is stored: the bot's are routed (`bot.discord.router`: `Inert` views, `Form`s), so
discord.py keeps nothing of them. What discord.py keeps private is touched here and in
`transport` (its HTTP client's session and rate-limit sweep) only.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import discord
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

Attachments = Sequence[discord.Attachment | discord.File]
Kind = discord.InteractionResponseType


async def update(interaction: discord.Interaction, *, content: str | None = MISSING,
                 attachments: Attachments = MISSING,
                 view: discord.ui.View | None = MISSING) -> None:
    """Answer a click (or a form sent from a message) by editing the message it came from
    (response type 7), as `interaction.response.edit_message` does; nothing read back."""
    _unanswered(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=Kind.message_update.value, content=content, attachments=attachments, view=view,
        previous_allowed_mentions=state.allowed_mentions)
    await _callback(interaction, params, Kind.message_update)


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = False,
                view: discord.ui.View = MISSING) -> None:
    """Answer an interaction with a message (response type 4), as
    `interaction.response.send_message(content, ephemeral=..., view=...)` does; nothing read
    back."""
    _unanswered(interaction)
    state = interaction._state
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    params = interaction_message_response_params(
        type=Kind.channel_message.value, content=content, flags=flags, view=view,
        previous_allowed_mentions=state.allowed_mentions)
    await _callback(interaction, params, Kind.channel_message)


async def private(interaction: discord.Interaction, content: str) -> None:
    """A message only the user sees: the interaction's answer, or a followup once it is
    answered (a followup is not waited for: nothing read back either)."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await reply(interaction, content, ephemeral=True)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge an interaction, to answer it later, as `interaction.response.defer()`
    does: a click or a form quietly (type 6, the message edited later), a command with
    "thinking..." (type 5)."""
    _unanswered(interaction)
    kind = (Kind.deferred_channel_message
            if interaction.type is discord.InteractionType.application_command
            else Kind.deferred_message_update)
    await _callback(interaction, interaction_response_params(kind.value), kind)


async def edit_original(interaction: discord.Interaction, *, content: str | None = MISSING,
                        attachments: Attachments = MISSING,
                        view: discord.ui.View | None = MISSING) -> None:
    """Edit an answered interaction's message (after `defer`), as
    `interaction.edit_original_response` does, without building the message Discord returns."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(content=content, attachments=attachments, view=view,
                                   previous_allowed_mentions=state.allowed_mentions) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files)


async def post(channel: discord.abc.Messageable, content: str | None = None, *,
               files: Sequence[discord.File] = MISSING, view: discord.ui.View = MISSING,
               nonce: str | int | None = None,
               allowed_mentions: discord.AllowedMentions = MISSING) -> dict[str, Any]:
    """Post a message in `channel` (a DM's too) as `channel.send(...)` does; the message as
    Discord sent it back (its JSON, no model). With a `nonce`, Discord posts it once however
    often it is sent (`enforce_nonce`: the message it has comes back); without, a random
    one, as discord.py sends."""
    target = await channel._get_channel()
    state = target._state
    nonce = secrets.randbits(64) if nonce is None else nonce
    with handle_message_parameters(content=content, files=files, view=view, nonce=nonce,
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=state.allowed_mentions) as params:
        data = await state.http.send_message(target.id, params=params)
    return dict(data)


async def edit(message: discord.PartialMessage, *, content: str | None = MISSING,
               attachments: Attachments = MISSING,
               view: discord.ui.View | None = MISSING) -> None:
    """Edit a message of the bot's, as `message.edit(...)` does, without building the
    message Discord returns."""
    state = message._state
    with handle_message_parameters(
            content=content, attachments=attachments, view=view,
            previous_allowed_mentions=state.allowed_mentions if content is not MISSING
            else None) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)


async def modal(interaction: discord.Interaction, form: discord.ui.Modal) -> None:
    """Answer an interaction with a form (response type 9), as
    `interaction.response.send_modal` does, nothing read back (a routed `Form`: kept
    nowhere)."""
    _unanswered(interaction)
    await _callback(interaction, interaction_response_params(Kind.modal.value, form.to_dict()),
                    Kind.modal)


def _unanswered(interaction: discord.Interaction) -> None:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)


async def _callback(interaction: discord.Interaction, params: MultipartParameters,
                    kind: discord.InteractionResponseType) -> None:
    """POST the interaction's callback without `with_response` (Discord: 204 No Content),
    through discord.py's webhook adapter; then the response is done, as discord.py marks it."""
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                  webhook_id=interaction.id, webhook_token=interaction.token)
    http = interaction._state.http
    request: dict[str, Any] = (
        {"files": params.files, "multipart": params.multipart} if params.files
        else {"payload": params.payload})
    with params:
        await async_context.get().request(route, session=interaction._session,
                                          proxy=http.proxy, proxy_auth=http.proxy_auth,
                                          **request)
    interaction.response._response_type = kind
