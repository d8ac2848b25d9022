"""The root `stkit` command: wires every command group and turns StkitError into one line + exit 1."""

from __future__ import annotations

import copy
import difflib
import errno
import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer
import typer.main
from typer._click import core as click_core
from typer._click import exceptions as click_errors
from typer._click import types as click_types
from typer.core import TyperGroup

from stkit import __version__
from stkit.cli.collector import collect_later
from stkit.cli.parsing import adopt, make_number_aware_parser
from stkit.errors import InvalidValue, StkitError
from stkit.text import check_range, check_text, parse_whole_number, printable

#: OSError numbers only writing raises (a full disk, a read-only file system, a quota, a file too large).
_WRITE_ONLY_ERRORS = frozenset({errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EFBIG})

#: The longest error line printed; longer messages (quoting huge values) are cut with an ellipsis.
MAX_ERROR_CHARS = 1000


def print_error(message: str, code: int = 1) -> None:
    """One line on stderr, no traceback, no markup: the message holds user values, so every control
    character (a newline included) is shown as an escape by :func:`stkit.text.printable`. When the command
    line asked for ``--json``, the error is instead one JSON object on stdout, ``{"error": "...", "exit":
    code}`` (``code``: the exit status that follows, 1 for a refused value, 2 for a usage error)."""
    shown = printable(message)
    if len(shown) > MAX_ERROR_CHARS:  # a message quoting a 100,000-character value stays readable
        # cut in the middle: the value is quoted there, and what is wrong with it is said at the end
        half = (MAX_ERROR_CHARS - 1) // 2
        shown = shown[:half] + "…" + shown[len(shown) - (MAX_ERROR_CHARS - 1 - half) :]
    if _json_errors:
        import json  # lazy: start-up (only on an error)

        try:
            sys.stdout.write(json.dumps({"error": shown, "exit": code}, ensure_ascii=False) + "\n")
            sys.stdout.flush()
            return
        except OSError:  # the standard output itself failed (a full disk): the line goes to stderr
            pass
    sys.stderr.write(f"Error: {shown}\n")
    sys.stderr.flush()


#: Whether the command line being run asked for --json (its errors are then JSON on stdout).
_json_errors = False


def wants_json(args: Sequence[str]) -> bool:
    """Whether ``args`` (a command line without the program name) hold ``--json`` before any ``--``."""
    words = list(args)
    if "--" in words:
        words = words[: words.index("--")]
    return "--json" in words


#: The most digits a number typed on the command line may have (the largest 64-bit integer has 19); the
#: check keeps Python from converting a 5,000-digit number, each command checks its own range after it.
MAX_TYPED_DIGITS = 30
_ASCII_INT = re.compile(r"[+-]?[0-9]+")
#: The largest id a row can have (SQLite's and PostgreSQL's 64-bit integers): a larger typed id, or a
#: --seed beyond +-this (the roll log stores it), is refused before it reaches the database driver.
MAX_STORED_ID = 2**63 - 1
#: The longest text any argument or option may carry (characters); every stored field has a shorter limit.
MAX_TYPED_TEXT = 65_536


def _param_label(param: click_core.Parameter) -> str:
    """How a message names a parameter: its longest option name (``--seed``), or an argument's name in
    words (``scene id``)."""
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    if param.param_type_name == "option" and opts:
        return opts[0]
    return (param.name or "value").replace("_", " ").strip()


