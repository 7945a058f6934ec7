"""Plain-words labels for Yelp attribute paths (``WiFi`` → "Wi-Fi", ``Ambience.hipster`` → "Hipster ambience").

The wording of known attributes follows the names Yelp shows on a business page (the Yelp Open Dataset documents the
attribute keys, e.g. ``RestaurantsTakeOut`` is "Takes reservations"/"Offers takeout" on the site); unknown keys fall
back to their CamelCase / snake_case words in sentence case. Pure functions over constant tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

_TOP = MappingProxyType({
    "AgesAllowed": "Ages allowed",
    "Alcohol": "Alcohol",
    "Ambience": "Ambience",
    "BYOB": "Bring your own bottle (BYOB)",
    "BYOBCorkage": "BYOB corkage",
    "BestNights": "Best nights",
    "BikeParking": "Bike parking",
    "BusinessAcceptsBitcoin": "Accepts Bitcoin",
    "BusinessAcceptsCreditCards": "Accepts credit cards",
    "BusinessParking": "Parking",
    "ByAppointmentOnly": "By appointment only",
    "Caters": "Offers catering",
    "CoatCheck": "Coat check",
    "Corkage": "Corkage fee",
    "DietaryRestrictions": "Dietary restrictions",
    "DogsAllowed": "Dogs allowed",
    "DriveThru": "Drive-thru",
    "GoodForDancing": "Good for dancing",
    "GoodForKids": "Good for kids",
    "GoodForMeal": "Good for meal",
    "HappyHour": "Happy hour",
    "HasTV": "Has TV",
    "Music": "Music",
    "NoiseLevel": "Noise level",
    "Open24Hours": "Open 24 hours",
    "OutdoorSeating": "Outdoor seating",
    "RestaurantsAttire": "Attire",
    "RestaurantsCounterService": "Counter service",
    "RestaurantsDelivery": "Offers delivery",
    "RestaurantsGoodForGroups": "Good for groups",
    "RestaurantsPriceRange2": "Price range",
    "RestaurantsReservations": "Takes reservations",
    "RestaurantsTableService": "Table service",
    "RestaurantsTakeOut": "Offers takeout",
    "Smoking": "Smoking",
    "WheelchairAccessible": "Wheelchair accessible",
    "WiFi": "Wi-Fi",
})

# How a sub-key of a dict-valued attribute reads: "{sub} {noun}" unless listed in _NESTED_FORM.
_NESTED_NOUN = MappingProxyType({
    "Ambience": "ambience",
    "BusinessParking": "parking",
    "Music": "music",
    "DietaryRestrictions": "options",
})
_NESTED_FORM = MappingProxyType({
    "GoodForMeal": "Good for {sub}",
    "BestNights": "Best night: {sub}",
})
_SUB_WORDS = MappingProxyType({
    "latenight": "late night",
    "dj": "DJ",
    "no_music": "no",
    "background_music": "background",
    "validated": "validated",
    "dairy-free": "dairy-free",
    "gluten-free": "gluten-free",
})

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(key: str) -> str:
    """``GoodForKids`` → "good for kids", ``late_night`` → "late night" (lower-case words)."""
    if key in _SUB_WORDS:
        return _SUB_WORDS[key]
    parts: list[str] = []
    for chunk in re.split(r"[_\s]+", key):
        parts += [p if p.isupper() and len(p) > 1 else p.lower() for p in _CAMEL.findall(chunk)] or [chunk]
    return " ".join(p for p in parts if p)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def attribute_label(path: Sequence[str]) -> str:
    """The label of an attribute path relative to ``attributes`` (``["Ambience", "hipster"]``); a leading
    ``"attributes"`` is ignored."""
    keys = list(path[1:] if path and path[0] == "attributes" else path)
    if not keys:
        return "Attributes"
    top = keys[0]
    top_label = _TOP.get(top) or _sentence(words(top.removeprefix("Restaurants") or top))
    if len(keys) == 1:
        return top_label
    sub = words(keys[-1])
    if len(keys) == 2 and top in _NESTED_FORM:
        return _NESTED_FORM[top].format(sub=sub)
    noun = _NESTED_NOUN.get(top, top_label.lower())
    return _sentence(f"{sub} {noun}")
