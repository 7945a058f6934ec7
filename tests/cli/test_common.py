"""Shared CLI plumbing: naming restaurants by business id or unique name."""

from __future__ import annotations

import pytest

from dinecheck.cli.common import select_restaurants
from dinecheck.dataset import load_dataset
from dinecheck.errors import DataError
from dinecheck.sample import sample_dir


def test_select_by_ids_and_names_in_order_once_each() -> None:
    ds, _ = load_dataset(sample_dir())
    a, b = ds.restaurants[0], ds.restaurants[1]
    got = select_restaurants(ds, [b.name, a.business_id, b.business_id], sample_dir())
    assert [r.business_id for r in got] == [b.business_id, a.business_id]
    assert select_restaurants(ds, None, sample_dir()) == list(ds.restaurants)
    with pytest.raises(DataError) as exc:
        select_restaurants(ds, ["nope"], sample_dir())
    assert str(exc.value) == f"--restaurant nope: no restaurant with business_id 'nope' in {sample_dir()}"
