"""The pipeline's own wiring: which project modules and data files each stage's flow uses."""
