"""``python -m dinecheck`` runs the command line."""

from dinecheck.cli import main

main()
