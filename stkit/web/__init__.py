"""The table server (`stkit serve`): the whole chronicle on one live page, for the Storyteller and each player.

An adapter over the store's use cases, like ``stkit.cli`` (neither imports the other): ``app`` builds the
FastAPI app and its pages, ``bus`` follows the event table and feeds the server-sent event streams. Templates
and htmx ship inside the package: ``static/htmx.min.js`` is htmx 2.0.11 and ``static/sse.min.js`` its SSE
extension 2.2.4 (npm packages ``htmx.org`` and ``htmx-ext-sse``, both Zero-Clause BSD), unchanged. Importing
this package loads nothing heavy.
"""
