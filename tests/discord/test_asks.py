"""The questions' buttons: one declaration each, and custom ids that keep their wire format, so
a button in a DM sent by an older version is still understood after an upgrade."""

import pytest

from bot.discord.asks import Question, ask_button, custom_id, question

# Custom ids as the bot wrote them before the questions were declared in one table.
SENT_BEFORE = {
    "chouette:7:take:11@2": Question("7", "take", player="11", face="2"),
    "chouette:7:beaver:11:22@4": Question("7", "beaver", player="11", across="22", face="4"),
    "chouette:7:retract:11:22": Question("7", "retract", player="11", across="22"),
    "chouette:7:accept:ann@1": Question("7", "accept", player="ann", face="1"),
    "chouette:7:yes:11": Question("7", "yes", player="11"),
    "chouette:7:no:11": Question("7", "no", player="11"),
    "chouette:7:approve:3": Question("7", "approve", number="3"),
    "chouette:7:object:11": Question("7", "object", player="11"),
    "chouette:7:buy:11:22": Question("7", "buy", seller="11", buyer="22"),
    "chouette:7:buy:11:22:1/2": Question("7", "buy", seller="11", buyer="22", points="1/2"),
    "chouette:7:stake:11:2": Question("7", "stake", player="11", stake="2"),
}


@pytest.mark.parametrize("sent", sorted(SENT_BEFORE))
def test_a_question_sent_before_is_read_as_it_was_and_written_the_same(sent: str) -> None:
    assert question(sent) == SENT_BEFORE[sent]
    assert custom_id(SENT_BEFORE[sent]) == sent


def test_the_consents_to_a_raccoon_or_an_aardvark_are_named_and_the_old_ids_still_read() -> None:
    agree = Question("7", "agree_raccoon", actor="11", across="22")
    assert custom_id(agree) == "chouette:7:agree_raccoon:11:22"
    assert question("chouette:7:racok:11:22") == agree == question(custom_id(agree))
    assert question("chouette:7:aardok:11:22") == Question("7", "agree_aardvark", actor="11",
                                                            across="22")


@pytest.mark.parametrize("other", ["chouette:7:take", "chouette:7:stake:11:x",
                                   "chouette:7:confirm:double", "chouette:7:pick:answer:take",
                                   "chouette:7:racok:11", "chouette:7:invite:11"])
def test_other_custom_ids_are_no_questions(other: str) -> None:
    assert question(other) is None


def test_labels_say_what_the_button_does() -> None:
    def label(q: Question, name: str = "") -> str:
        return str(ask_button(q, name).label)

    assert label(Question("7", "approve", number="3")) == "Agree to correction 3"
    assert label(Question("7", "stake", player="11", stake="2")) == "Agree to 2x stakes"
    assert label(Question("7", "admit", player="11"), "Di") == "Admit Di"
    assert label(Question("7", "object", player="11")) == "Object to newcomer"
    assert label(Question("7", "agree_aardvark", actor="1", across="2")) == (
        "Agree to the aardvark")
