"""Benchmarks that print their figures (never timed unit tests). Run them with ``python -m bench``."""
