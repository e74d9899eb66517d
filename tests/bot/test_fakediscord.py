"""The fake Discord drives the real discord.py: a tiny bot defined here answers through its own HTTP path."""

from __future__ import annotations

import asyncio
import io
from typing import Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.playground.limits import check_limits
from tests.fakediscord import ALICE, BOB, GM, GUILD_READY_TIMEOUT, CannotInvoke, FakeDiscord, FakeUser, Reply

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
PUT_GLOBAL = "/applications/{application_id}/commands"
HELLO = discord.Embed(title="Hello", description="A constant embed.", colour=0x2F3136).add_field(
    name="a", value="b"
)


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>[0-9]+)"):
    """State lives in the custom_id, so the button still works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        self.n += 1
        self.item.label, self.custom_id = f"Count {self.n}", f"count:{self.n}"
        await interaction.response.edit_message(view=self.view)


class Vote(discord.ui.View):
    """An in-memory view: clicking edits the message (UPDATE_MESSAGE)."""

    votes = 0

    @discord.ui.button(label="Vote", custom_id="vote")
    async def vote(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.votes += 1
        await interaction.response.edit_message(content=f"{self.votes} vote(s)", view=self)

    @discord.ui.button(label="Close", custom_id="close")
    async def close(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.message.edit(content="closed", view=None)
        await interaction.followup.send("closed it", ephemeral=True)


class Crowded(discord.ui.View):
    """Components as discord.py sends them whatever they are, laid out in ways Discord refuses."""

    def __init__(self, rows: int, per_row: int) -> None:
        super().__init__()
        self.rows, self.per_row = rows, per_row

    def to_components(self) -> list[dict]:
        def button(row: int, column: int) -> dict:
            return {"type": 2, "style": 1, "label": "Go", "custom_id": f"go:{row}:{column}"}

        return [
            {"type": 1, "components": [button(row, column) for column in range(self.per_row)]}
            for row in range(self.rows)
        ]


class TinyBot(commands.Bot):
    def __init__(self, *, sync: bool = True, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=GUILD_READY_TIMEOUT,
        )
        self.sync, self.callbacks = sync, []
        for command in (
            hello,
            secret,
            slow,
            later,
            sheet,
            perms,
            vote,
            counter,
            big,
            roll,
            config,
            pick,
            dice,
            crowded,
        ):
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        if self.sync:
            await self.tree.sync()


@app_commands.command()
async def hello(interaction: discord.Interaction) -> None:
    """Answer a constant embed."""
    interaction.client.callbacks.append(await interaction.response.send_message(embed=HELLO))


@app_commands.command()
async def secret(interaction: discord.Interaction) -> None:
    """Answer only the caller."""
    await interaction.response.send_message("shh", ephemeral=True)


@app_commands.command()
async def slow(interaction: discord.Interaction) -> None:
    """Think first, answer later."""
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("done")
    await interaction.followup.send("and one more", ephemeral=True)


@app_commands.command()
async def sheet(interaction: discord.Interaction) -> None:
    """Answer with a file (discord.py switches to multipart/form-data with payload_json)."""
    await interaction.response.send_message(
        "your sheet", file=discord.File(io.BytesIO(b"HP 10"), "sheet.txt")
    )


@app_commands.command()
async def perms(interaction: discord.Interaction) -> None:
    """Report whether the bot may embed links here."""
    await interaction.response.send_message(f"embed_links={interaction.app_permissions.embed_links}")


@app_commands.command()
async def later(interaction: discord.Interaction) -> None:
    """Think privately, then edit the answer in place."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.edit_original_response(content="edited")


@app_commands.command()
async def vote(interaction: discord.Interaction) -> None:
    """A message with a button."""
    await interaction.response.send_message("no votes yet", view=Vote())


@app_commands.command()
async def counter(interaction: discord.Interaction) -> None:
    """A message with a dynamic (restart-proof) button."""
    await interaction.response.send_message(
        "counting", view=discord.ui.View(timeout=None).add_item(Counter(0))
    )


@app_commands.command()
async def big(interaction: discord.Interaction, how: Literal["description", "total"]) -> None:
    """Send an embed Discord refuses."""
    if how == "description":
        embed = discord.Embed(description="x" * 7000)
    else:
        embed = discord.Embed(description="x" * 4000)
        for index in range(3):
            embed.add_field(name=f"f{index}", value="y" * 1000)
    await interaction.response.send_message(embed=embed)


