"""Evaluation sets, metrics (scikit-learn), reports and the nightly regression check."""
