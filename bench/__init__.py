"""Benchmarks (`make bench`): measured numbers, never run as tests."""