@app_commands.command()
async def crowded(interaction: discord.Interaction, rows: int, per_row: int) -> None:
    """Send rows x per_row buttons."""
    await interaction.response.send_message("crowded", view=Crowded(rows, per_row))


@app_commands.command()
async def roll(
    interaction: discord.Interaction, count: app_commands.Range[int, 1, 20], who: discord.Member
) -> None:
    """Echo typed options, after a pause so that answers interleave."""
    await asyncio.sleep(0.01 * (count % 3))
    await interaction.response.send_message(f"{who.name} rolled {count} for {interaction.user.name}")


dice = app_commands.Group(name="dice", description="Dice in a group.")


@dice.command(name="roll")
async def dice_roll(
    interaction: discord.Interaction, sides: int, where: discord.TextChannel | None = None
) -> None:
    """A subcommand with a channel option (resolved data)."""
    await interaction.response.send_message(f"d{sides} in #{where.name if where else '-'}")


@app_commands.command()
@app_commands.default_permissions(manage_guild=True)
async def config(interaction: discord.Interaction) -> None:
    """GM only."""
    await interaction.response.send_message("configured", ephemeral=True)


@app_commands.command()
async def pick(interaction: discord.Interaction, system: str) -> None:
    """Autocomplete, then a modal."""
    modal = discord.ui.Modal(title="Notes", custom_id="notes")
    modal.add_item(discord.ui.TextInput(label="Note", custom_id="note"))

    async def on_submit(submitted: discord.Interaction) -> None:
        await submitted.response.send_message(f"{system}: {modal.children[0].value}", ephemeral=True)

    modal.on_submit = on_submit
    await interaction.response.send_modal(modal)


