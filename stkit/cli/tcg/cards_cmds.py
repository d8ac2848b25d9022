"""Placeholder: filled in by its issue. Registers commands on `stkit.cli.tcg.tcg_app` at import."""

from stkit.cli.tcg import tcg_app  # noqa: F401
