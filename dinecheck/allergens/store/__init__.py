"""The allergen ontology store: SQLite (default) or PostgreSQL behind one repository interface.

``open_store(url)`` opens, migrates and seeds a store; ``store.ontology()`` returns the cached in-memory ontology.
See :mod:`dinecheck.allergens.store.base` for the interface and the accepted URLs.
"""

from dinecheck.allergens.store.base import (
    BulkAddResult,
    OntologyStore,
    SkippedSynonym,
    StoreStats,
    SynonymInput,
    open_store,
)

__all__ = ["BulkAddResult", "OntologyStore", "SkippedSynonym", "StoreStats", "SynonymInput", "open_store"]
