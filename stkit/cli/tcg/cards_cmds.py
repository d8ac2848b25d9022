"""`stkit tcg rules|define|cards|deck`: rules search, glossary, card database and deck legality.

Thin layer: parse options, call stkit.tcg, render with rich (or one JSON object with --json). Only typer
and the standard library are imported at module level.
"""

from __future__ import annotations

import os
from typing import Any

import typer

from stkit.cli.tcg.app import safe, tcg_app
from stkit.errors import NotFound
from stkit.tcg.vocab import RuleKind
from stkit.text import counted

rules_app = typer.Typer(help="Search and show the rules, rulings and recorded conflicts.", no_args_is_help=True)
cards_app = typer.Typer(help="Import, search and show cards (built-in set included).", no_args_is_help=True)
deck_app = typer.Typer(help="Check a deck list against the deck-building rules.", no_args_is_help=True)
tcg_app.add_typer(rules_app, name="rules")
tcg_app.add_typer(cards_app, name="cards")
tcg_app.add_typer(deck_app, name="deck")

_JSON_HELP = "Print one JSON object instead of tables."
_DB_HELP = (
    "Card database file (default: $STKIT_CARDS_DB, else cards.sqlite beside the store $STKIT_DATABASE_URL "
    "names, else in the user data folder)."
)
_DOCS = {"equinox": "Equinox Update", "rulebook": "earlier rulebook", "battlefields": "Battlefields supplement"}


def _emit(obj: Any) -> None:
    from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

    print_json(obj, indent=None)


def _console(stderr: bool = False):
    from stkit.cli.render import new_console  # lazy: start-up (loaded when the command runs)

    return new_console(stderr=stderr)


def _source(doc: str, section: str) -> str:
    return f"{_DOCS.get(doc, doc)}, \u201c{section}\u201d"


def _ambiguous(exc, as_json: bool, what: str) -> None:
    if as_json:
        _emit({"error": str(exc), "ambiguous": True, "candidates": exc.candidates})
        # scripts reading stderr see the failure the same way as every other error
        typer.echo(f"Error: {exc}", err=True)
    else:
        # one line, like every error: the candidates listed after the question
        names = ", ".join(safe(c) for c in exc.candidates)
        _console(stderr=True).print(
            f"Error: [bold yellow]{safe(exc.name)}[/] could be more than one {what}: {names}; say which", soft_wrap=True
        )
    raise typer.Exit(1)


# --- rules -------------------------------------------------------------------------------------------------


@rules_app.command("search")
def rules_search(
    query: list[str] = typer.Argument(
        ..., help="Words to look for (typos are corrected against the rules' vocabulary)."
    ),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=100, help="Most results to show (1..100)."),
    kind: RuleKind | None = typer.Option(None, "--kind", help="Only this kind: rule, ruling or conflict."),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Ask the rules a question in your own words, best answer first.

    The best match is shown in full (the answer), the others by title; every hit names its rule id for
    `stkit tcg rules show`. Slang, paraphrase and typos are read as the rules' own words."""
    from stkit.tcg.rules import search_rules  # lazy: start-up (loaded when the command runs)

    result = search_rules(" ".join(query), limit=limit, kind=kind.value if kind else None)
    if as_json:
        _emit(result.to_dict())
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    con = _console()
    if result.corrected != " ".join(w.lower() for w in query) and result.hits:
        con.print(f"[dim]searched for:[/] {safe(result.corrected)}")
    if not result.hits:
        con.print(f"No rule matches {safe(repr(' '.join(query)))}.")
        return
    best, others = result.hits[0].entry, result.hits[1:]
    con.print(f"[bold]{safe(best.title)}[/]  [cyan]{safe(best.id)}[/] {_kind_text(best)}")
    con.print(safe(best.text))
    if best.conflict:
        con.print(f"[bold]stkit rules:[/] {safe(best.conflict['ruling'])}")
    con.print(f"[dim]Source: {safe(_source(best.document, best.section))}[/]")
    if not others:
        return
    con.print()
    table = Table(show_header=True, header_style="bold", title="Also relevant", title_justify="left")
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("title")
    table.add_column("kind")
    table.add_column("source", style="dim")
    for hit in others:
        e = hit.entry
        table.add_row(safe(e.id), safe(e.title), _kind_text(e), safe(_source(e.document, e.section)))
    con.print(table)


