"""Paths of the project and of the test fixtures, the same from every folder of tests/ (a test file's own
`Path(__file__).parent` depends on how deep it sits)."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
