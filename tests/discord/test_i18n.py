"""The bot in the player's language: the Danish catalogue is complete, the /chouette commands
are sent to Discord with their Danish descriptions, a refusal reaches a Danish player in
Danish, and an unknown locale gets English."""

import string
from dataclasses import replace
from functools import partial
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po

from bot.app.effects import Announce, effects_for
from bot.discord.actions import board_view
from bot.discord.asks import prompt_view
from bot.discord.boards import board_text
from bot.discord.sync import NAME, Translator
from bot.words.i18n import catalogue_path, table_language, translate
from cogs.help import command_lines, table_part
from rules.commands import Join, Move, Open, Seat, Start
from rules.cube import Cube, Side
from rules.errors import CubeNotAvailable, RuleError
from rules.messages import MESSAGES, Phrase, Player, Players, Ties
from rules.state import TableState, replay
from rules.table import decide
from tests.discord.test_lobby import board_message, labels, open_table, table_id, table_state

TEMPLATES = tuple(MESSAGES.values())


def fields(template: str) -> list[str]:
    return sorted(f for _, f, _, _ in string.Formatter().parse(template) if f is not None)


def test_the_danish_catalogue_translates_every_text_with_the_same_fields() -> None:
    with catalogue_path("da").open("rb") as file:
        po = read_po(file, locale="da")
    texts = [m for m in po if m.id and m.context != NAME]  # names stay English (README)
    assert len(texts) > len(MESSAGES)
    assert [m.id for m in texts if not m.string] == []
    assert [m.id for m in texts if m.fuzzy] == []
    assert [m.id for m in texts if fields(str(m.id)) != fields(str(m.string))] == []


def test_the_catalogues_have_every_refusal_template() -> None:
    with catalogue_path("da").open("rb") as file:
        ids = {m.id for m in read_po(file, locale="da")}
    new = [t for t in TEMPLATES if t not in ids]
    assert new == [], ("rules/messages.py has texts the catalogues lack: run `make messages` "
                       "and translate them in locale/da/LC_MESSAGES/chouette.po")


async def test_a_danish_user_sees_the_commands_described_in_danish(simcord_env: Any) -> None:
    tree = simcord_env.bot.tree
    assert isinstance(tree.translator, Translator)
    group = tree.get_command("chouette")
    join = group.get_command("join")
    payload = await join.get_translated_payload(tree, tree.translator)
    assert payload["description"].startswith("Sit down at this table")
    assert payload["description_localizations"]["da"].startswith("Sæt dig ved bordet")
    assert payload["name"] == "join" and "da" not in payload.get("name_localizations", {})
    stake = next(o for o in payload["options"] if o["name"] == "stake")
    assert stake["description_localizations"]["da"] == "din indsatsfaktor (1 = grundindsatsen)"
    assert "sv" not in payload["description_localizations"]  # no Swedish catalogue: English
    for command in group.walk_commands():  # Discord takes 100 characters at most
        sent = await command.get_translated_payload(tree, tree.translator)
        assert len(sent["description_localizations"].get("da", "")) <= 100, command.name


def test_a_refusal_is_written_in_the_players_language() -> None:
    refused = RuleError(code="blinded_joins", player=Player("123"))
    assert refused.text() == "123 is blinded at this table: a moderator unblinds them first."
    danish = refused.text(str, lambda template: translate(template, "da"))
    assert danish == "123 er blindet ved dette bord: en moderator skal først fjerne blindingen."
    quoted = RuleError(code="correction_points", points="lots")
    assert quoted.text(str, lambda t: translate(t, discord.Locale.danish)) == (
        "points er et tal (halve tilladt), ikke 'lots'.")
    for unknown in ("sv-SE", "en-US", None, "xx"):
        assert refused.text(str, partial(translate, locale=unknown)) == refused.text()
    assert translate("Take", "da") == "Tag" and translate("Take", "fr") == "Take"


async def test_a_danish_player_is_refused_in_danish_with_names(simcord_env: Any) -> None:
    _, members, board = await open_table(simcord_env, "ann", "bo")
    state = await table_state(simcord_env, board)
    refused = RuleError(code="already_at_table", player=Player(str(members[1].id)))
    said = simcord_env.bot.presenter.names(state, refused, locale=discord.Locale.danish)
    assert said == "bo er allerede ved dette bord."
    assert simcord_env.bot.presenter.names(state, refused) == "bo is already at this table."