def check_typed_int(text: str, param: click_core.Parameter, ctx: click_core.Context | None) -> str:
    """A number as typed: ASCII digits with an optional sign (``'٣'``, ``'1_000'`` and ``'5.0'`` are usage
    errors, exit 2) and at most :data:`MAX_TYPED_DIGITS` digits (InvalidValue, exit 1), checked on the
    text so that Python never converts a 5,000-digit number; an id (``*_id``) must be 1 to
    :data:`MAX_STORED_ID` and a ``--seed`` 0 to :data:`MAX_STORED_ID` (:func:`stkit.text.check_range`'s
    message). Each command then checks its own range."""
    body = text.strip()
    if not _ASCII_INT.fullmatch(body):
        raise click_errors.BadParameter(
            f"{printable(text)!r} is not a whole number; use the digits 0 to 9", ctx=ctx, param=param
        )
    digits = len(body.lstrip("+-").lstrip("0"))
    if (param.name or "").endswith("_id") and digits <= MAX_TYPED_DIGITS:
        check_range(int(body), _param_label(param), 1, MAX_STORED_ID)
    if param.name == "seed" and digits <= MAX_TYPED_DIGITS:  # stored with each logged roll
        # 0 and up: random.Random folds a negative seed onto its absolute value, so -1 would replay 1
        check_range(int(body), "--seed", 0, MAX_STORED_ID)
    if digits > MAX_TYPED_DIGITS:
        raise InvalidValue(
            f"{_param_label(param)} is a number of {digits} digits; allowed: at most {MAX_TYPED_DIGITS} digits"
        )
    return body


def check_typed_text(text: str, param: click_core.Parameter, ctx: click_core.Context | None) -> str:
    """Text as typed: no byte that is not UTF-8 (nothing could store or print it), no NUL (no command line
    or file name can hold one) and at most :data:`MAX_TYPED_TEXT` characters (InvalidValue, exit 1).
    Control characters and each field's own length limit are the checks of the use case that stores the
    text (:func:`stkit.text.check_text`); printing is made safe by :mod:`stkit.cli.render`."""
    for i, ch in enumerate(text):
        if "\udc80" <= ch <= "\udcff" or ch == "\x00":
            check_text(text[: i + 1], _param_label(param), limit=len(text))  # raises its one-line message
    if len(text) > MAX_TYPED_TEXT:
        raise InvalidValue(f"{_param_label(param)} is {len(text)} characters long; allowed: at most {MAX_TYPED_TEXT}")
    return text


def check_typed_path(text: str, param: click_core.Parameter, ctx: click_core.Context | None) -> str:
    """A path as typed: any bytes a file name may hold (undecodable ones included) but NUL, which no file
    name holds (InvalidValue, exit 1). What a path names is checked where it is opened (stkit.safefile)."""
    if "\x00" in text:
        check_text(text, _param_label(param), limit=len(text))
    return text


def check_typed_db(text: str, param: click_core.Parameter, ctx: click_core.Context | None) -> str:
    """A ``--db`` value, checked by every command before it runs (:func:`stkit.config.check_db_option`),
    also by those that never open the store."""
    from stkit.config import check_db_option  # lazy: start-up (only when --db is given)

    check_typed_text(text, param, ctx)
    check_db_option(text)
    return text


_checked_types: dict[type, type] = {}


def _checked_type(param_type: click_types.ParamType, check: Callable[..., str]) -> click_types.ParamType:
    """A copy of ``param_type`` whose ``convert`` first runs ``check`` on typed text (help, metavar and
    ``isinstance`` stay those of the original type)."""
    base = type(param_type)
    sub = _checked_types.get(base)
    if sub is None:

        def convert(self: Any, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, str) and param is not None:
                value = self._stkit_check(value, param, ctx)
            return base.convert(self, value, param, ctx)

        sub = type(f"Checked{base.__name__}", (base,), {"convert": convert})
        _checked_types[base] = sub

    checked = copy.copy(param_type)
    checked.__class__ = sub
    checked._stkit_check = check  # type: ignore[attr-defined]
    return checked


def unwrap_help(text: str) -> str:
    """A command's help with each paragraph's hard line breaks joined, so that the terminal wraps it: typer's
    rich help keeps a docstring's single newlines, which break sentences at the source's width. A paragraph
    with an indented, listed ('- ', '* ', '$ ') or ``\\b``-marked line is kept as written."""

    out = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines = para.split("\n")
        keep = any(ln[:1] in (" ", "\t", "\b") or ln[:2] in ("- ", "* ", "$ ") for ln in lines)
        out.append(para if keep else " ".join(ln.strip() for ln in lines))
    return "\n\n".join(out)


