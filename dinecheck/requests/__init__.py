"""Structured restaurant requests: schema, shorthand, evaluation with explanations, and validation statuses."""

from dinecheck.requests.catalog import Catalog, build_catalog
from dinecheck.requests.evaluate import Engine, NodeResult, RankedRestaurant
from dinecheck.requests.evidence import ConditionOutcome
from dinecheck.requests.load import load_groundtruth, load_request, load_requests
from dinecheck.requests.schema import Condition, OperatorNode, Request, parse_request, request_json_schema
from dinecheck.requests.validate import STATUSES, RequestValidation, status_of, validate_requests

__all__ = [
    "STATUSES",
    "Catalog",
    "Condition",
    "ConditionOutcome",
    "Engine",
    "NodeResult",
    "OperatorNode",
    "RankedRestaurant",
    "Request",
    "RequestValidation",
    "build_catalog",
    "load_groundtruth",
    "load_request",
    "load_requests",
    "parse_request",
    "request_json_schema",
    "status_of",
    "validate_requests",
]
