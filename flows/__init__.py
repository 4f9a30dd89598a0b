"""Prefect flows, one per DVC stage: orchestration only."""
