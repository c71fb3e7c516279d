# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""`python -m analysis`: run the worker (JSON lines on stdin and stdout)."""

import sys

from analysis.worker import main

sys.exit(main())
