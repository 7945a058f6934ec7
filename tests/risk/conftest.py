"""Shared fixtures of the risk tests: one vocabulary over the shipped ontology, the mini dataset of this directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinecheck.allergens.ontology import load_data_dir
from dinecheck.risk.vocabulary import Vocabulary

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "risk_mini"


@pytest.fixture(scope="session")
def vocab() -> Vocabulary:
    return Vocabulary(load_data_dir())


@pytest.fixture(scope="session")
def mini() -> Path:
    """Six restaurants written for these tests (reviews + replay labels + one request)."""
    return MINI
