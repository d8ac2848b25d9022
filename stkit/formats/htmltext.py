"""Rich text from other tools as plain text, and back: the HTML that Foundry VTT's editor keeps.

Pure standard library (:mod:`html.parser`, :mod:`html`). Foundry's WoD20 system keeps a character's
biography, appearance and notes as HTML (``HTMLField`` in ``module/actor/datamodel/pc-actor-datamodel.js``;
the ``htmlFields`` of ``system.json``); stkit keeps plain text.

- :func:`html_to_text`: tags removed, entities decoded; a paragraph (``<p>``, ``<div>``, a heading, a list
  item) becomes its own block separated by a blank line, ``<br>`` a line break; scripts and styles are
  dropped whole. Runs of spaces inside a line collapse to one, as a browser shows them.
- :func:`text_to_html`: the reverse; blocks separated by blank lines become ``<p>`` paragraphs, line breaks
  ``<br>``, and ``<``, ``>``, ``&`` and quotes are escaped. ``html_to_text(text_to_html(t)) == t`` for text
  whose lines have no leading, trailing or doubled spaces and whose blocks are separated by exactly one
  blank line; :func:`round_trips` says whether it holds for a given text.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

#: Elements that start and end a block of text (a paragraph break around them).
_BLOCKS = frozenset(
    [
        "p",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "ul",
        "ol",
        "blockquote",
        "section",
        "article",
        "header",
        "footer",
        "table",
        "tr",
        "pre",
        "hr",
    ]
)
_SKIPPED = frozenset({"script", "style", "template"})


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[list[str]] = [[""]]  # blocks of lines
        self.skip = 0

    def _break_block(self) -> None:
        if any(line.strip() for line in self.blocks[-1]):
            self.blocks.append([""])
        else:
            self.blocks[-1] = [""]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skip += 1
        elif tag == "br":
            self.blocks[-1].append("")
        elif tag in _BLOCKS:
            self._break_block()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCKS:
            self._break_block()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.blocks[-1][-1] += data


def html_to_text(value: str) -> str:
    """The readable text of an HTML fragment ('<p>One</p><p>Two<br>lines</p>' -> 'One\\n\\nTwo\\nlines').
    Text with no tag at all is returned with its entities decoded only."""
    if "<" not in value:
        return html.unescape(value)
    parser = _TextParser()
    parser.feed(value)
    parser.close()
    out = []
    for lines in parser.blocks:
        cleaned = [re.sub(r"[ \t\r\n\f\u00a0]+", " ", line).strip() for line in lines]
        while cleaned and not cleaned[0]:
            cleaned.pop(0)
        while cleaned and not cleaned[-1]:
            cleaned.pop()
        if cleaned:
            out.append("\n".join(cleaned))
    return "\n\n".join(out)


def text_to_html(text: str) -> str:
    """Plain text as HTML paragraphs ('One\\n\\nTwo\\nlines' -> '<p>One</p><p>Two<br>lines</p>'); '' -> ''."""
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    return "".join("<p>" + "<br>".join(html.escape(line) for line in b.split("\n")) + "</p>" for b in blocks)


def round_trips(text: str) -> bool:
    """True when :func:`text_to_html` then :func:`html_to_text` gives ``text`` back unchanged."""
    return html_to_text(text_to_html(text)) == text
