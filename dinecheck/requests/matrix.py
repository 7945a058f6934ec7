"""The condition matrix of a request set: every request's conditions (by aspect) × every restaurant → +1 / 0 / −1.

The JSON form follows the benchmark's reference ``condition_matrix.json`` (request_structure.md, "Related Files"):
``conditions`` (name → ``type``, ``definition``, ``satisfying_restaurants`` (indices), ``count``), ``restaurants``
(index → ``name``, ``business_id``, ``satisfying_conditions``), ``unique_conditions`` (count 1) and
``rare_conditions`` (count 1–3, rarest first). dinecheck adds, per condition, ``values`` (one per restaurant in dataset
order), ``counts`` of each value and the ``requests`` (id + JSON pointer) that use it.

A condition's name is its aspect; when the same aspect is used with different evidence, later ones are named
``aspect#2``, ``aspect#3``, … . Identical aspect + evidence in several requests is one condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dinecheck.dataset import Dataset
from dinecheck.requests.evaluate import Engine, evidence_key
from dinecheck.requests.schema import Condition, Request, conditions

RARE_MAX = 3
"""A condition is *rare* when 1 to RARE_MAX restaurants satisfy it."""


@dataclass(frozen=True)
class MatrixCondition:
    """One named condition, its evidence, where requests use it, and its value for every restaurant."""

    name: str
    aspect: str
    kind: str
    definition: dict[str, Any]
    uses: tuple[tuple[str, str], ...]
    values: tuple[int, ...]

    @property
    def satisfying(self) -> tuple[int, ...]:
        """Indices of the restaurants for which the condition is +1."""
        return tuple(i for i, v in enumerate(self.values) if v == 1)

    @property
    def count(self) -> int:
        return sum(1 for v in self.values if v == 1)

    def counts(self) -> dict[str, int]:
        return {"+1": self.values.count(1), "0": self.values.count(0), "-1": self.values.count(-1)}


@dataclass(frozen=True)
class ConditionMatrix:
    """Conditions × restaurants of one dataset and request set."""

    restaurants: tuple[tuple[str, str], ...]  # (business_id, name) in dataset order
    conditions: tuple[MatrixCondition, ...]

    def unique_conditions(self) -> list[str]:
        return sorted(c.name for c in self.conditions if c.count == 1)

    def rare_conditions(self) -> list[str]:
        rare = [c for c in self.conditions if 1 <= c.count <= RARE_MAX]
        return [c.name for c in sorted(rare, key=lambda c: (c.count, c.name))]

    def to_json(self) -> dict[str, Any]:
        per_restaurant: list[list[str]] = [[] for _ in self.restaurants]
        for c in self.conditions:
            for i in c.satisfying:
                per_restaurant[i].append(c.name)
        return {
            "conditions": {
                c.name: {"type": c.kind, "aspect": c.aspect, "definition": c.definition,
                         "satisfying_restaurants": list(c.satisfying), "count": c.count, "counts": c.counts(),
                         "values": list(c.values),
                         "requests": [{"request_id": rid, "pointer": ptr} for rid, ptr in c.uses]}
                for c in self.conditions
            },
            "restaurants": {
                str(i): {"name": name, "business_id": bid, "satisfying_conditions": per_restaurant[i]}
                for i, (bid, name) in enumerate(self.restaurants)
            },
            "unique_conditions": self.unique_conditions(),
            "rare_conditions": self.rare_conditions(),
        }


def build_matrix(dataset: Dataset, requests: list[Request], engine: Engine | None = None) -> ConditionMatrix:
    """Evaluate every distinct condition of ``requests`` against every restaurant of ``dataset``."""
    engine = engine or Engine(dataset)
    names: dict[tuple[str, str], str] = {}        # (aspect, evidence key) -> name
    per_aspect: dict[str, int] = {}
    order: list[tuple[str, str, Condition]] = []  # one representative occurrence per name
    uses: dict[str, list[tuple[str, str]]] = {}
    for req in requests:
        for ptr, cond in conditions(req.structure):
            ident = (cond.aspect, evidence_key(cond))
            name = names.get(ident)
            if name is None:
                n = per_aspect.get(cond.aspect, 0) + 1
                per_aspect[cond.aspect] = n
                name = cond.aspect if n == 1 else f"{cond.aspect}#{n}"
                names[ident] = name
                order.append((req.id, ptr, cond))
                uses[name] = []
            uses[name].append((req.id, ptr))
    values = engine.condition_values(order)
    conds = []
    for (_rid, _ptr, cond), vals, name in zip(order, values, uses, strict=True):
        conds.append(MatrixCondition(
            name=name, aspect=cond.aspect, kind=cond.evidence.kind,
            definition=cond.evidence.model_dump(mode="json", exclude_none=True),
            uses=tuple(uses[name]), values=vals,
        ))
    return ConditionMatrix(tuple((r.business_id, r.name) for r in dataset.restaurants), tuple(conds))
