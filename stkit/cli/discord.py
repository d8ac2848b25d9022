"""`stkit discord set|unset|show|follow|bind|register`: the table's feed in a Discord channel, and the
slash commands.

Only typer and the standard library at module level; the store, httpx and the Discord door load inside the
commands. What is kept lives in :mod:`stkit.store.table.discord_feed`; the door is :mod:`stkit.discord`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from stkit.cli.options import ChronicleOpt, DbOpt, JsonOpt
from stkit.errors import InvalidValue
from stkit.text import counted

discord_app = typer.Typer(help="The table's feed in a Discord channel; /roll from Discord.", no_args_is_help=True)

KeyArg = Annotated[
    str,
    typer.Argument(
        help="webhook, storyteller-webhook, public-key (the portal's Public Key) or application-id.",
        show_default=False,
    ),
]


def _chronicle(chronicle: str | None) -> str:
    from stkit.config import default_chronicle  # lazy: start-up

    return default_chronicle(chronicle)


@discord_app.command("set")
def discord_set(
    key: KeyArg,
    value: Annotated[str, typer.Argument(help="The URL, key or id.", show_default=False)],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set one of the chronicle's Discord settings.

    A webhook gets the table's events from now on: `webhook` every public one, `storyteller-webhook` the
    secret and blind rolls and whispers. Any http(s) URL is taken; one that is not Discord's gets a warning.
    Example: `stkit discord set webhook https://discord.com/api/webhooks/ID/TOKEN`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import run  # lazy: start-up
    from stkit.store.table.discord_feed import set_setting  # lazy: start-up

    done = run(db, lambda gw: set_setting(gw, _chronicle(chronicle), key, value))
    if json_out:
        render.print_json(done.to_dict())
        return
    if done.warning:
        render.print_text(f"Warning: {render.safe(done.warning)}", stderr=True)
    render.print_text(f"{done.key} of {render.safe(done.chronicle)}: {render.safe(done.shown)}")


@discord_app.command("unset")
def discord_unset(key: KeyArg, chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Remove one of the chronicle's Discord settings.

    A webhook's feed keeps its place.

    Example: `stkit discord unset storyteller-webhook`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import run  # lazy: start-up
    from stkit.store.table.discord_feed import unset_setting  # lazy: start-up

    done = run(db, lambda gw: unset_setting(gw, _chronicle(chronicle), key))
    if json_out:
        render.print_json(done.to_dict())
    else:
        render.print_text(f"{done.key} of {render.safe(done.chronicle)} removed")


@discord_app.command("show")
def discord_show(chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Show the Discord settings (tokens masked) and the feeds.

    Each feed says how many messages it posted, up to which event.

    Example: `stkit discord show --json`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import run  # lazy: start-up
    from stkit.store.table.discord_feed import discord_settings, feed_positions  # lazy: start-up

    name = _chronicle(chronicle)
    settings, feeds = run(db, lambda gw: (discord_settings(gw, name), feed_positions(gw, name)), readonly=True)
    shown = settings.to_dict()
    if json_out:
        render.print_json(shown | {"feeds": [f.to_dict() for f in feeds]})
        return
    render.print_text(f"Chronicle {render.safe(name)}")
    for key in ("webhook", "storyteller_webhook", "public_key", "application_id"):
        render.print_text(f"  {key.replace('_', '-')}: {render.safe(shown[key]) if shown[key] else '(not set)'}")
    for f in feeds:
        render.print_text(f"  {f.audience} feed: {f.posted} posted, up to event {f.last_event_id}")


@discord_app.command("follow")
def discord_follow(
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    once: Annotated[bool, typer.Option("--once", help="Post what is pending, then stop.")] = False,
    poll: Annotated[float, typer.Option("--poll", help="Seconds between looks at the table (0.05 to 60).")] = 0.2,
    json_out: JsonOpt = False,
) -> None:
    """Post the table's events to its webhooks until stopped.

    For a table that does not run `stkit serve` (which posts them itself). Failures are retried with
    backoff and reported at most once a minute. Example: `stkit discord follow --chronicle Sept`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import store  # lazy: start-up
    from stkit.discord.webhook import Follower  # lazy: start-up

    if not 0.05 <= poll <= 60:
        raise InvalidValue(f"--poll {poll}: allowed 0.05 to 60 seconds")
    name = _chronicle(chronicle)
    follower = Follower(store(db), name, poll=poll, report=lambda line: render.print_text(line, stderr=True))
    if once:
        while follower.step():
            pass
        follower.close()
        failing = follower.failing
        if json_out:
            render.print_json(
                {"chronicle": name, "posted": follower.posted, "skipped": follower.skipped, "failing": failing}
            )
        else:
            render.print_text(f"Posted {counted(follower.posted, 'message')} for {render.safe(name)}")
        if failing:
            # a script must see that events are still to post; they are kept for the next run
            render.print_text(
                f"Error: the {' and '.join(failing)} webhook did not take every event; the rest are still to "
                "post and go with the next run",
                stderr=True,
            )
            raise typer.Exit(1)
        return
    if not json_out:
        render.print_text(f"Following {render.safe(name)}; Ctrl-C stops", stderr=True)
    try:
        follower.run()
    except KeyboardInterrupt:
        follower.stop()
        if json_out:
            render.print_json({"chronicle": name, "posted": follower.posted, "skipped": follower.skipped})
        raise typer.Exit(130) from None  # interrupted, as every stkit command


