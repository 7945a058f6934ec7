"""Allergy evidence per restaurant × allergen from reviews: ontology-generated vocabulary, one extraction per review,
menu exposure, evidence levels and summaries, and the incremental results store.

Public API::

    from dinecheck.risk import build_evidence, open_risk_store
    with open_risk_store(url) as store:                       # SQLite default, PostgreSQL by URL
        index, report = build_evidence(dataset, extractor, codes=("PEANUT", "MILK"), store=store)
    store.evidence([business_id], ["PEANUT"])                 # business_id -> code -> AllergenEvidence

Modules: ``vocabulary`` (names per allergen, whole-word scan), ``evidence`` (levels, summaries, score), ``build``
(orchestration, incremental extraction), ``store`` (results store).
"""

from dinecheck.risk.build import BuildReport, EvidenceIndex, build_evidence
from dinecheck.risk.evidence import LEVELS, AllergenEvidence, Incident, Quote, RiskScore
from dinecheck.risk.store import RiskStore, open_risk_store
from dinecheck.risk.vocabulary import Vocabulary

__all__ = [
    "LEVELS",
    "AllergenEvidence",
    "BuildReport",
    "EvidenceIndex",
    "Incident",
    "Quote",
    "RiskScore",
    "RiskStore",
    "Vocabulary",
    "build_evidence",
    "open_risk_store",
]
