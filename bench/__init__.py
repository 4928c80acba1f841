"""The benchmark ("How fast and how big"): ``python -m bench``."""
