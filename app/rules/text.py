"""Messages for people, written in English and translated where they are shown.

The rules explain their refusals and warnings, but they do not know who reads
them or in which language. So a message is a :class:`Text`: an English
template with named values (``{keyword}``), which the web layer translates
through the interface's catalog and then fills in. ``str(text)`` is the
English message, which the logs and English readers see.

``N_`` marks a template for the catalogs without translating it: the
extraction finds every ``N_("...")`` in the code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

Value = Union[str, int, "Text"]


def N_(template: str) -> str:
    """Mark ``template`` as a message for the catalogs; it is translated where shown."""
    return template


@dataclass(frozen=True)
class Text:
    """An English template and the values that fill it in."""

    template: str
    values: dict[str, Value] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str]) -> str:
        """The message through ``translate`` (a catalog's gettext), values filled in."""
        filled = {
            name: value.render(translate) if isinstance(value, Text) else value
            for name, value in self.values.items()
        }
        template = translate(self.template)
        return template.format(**filled) if filled else template

    def __str__(self) -> str:
        return self.render(lambda template: template)