def _kind_text(e) -> str:
    text = "[red]conflict[/]" if e.kind == "conflict" else e.kind
    return text + (" [dim](superseded)[/]" if e.superseded_by else "")


@rules_app.command("show")
def rules_show(
    rule_id: str = typer.Argument(..., metavar="ID", help="A rule id such as deck.combat-deck."),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Show one rule entry in full.

    Its text, source section, what it supersedes and any conflict ruling."""
    from stkit.tcg.rules import get_rule  # lazy: start-up (loaded when the command runs)

    e = get_rule(rule_id)
    if as_json:
        _emit(e.to_dict())
        return
    from rich.panel import Panel  # lazy: start-up (loaded when the command runs)

    lines = [safe(e.text), "", f"[dim]Source:[/] {safe(_source(e.document, e.section))}"]
    if e.keywords:
        lines.append(f"[dim]Keywords:[/] {safe(', '.join(e.keywords))}")
    if e.asks:
        lines.append(f"[dim]Answers:[/] {safe('; '.join(e.asks))}")
    if e.cards:
        lines.append(f"[dim]Cards:[/] {safe(', '.join(e.cards))}")
    if e.supersedes:
        lines.append(f"[dim]Supersedes:[/] {safe(str(e.supersedes))}")
    if e.superseded_by:
        lines.append(f"[yellow]Superseded by:[/] {safe(', '.join(e.superseded_by))}")
    if e.conflict:
        lines += [
            "",
            f"[bold red]Conflicts with:[/] {safe(', '.join(e.conflict['with']))}",
            f"[bold]stkit rules:[/] {safe(e.conflict['ruling'])}",
        ]
    _console().print(
        Panel("\n".join(lines), title=f"[bold]{safe(e.title)}[/]", subtitle=safe(f"{e.id} \u00b7 {e.kind}"))
    )


@rules_app.command("conflicts")
def rules_conflicts(as_json: bool = typer.Option(False, "--json", help=_JSON_HELP)) -> None:
    """List the contradictions in the documents and stkit's ruling."""
    from stkit.tcg.rules import default_index  # lazy: start-up (loaded when the command runs)

    found = [e for e in default_index().entries.values() if e.kind == "conflict"]
    if as_json:
        _emit({"conflicts": [e.to_dict() for e in found]})
        return

    con = _console()
    for e in found:
        ruling = (e.conflict or {}).get("ruling", "")
        con.print(f"[bold red]{safe(e.id)}[/] {safe(e.title)}\n  [bold]stkit:[/] {safe(ruling)}\n")


@tcg_app.command("define")
def define_cmd(
    term: list[str] = typer.Argument(..., help="A glossary term: Auspice, Breed, Sustained Rage, Unique, Long..."),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Define a game term from the glossary.

    Case, accents and small typos are forgiven."""
    from stkit.tcg.cards import AmbiguousName  # lazy: start-up (loaded when the command runs)
    from stkit.tcg.rules import define  # lazy: start-up (loaded when the command runs)

    try:
        t = define(" ".join(term))
    except AmbiguousName as exc:
        _ambiguous(exc, as_json, "term")
        return
    if as_json:
        _emit(t.to_dict())
        return

    con = _console()
    con.print(f"[bold]{safe(t.term)}[/]" + (f" [dim]({safe(', '.join(t.aliases))})[/]" if t.aliases else ""))
    con.print(safe(t.definition))
    con.print(f"[dim]Source: {safe(_source(t.document, t.section))}[/]")
    if t.see:
        con.print(f"[dim]See:[/] {safe(', '.join(t.see))}")


# --- cards -------------------------------------------------------------------------------------------------


def _open_db(path: str | None):
    from stkit.tcg.db import CardDB  # lazy: start-up (loaded when the command runs)

    return CardDB(path)


@cards_app.command("import")
def cards_import(
    file: str = typer.Argument(..., help="Card list: stkit .yaml/.json/.csv or a LackeyCCG tab-separated .txt/.tsv."),
    strict: bool = typer.Option(
        False, "--strict", help="Refuse the whole file if any Lackey row is refused or has a warning."
    ),
    cards_db: str | None = typer.Option(None, "--cards-db", help=_DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Import a card list in one transaction.

    Every card is validated first: nothing is half-imported."""

    err = _console(stderr=True)
    big = os.path.exists(file) and os.path.getsize(file) > 100_000
    with _open_db(cards_db) as db:
        if big and not as_json and err.is_terminal:
            from rich.progress import Progress  # lazy: start-up (loaded when the command runs)

            with Progress(console=err, transient=True) as bar:
                task = bar.add_task("Reading cards", total=None)
                report = db.import_file(
                    file, progress=lambda done, total: bar.update(task, completed=done, total=total), strict=strict
                )
        else:
            report = db.import_file(file, strict=strict)
    if as_json:
        _emit(report.to_dict())
        return
    _print_import_report(report)


def _print_import_report(report) -> None:
    con = _console()
    extra = f" ({report.playtest} playtest)" if report.playtest else ""
    con.print(f"Imported [bold]{report.imported}[/] cards{extra} from {safe(report.path)} ({report.format}).")
    if report.merged:
        con.print(f"Merged {counted(len(report.merged), 'row')} into the row before them or an earlier printing:")
        for e in report.merged:
            con.print(f"  line {e.line}: {safe(e.message)}")
    if report.warnings:
        con.print(f"[yellow]Kept with a warning ({len(report.warnings)}):[/]")
        for e in report.warnings:
            con.print(f"  line {e.line}: {safe(e.name or '')}: {safe(e.message)}")
    if report.text_only:
        con.print(
            f"{counted(report.text_only, 'Combat card')} give a value only in their text "
            "(their 'text only' field says which; `stkit tcg cards show NAME`)."
        )
    if report.untyped:
        con.print(f"[yellow]Combat Actions with no kind ({len(report.untyped)}):[/] nothing on them says which")
        for e in report.untyped:
            read = " (read by hand: not stated on the card)" if "not stated" in e.message else ""
            con.print(f"  line {e.line}: {safe(e.name or '')}{read}")
    if report.skipped:
        con.print(f"[yellow]Refused {counted(len(report.skipped), 'row')} that carry no card:[/]")
        for e in report.skipped:
            con.print(f"  line {e.line}: {safe(e.message)}")


@cards_app.command("fetch")
def cards_fetch(
    url: str | None = typer.Option(
        None, "--url", help="Where to download the list (a mirror): the plugin's tab-separated file or its JSON copy."
    ),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds the whole download may take (1..600)."),
    cards_db: str | None = typer.Option(None, "--cards-db", help=_DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Download the community Rage card list and import it.

    One command from a fresh install to the full card list; run it again to refresh. Offline, it says so
    in one line and changes nothing."""
    from stkit.tcg.fetch import fetch_cards  # lazy: start-up (loaded when the command runs)

    with _open_db(cards_db) as db:
        report = fetch_cards(db, url, timeout=timeout)
    if as_json:
        _emit(report.to_dict())
        return
    _print_import_report(report)


_NO_LIST = (
    "no card list imported: stkit knows only its {n} built-in cards; run `stkit tcg cards fetch` "
    "(or `stkit tcg cards import FILE`) first"
)


_RANGE_HELP = "a number or range: 3, 2..4, 3.. or ..5"


@cards_app.command("search")
def cards_search(
    query: list[str] | None = typer.Argument(None, help="Name or words (empty: list cards passing the filters)."),
    type_: str | None = typer.Option(
        None, "--type", "-t", help="Card type or subtype, e.g. Garou, Battlefield, Combat Action, Victim, Territory."
    ),
    keyword: list[str] | None = typer.Option(
        None, "--keyword", "-k", help="Only cards with this keyword (a whole list item); repeat for several."
    ),
    tribe: str | None = typer.Option(None, "--tribe", help="Only cards of this tribe (e.g. Get of Fenris)."),
    breed: str | None = typer.Option(None, "--breed", help="Only this breed: Homid, Lupus or Metis."),
    auspice: str | None = typer.Option(None, "--auspice", help="Only this auspice (Ragabash ... Ahroun)."),
    set_: str | None = typer.Option(None, "--set", help="Only cards of this set (expansion)."),
    renown: str | None = typer.Option(None, "--renown", help=f"Renown, {_RANGE_HELP}."),
    rage: str | None = typer.Option(None, "--rage", help=f"Rage (breed side), {_RANGE_HELP}."),
    gnosis: str | None = typer.Option(None, "--gnosis", help=f"Gnosis (breed side), {_RANGE_HELP}."),
    health: str | None = typer.Option(None, "--health", help=f"Health (breed side), {_RANGE_HELP}."),
    rage_cost: str | None = typer.Option(None, "--rage-cost", help=f"A Combat card's Rage cost, {_RANGE_HELP}."),
    damage: str | None = typer.Option(None, "--damage", help=f"A Combat card's Damage, {_RANGE_HELP}."),
    crinos: bool | None = typer.Option(
        None, "--crinos/--no-crinos", help="Only two-sided characters with a Crinos side (or only those without)."
    ),
    playtest: bool = typer.Option(False, "--playtest", help="Include playtest cards (hidden by default)."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, max=500, help="Most results (1..500)."),
    cards_db: str | None = typer.Option(None, "--cards-db", help=_DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Search cards by name, words or text, with filters on every field."""
    from stkit.tcg.db import CardFilter, NumberRange  # lazy: start-up (loaded when the command runs)

    q = " ".join(query or [])
    given = {"renown": renown, "rage": rage, "gnosis": gnosis, "health": health}
    given |= {"rage_cost": rage_cost, "damage": damage}
    ranges = tuple(
        (name, NumberRange.parse(text, "--" + name.replace("_", "-")))
        for name, text in given.items()
        if text is not None
    )
    flt = CardFilter(
        type=type_,
        keywords=tuple(keyword or ()),
        tribe=tribe,
        breed=breed,
        auspice=auspice,
        set=set_,
        crinos=crinos,
        playtest=playtest,
        ranges=ranges,
    )
    with _open_db(cards_db) as db:
        hits = db.search(q, limit=limit, filters=flt)
        builtin_only = db.imported_count() == 0
        known = db.count()
    if builtin_only:
        # results still come from the built-in cards; the line says why so few
        typer.echo(_NO_LIST.format(n=known), err=True)
    if as_json:
        _emit({"query": q, "results": [h.to_dict() for h in hits], "card_list_imported": not builtin_only})
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    con = _console()
    if not hits:
        con.print(f"No card matches {safe(repr(q))}.")
        return
    table = Table(header_style="bold")
    for col in ("name", "type", "set", "keywords", "match"):
        table.add_column(col)
    for h in hits:
        c = h.card
        name = safe(c.name) + (" [magenta](playtest)[/]" if c.playtest else "")
        table.add_row(name, safe(c.type or "-"), safe(c.set or "-"), safe(", ".join(c.keywords)), h.match)
    con.print(table)


@cards_app.command("show")
def cards_show(
    name: list[str] = typer.Argument(..., help="Card name (case, accents, apostrophes and punctuation are folded)."),
    set_: str | None = typer.Option(None, "--set", help="Show the printing of this set (expansion)."),
    playtest: bool = typer.Option(False, "--playtest", help="Include playtest cards, as `cards search` does."),
    cards_db: str | None = typer.Option(None, "--cards-db", help=_DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Show one card in full, with its printings.

    An ambiguous name lists the candidates instead of guessing; printings whose text differs are named."""
    from stkit.tcg.cards import AmbiguousName, combat_kind_notes  # lazy: start-up (loaded when the command runs)

    with _open_db(cards_db) as db:
        try:
            view = db.show(" ".join(name), include_playtest=playtest, set_=set_)
        except AmbiguousName as exc:
            _ambiguous(exc, as_json, "card")
            return
    if as_json:
        _emit(view.to_dict())
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    card = view.card
    data = card.to_dict()
    table = Table(show_header=False, title=f"[bold]{safe(card.name)}[/]", title_justify="left")
    table.add_column(style="dim")
    table.add_column()
    for key, value in data.items():
        if key == "name" or value in (None, [], {}, False):
            continue
        value = _render_value(key, value)
        table.add_row(key.replace("_", " "), safe(value))
    if card.type == "Combat Action" and not card.kind:
        _, why = combat_kind_notes().get(card.key, (None, ""))
        table.add_row("kind", safe(f"not stated on the card: {why}" if why else "not known: nothing on the card says"))
    table.add_row("source", safe("stkit's built-in cards" if view.origin == "builtin" else view.origin))
    if view.merged_from:
        table.add_row("rulings from", "stkit's built-in card of the same name")
    con = _console()
    con.print(table)
    if len(view.printings) > 1:
        sets = ", ".join(
            safe(p.set or "built in") + (" [yellow](differs)[/]" if p.differs else "") for p in view.printings
        )
        con.print(f"Printings: {sets}")
        if view.printings_differ:
            con.print("[yellow]Printings differ:[/] use --set SET to see another one.")


def _render_value(key: str, value: Any) -> str:
    if key in ("attacker_options", "defender_options"):
        out = []
        for opt in value:
            parts = [opt.get("option") or "option"]
            if opt.get("requirements"):
                parts.append("requires " + ", ".join(opt["requirements"]))
            if opt.get("max_renown") is not None:
                parts.append(f"max Renown {opt['max_renown']}")
            if opt.get("cards") is not None:
                parts.append(f"draws {opt['cards']}")
            out.append(": ".join(parts[:1]) + (" - " + "; ".join(parts[1:]) if parts[1:] else ""))
        return "\n".join(out)
    if key == "cohorts":
        return ", ".join(f"{tribe} (+{extra} Renown)" for tribe, extra in value.items())
    if key == "conditional":
        # a value that holds only in some cases: never shown as if it always held
        return "\n".join(
            f"{name.replace('_', ' ')} {spec['value']} only: {spec['when']}" for name, spec in value.items()
        )
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items() if v not in (None, []))
    if isinstance(value, list):
        return "\n".join(map(str, value)) if key in ("errata", "rulings") else ", ".join(map(str, value))
    return str(value)


# --- deck --------------------------------------------------------------------------------------------------


def _renown_level(value: int) -> int:
    if value not in (15, 20, 25):
        raise typer.BadParameter(f"{value} is not a Renown level; use 15, 20 or 25")
    return value


@deck_app.command("check")
def deck_check(
    file: str = typer.Argument(..., help="Deck list text file (sections Tribe, Pack, Sept deck, Combat deck)."),
    renown_level: int = typer.Option(
        20, "--renown-level", callback=_renown_level, help="Game Renown level: 15, 20 or 25."
    ),
    cards_db: str | None = typer.Option(None, "--cards-db", help=_DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
) -> None:
    """Check a deck list against the deck-building rules.

    Exit 0 when legal, 1 when not, listing every violation with its rule id."""
    from stkit.tcg.deck import check_deck, parse_deck_file  # lazy: start-up (loaded when the command runs)

    deck = parse_deck_file(file)
    with _open_db(cards_db) as db:
        if db.imported_count() == 0:
            raise NotFound(_NO_LIST.format(n=db.count()))
        report = check_deck(deck, db, renown_level=renown_level)
    if as_json:
        _emit(report.to_dict())
    else:
        con = _console()
        if report.legal:
            caveat = " as far as the card data lets stkit check" if report.warnings else ""
            con.print(f"[bold green]Legal[/] at Renown level {renown_level}{caveat}.")
        else:
            con.print(
                f"[bold red]Not legal[/] at Renown level {renown_level}: "
                f"{counted(len(report.violations), 'violation')}."
            )
            for vio in report.violations:
                con.print(f"  [cyan]{safe(vio.rule)}[/]  {safe(vio.message)}")
        if report.warnings:
            con.print(f"[yellow]Not checked for lack of card data ({len(report.warnings)}):[/]")
            for warn in report.warnings:
                con.print(f"  [cyan]{safe(warn.rule)}[/]  {safe(warn.message)}")
    if not report.legal:
        raise typer.Exit(1)