def _usage_metavar(param: click_core.Parameter) -> Callable[..., str]:
    """``param``'s metavar with the usage line's conventions: a required argument in capitals (POOL), an
    optional one in brackets ([POOL]), repeatable ones with '...'; never typer's braces ({pool})."""
    original = param.make_metavar

    def make_metavar(ctx: Any = None, *, usage: bool = False) -> str:
        if not usage:
            return original(ctx, usage=usage)  # type: ignore[call-arg]
        var = (param.metavar or param.name or "value").upper().strip("[]{}")
        if param.nargs != 1:
            var += "..."
        return var if param.required else f"[{var}]"

    return make_metavar


def _argument_hint(param: Any) -> Any:
    """An argument's name in an error ("Missing argument 'POOL_B'"): the name its usage line shows,
    never the function's parameter name."""

    def get_error_hint(ctx: Any = None) -> str:
        return f"'{param.make_metavar(ctx, usage=True).strip('[]')}'"

    return get_error_hint


def harden(command: click_core.Command) -> click_core.Command:
    """Give every integer, text and path parameter of ``command`` (and of its sub-commands) the checks of
    :func:`check_typed_int`, :func:`check_typed_text` and :func:`check_typed_path`, once: no command
    receives a non-ASCII digit, a number too long to convert, an undecodable byte, a NUL or a
    100,000-character string."""
    if getattr(command, "_stkit_hardened", False):
        return command
    command._stkit_hardened = True  # type: ignore[attr-defined]
    if command.help:
        command.help = unwrap_help(command.help)
    for param in command.params:
        if param.param_type_name == "argument" and hasattr(param, "make_metavar"):
            param.make_metavar = _usage_metavar(param)  # type: ignore[method-assign]
            param.get_error_hint = _argument_hint(param)  # type: ignore[method-assign]
        if param.name == "db" and type(param.type) is click_types.StringParamType:
            param.type = _checked_type(param.type, check_typed_db)
        elif isinstance(param.type, click_types.IntParamType):
            param.type = _checked_type(param.type, check_typed_int)
        elif type(param.type) is click_types.StringParamType:
            param.type = _checked_type(param.type, check_typed_text)
        elif "Path" in type(param.type).__name__:
            param.type = _checked_type(param.type, check_typed_path)
    for sub in getattr(command, "commands", {}).values():
        harden(sub)
    return command


#: The exit code when the reader of the output went away (`stkit odds 300 --exact | head`): 128 + SIGPIPE,
#: the code a shell shows for `yes | head`; nothing is printed.
BROKEN_PIPE_EXIT = 141
#: The exit code after Ctrl-C: 128 + SIGINT, the shell's convention.
INTERRUPTED_EXIT = 130


