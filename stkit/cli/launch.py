"""The `stkit` console script's entry point: the cyclic garbage collector is switched off before the
command line's frameworks (typer, click, rich) are imported, then :func:`stkit.cli.app.main` runs.

Standard library only at module level: everything imported here is loaded before the collector is off.
"""

from __future__ import annotations

import gc

from stkit.cli.collector import collect_later


def main() -> None:
    """Console-script entry point: :func:`stkit.cli.app.main` with the collector off during start-up.

    What importing the frameworks made (modules, classes, functions: they live until the process ends)
    is then frozen (:func:`gc.freeze`): no collection walks it again, the one Python runs at exit
    included, which otherwise walks it all once more before the process ends. Whatever the command
    itself makes is collected as before."""
    collect_later()
    from stkit.cli.app import main as run  # lazy: start-up (imported once the collector is off)

    gc.freeze()
    run()
