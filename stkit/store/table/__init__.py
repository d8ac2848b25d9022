"""The table on the store: what the table server, the phones and the Discord door read and write.

- ``events``: the table's event log and the join links;
- ``eventstream``: the events read as streams, the store side of the table server's event bus;
- ``links``: revoking one person's join links, issuing one player a new link;
- ``prompts``: an attack waiting for the defender's choice, the Storyteller's call for a roll;
- ``talk``: table talk and the Storyteller's whispers;
- ``discord_feed``: what the Discord door keeps: per-chronicle settings, the feed's position, claims and
  bindings.
"""
