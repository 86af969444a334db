"""``python -m agility_cli`` runs the ``agility`` command."""

from .cli import main

main()
