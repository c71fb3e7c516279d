"""The bot's side of the analysis: the worker process (analysis/, GPL) spoken to in JSON lines.

The bot never imports gnubg. `AnalysisWorker` starts `python -m analysis` once and sends it
one game at a time (an asyncio lock queues the rest), so the engine's seconds of CPU never
touch the event loop; `analyse_game` is the one-shot form `python -m bot analyse` uses.

Each game has `timeout` seconds (CHOUETTE_ANALYSIS_TIMEOUT), the worker's start-up
included. A worker that overruns them, exits, answers with anything but one JSON object a
line or can't be written to is killed (the next game starts a new one), and the fault is a
`WorkerFault`: an `AnalysisError` like the worker's own refusals, never a raw decoding or
pipe error.
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
# A game's seconds before its worker is killed: `make bench` analyses a long three-player
# game (382 decisions) in about 15 s at 2 ply on the 2-core test machine (docs/analysis.md),
# so this leaves room for a longer game, a deeper analysis and a busy machine.
DEFAULT_TIMEOUT = 300.0


class AnalysisError(RuntimeError):
    """The worker could not analyse a game (its reason), or could not be started."""


class WorkerFault(AnalysisError):
    """The worker process failed (overran its time, exited, garbled its answer, broke its
    pipe): it was killed; the same game may well go through in a new one."""


def available() -> bool:
    """Whether the analysis extra (the gnubg package) is installed, without importing it."""
    return importlib.util.find_spec("gnubg") is not None


def worker_command(python: str = sys.executable) -> list[str]:
    """The worker's command line: the `analysis` package beside bot/, run by `python`."""
    return [python, "-m", "analysis"]


class AnalysisWorker:
    """One worker process, asked one game at a time; killed on a fault, then restarted by the
    next game. `command` runs another worker speaking the same lines (tests: a broken one)."""

    def __init__(self, python: str = sys.executable, *, command: Sequence[str] | None = None,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self._command = list(command) if command is not None else worker_command(python)
        self._own = command is None  # our analysis/: it needs gnubg
        self.timeout = timeout
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def _start(self) -> asyncio.subprocess.Process:
        if self._process is not None and self._process.returncode is None:
            return self._process
        if self._own and not available():
            raise AnalysisError(HOW_TO_ENABLE)
        try:
            process = await asyncio.create_subprocess_exec(
                *self._command, cwd=ROOT, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, limit=1 << 26)
        except OSError as exc:
            raise AnalysisError(f"the analysis worker could not be started: {exc}") from None
        self._process = process
        hello = await self._read(process)
        if not hello.get("ready"):
            raise WorkerFault(f"the analysis worker did not start: {hello}")
        return process

    @staticmethod
    async def _read(process: asyncio.subprocess.Process) -> dict[str, Any]:
        assert process.stdout is not None
        line = await process.stdout.readline()
        if not line:
            raise WorkerFault(f"the analysis worker stopped (status {await process.wait()})")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise ValueError(f"not a JSON object: {line[:80]!r}")
        return answer

    async def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        process = await self._start()
        assert process.stdin is not None
        process.stdin.write((json.dumps(request) + "\n").encode())
        await process.stdin.drain()
        answer = await self._read(process)
        if "error" in answer:
            raise AnalysisError(str(answer["error"]))
        result = answer.get("result")
        if not isinstance(result, dict):
            raise ValueError(f"an answer without a result: {str(answer)[:80]}")
        return result

    async def analyse(self, transcript: Sequence[str], plies: int = DEFAULT_PLIES
                      ) -> dict[str, Any]:
        """Contract 5's object for a play-mode transcript (contract 2's lines), each
        decision with gnubg's numbers under `details` (docs/analysis.md). A WorkerFault if
        the worker failed on it (killed: the next call starts another)."""
        request = {"transcript": list(transcript), "plies": plies}
        async with self._lock:
            try:
                return await asyncio.wait_for(self._ask(request), self.timeout)
            except WorkerFault:
                await self._kill()
                raise
            except TimeoutError:
                await self._kill()
                raise WorkerFault(f"the analysis worker took more than {self.timeout:g} s on "
                                  "a game: it was stopped") from None
            except (ValueError, OSError) as exc:  # bad JSON, a line too long, a broken pipe
                await self._kill()
                raise WorkerFault(f"the analysis worker failed ({type(exc).__name__}: {exc}): "
                                  "it was stopped") from None

    async def _kill(self) -> None:
        """End the worker at once (it hung, died or garbled its answer)."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.returncode is None:
            process.kill()
        await process.wait()

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


async def analyse_game(transcript_lines: Sequence[str], plies: int = DEFAULT_PLIES, *,
                       command: Sequence[str] | None = None,
                       timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """Analyse one transcript in a worker of its own, then end it."""
    worker = AnalysisWorker(command=command, timeout=timeout)
    try:
        return await worker.analyse(transcript_lines, plies)
    finally:
        await worker.close()