def drop_pending_output() -> None:
    """Point the standard output at /dev/null once its reader has gone, so that what Python still holds
    for it is dropped when it flushes at exit instead of ending in "Exception ignored ... BrokenPipeError"."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file descriptor (a test's capture): nothing will be flushed to a closed pipe


#: The widest / tallest terminal $COLUMNS / $LINES may claim (rich sizes its output from them).
MAX_TERMINAL_SIZE = 10_000


def check_terminal_size_variables() -> None:
    """$COLUMNS and $LINES, when set, must be whole numbers 1 to MAX_TERMINAL_SIZE in ASCII digits
    (:func:`stkit.text.parse_whole_number`): rich would otherwise read '\u0663' as 3 and fail on a
    5,000-digit value. Raises InvalidValue naming the variable."""

    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value:
            parse_whole_number(value, f"the environment variable {name}", 1, MAX_TERMINAL_SIZE)


# Every command is built only when named (or when the full help lists them all), so that a plain
# `stkit roll` builds one command, not forty, and imports neither the character store, the odds engine nor
# the card game. Name -> module; each module has `register(app)` adding its commands to a Typer.
LAZY_COMMANDS: dict[str, str] = {
    "roll": "stkit.cli.roll",
    "multi": "stkit.cli.roll",
    "resisted": "stkit.cli.roll",
    "teamwork": "stkit.cli.roll",
    "odds": "stkit.cli.odds",
    "char": "stkit.cli.char.commands",
    "log": "stkit.cli.char.commands",
    "scene": "stkit.cli.scene",
    "extended": "stkit.cli.scene",
    "contest": "stkit.cli.scene",
    "tcg": "stkit.cli.tcg",
    "shell": "stkit.cli.shell",
    "house": "stkit.cli.house",
    "attack": "stkit.cli.combat",
    "serve": "stkit.cli.serve",
    "table": "stkit.cli.serve",
    "saved": "stkit.cli.saved",
    "chronicle": "stkit.cli.chronicle",
    "discord": "stkit.cli.discord",
}
#: module -> the Typer its ``register`` filled (decorators only: nothing is built yet).
_registered: dict[str, typer.Typer] = {}
#: command name -> its click command, built once per process.
_built: dict[str, click_core.Command] = {}


def _registered_on(module_name: str) -> typer.Typer:
    """The Typer holding ``module_name``'s commands, registered once (importing the module)."""
    holder = _registered.get(module_name)
    if holder is None:
        import importlib  # lazy: start-up (loaded when the command runs)

        holder = typer.Typer()
        importlib.import_module(module_name).register(holder)
        _registered[module_name] = holder
    return holder


def _command_name(info: typer.models.CommandInfo) -> str:
    """The name typer gives a registered command: its own, else its function's with dashes."""

    return info.name or typer.main.get_command_name(getattr(info.callback, "__name__", ""))


def _build_options(holder: typer.Typer) -> dict[str, Any]:
    """The options typer.main.get_group passes down when it builds ``holder``'s commands."""
    return {"pretty_exceptions_short": holder.pretty_exceptions_short, "rich_markup_mode": holder.rich_markup_mode}


_lazy_classes: dict[type, type] = {}


def _lazy_group_class(cls: type[TyperGroup]) -> type:
    """A subclass of the group class ``cls`` that builds each subcommand only when it is named (or listed
    for help): building a command makes typer read its function's signature and type hints, so a group
    of thirty commands built whole costs a store command tens of milliseconds at start-up."""
    if cls not in _lazy_classes:

        def get_command(self: Any, ctx: Any, cmd_name: str) -> Any:
            command = self.commands.get(cmd_name)
            if command is None and cmd_name in self._stkit_pending:
                command = harden(_build_info(self._stkit_pending.pop(cmd_name), self._stkit_options))
                self.commands[cmd_name] = command
            return command

        def list_commands(self: Any, ctx: Any) -> list[str]:
            return [n for n in self._stkit_order if n in self.commands or n in self._stkit_pending]

        def resolve_command(self: Any, ctx: Any, args: list[str]) -> Any:
            try:
                return cls.resolve_command(self, ctx, args)
            except click_errors.UsageError as exc:
                _suggest(exc, args, self.list_commands(ctx))
                raise

        namespace = {"get_command": get_command, "list_commands": list_commands, "resolve_command": resolve_command}
        _lazy_classes[cls] = type(f"Lazy{cls.__name__}", (cls,), namespace)
    return _lazy_classes[cls]


def _build_info(info: Any, options: dict[str, Any]) -> click_core.Command:
    """The click command of a registered command (CommandInfo) or group (TyperInfo, built lazily)."""

    if isinstance(info, typer.models.CommandInfo):
        return typer.main.get_command_from_info(info, **options)

    sub = info.typer_instance
    shell = copy.copy(sub)  # the group alone: its help, callback and class, no subcommand built yet
    shell.registered_commands, shell.registered_groups = [], []
    shell_info = copy.copy(info)
    shell_info.typer_instance = shell
    group = typer.main.get_group_from_info(shell_info, suggest_commands=sub.suggest_commands, **options)
    pending: dict[str, Any] = {_command_name(c): c for c in sub.registered_commands}
    pending.update({g.name: g for g in sub.registered_groups if g.name})
    group.__class__ = _lazy_group_class(type(group))
    group._stkit_pending = pending  # type: ignore[attr-defined]
    group._stkit_order = list(pending)  # type: ignore[attr-defined]
    group._stkit_options = options  # type: ignore[attr-defined]
    return group


