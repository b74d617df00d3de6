"""Admin: the operator's functions behind ``pbem game`` and ``pbem admin`` (``games``,
``quarantine``), callable from tests without the CLI. Every operator action that unsticks a game
lands here.
"""
