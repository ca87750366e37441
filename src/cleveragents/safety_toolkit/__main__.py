"""`python -m cleveragents.safety_toolkit` runs the `safety-profile` CLI."""

import sys

from .cli.main import main

sys.exit(main())
