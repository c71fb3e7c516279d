"""The README's reference images: `python -m bot.render.reference DIR` writes them into DIR
(docs/images): the boards and the sheet, and the same drawn for players whose names are in
other scripts."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.render.board import render_board, sample_board
from bot.render.cubes import Roles
from bot.render.samples import NEXT_ROLES, long_sheet, sample_sheet, world
from bot.render.sheet import render_sheet
from rules.board import Position


def write(folder: Path) -> list[Path]:
    """Write the reference images into `folder`; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    sheet, _, roles = sample_sheet()
    long, long_order, long_roles = long_sheet()
    images = {
        "board-opening.png": render_board(Position.initial(), dice=(6, 3),
                                          roles=Roles("Bo", "Ann", "Pat")),
        "board-midgame.png": sample_board(),
        "score-sheet.png": render_sheet(sheet, ("Dee", "Eve", "Ann", "Bob", "Cy"), roles=roles,
                                         next_roles=NEXT_ROLES,
                                         title="Score sheet · $5 a point"),
        "board-names.png": sample_board(shown=world),
        "score-sheet-names.png": render_sheet(long, long_order, roles=long_roles,
                                               shown=world, title="Score sheet · €5 a point"),
    }
    paths = []
    for name, data in images.items():
        path = folder / name
        path.write_bytes(data)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(written)
