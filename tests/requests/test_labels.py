"""Plain-words labels of attribute paths."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.requests.labels import attribute_label, words


@pytest.mark.parametrize(("path", "label"), [
    (["WiFi"], "Wi-Fi"),
    (["attributes", "WiFi"], "Wi-Fi"),
    (["Ambience", "hipster"], "Hipster ambience"),
    (["attributes", "Ambience", "hipster"], "Hipster ambience"),
    (["GoodForMeal", "latenight"], "Good for late night"),
    (["BusinessParking", "street"], "Street parking"),
    (["Music", "live"], "Live music"),
    (["Music", "dj"], "DJ music"),
    (["RestaurantsPriceRange2"], "Price range"),
    (["HasTV"], "Has TV"),
    (["RestaurantsFooBar"], "Foo bar"),   # unknown key: CamelCase words, "Restaurants" prefix dropped
    (["SomeNewThing", "sub_key"], "Sub key some new thing"),
    (["attributes"], "Attributes"),
])
def test_attribute_label(path: list[str], label: str) -> None:
    assert attribute_label(path) == label


def test_words_splits_camel_snake_and_acronyms() -> None:
    assert words("GoodForKids") == "good for kids"
    assert words("BYOBCorkage") == "BYOB corkage"
    assert words("late_night") == "late night"
    assert words("HasTV") == "has TV"


@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4))
def test_label_is_never_empty_for_any_path(path: list[str]) -> None:
    label = attribute_label(path)
    assert isinstance(label, str)
    if path != ["attributes"] and any(ch.isalnum() for ch in "".join(path)):
        assert label.strip()
