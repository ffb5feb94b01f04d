"""The full rules (docs/rules.md) in the reader's language, one section at a time.

docs/rules.md is the English original; docs/rules.<lang>.md translates it section by section.
A section is a `## ` heading and everything up to the next one (the text before the first is
the "intro"). A translation names each of its sections by the English section's key in an
anchor right above the heading, `<a id="manipulation"></a>`, which also keeps the English
page's links (#manipulation) working. A section the translation lacks (one added to the English
page later, say Rummikub's) is shown in English, so a reader always gets every section.

    section("tahiti", "he")      # the Tahiti section in Hebrew (or English if untranslated)
    document("ru")               # the whole page, every section in Russian where it can be
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from . import DEFAULT, isolate_page, normalize, using

DOCS = Path(__file__).resolve().parents[2] / "docs"
INTRO = "intro"
_ANCHOR = re.compile(r'^<a id="([a-z0-9-]+)"></a>$')
_WRAPPER = re.compile(r"^</?div( dir=\"rtl\")?>$")  # a right-to-left page's wrapper


def path(lang: str) -> Path:
    return DOCS / ("rules.md" if lang == DEFAULT else f"rules.{lang}.md")


def key_of(heading: str) -> str:
    """A section's key: the English heading as GitHub makes its anchor ("The "unfinished move"
    option" -> "the-unfinished-move-option")."""
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^a-z0-9 -]", "", text).replace(" ", "-")


def parse(text: str, *, anchored: bool) -> dict[str, str]:
    """The sections of a page by key, in order, as text to read (anchors and the right-to-left
    wrapper left out). `anchored`: keys come from the anchor above each `## ` heading (a
    translation); otherwise from the heading itself (the English page)."""
    sections: dict[str, list[str]] = {INTRO: []}
    current = INTRO
    pending: str | None = None  # an anchor waiting for its heading
    for line in text.splitlines():
        if _WRAPPER.match(line.strip()):
            continue
        anchor = _ANCHOR.match(line.strip())
        if anchor:
            pending = anchor.group(1)
            continue
        if line.startswith("## "):
            current = pending if anchored and pending else key_of(line)
            sections[current] = []
        pending = None if line.strip() else pending
        sections[current].append(line)
    return {k: "\n".join(v).strip().strip("-").strip() for k, v in sections.items()}


@cache
def sections(lang: str) -> dict[str, str]:
    """The sections a language's page has (none when there is no page)."""
    file = path(lang)
    if not file.exists():
        return {}
    with using(lang):  # a right-to-left page's card runs and commands read as typed
        text = isolate_page(file.read_text(encoding="utf-8"))
    return parse(text, anchored=lang != DEFAULT)


def keys() -> list[str]:
    """Every section of the English page, in order."""
    return list(sections(DEFAULT))


def translated(key: str, lang: str) -> bool:
    return bool(sections(normalize(lang)).get(key))


def section(key: str, lang: str) -> str:
    """One section in `lang`, or in English when the translation lacks it ("" if English has no
    such section either)."""
    lang = normalize(lang)
    return sections(lang).get(key) or sections(DEFAULT).get(key, "")


def rulebook_key(name: str) -> str | None:
    """The section that describes a rulebook or game ("build-to-ten" -> its section)."""
    wanted = key_of(name)
    return next((k for k in keys() if k == wanted or k.startswith(wanted + "-")), None)


def document(lang: str) -> str:
    """The whole page in `lang`, section by section (English where a section is untranslated)."""
    parts = [section(key, lang) for key in keys()]
    return "\n\n---\n\n".join(p for p in parts if p)
