"""`python -m clausegraph.cli` runs the command line."""

from clausegraph.cli import main

main()
