"""HalluciGen datasets (CLEF-2024 ELOQUENT, overview §2): translation and paraphrase."""
