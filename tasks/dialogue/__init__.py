"""Knowledge-grounded dialogue datasets in one turn schema (tasks/schemas.py DIALOGUE_TURN)."""
