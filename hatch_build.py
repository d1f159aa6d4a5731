"""Build step: compile each language's translation catalog (its ``.po`` parts) into one ``.mo`` file."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo

        package = Path(self.root) / "src" / "drawodds"
        spec = importlib.util.spec_from_file_location("_drawodds_i18n", package / "i18n.py")
        assert spec is not None and spec.loader is not None
        i18n = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(i18n)
        for lang in i18n.LANGUAGES[1:]:
            out = package / "locale" / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("wb") as f:
                write_mo(f, i18n.merged(sorted(out.parent.parent.glob("*.po"))))
            build_data["artifacts"].append(str(out.relative_to(self.root)))
