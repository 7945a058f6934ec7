"""The extraction prompt and its answer schema, built only from the seed's fields plus each review's text and metadata.

Nothing task-specific lives here: the field names, every enum value with its description, the review text and a fixed
selection of metadata (:data:`PROMPT_META_KEYS`) are the whole prompt. :data:`PROMPT_VERSION` names the wording; it is
part of every cache key, so changing the wording or the answer format MUST bump it.

The model answers one JSON object ``{"reviews": [{"review_id", <field>: <value>, …, "evidence": {<field>: <quote>}}]}``
whatever the batch size, so answers are always keyed by review id. :func:`answer_schema` is the JSON Schema of that
object (enum values included) for ``response_format={"type": "json_schema"}``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from dinecheck.extract.base import FieldSpec, ReviewInput

PROMPT_VERSION = "extract-v2"

#: The review metadata shown to the model (only these keys, only scalar values). Kept fixed so that every caller (``seed
#: run``, ``seed extract``) builds the same prompt — and hits the same cache entries — for the same review.
PROMPT_META_KEYS: tuple[str, ...] = ("stars", "date")

_SYSTEM = (
    "You label restaurant reviews. For every review you are given, choose exactly one value for every field, "
    "using only the allowed values and their meanings. Base every choice on what the review itself says. "
    "For each field whose value is not its \"nothing here\" value (marked below), copy a short verbatim quote (at most "
    "25 words) from the review text that supports the value into \"evidence\"; use an empty string for fields whose "
    "value is the \"nothing here\" one. "
    "Answer with one JSON object and nothing else."
)


def fields_fingerprint(fields: Sequence[FieldSpec]) -> str:
    """A stable hash of the field names, value names and descriptions (part of every cache key)."""
    canon = json.dumps([f.model_dump(mode="json") for f in fields], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def prompt_meta(review: ReviewInput) -> dict[str, Any]:
    """The metadata of ``review`` that the prompt shows (scalar values of :data:`PROMPT_META_KEYS` only)."""
    out: dict[str, Any] = {}
    for key in PROMPT_META_KEYS:
        value = review.meta.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            out[key] = value
    return out


def review_cache_key(model: str, fields: Sequence[FieldSpec], review: ReviewInput) -> str:
    """The cache key of one review: model, prompt version, field schema, review text and the metadata shown."""
    payload = json.dumps(
        {
            "model": model,
            "prompt_version": PROMPT_VERSION,
            "fields": fields_fingerprint(fields),
            "text": review.text,
            "meta": prompt_meta(review),
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def describe_fields(fields: Sequence[FieldSpec]) -> str:
    """The fields as prompt text: one block per field, one line per allowed value with its meaning."""
    blocks = []
    for f in fields:
        lines = [f"Field \"{f.name}\" — allowed values:"]
        null = f.null_value
        lines += [
            f"  - \"{value}\": {desc}" + (" [the \"nothing here\" value]" if value == null else "")
            for value, desc in f.values.items()
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _reviews_json(reviews: Sequence[ReviewInput]) -> str:
    items = [{"review_id": r.review_id, "metadata": prompt_meta(r), "text": r.text} for r in reviews]
    return json.dumps(items, ensure_ascii=False, indent=1)


def _answer_shape(fields: Sequence[FieldSpec]) -> str:
    example = {"review_id": "<id>"}
    example.update({f.name: "<one allowed value>" for f in fields})
    example["evidence"] = {f.name: "<verbatim quote or empty string>" for f in fields}  # type: ignore[assignment]
    return json.dumps({"reviews": [example]}, ensure_ascii=False)


def extraction_messages(fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[dict[str, str]]:
    """The chat messages asking for labels of ``reviews`` (one entry per review id in the answer)."""
    user = (
        f"{describe_fields(fields)}\n\n"
        f"Reviews ({len(reviews)}), as JSON:\n{_reviews_json(reviews)}\n\n"
        f"Answer with exactly one entry per review id, in this shape:\n{_answer_shape(fields)}"
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def repair_messages(
    original: Sequence[dict[str, str]], bad_answer: str, problems: Sequence[str], review_ids: Sequence[str]
) -> list[dict[str, str]]:
    """The follow-up conversation after an invalid answer: the problems found, and the review ids to answer again."""
    ids = ", ".join(json.dumps({"review_id": rid}) for rid in review_ids)
    listed = "\n".join(f"- {p}" for p in problems[:20])
    user = (
        "Your answer could not be used:\n"
        f"{listed}\n\n"
        f"Answer again, in the same JSON shape, for these reviews only: {ids}. "
        "Use only the allowed values, give every field, and quote the review verbatim."
    )
    return [*original, {"role": "assistant", "content": bad_answer[:4000]}, {"role": "user", "content": user}]


def answer_schema(fields: Sequence[FieldSpec], review_ids: Sequence[str]) -> dict[str, Any]:
    """JSON Schema of the answer object; field values are enums and review ids are limited to the ones asked for."""
    entry_props: dict[str, Any] = {"review_id": {"type": "string", "enum": list(review_ids)}}
    for f in fields:
        entry_props[f.name] = {"type": "string", "enum": list(f.values)}
    entry_props["evidence"] = {
        "type": "object",
        "properties": {f.name: {"type": "string"} for f in fields},
        "required": [f.name for f in fields],
        "additionalProperties": False,
    }
    entry = {
        "type": "object",
        "properties": entry_props,
        "required": list(entry_props),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"reviews": {"type": "array", "items": entry}},
        "required": ["reviews"],
        "additionalProperties": False,
    }
