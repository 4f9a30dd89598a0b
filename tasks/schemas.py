"""Arrow schemas of the pipeline's tabular artifacts: the one place each schema is defined."""
import pyarrow as pa

# Columns every generation view shares: the example and the edit that made hyp_bad (null for model output).
EXAMPLE_COLUMNS = [
    ("source", pa.string()),
    ("hyp_good", pa.string()),
    ("hyp_bad", pa.string()),
    ("type", pa.string()),
    ("edit_from", pa.string()),
    ("edit_to", pa.string()),
    ("edit_start", pa.int32()),
    ("edit_detail", pa.string()),
]
# Columns every detection view shares: label names the hallucinated hypothesis.
DETECTION_COLUMNS = [
    ("source", pa.string()),
    ("hyp1", pa.string()),
    ("hyp2", pa.string()),
    ("type", pa.string()),
    ("label", pa.string()),
]

# PAWS-X tense/negation edits, generation view: one row per example.
EDIT_EXAMPLE = pa.schema([
    ("id", pa.string()),
    ("langpair", pa.string()),
    *EXAMPLE_COLUMNS,
    ("pawsx_lang", pa.string()),
    ("pawsx_split", pa.string()),
    ("pawsx_id", pa.string()),
])

# Detection view: which of hyp1/hyp2 is hallucinated (label), as in the published HalluciGen files.
DETECTION_EXAMPLE = pa.schema([
    ("id", pa.string()),
    ("langpair", pa.string()),
    *DETECTION_COLUMNS,
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

# One knowledge-grounded dialogue turn (CHARP datasets, DSTC11, BEGIN). history: oldest first, the
# seeker's last turn last; speakers are "seeker" and "wizard". Label fields are null where a dataset
# has none: begin/vrm (FaithDial annotations), fine_label + faithful (BEGIN critic labels).
SPEAKER_TURN = pa.struct([("speaker", pa.string()), ("text", pa.string())])
DIALOGUE_TURN = pa.schema([
    ("id", pa.string()),
    ("split", pa.string()),
    ("dialogue_id", pa.string()),
    ("history", pa.list_(SPEAKER_TURN)),
    ("knowledge", pa.string()),
    ("response", pa.string()),
    ("original_response", pa.string()),
    ("begin", pa.list_(pa.string())),
    ("vrm", pa.list_(pa.string())),
    ("fine_label", pa.string()),
    ("faithful", pa.bool_()),
    ("provenance", pa.struct([("source", pa.string()), ("file", pa.string()), ("index", pa.int64())])),
])

# Dialogue rows that were read but not kept, with the reason.
DIALOGUE_REJECT = pa.schema([
    ("source", pa.string()),
    ("file", pa.string()),
    ("index", pa.int64()),
    ("reason", pa.string()),
])

# HalluciGen datasets (translation and paraphrase), generation view: one row per example.
# langpair is the direction ("fr-en") for translation and the language ("en", "sv") for paraphrase.
HALLUCIGEN_GENERATION = pa.schema([
    ("id", pa.string()),
    ("scenario", pa.string()),
    ("langpair", pa.string()),
    ("split", pa.string()),
    *EXAMPLE_COLUMNS,
    ("origin", pa.string()),
    ("hyp_good_origin", pa.string()),
])

# HalluciGen detection view (built and published): label names the hallucinated hypothesis; null
# for the published test files, which have no gold label.
HALLUCIGEN_DETECTION = pa.schema([
    ("id", pa.string()),
    ("scenario", pa.string()),
    ("langpair", pa.string()),
    ("split", pa.string()),
    *DETECTION_COLUMNS,
])

# One detector's output on one evaluation example. Pair sets: gold and prediction are "hyp1"/"hyp2"
# (prediction null: no usable answer), score_1/score_2 the hallucination scores of hyp1/hyp2 where the
# detector has scores. Binary sets: gold "hallucinated"/"faithful", score_1 the score, prediction null
# (the score is thresholded when scoring). answer: the raw model output of prompt detectors.
# p_hallucination: the annotators' share voting Hallucination where the set has it (SHROOM), else null.
DETECTOR_OUTPUT = pa.schema([
    ("eval_set", pa.string()),
    ("id", pa.string()),
    ("langpair", pa.string()),
    ("type", pa.string()),
    ("detector", pa.string()),
    ("gold", pa.string()),
    ("prediction", pa.string()),
    ("score_1", pa.float64()),
    ("score_2", pa.float64()),
    ("answer", pa.string()),
    ("p_hallucination", pa.float64()),
])

# One generated response of a CHARP grid cell: the turn id (a DIALOGUE_TURN id), the system, the history
# the system was trained with (none: few-shot) and evaluated with.
CHARP_PREDICTION = pa.schema([
    ("id", pa.string()),
    ("system", pa.string()),
    ("train_h", pa.string()),
    ("eval_h", pa.string()),
    ("prediction", pa.string()),
])
