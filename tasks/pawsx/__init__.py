"""PAWS-X: reading the x-final TSV files and building the tense/negation translation examples."""
