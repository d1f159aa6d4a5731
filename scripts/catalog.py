"""Keep the translation catalogs in step with the code.

    python scripts/catalog.py extract                 # every marked sentence -> src/drawodds/locale/drawodds.pot
    python scripts/catalog.py update --part trainer   # add new sentences (untranslated) to each language's trainer.po
    python scripts/catalog.py check                   # exit 1 listing untranslated, fuzzy, missing or stale entries
    python scripts/catalog.py compile                 # write each language's LC_MESSAGES/drawodds.mo

A sentence is marked by ``_``/``gettext``, ``N_``, ``ngettext``, ``pgettext`` or by being the
first argument of a ``DrawoddsError`` (any of its subclasses); the web page's templates use
``_`` too. Each language keeps its sentences in several ``.po`` parts (one per part of the
program), which build into one catalog.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from drawodds.i18n import merged  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "drawodds"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "drawodds.pot"
LANGUAGES = ("sv", "nb")
PLURALS = "nplurals=2; plural=(n != 1);"


def error_classes() -> set[str]:
    """Names of every class that derives, directly or not, from DrawoddsError (read from the source)."""
    bases: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
    found = {"DrawoddsError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def keywords() -> dict[str, object]:
    words: dict[str, object] = dict(DEFAULT_KEYWORDS)
    words["N_"] = None
    words.update({name: (1,) for name in error_classes()})
    return words


def extract(unreadable: list[str] | None = None) -> Catalog:
    """Every marked sentence in the package, with where it is used; a marked f-string (which no
    catalog can hold) is added to ``unreadable`` as ``file:line``."""
    catalog = Catalog(project="drawodds", charset="utf-8")
    caught = io.StringIO()
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    with contextlib.redirect_stderr(caught):
        for filename, line, message, comments, context in extract_from_dir(
                str(PACKAGE), method_map=method_map, options_map=options, keywords=keywords()):
            if message and (message[0] if isinstance(message, tuple) else message):
                catalog.add(message, locations=[(f"drawodds/{filename}", line)], auto_comments=comments,
                            context=context)
    if unreadable is not None:
        unreadable += [w.split(": warning")[0].replace(str(ROOT) + "/", "")
                       for w in caught.getvalue().splitlines() if "f-string" in w]
    return catalog


def parts(lang: str) -> list[Path]:
    return sorted((LOCALE / lang).glob("*.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=path.parent.name)


def write(path: Path, catalog: Catalog) -> None:
    """Write ``catalog`` to ``path`` unless the file already says the same."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False, include_previous=False)
    if not path.exists() or path.read_bytes() != buffer.getvalue():
        path.write_bytes(buffer.getvalue())


def key(message: object) -> object:
    return (message.id, message.context)  # type: ignore[attr-defined]


def problems(template: Catalog | None = None) -> Iterator[str]:
    """Each sentence the catalogs lack, leave untranslated or fuzzy, translate twice, or keep unused."""
    unreadable: list[str] = []
    template = template or extract(unreadable)
    yield from (f"{where}: a marked f-string; write a template with named values" for where in unreadable)
    wanted = {key(m) for m in template if m.id}
    for lang in LANGUAGES:
        seen: dict[object, tuple[Path, object]] = {}
        for path in parts(lang):
            for message in read(path):
                if not message.id:
                    continue
                k = key(message)
                where = f"{lang}/{path.name}: {message.id!r}"
                if k in seen and seen[k][1] != message.string:
                    yield f"{where} is translated differently in {seen[k][0].name}"
                seen[k] = (path, message.string)
                if k not in wanted:
                    yield f"{where} is no longer used"
                elif message.fuzzy:
                    yield f"{where} is fuzzy"
                elif not message.string or (isinstance(message.string, tuple) and not all(message.string)):
                    yield f"{where} has no translation"
        for k in sorted(wanted - seen.keys(), key=str):
            yield f"{lang}: {k[0]!r} is not in any part"


def update(part: str) -> None:
    """Add the template's new sentences, untranslated, to each language's ``part``; drop unused ones."""
    template = extract()
    wanted = {key(m) for m in template if m.id}
    for lang in LANGUAGES:
        have: set[object] = set()
        for path in parts(lang):
            catalog = read(path)
            for message in list(catalog):
                if message.id and key(message) not in wanted:
                    catalog.delete(message.id, context=message.context)
            have |= {key(m) for m in catalog if m.id}
            write(path, catalog)
        target = LOCALE / lang / f"{part}.po"
        catalog = read(target) if target.exists() else new_catalog(lang)
        for message in template:
            if message.id and key(message) not in have:
                catalog.add(message.id, string=("", "") if message.pluralizable else "",
                            locations=message.locations, context=message.context)
        write(target, catalog)


def new_catalog(lang: str) -> Catalog:
    catalog = Catalog(locale=lang, project="drawodds", charset="utf-8", fuzzy=False,
                      last_translator="drawodds", copyright_holder="the drawodds authors")
    catalog._set_mime_headers([("Plural-Forms", PLURALS)])  # type: ignore[attr-defined]
    return catalog


def compile_all() -> None:
    """Each language's parts into one ``LC_MESSAGES/drawodds.mo`` (what the package build does)."""
    for lang in LANGUAGES:
        out = LOCALE / lang / "LC_MESSAGES" / "drawodds.mo"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("wb") as f:
            write_mo(f, merged(parts(lang)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("extract", "update", "check", "compile"))
    parser.add_argument("--part", default="core", help="the .po part that receives new sentences (update)")
    args = parser.parse_args()
    if args.action == "extract":
        with TEMPLATE.open("wb") as f:
            write_po(f, extract(), width=100, sort_output=True)
    elif args.action == "update":
        update(args.part)
    elif args.action == "compile":
        compile_all()
    else:
        found = list(problems())
        print("\n".join(found) or "the catalogs are complete")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
