"""`drawodds rules`: the presets, or every option of one with the rule it comes from."""

from __future__ import annotations

from rich.table import Table

from drawodds.analyses.reference import PresetList, RuleSheet
from drawodds.i18n import _, local_number, pgettext, worded
from drawodds.render.console import stdout


def render_presets(presets: PresetList) -> None:
    """The presets, one line each."""
    console = stdout()
    table = Table(title=_("Rule sets (drawodds rules NAME for every option)"))
    table.add_column(_("preset"), style="bold")
    table.add_column(_("what it is"))
    for name, description in presets.presets.items():
        table.add_row(name, worded(description))
    console.print(table)


def render_rule_sheet(sheet: RuleSheet) -> None:
    """Every option of one rule set: value and source."""
    console = stdout()
    table = Table(title=_("{name}: {description}").format(name=sheet.name, description=worded(sheet.description)))
    table.add_column(_("option"), style="bold")
    table.add_column(_("value"))
    table.add_column(_("source in the rule documents"), style="dim")
    for key, value in sheet.values.items():
        table.add_row(key, value_words(value), worded(sheet.sources[key]))
    console.print(table)


def value_words(value: object) -> str:
    """An option's value as a reader writes it: yes or no, none, a list with commas, a number in the
    reader's way; a name (a rule's choice, as it is typed) as it is."""
    if isinstance(value, bool):
        return pgettext("rule value", "yes") if value else pgettext("rule value", "no")
    if value is None or value == ():
        return pgettext("rule value", "none")
    if isinstance(value, tuple | list):
        return ", ".join(value_words(v) for v in value)
    if isinstance(value, float):
        return local_number(f"{value:g}")
    return str(value)
