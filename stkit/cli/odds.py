"""Placeholder: filled in by its issue."""


def register(app) -> None:  # noqa: ANN001
    """Add this module's commands to the root app."""
