"""The table server (`stkit serve`): the whole chronicle on one live page, for the Storyteller and each player.

An adapter over the store's use cases, like ``stkit.cli`` (neither imports the other): ``app`` builds the
FastAPI app and its pages, ``bus`` follows the event table and feeds the server-sent event streams. Templates
and htmx (with its SSE extension) ship inside the package. Importing this package loads nothing heavy.
"""
