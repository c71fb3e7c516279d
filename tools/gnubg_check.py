"""Cross-check the engine against GNU Backgammon (a developer's tool; CI never needs gnubg).

    python tools/gnubg_check.py [COUNT] [--fixture FILE]

Lists every legal play of every roll for COUNT positions with gnubg's `hint` and with
`rules.board.legal_plays`, and compares the two sets of plays in gnubg's own notation.
With --fixture, gnubg's answers are also written as JSON lines [id, d1, d2, plays] for the
test suite (tests/rules/data/gnubg_plays.jsonl), so CI checks against gnubg without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.positions import ROLLS, mix
from rules.board import legal_plays
from rules.notation import format_play, position_from_id, position_id

GNUBG_SCRIPT = """
import gnubg, json
gnubg.command('set player 0 human')
gnubg.command('set player 1 human')
gnubg.command('new game')
out = open(OUT, 'w')
for pid, a, b in json.load(open(IN)):
    gnubg.command('set board ' + pid)
    gnubg.command('set dice %d %d' % (a, b))
    try:
        moves = sorted(m['move'] for m in gnubg.hint(10000)['hint'])
    except Exception:
        moves = []
    out.write(json.dumps([pid, a, b, moves]) + '\\n')
out.close()
"""


def main() -> int:
    args = sys.argv[1:]
    fixture = Path(args.pop(args.index("--fixture") + 1)) if "--fixture" in args else None
    args = [a for a in args if a != "--fixture"]
    count = int(args[0]) if args else 200
    cases = [(position_id(p), a, b) for p in mix(count, seed=7) for a, b in ROLLS
             if not p.outcome()]
    with tempfile.TemporaryDirectory() as tmp:
        src, dst, script = Path(tmp, "in.json"), Path(tmp, "out.jsonl"), Path(tmp, "g.py")
        src.write_text(json.dumps(cases))
        script.write_text(f"IN = {str(src)!r}\nOUT = {str(dst)!r}\n" + GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-p", str(script)], check=True,
                       capture_output=True, env={"PATH": "/usr/games:/usr/bin:/bin"})
        rows = [json.loads(line) for line in dst.read_text().splitlines()]
    if fixture:
        fixture.write_text("".join(json.dumps(row) + "\n" for row in rows))
    bad = 0
    for pid, a, b, theirs in rows:
        ours = sorted(format_play(p) for p in legal_plays(position_from_id(pid), (a, b)))
        if ours == [""]:
            ours = []
        if ours != theirs:
            bad += 1
            if bad <= 10:
                print(f"{pid} {a}-{b}\n  gnubg: {theirs}\n  ours:  {ours}")
    print(f"{len(rows)} position-rolls compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
