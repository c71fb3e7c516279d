"""`shown`: the one masking of secrets (a URL's password, a Discord token) in messages and
logs."""

import pytest

from bot.store.dialect import shown, url_problem

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


@pytest.mark.parametrize(("text", "masked"), [
    ("postgresql://bot:s3cret@db:5432/chouette", "postgresql://bot:***@db:5432/chouette"),
    ("postgresql://bot:p@ss@db/chouette", "postgresql://bot:***@db/chouette"),
    ("postgresql://db/chouette?user=bot&password=s3cret&sslmode=require",
     "postgresql://db/chouette?user=bot&password=***&sslmode=require"),
    ("postgresql://bot:s3cret@/chouette?PASSWORD=s3cret&host=/run",
     "postgresql://bot:***@/chouette?PASSWORD=***&host=/run"),
    ("bot:s3cret@db/chouette", "bot:***@db/chouette"),  # a URL missing its scheme
    (f"can't reach postgresql://u:s3cret@h/d with {TOKEN}.",
     "can't reach postgresql://u:***@h/d with ***."),
])
def test_passwords_and_tokens_are_masked_wherever_they_are(text: str, masked: str) -> None:
    assert shown(text) == masked


@pytest.mark.parametrize("text", [
    "postgresql://bot@db/chouette", "postgresql://[::1]:5432/chouette?host=/run",
    "Ann: see you@home", "/data/chouette.sqlite3"])
def test_what_holds_no_secret_is_left_as_it_is(text: str) -> None:
    assert shown(text) == text


def test_a_port_that_is_not_a_number_is_told_with_the_url_masked() -> None:
    assert url_problem("postgresql://bot:s3cret@db:5432/chouette") is None
    assert url_problem("postgresql://bot:s3cret@a:5432,b:5433/chouette") is None
    assert url_problem("postgresql://bot@[::1]:5432/chouette") is None
    assert url_problem("postgresql://bot:s3cret@db:5x/chouette") == (
        "the port '5x' in postgresql://bot:***@db:5x/chouette is not a number")
    assert url_problem("postgresql://bot@a:5432,b:²/c") == (
        "the port '²' in postgresql://bot@a:5432,b:²/c is not a number")
