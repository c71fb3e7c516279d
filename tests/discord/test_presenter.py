"""The presenter's message nonces: the same action's message gets the same nonce however
often it is delivered (so Discord posts it once), within Discord's 25 characters."""

from bot.discord.presenter import message_nonce


def test_a_message_delivered_again_has_the_same_nonce_and_another_message_another() -> None:
    first = message_nonce("123:7", "record", "0")
    assert first == message_nonce("123:7", "record", "0")
    assert len(first) == 25  # Discord refuses a longer nonce
    others = {message_nonce("123:7", "record", "2000"), message_nonce("123:8", "record", "0"),
              message_nonce("123:7", "box", "0")}
    assert first not in others and len(others) == 3
