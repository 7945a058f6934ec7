"""Extraction: label reviews with enum fields (replay, offline rules, or a language model), behind one protocol."""

from dinecheck.extract.base import (
    Evidence,
    ExtractionResult,
    ExtractionStats,
    Extractor,
    FieldSpec,
    ReviewInput,
)

__all__ = ["Evidence", "ExtractionResult", "ExtractionStats", "Extractor", "FieldSpec", "ReviewInput"]
