"""Running the pipeline: the shared local Prefect server and the per-stage time table."""
