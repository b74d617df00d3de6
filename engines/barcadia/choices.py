"""Menu entries whose text is written only when somebody reads it.

Why: a random playout asks for ~15 legal choices a step and reads one; writing every
command and bilingual label up front was the engine's largest cost. ``LazyChoice`` is a
``Choice`` (same fields, equality and hash) that formats its ``command`` and ``label`` on
first read, from the position it was offered in. Positions are never mutated once made
(``apply`` returns a fresh state), so the text is the same whenever it is read.
"""

from __future__ import annotations

from engines.barcadia.commands import format_action, label
from engines.barcadia.state import BarcadiaState
from engines.contract import Action, Choice, Seat, Text


class LazyChoice(Choice):
    """A ``Choice`` for ``action`` in position ``state`` as seen by ``seat``."""

    def __init__(self, state: BarcadiaState, seat: Seat, action: Action) -> None:
        # Choice is a frozen dataclass: its fields go straight into the instance dict.
        d = self.__dict__
        d["action"] = action
        d["_state"] = state
        d["_seat"] = seat

    @property
    def command(self) -> str:
        text: str | None = self.__dict__.get("_command")
        if text is None:
            text = format_action(self.__dict__["_state"], self.action)
            object.__setattr__(self, "_command", text)
        return text

    def command_in(self, lang: str) -> str:
        """The command in ``lang``'s words (``format_action(..., lang)``), written on first read."""
        said: dict[str, str] = self.__dict__.setdefault("_said", {})
        if lang not in said:
            said[lang] = format_action(self.__dict__["_state"], self.action, lang)
        return said[lang]

    @property
    def label(self) -> Text:
        text: Text | None = self.__dict__.get("_label")
        if text is None:
            text = label(self.__dict__["_state"], self.__dict__["_seat"], self.action)
            object.__setattr__(self, "_label", text)
        return text

    def __eq__(self, other: object) -> bool:
        """Equal to any ``Choice`` with the same action and text, lazy or not."""
        if not isinstance(other, Choice):
            return NotImplemented
        return (self.action, self.command, self.label) == (other.action, other.command, other.label)

    def __hash__(self) -> int:
        return hash((self.action, self.command, self.label))
