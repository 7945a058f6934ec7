"""The bundled sample dataset (invented, not Yelp data): 10 restaurants, 60 reviews, a friend graph, 8 requests.

``sample_dir()`` returns the directory holding ``restaurants.jsonl``, ``reviews.jsonl``, ``social.json`` and
``requests.jsonl``; it works from a source checkout and from an installed wheel.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def sample_dir() -> Path:
    """Directory of the bundled sample dataset."""
    return Path(str(files("dinecheck.sample")))


__all__ = ["sample_dir"]
