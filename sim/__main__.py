"""``python -m sim``: the command line (see ``python -m sim --help``)."""
from sim.cli import main

raise SystemExit(main())
