"""Entry point for ``python -m rules``."""

import sys

from rules.cli.main import main

sys.exit(main())
