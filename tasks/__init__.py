"""Plain functions and Prefect tasks of the pipeline, grouped by domain."""
