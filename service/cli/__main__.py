"""``python -m service.cli`` runs the ``pbem`` command line."""

from service.cli.app import main

main()
