"""Placeholder while being written."""


def register(app) -> None:  # noqa: ANN001
    pass