def test_discord_locales_choose_the_catalogue() -> None:
    assert translate("Decline", "da") == "Sig nej"
    assert translate("Decline", discord.Locale.american_english) == "Decline"


def test_a_tables_language_is_its_own_else_its_servers_else_english() -> None:
    assert table_language("da", discord.Locale.american_english) == "da"  # kept in its state
    assert table_language("", discord.Locale.danish) == "da"  # opened before tables had one
    assert table_language("", discord.Locale.american_english) == "en"
    assert table_language("", None) == "en"  # no server to ask (a DM)
    assert table_language("", discord.Locale.swedish) == "en"  # no catalogue


async def test_help_speaks_danish_to_a_danish_user(simcord_env: Any) -> None:
    _, members, board = await open_table(simcord_env, "ann", "bo")
    state = await table_state(simcord_env, board)
    said = table_part(state, str(members[0].id), "Waiting for a game.", discord.Locale.danish)
    assert said.startswith("**Dette bord:** atlanta-regler (botten styrer brættet), før det "
                           "første spil.")
    assert "**Dig:** Du er kommet med ved bordet, med indsats ×1." in said
    assert "**Du kan nu:** **Start game** (på brættet), når 1 spiller mere er kommet med" in said
    lines = command_lines(simcord_env.bot.chouette, {}, "da")
    assert "`/chouette help`: Hvad du kan gøre ved bordet nu, og alle /chouette-kommandoer." \
        in lines
    assert "**You:** You have joined the table" in table_part(state, str(members[0].id), "",
                                                              "en-GB")


def test_a_question_by_dm_has_buttons_in_the_servers_language() -> None:
    view = prompt_view("1", "2", ("take", "drop", "retract"), "3", 2, discord.Locale.danish)
    labels = [item.label for item in view.children if isinstance(item, discord.ui.Button)]
    assert labels == ["Tag", "Afvis", "Afvis Boxens dobling alligevel"]
    english = prompt_view("1", "2", ("take", "drop"), "3", 2, "en-US")
    assert [item.label for item in english.children
            if isinstance(item, discord.ui.Button)] == ["Take", "Drop"]


def test_a_danish_refusal_has_no_english_word_inside() -> None:
    """The words a refusal fills in (a cube's state, an action, the turn waiting, what must
    come first) are phrases of the catalogue too."""
    danish = partial(translate, locale="da")
    dropped, _ = Cube("1", "2").offer(Side.BOX).drop()
    with pytest.raises(CubeNotAvailable) as out:
        dropped.take()
    assert str(out.value) == "You can't take: 1's cube against 2 is dropped and out of this game"
    assert out.value.text(str, danish) == (
        "Du kan ikke tage: 1s doblingsterning mod 2 er afvist og ude af dette spil")
    with pytest.raises(CubeNotAvailable) as out:
        Cube("1", "2").offer(Side.BOX).beaver(allowed=True).beaver(allowed=True)
    assert out.value.text(str, danish) == (
        "Du kan ikke give beaver nu: du skal først svare på beaveren til 4 på din "
        "doblingsterning med 1")
    waiting = RuleError(code="decisions_first", doing=Phrase("doing_roll"), who=Players(["1"]))
    assert waiting.text(str, danish) == (
        "Før slaget skal doblingsbeslutningerne træffes: venter på 1.")
    ties = RuleError(code="seats_tied", tied=Ties([Players(["1", "2"])]))
    assert ties.text(str, danish) == "Lige slag: 1 og 2 slår igen."
    english = {"take", "dropped", "double", "roll", "and", "the", "can't"}  # beaver is Danish too
    for refused in (out.value, waiting, ties):
        assert not english & set(refused.text(str, danish).replace(":", " ").split())


def danish_table(*players: str) -> TableState:
    state = TableState()
    for command in (Open(by=players[0], language="da"), *(Join(by=p) for p in players)):
        state = replay(decide(state, command), state)
    return state


def test_a_danish_tables_board_has_danish_buttons_and_text() -> None:
    state = danish_table("1", "2")
    assert state.language == "da"
    view = board_view("7", state, state.language)
    buttons = [(item.label, item.custom_id) for item in view.children
               if isinstance(item, discord.ui.Button)]
    assert buttons == [("Kom med", "chouette:7:join"), ("Start spil", "chouette:7:start")]
    assert board_text(state, ["1 kommer med."], locale=state.language) == (
        "**Kommet med** 1, 2\n**Venter på spillere: `/chouette join`, derefter "
        "`/chouette start`.**\n> 1 kommer med.")
    english = board_view("7", state, "en-US")  # the fake Discord's server: as before
    assert [getattr(item, "label", None) for item in english.children] == ["Join", "Start game"]


