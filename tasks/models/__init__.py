"""Model clients: a local transformers chat model and any OpenAI-compatible HTTP endpoint."""
