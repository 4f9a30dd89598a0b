"""CHARP experiments (CHARP paper §3, §5, §6, Appendices B-C): response generators trained on dialogue
turns with history truncated to h turns, generation, automatic metrics, the seven-category judge and
human-evaluation sheets."""
