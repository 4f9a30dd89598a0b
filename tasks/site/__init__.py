"""The static report site (data/site/): dataset counts, examples with their edits, detector errors, CHARP."""
