"""Arrow schemas of the pipeline's tabular artifacts: the one place each schema is defined."""
import pyarrow as pa

# PAWS-X tense/negation edits, generation view: one row per example.
EDIT_EXAMPLE = pa.schema([
    ("id", pa.string()),
    ("langpair", pa.string()),
    ("source", pa.string()),
    ("hyp_good", pa.string()),
    ("hyp_bad", pa.string()),
    ("type", pa.string()),
    ("edit_from", pa.string()),
    ("edit_to", pa.string()),
    ("edit_start", pa.int32()),
    ("edit_detail", pa.string()),
    ("pawsx_lang", pa.string()),
    ("pawsx_split", pa.string()),
    ("pawsx_id", pa.string()),
])

# Detection view: which of hyp1/hyp2 is hallucinated (label), as in the published HalluciGen files.
DETECTION_EXAMPLE = pa.schema([
    ("id", pa.string()),
    ("langpair", pa.string()),
    ("source", pa.string()),
    ("hyp1", pa.string()),
    ("hyp2", pa.string()),
    ("type", pa.string()),
    ("label", pa.string()),
])

# Every input row that did not become an example, with where it came from and why.
REJECT = pa.schema([
    ("file", pa.string()),
    ("line", pa.int32()),
    ("pawsx_id", pa.string()),
    ("langpair", pa.string()),
    ("type", pa.string()),
    ("reason", pa.string()),
])
