"""The score sheet as Discord shows it: its message (the totals, who was paid at the table)
and its image, drawn in the drawing's process; after a game, a correction, at the end, and on
request (`/chouette score`). And the link button to the session's page (`page_link`, issue
37), which the final sheet, `/chouette record` and the verdict after a game carry."""

from __future__ import annotations

import io

import discord

from bot.render.drawing import Drawing, Names
from bot.render.sheet import render_sheet
from bot.web.links import Links
from bot.words.i18n import Translation, tr, translate
from bot.words.markdown import shown
from bot.words.phrases import paid_line
from rules.ledger import format_points
from rules.state import TableState


def sheet_text(state: TableState, locale: object, final: bool = False,
               correction: int = 0) -> tuple[str, str]:
    """The sheet's title, and its message: the title, then each player's total, highest
    first, and the payments made at the table; in `locale`'s language."""
    totals = sorted(state.sheet.totals().items(), key=lambda pv: (-pv[1], state.shown(pv[0])))
    lines = [f"{shown(state, p)}: {format_points(v)}" for p, v in totals]
    if state.sheet.paid:  # Atlanta 10.2: leavers settled already
        lines.append(tr("Paid at the table: {payments}.", locale, payments="; ".join(
            paid_line(t, lambda p: shown(state, p), locale) for t in state.sheet.paid)))
    title = (translate("Final score", locale) if final
             else tr("Score after correction {number}", locale, number=correction)
             if correction
             else tr("Score after game {number}", locale, number=state.games_played))
    return title, f"**{title}**\n" + "\n".join(lines)


async def sheet_file(drawing: Drawing, state: TableState,
                     locale: object = None) -> discord.File:
    """The score sheet of `state` as a PNG attachment, players by their names, its words in
    `locale`'s language, drawn by `drawing`'s process."""
    order = state.seating.players if state.seating else tuple(m.player for m in state.members)
    title = (tr("Score sheet · {stake}", locale, stake=state.basic) if state.basic
             else translate("Score sheet", locale))
    data = await drawing.run(render_sheet, state.sheet, order, roles=state.game_roles or None,
                             shown=Names.of(state), payoff=state.rules.payoff, title=title,
                             next_roles=next_roles(state, locale), basic=state.basic,
                             words=Translation.of(locale))
    return discord.File(io.BytesIO(data), "sheet.png")


def next_roles(state: TableState, locale: object = None) -> dict[str, str]:
    """Each seated player's role in the seating, for the sheet's columns (euro ¶17): "Box",
    "Partner", "Captain", then the Team's places in rotation order ("2", "3", ...), in
    `locale`'s language."""
    seating = state.seating
    if seating is None or state.ended:
        return {}
    partner = ({} if seating.partner is None
               else {seating.partner: translate("Partner", locale)})
    captain = translate("Captain", locale)
    return {seating.box: translate("Box", locale), **partner,
            **{p: str(i) if i > 1 else captain for i, p in enumerate(seating.team, 1)}}


async def page_link(links: Links, web_url: str, table_id: str, locale: object,
                    game: int = 0) -> discord.ui.View:
    """A link button to the table's session page (game `game`'s replay, if given) at the
    pages' public address `web_url` (CHOUETTE_WEB_URL), its label in `locale`'s language;
    without an address, no button (an empty view). A link button has no custom id: nothing
    to route, nothing kept, and it works after a restart."""
    view = discord.ui.View(timeout=None)
    if web_url:
        path = await links.session(table_id) + (f"/game/{game}" if game else "")
        label = (tr("Replay of game {number}", locale, number=game) if game
                 else translate("Session page", locale))
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label,
                                        url=web_url.rstrip("/") + path))
    return view
