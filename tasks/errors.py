"""Errors that stop a stage with a one-line message for the researcher."""


class PipelineError(Exception):
    """A stage cannot go on; the message says why and what to do."""


class ChecksumError(PipelineError):
    """A fetched file's sha256 differs from the registry or lock file."""


class MissingFileError(PipelineError):
    """A file the registry names is missing from the mirror or upstream."""


class SourceUnavailable(PipelineError):
    """A source switched on in params cannot be reached."""


class InputError(PipelineError):
    """An input file is unusable as a whole (missing header, unreadable)."""


class ParamsError(PipelineError):
    """A params.yaml value is missing, unknown or out of range; the message names the key."""
