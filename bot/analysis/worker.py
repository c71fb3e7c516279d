"""The bot's side of the analysis: the worker process (analysis/, GPL) spoken to in JSON lines.

The bot never imports gnubg. `AnalysisWorker` starts `python -m analysis` once and sends it
one game at a time (an asyncio lock queues the rest), so the engine's seconds of CPU never
touch the event loop; `analyse_game` is the one-shot form `python -m bot analyse` uses.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the worker's package sits beside bot/
HOW_TO_ENABLE = ("GNU Backgammon's analysis is not installed: run "
                 "`.venv/bin/pip install -e '.[analysis]'` (the gnubg package, GPL).")
DEFAULT_PLIES = 0  # contract 5's default

class AnalysisError(RuntimeError):
    """The worker could not analyse a game (its reason), or could not be started."""


def available() -> bool:
    """Whether the analysis extra (the gnubg package) is installed, without importing it."""
    return importlib.util.find_spec("gnubg") is not None


class AnalysisWorker:
    """One worker process, asked one game at a time; restarted if it died."""

    def __init__(self, python: str = sys.executable) -> None:
        self._python = python
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def _start(self) -> asyncio.subprocess.Process:
        if self._process is not None and self._process.returncode is None:
            return self._process
        if not available():
            raise AnalysisError(HOW_TO_ENABLE)
        process = await asyncio.create_subprocess_exec(
            self._python, "-m", "analysis", cwd=ROOT, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 26)
        hello = await self._read(process)
        if not hello.get("ready"):
            raise AnalysisError(f"the analysis worker did not start: {hello}")
        self._process = process
        return process

    @staticmethod
    async def _read(process: asyncio.subprocess.Process) -> dict[str, Any]:
        assert process.stdout is not None
        line = await process.stdout.readline()
        if not line:
            raise AnalysisError(f"the analysis worker stopped (status {await process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def analyse(self, transcript: Sequence[str], plies: int = DEFAULT_PLIES
                      ) -> dict[str, Any]:
        """Contract 5's object for a play-mode transcript (contract 2's lines), each
        decision with gnubg's numbers under `details` (docs/analysis.md)."""
        async with self._lock:
            process = await self._start()
            assert process.stdin is not None
            request = {"transcript": list(transcript), "plies": plies}
            process.stdin.write((json.dumps(request) + "\n").encode())
            await process.stdin.drain()
            answer = await self._read(process)
        if "error" in answer:
            raise AnalysisError(str(answer["error"]))
        result: dict[str, Any] = answer["result"]
        return result

    async def close(self) -> None:
        """End the worker (it stops at the end of its input)."""
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        assert process.stdin is not None
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


async def analyse_game(transcript_lines: Sequence[str], plies: int = DEFAULT_PLIES
                       ) -> dict[str, Any]:
    """Analyse one transcript in a worker of its own, then end it."""
    worker = AnalysisWorker()
    try:
        return await worker.analyse(transcript_lines, plies)
    finally:
        await worker.close()
