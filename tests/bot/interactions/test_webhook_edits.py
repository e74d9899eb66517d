"""The memory of interactions' webhooks that edit messages where the bot is absent: what it keeps, and for how long."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from bot.interactions.webhook_edits import TOKEN_LIFETIME, TOKEN_MARGIN, InteractionWebhooks


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def interaction(*, bot_present: bool) -> SimpleNamespace:
    return SimpleNamespace(followup=object(), is_guild_integration=lambda: bot_present)


def test_a_webhook_lives_until_a_little_before_discord_refuses_its_token():
    clock = Clock()
    webhooks = InteractionWebhooks(clock)
    shown = interaction(bot_present=False)
    webhooks.remember(shown, 1)
    clock.now += TOKEN_LIFETIME - TOKEN_MARGIN - timedelta(seconds=1)
    assert webhooks.live(1) is shown.followup
    clock.now += timedelta(seconds=1)
    assert webhooks.live(1) is None


def test_a_later_interaction_on_the_message_gives_it_fresh_minutes():
    clock = Clock()
    webhooks = InteractionWebhooks(clock)
    webhooks.remember(interaction(bot_present=False), 1)
    clock.now += timedelta(minutes=10)
    clicked = interaction(bot_present=False)
    webhooks.remember(clicked, 1)
    clock.now += timedelta(minutes=10)
    assert webhooks.live(1) is clicked.followup


def test_nothing_is_kept_where_the_bot_edits_with_its_own_token_and_memory_is_bounded():
    clock = Clock()
    webhooks = InteractionWebhooks(clock, most=2)
    webhooks.remember(interaction(bot_present=True), 1)
    assert webhooks.live(1) is None
    for message_id in (2, 3, 4):
        webhooks.remember(interaction(bot_present=False), message_id)
    assert webhooks.live(2) is None and webhooks.live(3) is not None and webhooks.live(4) is not None
    clock.now += TOKEN_LIFETIME
    webhooks.remember(interaction(bot_present=False), 5)  # forgets the expired ones as it goes
    assert len(webhooks) == 1