@pick.autocomplete("system")
async def pick_systems(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = ["hex", "yearzero", "heroic"]
    return [app_commands.Choice(name=name, value=name) for name in names if name.startswith(current)]


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> TinyBot:
    return await fake_discord.run(TinyBot())


@pytest.fixture
async def fake_discord(fake_discord: FakeDiscord) -> FakeDiscord:
    """The shared fixture, plus: every answer the fake gave here matches the spec's response schemas too."""
    yield fake_discord
    assert fake_discord.backend.fake_problems == []


async def test_slash_round_trip_is_validated_and_parsed_by_discord_py(fake_discord, bot):
    reply = await fake_discord.slash("hello", user=ALICE)
    assert reply.type == 4 and not reply.ephemeral
    assert reply.embed["title"] == "Hello" and reply.embed["fields"] == [
        {"name": "a", "value": "b", "inline": True}
    ]
    [callback] = fake_discord.requests_to("POST", CALLBACK)
    assert callback.status == 200 and callback.query == {"with_response": "1"}
    assert callback.body["data"]["embeds"][0]["title"] == "Hello"
    # discord.py parsed the InteractionCallbackResponse we answered into an InteractionMessage.
    [response] = bot.callbacks
    assert response.message_id == int(reply.message["id"])
    assert response.resource.embeds[0].title == "Hello"
    assert fake_discord.violations == []


async def test_the_parser_hook_sees_every_interaction(fake_discord, bot):
    """Pins the harness's two DEP: places on discord.py 2.7: its wrapped INTERACTION_CREATE parser reports each
    interaction with the tasks discord.py started for it, and the class attributes that hold discord.py's
    addresses send every request and the gateway to the fake."""
    answered = [await fake_discord.slash("hello", user=ALICE) for _ in range(3)]
    for reply in answered:
        assert reply.handled is not None and reply.handled.done()
        assert reply.handled.result(), "discord.py started no task for the interaction: the hook missed it"
    assert len(fake_discord.requests_to("POST", CALLBACK)) == 3  # discord.py's HTTP reached the fake
    assert fake_discord.gateway.identified.is_set()


async def test_ephemeral_answer_carries_flag_64(fake_discord, bot):
    reply = await fake_discord.slash("secret")
    assert reply.callback["data"]["flags"] == 64
    assert reply.ephemeral and reply.content == "shh"


async def test_deferred_answer_then_followups(fake_discord, bot):
    reply = await fake_discord.slash("slow")
    assert reply.type == 5 and not reply.loading
    first, second = reply.followups
    assert first is reply.message and first["content"] == "done"
    assert second["content"] == "and one more" and second["flags"] & 64
    assert len(fake_discord.requests_to("POST", "/webhooks/{webhook_id}/{webhook_token}")) == 2


async def test_deferred_answer_edited_in_place(fake_discord, bot):
    reply = await fake_discord.slash("later")
    assert reply.type == 5 and reply.ephemeral and not reply.loading
    assert reply.content == "edited" and reply.followups == [] and len(reply.edits) == 1


async def test_multipart_answer_with_a_file(fake_discord, bot):
    reply = await fake_discord.slash("sheet")
    [callback] = reply.requests
    assert [(file["filename"], file["size"]) for file in callback.files] == [("sheet.txt", len(b"HP 10"))]
    assert callback.body["data"]["attachments"] == [{"id": 0, "filename": "sheet.txt"}]
    assert reply.content == "your sheet" and reply.message["attachments"][0]["filename"] == "sheet.txt"


async def test_bot_permissions_reach_the_bot(fake_discord, bot):
    assert (await fake_discord.slash("perms")).content == "embed_links=True"
    fake_discord.bot_permissions &= ~discord.Permissions(embed_links=True).value
    assert (await fake_discord.slash("perms")).content == "embed_links=False"


async def test_dm_invocation(fake_discord, bot):
    reply = await fake_discord.slash("hello", dm=True)
    assert "guild_id" not in reply.interaction and reply.embed["title"] == "Hello"


async def test_click_then_edit_through_the_channel_route(fake_discord, bot):
    reply = await fake_discord.slash("vote")
    click = await fake_discord.click(reply, "close", user=BOB)
    assert click.type == 6 and click.message is reply.message
    assert reply.content == "closed" and reply.components == []
    [edit] = fake_discord.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")
    assert edit.status == 200 and reply.edits == [{"message_id": int(reply.message["id"]), "body": edit.body}]
    assert click.followups[0]["content"] == "closed it" and click.followups[0]["flags"] & 64
    with pytest.raises(CannotInvoke, match="has no component"):
        await fake_discord.click(reply, "vote")


async def test_button_click_updates_the_message(fake_discord, bot):
    reply = await fake_discord.slash("vote")
    assert [c["label"] for c in reply.components[0]["components"]] == ["Vote", "Close"]
    click = await fake_discord.click(reply, label="Vote", user=BOB)
    assert click.type == 7 and click.message["id"] == reply.message["id"]
    assert reply.content == "1 vote(s)" and reply.message["edited_timestamp"] is not None
    assert (await fake_discord.click(reply, "vote")).content == "2 vote(s)"


async def test_dynamic_button_works_after_a_restart(fake_discord, bot):
    reply = await fake_discord.slash("counter")
    await fake_discord.stop()
    await fake_discord.run(TinyBot(sync=False))
    click = await fake_discord.click(reply, "count:0", user=BOB)
    assert click.type == 7
    assert click.components[0]["components"][0]["custom_id"] == "count:1"
    assert (await fake_discord.click(reply, label="Count 1")).components[0]["components"][0][
        "label"
    ] == "Count 2"
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 1


async def test_command_sync_is_recorded_and_validated(fake_discord, bot, discord_spec):
    [put] = fake_discord.requests_to("PUT", PUT_GLOBAL)
    assert put.status == 200 and put.path == f"/applications/{fake_discord.application_id}/commands"
    names = {command.name for command in bot.tree.get_commands()}
    assert len(names) == 14
    assert {command["name"] for command in put.body} == names
    assert {command["name"] for command in fake_discord.commands()} == names
    with pytest.raises(discord.Forbidden):  # a guild the bot is not in
        await bot.tree.sync(guild=discord.Object(id=1))
    bad = [{"name": "Bad Name!", "description": "d" * 101, "type": 1}]
    if discord_spec.openapi:  # else the fake's own check below is the only one
        assert discord_spec.check("PUT", PUT_GLOBAL, bad) == [
            "$[0].description: too long: 101 characters (maxLength 100)"
        ]
    assert (
        "$[0].name: 'Bad Name!' is not a lowercase chat-input name" in check_limits("PUT", PUT_GLOBAL, bad)[0]
    )


async def test_an_invalid_body_is_caught_and_named(fake_discord, bot, discord_spec):
    reply = await fake_discord.slash("big", {"how": "description"}, expect_answer=False)
    assert reply.callbacks == [] and reply.rejected
    too_long, total = fake_discord.take_violations()
    assert too_long.template == total.template == CALLBACK
    assert too_long.problem == (
        "$.data.embeds[0].description: too long: 7000 characters (maxLength 4096) "
        "(in branch CreateMessageInteractionCallbackRequest > IncomingWebhookInteractionRequest)"
        if discord_spec.openapi  # the OpenAPI check names it; else the fake's own limit
        else "$.data.embeds[0].description: 7000 characters (limit 4096)"
    )
    assert total.problem == "$.data.embeds: 7000 characters in all embeds together (limit 6000)"
    assert "400 Bad Request" in fake_discord.take_bot_errors()[0].exc_info[1].args[0]

    await fake_discord.slash("big", {"how": "total"}, expect_answer=False)
    [violation] = fake_discord.take_violations()
    counted = 4000 + 3 * (len("f0") + 1000)
    assert violation.problem == f"$.data.embeds: {counted} characters in all embeds together (limit 6000)"
    fake_discord.take_bot_errors()


async def test_component_layouts_discord_refuses_are_refused_with_or_without_the_spec(fake_discord, bot):
    assert (await fake_discord.slash("crowded", {"rows": 5, "per_row": 5})).type == 4
    for options, problem in [
        ({"rows": 6, "per_row": 1}, "$.data.components: 6 top-level components (limit 5)"),
        ({"rows": 1, "per_row": 6}, "$.data.components[0].components: "),  # the spec's words or the fake's
    ]:
        reply = await fake_discord.slash("crowded", options, expect_answer=False)
        assert reply.callbacks == [] and [request.status for request in reply.rejected] == [400]
        [violation] = fake_discord.take_violations()  # named once, even where the spec finds it too
        assert violation.template == CALLBACK and violation.problem.startswith(problem)
        assert "400 Bad Request" in fake_discord.take_bot_errors()[0].exc_info[1].args[0]


async def test_fifty_concurrent_interactions_are_each_answered_once(fake_discord, bot):
    players = [FakeUser(f"player{index}") for index in range(50)]
    replies = await asyncio.gather(
        *(
            fake_discord.slash("roll", {"count": index % 20 + 1, "who": BOB}, user=player)
            for index, player in enumerate(players)
        )
    )
    for index, (player, reply) in enumerate(zip(players, replies, strict=True)):
        assert len(reply.callbacks) == 1 and not reply.rejected
        assert reply.content == f"bob rolled {index % 20 + 1} for {player.name}"
    assert len(fake_discord.requests_to("POST", CALLBACK)) == 50


async def test_discord_client_rules_are_enforced_before_sending(fake_discord, bot):
    with pytest.raises(CannotInvoke, match="outside 1..20"):
        await fake_discord.slash("roll", {"count": 21, "who": BOB})
    with pytest.raises(CannotInvoke, match=r"needs option\(s\) \['who'\]"):
        await fake_discord.slash("roll", {"count": 2})
    with pytest.raises(CannotInvoke, match="cannot see /config"):
        await fake_discord.slash("config", user=ALICE)
    with pytest.raises(CannotInvoke, match="not registered"):
        await fake_discord.slash("nope")
    assert (await fake_discord.slash("config", user=GM)).content == "configured"


async def test_subcommand_with_a_channel_option(fake_discord, bot):
    reply = await fake_discord.slash("dice roll", {"sides": 6, "where": fake_discord.channel})
    assert reply.content == "d6 in #general"
    assert (await fake_discord.slash("dice roll", {"sides": 8})).content == "d8 in #-"
    with pytest.raises(CannotInvoke, match="no subcommand 'push'"):
        await fake_discord.slash("dice push")
    with pytest.raises(CannotInvoke, match="needs a subcommand"):
        await fake_discord.slash("dice")


async def test_autocomplete_and_modal(fake_discord, bot):
    choices = await fake_discord.autocomplete("pick", {"system": "he"}, focused="system")
    assert choices.type == 8 and [c["value"] for c in choices.choices] == ["hex", "heroic"]
    opened = await fake_discord.slash("pick", {"system": "hex"})
    assert opened.modal["custom_id"] == "notes"
    submitted = await fake_discord.submit(opened, {"note": "ambush"})
    assert submitted.content == "hex: ambush" and submitted.ephemeral


async def test_raw_hostile_payload_and_unserved_routes_are_visible(fake_discord, bot):
    data = {"id": "1", "name": "no-such-command", "type": 1, "options": []}
    reply = await fake_discord.send_interaction(fake_discord.payload(2, data, user=BOB), expect_answer=False)
    assert reply.callbacks == [] and reply.parse_error is None
    fake_discord.take_bot_errors()
    with pytest.raises(discord.NotFound):
        await bot.http.request(
            discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=fake_discord.guild.id)
        )
    [violation] = fake_discord.take_violations()
    assert violation.template == "/guilds/{guild_id}/bans" and "not served" in violation.problem


