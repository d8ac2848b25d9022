"""The Discord door: the table's feed posted to a channel's webhooks, and slash commands answered.

An adapter like :mod:`stkit.cli` and :mod:`stkit.web`, over the same use cases (every roll through
:func:`stkit.store.rolling.make_roll`); what it keeps lives in :mod:`stkit.store.table.discord_feed`. Nothing
imports it but the `stkit discord` command group and the table server, which mounts its router.

- :mod:`stkit.discord.render`: messages, escaping and Discord's limits.
- :mod:`stkit.discord.webhook`: the follower posting the feed.
- :mod:`stkit.discord.signature`: Ed25519 checks of incoming interactions.
- :mod:`stkit.discord.interactions`: the commands, autocomplete and buttons.
- :mod:`stkit.discord.commands`: the command definitions, and registering them.
- :mod:`stkit.discord.router`: ``POST /discord/interactions`` for the table server.
"""
