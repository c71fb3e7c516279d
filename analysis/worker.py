# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""The worker's loop: one JSON request a line on stdin, one JSON answer a line on stdout.

It first writes `{"ready": true, "gnubg": VERSION}`. Then each request
`{"transcript": [LINE, ...], "plies": N}` (a play-mode transcript, contract 2) is answered
with `{"result": {...}}`, contract 5's object, or `{"error": "..."}`; a request is never
answered twice and nothing else is ever written on stdout (gnubg's own printing goes to a
scratch file). One engine per ply count, made on first use; end of input ends the worker.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from analysis.engine import Engine, EngineError, version
from analysis.verdict import verdict
from rules.errors import RuleError


def serve(requests: TextIO, answers: TextIO) -> None:
    """Answer every request line until the end of `requests`."""
    engines: dict[int, Engine] = {}
    answers.write(json.dumps({"ready": True, "gnubg": version()}) + "\n")
    answers.flush()
    for line in requests:
        if not line.strip():
            continue
        answers.write(json.dumps(_answer(line, engines)) + "\n")
        answers.flush()


def _answer(line: str, engines: dict[int, Engine]) -> dict[str, Any]:
    try:
        request = json.loads(line)
        transcript = request["transcript"]
        plies = request.get("plies", 0)
        if not isinstance(transcript, list) or not all(isinstance(t, str) for t in transcript):
            raise ValueError("transcript is a list of JSON lines (strings)")
        if not isinstance(plies, int) or isinstance(plies, bool):
            raise ValueError("plies is a whole number")
        if plies not in engines:
            engines[plies] = Engine(plies)
        return {"result": verdict(transcript, engines[plies])}
    except (ValueError, KeyError, TypeError, RecursionError, EngineError, RuleError) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    """Run the worker on this process's stdin and stdout."""
    out = Engine.take_stdout()  # gnubg gets fd 1 once an engine exists
    serve(sys.stdin, out)
    return 0
