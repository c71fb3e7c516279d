"""`make bench`: print the benchmark table (name, value)."""

from __future__ import annotations

from bench import analysis, engine, floor, render, stats, store, web


def main() -> None:
    """Run every benchmark and print one table."""
    rows = (engine.run() + store.run() + render.run() + floor.run() + stats.run()
            + web.run() + analysis.run())
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
