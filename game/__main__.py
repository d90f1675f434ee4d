"""``python -m game`` runs the ``stammtisch`` command."""

import sys

from game.cli import main

sys.exit(main())