@discord_app.command("bind")
def discord_bind(
    place: Annotated[
        str, typer.Argument(help="guild:ID (a Discord server) or channel:ID (one channel).", show_default=False)
    ],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Bind a Discord server or channel to the chronicle.

    Its commands then act on that chronicle.

    Example: `stkit discord bind channel:123456789012345678 --chronicle Sept`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import run  # lazy: start-up
    from stkit.store.table.discord_feed import bind_place  # lazy: start-up

    name = _chronicle(chronicle)
    stored = run(db, lambda gw: bind_place(gw, place, name))
    if json_out:
        render.print_json({"place": stored, "chronicle": name})
    else:
        render.print_text(f"{stored} is bound to {render.safe(name)}")


@discord_app.command("register")
def discord_register(
    application_id: Annotated[
        str | None,
        typer.Option("--application-id", help="The application's id (default: the chronicle's setting)."),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="The bot token (default: $DISCORD_BOT_TOKEN); used for this one request, never stored.",
            show_default=False,
        ),
    ] = None,
    client_secret: Annotated[
        str | None,
        typer.Option(
            "--client-secret",
            help="Instead of the bot token: the OAuth2 client secret (default: $DISCORD_CLIENT_SECRET).",
            show_default=False,
        ),
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the command definitions; send nothing.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Write the slash commands to Discord in one request.

    Then it says what to paste in the Developer Portal.

    Example: `DISCORD_BOT_TOKEN=... stkit discord register`.
    """
    from stkit.cli import render  # lazy: start-up
    from stkit.cli.common import run  # lazy: start-up
    from stkit.discord.commands import COMMANDS, SECRET_ENV, TOKEN_ENV, find_secret  # lazy: start-up
    from stkit.discord.commands import register as put_commands  # lazy: start-up
    from stkit.store.table.discord_feed import check_snowflake, discord_settings  # lazy: start-up

    name = _chronicle(chronicle)
    if dry_run:
        render.print_json(COMMANDS)
        return
    app_id = application_id or run(db, lambda gw: discord_settings(gw, name), readonly=True).application_id
    if not app_id:
        raise InvalidValue("give --application-id, or set it: stkit discord set application-id ID")
    app_id = check_snowflake(app_id, "--application-id")
    bot = find_secret(token, TOKEN_ENV)
    secret = None if bot else find_secret(client_secret, SECRET_ENV)
    if bot is None and secret is None:
        raise InvalidValue(
            f"give the bot token (--token or {TOKEN_ENV}) or the client secret (--client-secret or {SECRET_ENV})"
        )
    stored = put_commands(app_id, bot, client_secret=secret)
    names = sorted(str(c.get("name")) for c in stored)
    if json_out:
        render.print_json({"application_id": app_id, "commands": names})
        return
    render.print_text(f"Registered {len(names)} commands: {', '.join('/' + n for n in names)}")
    render.print_text("In the Developer Portal, General Information:")
    render.print_text("  Interactions Endpoint URL: https://YOUR-TABLE-NAME/discord/interactions")
    render.print_text("Then: stkit discord set public-key <the portal's Public Key>")


def register(app: typer.Typer) -> None:
    """Add the `discord` group to the root app."""
    app.add_typer(discord_app, name="discord")
