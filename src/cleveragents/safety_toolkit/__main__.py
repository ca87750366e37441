"""`python -m cleveragents.safety_toolkit` runs the `safety-profile` CLI."""

import sys

from .cli import main

sys.exit(main())