async def test_the_interaction_protocol_is_enforced_and_each_break_is_a_violation(fake_discord, bot):
    """Discord's rules for answering an interaction, whatever the bodies (they need no OpenAPI description)."""

    async def call(reply, body: dict | None = None, *, route: str = CALLBACK, **where) -> int:
        params = {"interaction_id": reply.id, "interaction_token": reply.token} if route == CALLBACK else where
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.request(discord.http.Route("POST", route, **params), json=body)
        [violation] = fake_discord.take_violations()
        assert violation.template == route and violation.problem.startswith("interaction protocol: ")
        return refused.value.code

    answered = await fake_discord.slash("hello")
    assert await call(answered, {"type": 4, "data": {"content": "again"}}) == 40060  # one initial response
    assert answered.callbacks == [answered.callback] and answered.embed["title"] == "Hello"
    data = {"id": "1", "name": "not-registered", "type": 1}
    unanswered = await fake_discord.send_interaction(fake_discord.payload(2, data), expect_answer=False)
    fake_discord.take_bot_errors()  # discord.py: the command is not found
    assert await call(unanswered, {"type": 7, "data": {"content": "x"}}) == 50035  # an update needs a message
    assert await call(unanswered, {"type": 8, "data": {"choices": []}}) == 50035  # choices answer autocomplete
    assert await call(unanswered, {"type": 1}) == 50035  # PONG answers a PING only
    submitted = fake_discord.payload(5, {"custom_id": "no-such-modal", "components": []})
    submitted = await fake_discord.send_interaction(submitted, expect_answer=False)
    modal = {"custom_id": "m", "title": "More", "components": [{"type": 10, "content": "?"}]}
    assert await call(submitted, {"type": 9, "data": modal}) == 50035  # a modal cannot answer a modal
    followup = "/webhooks/{webhook_id}/{webhook_token}"
    where = {"webhook_id": fake_discord.application_id, "webhook_token": unanswered.token}
    assert await call(unanswered, {"content": "x"}, route=followup, **where) == 10015  # before any response
    assert unanswered.callbacks == [] and unanswered.followups == []
    stranger = fake_discord.payload(2, data) | {"token": "never-sent"}
    assert await call(Reply(stranger, fake_discord.backend.store), {"type": 4, "data": {"content": "x"}}) == 10062
    choices = await fake_discord.autocomplete("pick", {"system": "h"}, focused="system")
    assert await call(choices, {"type": 8, "data": {"choices": []}}) == 40060
    assert fake_discord.violations == []


