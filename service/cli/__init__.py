"""The ``pbem`` command line (typer + rich): ``app`` builds the app; each ``*_cli`` module
adds one group of commands and calls library code; ``selfplay`` is the bot-vs-bot runner behind
``pbem selfplay``. The only production package allowed to reach ``localmail`` and ``demo``.
"""
