"""Pure game rules. Nothing here does I/O or reads a clock; ``service`` imports us, never the reverse."""

from engines.contract import (
    Action,
    AmbiguousCommand,
    Bot,
    Choice,
    CommandError,
    Engine,
    Event,
    IllegalCommand,
    InvalidCommand,
    Option,
    Outcome,
    Seat,
    Text,
    tr,
)
from engines.registry import get, names, register, unregister
from engines.rng import Rng

__all__ = [
    "Action",
    "AmbiguousCommand",
    "Bot",
    "Choice",
    "CommandError",
    "Engine",
    "Event",
    "IllegalCommand",
    "InvalidCommand",
    "Option",
    "Outcome",
    "Rng",
    "Seat",
    "Text",
    "get",
    "names",
    "register",
    "tr",
    "unregister",
]
