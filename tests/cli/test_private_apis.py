"""The private parts of typer and rich that stkit builds on, pinned: each test fails the day the library
changes the part stkit relies on, so an upgrade cannot silently drop a guard.

- ``typer._click.parser._OptionParser._process_opts(arg, state)`` and ``_ParsingState.largs``: the
  parser stkit.cli.parsing subclasses (negative numbers as values, unknown options named). click has no
  public hook for either; typer ships its own copy of click under ``typer._click``.
- ``rich.console.Console._render_buffer(buffer)``: the one place every segment passes before it is
  written; stkit.cli.render cleans control characters and hyperlinks there. rich's render hooks see
  renderables, not the final segments, so they cannot do this.
"""

from __future__ import annotations

import inspect
import io

from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def test_the_option_parser_hook_is_where_stkit_expects_it():
    from typer._click.parser import _OptionParser, _ParsingState

    from stkit.cli.parsing import NumberAwareParser

    assert issubclass(NumberAwareParser, _OptionParser)
    assert list(inspect.signature(_OptionParser._process_opts).parameters) == ["self", "arg", "state"]
    assert "largs" in inspect.signature(_ParsingState.__init__).parameters or hasattr(_ParsingState([]), "largs")
    for attr in ("_long_opt", "_short_opt", "ctx"):
        assert hasattr(_OptionParser(None), attr), attr


def test_the_option_parser_hook_still_works():
    # through the hook: a negative number is a value, and an unknown option names the real one
    neg = runner.invoke(app, ["roll", "-3"], env={"NO_COLOR": "1"})
    assert neg.exit_code == 1 and "cannot be attempted" in neg.stderr
    typo = runner.invoke(app, ["roll", "5", "--wilpower"], env={"NO_COLOR": "1"})
    assert typo.exit_code == 2 and "did you mean --willpower or --willpower-rule?" in typo.stderr


def test_the_render_buffer_hook_sees_every_segment():
    from rich.console import Console

    from stkit.cli.render import _safe_console_class

    assert list(inspect.signature(Console._render_buffer).parameters) == ["self", "buffer"]
    out = io.StringIO()
    console = _safe_console_class()(file=out, force_terminal=False, highlight=False, emoji=False, width=80)
    from rich.text import Text

    console.print(Text("a\x1b[2Jb"), Text("[x]", style="link https://evil.example"))
    assert out.getvalue() == "a\\x1b[2Jb [x]\n"  # the hook ran: the ESC is an escape, the link is gone
