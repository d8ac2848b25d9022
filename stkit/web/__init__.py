"""The table server (`stkit serve`): the whole chronicle on one live page, for the Storyteller and each player.

An adapter over the store's use cases, like ``stkit.cli`` (neither imports the other): ``app`` builds the
FastAPI app and its pages, ``bus`` follows the event table and feeds the server-sent event streams. Templates
and htmx ship inside the package: ``static/htmx.min.js`` is htmx 2.0.11 (npm package ``htmx.org``,
Zero-Clause BSD), unchanged; ``static/table.js`` follows the event stream itself (with a watchdog, so a
silent stream is noticed and reopened). Importing this package loads nothing heavy.
"""
