"""Hallucination detectors behind one interface (tasks.detectors.base.Detector): NLI zero-shot, LLM
prompts, semantic similarity, consistency rules, a trained cross-encoder and majority votes."""
