"""The benchmark of issue 6 ("How fast and how big"): ``python -m bench``."""
