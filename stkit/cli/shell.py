"""`stkit shell`: one process for the night's session.

Each line is an stkit command without the `stkit` prefix, run in this process through the same command
tree as the command line (same output, same errors, same exit codes, shown but never ending the shell).
The store is opened once, as one :class:`stkit.store.db.gateway.StoreHandle` that every command finds
(:func:`stkit.cli.common.store`): on an up-to-date SQLite file it keeps one sqlite3 connection, opened
and checked by the first command and reused by the rest; otherwise its SQLAlchemy engine. At a
terminal the prompt (prompt_toolkit) completes like the shell completion does and keeps its history in
the user data folder; with stdin not a terminal, lines are read as they come, so a session can be piped
in. Ctrl-C cancels the line being typed (or the command running), Ctrl-D or `exit` leaves.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
import typer.main
from typer._click.shell_completion import ShellComplete

from stkit.cli.options import DbOpt
from stkit.errors import InvalidValue
from stkit.text import parse_whole_number

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output
    from typer._click.core import Command
    from typer._click.shell_completion import CompletionItem

#: Words that end the shell (besides Ctrl-D / end of input).
LEAVE_WORDS = frozenset({"exit", "quit"})
PROMPT = "stkit> "

#: The longest line the shell reads, in characters: the longest argument (stkit.cli.app.MAX_TYPED_TEXT)
#: and room for the command and its other options. Splitting a line (shlex) takes time growing with the
#: square of its length, so a longer line is refused before it is split.
MAX_LINE = 65_536 + 4_096


def history_path() -> Path:
    """The shell's history file: ``shell_history`` beside the store the shell uses (the one chosen with --db
    or $STKIT_DATABASE_URL, else the default one in the user data folder): :func:`stkit.config.companion_path`."""
    from stkit.config import companion_path  # lazy: start-up (loaded when the command runs)

    return companion_path("shell_history")


def private_history(path: Path) -> Path:
    """``path`` ready for the history: its missing folders made 0700 and the file 0600 whatever the umask
    (the lines typed name characters and hold Storyteller notes), an existing history narrowed to 0600.
    Raises OSError when the folder cannot be made or the file is not a regular file of ours."""

    from stkit.config import (  # lazy: start-up (loaded when the command runs)
        FILE_MODE,
        make_private_file,
        make_private_folder,
    )

    make_private_folder(path.parent)
    make_private_file(path)
    st = path.lstat()
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path} is not a regular file")
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(path, FILE_MODE)
    return path


def root_command() -> Command:
    """The root click command of the stkit app, built once per process."""

    from stkit.cli.app import app  # lazy: start-up (loaded when the command runs)

    global _ROOT
    if _ROOT is None:
        _ROOT = typer.main.get_command(app)
    return _ROOT


_ROOT: Command | None = None


def _leaves(line: str) -> bool:
    """True for a line that ends the shell: 'exit' or 'quit', with or without an argument ('exit 0')."""
    words = line.split()
    return bool(words) and words[0] in LEAVE_WORDS


def exit_status(line: str, default: int) -> int:
    """The status a leaving line asks for: ``exit N`` gives N (0 to 255, as a shell's ``exit``), a bare
    ``exit`` / ``quit`` gives ``default``. An unreadable N is one error line and status 2."""
    from stkit.cli.app import print_error  # lazy: start-up (loaded when the command runs)

    words = line.split("#", 1)[0].split()
    if len(words) < 2:
        return default
    if len(words) > 2:
        print_error(f"{words[0]} takes at most one exit status")
        return 2
    try:
        return parse_whole_number(words[1], "exit status", 0, 255)
    except InvalidValue as exc:
        print_error(str(exc))
        return 2


#: Words of a system shell the stkit shell does not run: pipes, redirections and command lists.
PIPE_WORDS = frozenset({"|", "||", "&&", ";", ">", ">>", "<", "2>", "&"})

#: What `help` prints before the list of commands.
SHELL_HELP = """In the stkit shell, type a command without `stkit` (a leading `stkit` is fine too):
  roll 5 -d 7        char show Grins        help roll  (the help of one command)
`exit` or Ctrl-D leaves; Ctrl-C cancels the line. The shell runs stkit commands only: no pipes (|),
redirections (>) or system commands; run `stkit roll 5 --json | head -2` from your system shell.

"""


def run_line(line: str) -> int:
    """Run one shell line as an stkit command in this process; returns its exit code (0 for a blank line).

    A line that cannot be split (an open quote) is a usage error (2); `shell` inside the shell is refused
    (1). Every error is printed the way the command line prints it and the shell goes on."""
    from stkit.cli.app import print_error  # lazy: start-up (loaded when the command runs)

    if len(line) > MAX_LINE:
        print_error(f"the line is {len(line)} characters long; allowed: at most {MAX_LINE}")
        return 2
    try:
        argv = shlex.split(line, comments=True)  # '# ...' is a comment, as in a shell script
    except ValueError as exc:
        print_error(f"cannot read the line: {exc}")
        return 2
    if argv and argv[0] == "stkit":  # typed out of habit: `stkit roll 5` is `roll 5`
        argv = argv[1:]
    if not argv:
        return 0
    if argv[0] == "help":  # `help` lists the commands, `help roll` is `roll --help`
        argv = [*argv[1:], "--help"]
        if len(argv) == 1:
            sys.stdout.write(SHELL_HELP)
    if any(word in PIPE_WORDS for word in argv):
        print_error(
            f"the shell runs stkit commands only: {next(w for w in argv if w in PIPE_WORDS)!r} belongs to your "
            "system shell; run it there, e.g. stkit roll 5 --json | head -2"
        )
        return 2
    if argv[0] == "shell":
        print_error("already in the shell")
        return 1
    try:
        root_command().main(args=argv, prog_name="stkit", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except KeyboardInterrupt:
        print_error("cancelled")
        return 130
    except Exception as exc:  # a defect in one command must not end the night's session
        print_error(f"unexpected {type(exc).__name__}: {exc}")
        return 1
    return 0


def completions(text: str) -> list[tuple[str, int, str]]:
    """What Tab offers after ``text`` (the line up to the cursor): (word, start position relative to the
    cursor, help), from the command tree's own shell completion (subcommands, options, character and
    trait names, open extended actions and contests). Never raises: a broken line completes nothing."""

    class _Matcher(ShellComplete):  # only the matching is used here, none of a shell's script parts
        source_template = ""

        def get_completion_args(self) -> tuple[list[str], str]:
            return [], ""

        def format_completion(self, item: CompletionItem) -> str:
            return str(item.value)

        def source_vars(self) -> dict[str, Any]:
            return {}

    if len(text) > MAX_LINE:
        return []
    words, quote = _split_line(text)
    if words is None:
        return []
    if quote:  # inside an open quote ('roll "Dexterity + Dr'): the quoted text is the word being completed
        incomplete = words.pop() if words else ""
        replaced = len(text) - text.rfind(quote)
    else:
        incomplete = "" if not words or text[-1:].isspace() else words.pop()
        replaced = len(incomplete)
    try:
        items = _Matcher(root_command(), {}, "stkit", "_STKIT_COMPLETE").get_completions(words, incomplete)
    except Exception:  # completion reads the store; a failure there must not end the shell
        return []
    return [(_as_word(str(i.value), quote), -replaced, i.help or "") for i in items if i.type == "plain"]


def _split_line(text: str) -> tuple[list[str] | None, str]:
    """The words of ``text`` and the quote left open at its end ('' when none); (None, '') when the line
    cannot be read even with its quote closed."""
    try:
        return shlex.split(text), ""
    except ValueError:
        pass
    for quote in ('"', "'"):
        try:
            return shlex.split(text + quote), quote
        except ValueError:
            continue
    return None, ""


def _as_word(value: str, quote: str) -> str:
    """``value`` as it must be typed: inside the open ``quote`` as is; bare, quoted when it holds a space
    ('dex+Animal Ken' would otherwise become two words)."""
    if quote:
        return quote + value
    return shlex.quote(value) if any(c.isspace() for c in value) else value


class LineTooLong(Exception):
    """A piped line longer than :data:`MAX_LINE`: the script stops (its end may never come, as from /dev/zero)."""


def _piped_lines() -> Iterable[str]:
    """The lines of stdin without their newline, each read with a bound: raises :class:`LineTooLong` for a
    line over :data:`MAX_LINE` characters (what is left of it is not read)."""
    number = 0
    while True:
        line = sys.stdin.readline(MAX_LINE + 2)  # the line, its newline and one character more
        if not line:
            return
        number += 1
        line = line.removesuffix("\n")
        if len(line) > MAX_LINE:
            raise LineTooLong(f"line {number} of the script is longer than {MAX_LINE} characters; the script stops")
        yield line


def interactive(*, pt_input: Input | None = None, pt_output: Output | None = None) -> None:
    """The prompt loop at a terminal (``pt_input`` / ``pt_output``: prompt_toolkit's, for tests)."""
    from prompt_toolkit import PromptSession  # lazy: start-up (loaded when the command runs)
    from prompt_toolkit.completion import (  # lazy: start-up (loaded when the command runs)
        Completer,
        Completion,
        ThreadedCompleter,
    )
    from prompt_toolkit.history import FileHistory, InMemoryHistory  # lazy: start-up (loaded when the command runs)

    class _Completer(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            for word, start, meta in completions(document.text_before_cursor):
                yield Completion(word, start_position=start, display_meta=meta)

    path = history_path()
    try:
        history: FileHistory | InMemoryHistory = FileHistory(str(private_history(path)))
    except OSError:
        history = InMemoryHistory()  # an unwritable data folder costs the history, not the shell
    session: PromptSession[str] = PromptSession(
        history=history, completer=ThreadedCompleter(_Completer()), input=pt_input, output=pt_output
    )
    while True:
        try:
            line = session.prompt(PROMPT)
        except KeyboardInterrupt:
            continue  # Ctrl-C: the line is dropped
        except EOFError:
            return  # Ctrl-D
        if _leaves(line):
            status = exit_status(line, 0)
            if status:
                raise typer.Exit(status)
            return
        run_line(line)


def shell(db: DbOpt = None) -> None:
    """One process for the night: stkit commands typed without `stkit`.

    Completion with Tab, history kept across nights beside the store (--db's folder, else the user data
    folder); an error never ends the
    shell; Ctrl-C cancels the line, Ctrl-D or `exit` leaves (`exit N` with status N). Lines can be piped in:
    `printf 'roll 5 --seed 1\\nroll 6 --seed 2\\n' | stkit shell` (exit 1 if any line failed). A piped
    script is never asked a question: a command that would ask (`char delete` without --yes) is refused
    and the script goes on. With --db, every command uses that database (as $STKIT_DATABASE_URL would).
    """
    from stkit.cli.ask import scripted  # lazy: start-up (loaded when the command runs)
    from stkit.store.db.handle import StoreHandle  # lazy: start-up (loaded when the command runs)

    handle = StoreHandle(db)  # the store chosen once; every command of the session finds this handle
    if db is not None:
        os.environ["STKIT_DATABASE_URL"] = handle.url
    worst, status = 0, None
    with handle:  # one connection for the whole session
        if sys.stdin.isatty() and sys.stdout.isatty():
            interactive()
            return
        with scripted():  # nobody to answer a question: a command that asks is refused (add --yes)
            try:
                for line in _piped_lines():
                    if _leaves(line):
                        status = exit_status(line, 1 if worst else 0)  # `exit N` is N, a bare `exit` as at the end
                        break
                    worst = max(worst, run_line(line))
            except LineTooLong as exc:
                from stkit.cli.app import print_error  # lazy: start-up (loaded when the command runs)

                print_error(str(exc))
                status = 2
    if status is None:
        status = 1 if worst else 0  # a script learns that some line failed
    if status:
        raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    """Add `stkit shell` to the root app."""
    app.command("shell")(shell)
