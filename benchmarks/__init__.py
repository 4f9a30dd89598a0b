"""Benchmarks: scripts that print figures (speed targets live here, not in tests)."""
