"""The operator's errors: one line of text and an exit code, never a traceback.

Every admin function raises one of these for bad input (missing game or seat, a bad duration
or address, a finished game) *before* it changes anything, so a refused command leaves the
game exactly as it was. The CLI prints ``error: <message>`` and exits with ``code``.
"""

from __future__ import annotations


class AdminError(Exception):
    """A refused operator command; ``code`` is the process exit code."""

    code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadArgument(AdminError):
    """The command's arguments are wrong (a duration, an address, a seat number)."""

    code = 2


class NotFound(AdminError):
    """No such game (or seat, or file)."""

    code = 3


class Refused(AdminError):
    """The arguments are fine but the game's state does not allow it (finished, paused, …)."""

    code = 4
