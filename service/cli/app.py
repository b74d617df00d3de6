"""The ``pbem`` command line (typer + rich).

Each group of commands lives in its own module under ``service.cli`` and adds itself
to the app through ``register(app, bench)``, so the modules stay small and independent.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(help="pbem: play-by-email board games.", no_args_is_help=True, add_completion=False)
bench = typer.Typer(help="Benchmarks (not tests): engines, pipeline, scale.", no_args_is_help=True)
app.add_typer(bench, name="bench")

# Modules that add commands; a module that has not landed yet is skipped.
COMMAND_MODULES = (
    "service.cli.engines_cli",  # selfplay, play, bench engines
    "service.cli.service_cli",  # serve, game, admin
    "service.cli.admin_cli",  # admin stalled|show|log|… (after service_cli: adds to its groups)
    "service.cli.mail_cli",  # mailserver, demo, bench pipeline / scale
    "service.cli.league_cli",  # league new|list|show|open|close|start|pair|standings|drop|settle
    "service.cli.ops_cli",  # status, db upgrade
    "service.cli.health_cli",  # health (asks pbem serve --health-port)
    "service.cli.backup_cli",  # db backup / restore / verify (after ops_cli: adds to its db group)
)

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as exc:
        if exc.name == _name:
            continue
        raise
    _module.register(app, bench)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