async def test_privileged_intents_are_refused_like_discord():
    async with FakeDiscord() as fake:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await fake.run(TinyBot(intents=discord.Intents.all()))


def test_the_route_list_is_the_specs_own(discord_spec):
    """routes.txt names routes where the spec is not found; where it is, the two must agree."""
    from bot.playground.routes import known_templates

    templates = known_templates()
    assert len(templates) == len(set(templates)) > 100
    if discord_spec.openapi:
        assert sorted(templates) == sorted(discord_spec.document["paths"])


async def test_without_the_spec_the_fakes_own_checks_still_refuse_bad_bodies(tmp_path):
    """With no OpenAPI description, a body breaking Discord's embed or component rules is still refused."""
    from tests.fakediscord.spec import WithoutSpec

    offline = WithoutSpec(tmp_path / "openapi.json")
    assert offline.template_for("/interactions/1/tok/callback") == CALLBACK
    assert offline.check("POST", CALLBACK, {"type": 4}) == []  # the schema part is off
    too_wide = {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": f"b{i}"} for i in range(6)]}
    body = {"type": 4, "data": {"content": "x" * 2001, "components": [too_wide] * 6}}
    problems = check_limits("POST", CALLBACK, body)
    assert "$.data.content: 2001 characters (limit 2000)" in problems
    assert "$.data.components: 6 top-level components (limit 5)" in problems
    assert "$.data.components[0].components: 6 components in an action row (it holds 1-5)" in problems
