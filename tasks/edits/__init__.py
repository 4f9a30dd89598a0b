"""Sentence perturbations that turn a faithful hypothesis into a hallucinated one."""
