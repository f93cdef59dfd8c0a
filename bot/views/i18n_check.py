"""What is missing or stale in a language's catalogue:
``python -m bot.views.i18n_check [lang ...]``.

For each language (all of them when none is named; ``PORTES_LOCALES`` may point at another
locales directory, a translator's copy) it lists:

- **missing**: a text the bot uses that the catalogue lacks or leaves empty;
- **fuzzy**: a translation marked fuzzy (``pybabel update`` guessed it: the bot ignores it);
- **obsolete**: a translation of a text the bot no longer uses (delete it);
- **placeholders**: a translation whose ``{names}`` differ from the English text's;
- **tags**: a translation whose HTML tags (``<b>``, ``<i>``, ``<code>``) differ;
- **plural forms**: a plural text without as many forms as the language has (``Plural-Forms``).

It exits with 1 when anything is listed, so it can guard a build; ``tests/bot/test_i18n.py``
asserts that it lists nothing for every language the bot ships.
"""

from __future__ import annotations

import contextlib
import io
import re
import string
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bot.views.i18n import DOMAIN, langs, locales_dir

BOT = Path(__file__).parent.parent
GAMES = BOT.parent / "rules" / "game.py"
"""The games' names: message ids of the rules' registry (marked ``N_``), translated by the bot."""
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
TAG = re.compile(r"</?(?:b|i|code|u|s|a)\b[^>]*>")

MessageId = str | tuple[str, str]


def used_message_ids(root: Path = BOT) -> set[MessageId]:
    """Every text the code under ``root`` translates (a plural as its two English forms)."""
    found: set[MessageId] = set()
    # Babel warns of every f-string given to a keyword argument ("seed=f'<code>…'"): values,
    # not texts to translate
    with contextlib.redirect_stderr(io.StringIO()):
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add((message[0], message[1]) if isinstance(message, tuple) else message)
        if root == BOT:
            for _line, message, _comments, _context in extract_from_file(
                "python", str(GAMES), keywords=KEYWORDS
            ):
                found.add((message[0], message[1]) if isinstance(message, tuple) else message)
    return found


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of ``text``."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:  # an unbalanced brace: not a text .format() can fill
        return {"<unbalanced brace>"}


def tags(text: str) -> Counter[str]:
    return Counter(TAG.findall(text))


@dataclass
class Report:
    lang: str
    missing: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    plural_forms: list[str] = field(default_factory=list)

    def problems(self) -> dict[str, list[str]]:
        kinds = ("missing", "fuzzy", "obsolete", "placeholders", "tags", "plural_forms")
        return {kind: getattr(self, kind) for kind in kinds if getattr(self, kind)}

    def text(self) -> str:
        problems = self.problems()
        if not problems:
            return f"{self.lang}: complete"
        lines = [f"{self.lang}: " + ", ".join(f"{len(v)} {k.replace('_', ' ')}"
                                             for k, v in problems.items())]
        for kind, ids in problems.items():
            lines += [f"  {kind.replace('_', ' ')}: {first_line(i)}" for i in sorted(ids)]
        return "\n".join(lines)


def first_line(msgid: str) -> str:
    line = msgid.split("\n", 1)[0]
    return repr(line if len(line) <= 90 else line[:89] + "…")


def read_catalog(lang: str, root: Path | None = None) -> Catalog:
    path = (root or locales_dir()) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def check(lang: str, used: set[MessageId] | None = None, root: Path | None = None) -> Report:
    """The report on ``lang``'s catalogue against the texts the bot uses."""
    used = used_message_ids() if used is None else used
    catalog = read_catalog(lang, root)
    report = Report(lang)
    forms = get_plural(lang).num_plurals
    keys = {m if isinstance(m, str) else m[0]: m for m in used}
    for key, msgid in keys.items():
        message = catalog.get(key)
        raw = None if message is None else message.string
        strings: tuple[str, ...] = (raw,) if isinstance(raw, str) else tuple(raw or ())
        if message is None or not all(strings):
            report.missing.append(key)
            continue
        if message.fuzzy:
            report.fuzzy.append(key)
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        if isinstance(msgid, tuple) and len(strings) != forms:
            report.plural_forms.append(key)
        expected = set().union(*(fields(i) for i in ids)) - {"n"}
        if any(fields(s) - {"n"} != expected for s in strings):
            report.placeholders.append(key)
        if any(tags(s) != tags(ids[0]) for s in strings):
            report.tags.append(key)
    report.obsolete = sorted(str(m.id if isinstance(m.id, str) else m.id[0])
                             for m in catalog if m.id and (m.id if isinstance(m.id, str)
                                                           else m.id[0]) not in keys)
    report.obsolete += [str(m.id if isinstance(m.id, str) else m.id[0])
                        for m in catalog.obsolete.values()]
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    chosen = args or list(langs())
    unknown = [lang for lang in chosen if lang not in langs()]
    if unknown:
        print(f"no catalogue for {', '.join(unknown)} in {locales_dir()} "
              f"(languages there: {', '.join(langs())})", file=sys.stderr)
        return 2
    used = used_message_ids()
    reports = [check(lang, used) for lang in chosen if lang != "en" or
               (locales_dir() / "en").is_dir()]
    for report in reports:
        print(report.text())
    return 1 if any(r.problems() for r in reports) else 0


if __name__ == "__main__":
    raise SystemExit(main())