def _suggest(exc: click_errors.UsageError, args: list[str], names: list[str]) -> None:
    """Reword click's "No such command" error as "no such command 'rol'; did you mean 'roll'?", from the
    names the group lists (typer's own suggestion only looks at commands already built)."""

    if not args or not exc.message.startswith("No such command"):
        return
    # worded as a mistyped option is (stkit.cli.parsing): "no such option --wilpower; did you mean --willpower?"
    message = f"no such command {args[0]!r}"
    # 0.7, not difflib's 0.6: 'bogus' is not offered 'house' for their shared 'us'
    matches = [repr(m) for m in difflib.get_close_matches(args[0], names, cutoff=0.7)]
    if matches:
        said = matches[0] if len(matches) == 1 else ", ".join(matches[:-1]) + " or " + matches[-1]
        message += f"; did you mean {said}?"
    exc.message = message


def load_command(name: str) -> click_core.Command | None:
    """The click command ``name`` of :data:`LAZY_COMMANDS` (None for any other name), built on first use.
    Only that one command (or group, whose own subcommands are built as they are named) is built: typer
    reads the signature and type hints of every function it builds, which is most of a command's
    start-up."""
    if name not in _built:
        module_name = LAZY_COMMANDS.get(name)
        if module_name is None:
            return None
        holder = _registered_on(module_name)
        options = _build_options(typer.Typer())
        info: Any = next((c for c in holder.registered_commands if _command_name(c) == name), None)
        if info is None:
            info = next((g for g in holder.registered_groups if g.name == name), None)
        if info is None:
            return None
        _built[name] = _build_info(info, options)
    return _built[name]


