"""`python -m clausegraph` runs the command line."""

from clausegraph.cli import main

main()