def test_a_danish_tables_record_and_questions_are_in_danish() -> None:
    before = danish_table("1", "2", "3")
    after = replay(decide(before, Seat(order=["1", "2", "3"])), before)
    started = decide(after, Start(by="1", opening=[[3, 1]]))
    lines = [e.words(replay(started, after), before.language)
             for e in effects_for(after, replay(started, after), started)
             if isinstance(e, Announce)]
    assert lines[0].startswith("Spil 1 begynder; Boxen starter med 3-1")
    playing = replay(started, after)
    played = decide(playing, Move(by="1", play="8/5 6/5"))
    effects = effects_for(playing, replay(played, playing), played)
    assert next(e.words(playing, before.language) for e in effects
                if isinstance(e, Announce)) == "Boxen spiller 8/5 6/5."
    view = prompt_view("7", "2", ("take", "drop"), "1", 2, before.language)
    assert [getattr(item, "label", None) for item in view.children] == ["Tag", "Afvis"]


async def test_a_table_opened_in_danish_shows_its_board_in_danish(
        simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.render import drawing

    pictures: list[Any] = []
    real = drawing.table_picture
    monkeypatch.setattr(drawing, "table_picture",
                        lambda *a, **k: pictures.append(real(*a, **k)) or pictures[-1])
    _, members, board = await open_table(simcord_env, "ann", "bo", "cy", language="da")
    message = board_message(board)
    assert labels(message) == ["Kom med", "Start spil"]
    assert message.content.startswith("**Kommet med** ann, bo, cy\n**Venter på spillere")
    record = [m.content for m in list(board.history())[1:]]
    assert record[0] == ("Et bord er åbent efter atlanta-reglerne (spilletilstand).\n"
                         "ann kommer med.")  # the open and the opener's seat: one message
    await members[0].click(board_message(board), label="Start spil")
    assert "**Box** " in board_message(board).content
    drawn = pictures[-1]  # the board image's words are the table's too
    assert drawn.status[1].startswith("Positions-ID ")
    assert "Hold (Kaptajn " in drawn.top.label + drawn.bottom.label
    assert "Pladser (" in "\n".join(m.content for m in board.history())
    items = [c for row in board_message(board).components for c in row.children]
    assert [getattr(c, "placeholder", None) or c.label for c in items][-1:] == [
        "Skriv et træk"]  # after the move menu
    assert items[0].placeholder == "Vælg dit træk"


async def test_a_tables_language_is_its_servers_wherever_it_is_asked(simcord_env: Any) -> None:
    """A table without a language of its own reads its server's (the server of its #board),
    whether asked by its board, a click in a DM (no server) or a post; no channels, English."""
    guild = simcord_env.create_guild(preferred_locale="da")
    lobby = guild.create_text_channel("lobby")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(lobby, "chouette open")
    board = next(c for c in guild.channels.values() if c.name == "board")
    table = await table_id(simcord_env, board)
    old = replace(await table_state(simcord_env, board), language="")  # before tables had one
    presenter = simcord_env.bot.presenter
    assert await presenter.table_locale(table, old) == "da"
    assert presenter.boards.locale(old, None) == "en"


async def test_the_house_rules_read_in_the_tables_language(simcord_env: Any) -> None:
    """`/chouette rules` at a Danish table: every line of its house rules in Danish (each a
    text of the catalogue), whoever asks; away from a table, in the reader's language."""
    from rules.preset import load_preset
    from rules.ruleset import explain, templates

    _, members, board = await open_table(simcord_env, "ann", "bo", "cy", language="da")
    answer = await members[1].slash(board, "chouette rules")
    text = answer.response.content
    assert text.startswith("**atlanta** (") and "available" not in text, text
    english = explain(load_preset("atlanta"))
    danish = explain(load_preset("atlanta"), lambda t: translate(t, "da"))
    shown = text.splitlines()[1:]  # (a long answer comes in pieces: its first here)
    assert len(shown) > 10 and shown == [f"- {line}" for line in danish][:len(shown)]
    assert not set(english) & set(danish)  # no line left in English
    assert all(translate(t, "da") != t for t in templates())  # the catalogue has them all