class StkitGroup(TyperGroup):
    """The root group: loads command groups lazily, and is the single place where library errors become
    a message and an exit code. Every command it hands out reads its line with stkit.cli.parsing."""

    _stkit_parser = True  # adopt() leaves it alone

    def make_parser(self, ctx):
        return make_number_aware_parser(self, ctx)

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click_errors.UsageError as exc:
            _suggest(exc, args, self.list_commands(ctx))
            raise

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name)
        if command is None:
            command = load_command(cmd_name)
        return adopt(harden(command)) if command is not None else None

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except OSError as exc:  # the root's --help read by `head`
            if exc.errno != errno.EPIPE:
                raise
            drop_pending_output()
            raise typer.Exit(BROKEN_PIPE_EXIT) from None

    def invoke(self, ctx):
        from stkit.notices import collecting  # lazy: start-up (loaded when the command runs)

        config = sys.modules.get("stkit.config")
        if config is not None and ctx.parent is None:  # each command line (one in `stkit shell`) chooses anew
            config.forget_chosen_store()

        try:
            with collecting() as notes:
                done = super().invoke(ctx)
            for text in notes:  # on stderr, after the result: --json on stdout stays one object
                sys.stderr.write(f"Note: {printable(text)}\n")
            return done
        except StkitError as exc:
            print_error(str(exc))
            raise typer.Exit(1) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader (e.g. `head`) went away: no message, the shell's code
                drop_pending_output()
                raise typer.Exit(BROKEN_PIPE_EXIT) from None
            # A full disk, an unwritable output or a file that cannot be opened: one line, not a traceback;
            # "cannot write" only where the error can come from writing alone.
            reason = "disk full (No space left on device)" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
            where = f": {exc.filename}" if exc.filename else ""
            if exc.errno in _WRITE_ONLY_ERRORS:
                print_error(f"cannot write: {reason}{where}")
            else:
                print_error(f"{reason}{where}")
            raise typer.Exit(1) from None
        except (click_errors.ClickException, typer.Exit, typer.Abort):
            raise
        except Exception as exc:
            if isinstance(exc, ImportError):  # a module of an extra not installed: which one to install
                from stkit.extras import missing_extra  # lazy: start-up (only when an import failed)

                missing = missing_extra(exc)
                if missing is not None:
                    print_error(str(missing))
                    raise typer.Exit(1) from None
            # The last guard: a defect still ends in one line, never a traceback (STKIT_DEBUG=1 shows it).
            if os.environ.get("STKIT_DEBUG"):
                raise
            print_error(
                f"internal error ({type(exc).__name__}: {exc}); this is a bug in stkit, "
                "run again with STKIT_DEBUG=1 for the details"
            )
            raise typer.Exit(1) from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Usage errors (exit 2) as one line naming the command's help, like every other error."""
        global _json_errors
        outer = _json_errors  # a command line run inside `stkit shell` gives the shell its own back
        _json_errors = wants_json(sys.argv[1:] if args is None else args)
        try:
            return self._main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        finally:
            _json_errors = outer

    def _main(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        standalone_mode: bool,
        windows_expand_args: bool,
        **extra: Any,
    ) -> Any:
        try:
            check_terminal_size_variables()
        except StkitError as exc:
            print_error(str(exc))
            if not standalone_mode:
                return 1
            sys.exit(1)
        try:
            code = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except click_errors.NoArgsIsHelpError:
            code = 2  # the help is already printed
        except click_errors.ClickException as exc:
            hint = ""
            ctx = getattr(exc, "ctx", None)
            if ctx is not None and isinstance(exc, click_errors.UsageError):
                hint = f" (see '{ctx.meta.get('stkit.typed_path', ctx.command_path)} --help')"
            print_error(exc.format_message() + hint, exc.exit_code)
            code = exc.exit_code
        except typer.Abort as exc:
            # click turns Ctrl-C and end of input at a question into Abort, keeping which in __context__
            if isinstance(exc.__context__, KeyboardInterrupt):
                print_error("interrupted (Ctrl-C); nothing was changed", INTERRUPTED_EXIT)
                code = INTERRUPTED_EXIT
            else:
                print_error("aborted: the input ended before an answer; nothing was changed")
                code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=StkitGroup,
    name="stkit",
    help="The Storyteller toolkit: d10 dice pools, exact odds, Werewolf characters, scenes and the Rage card game.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, PowerShell)
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"stkit {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """The Storyteller toolkit."""


def stdout_is_open() -> bool:
    """False when the process was started with its standard output closed (``stkit roll 5 >&-``):
    Python then has no ``sys.stdout`` and every result would vanish while the exit code said 0."""
    if sys.stdout is None:
        return False
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return True  # a stream without a file descriptor (a test's capture) is open
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def main() -> None:
    """The command line's entry point (the console script's through :func:`stkit.cli.launch.main`). A
    closed standard output is one error line and exit 1."""
    collect_later()
    if not stdout_is_open():
        print_error("the standard output is closed; nothing could be shown (run without >&- or 1>&-)")
        sys.exit(1)
    devnull_before = _stdout_is_devnull()
    try:
        app()
    except SystemExit as done:
        try:  # what is still buffered for a pipe whose reader went away must not end in a traceback
            if sys.stdout is not None:
                sys.stdout.flush()
        except BrokenPipeError:
            drop_pending_output()
            sys.exit(BROKEN_PIPE_EXIT)
        if done.code == 1 and not devnull_before and _stdout_is_devnull():
            # rich's own consoles (typer's help) meet a gone reader by pointing stdout at /dev/null and
            # exiting 1: the same event as above, the same quiet code
            sys.exit(BROKEN_PIPE_EXIT)
        raise


def _stdout_is_devnull() -> bool:
    """Whether file descriptor 1 is /dev/null (rich points it there when the reader of a pipe is gone)."""
    try:
        here, null = os.fstat(1), os.stat(os.devnull)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (null.st_dev, null.st_ino)
