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


# Phrases for a request's natural text ("Looking for a cafe that's kid-friendly, with free Wi-Fi, …"): the meaning of
# each Yelp attribute value as the Yelp site words it.
_BOOL_PHRASES = MappingProxyType({
    "GoodForKids": ("kid-friendly", "not aimed at kids"),
    "HasTV": ("with TVs", "without TVs"),
    "DriveThru": ("with a drive-thru", "without a drive-thru"),
    "OutdoorSeating": ("with outdoor seating", "indoor-only"),
    "RestaurantsTakeOut": ("that offers takeout", "dine-in only"),
    "RestaurantsDelivery": ("that delivers", "that doesn't deliver"),
    "RestaurantsReservations": ("that takes reservations", "walk-in only"),
    "RestaurantsGoodForGroups": ("good for groups", "not geared to groups"),
    "RestaurantsTableService": ("with table service", "without table service"),
    "BikeParking": ("with bike parking", "without bike parking"),
    "BusinessAcceptsCreditCards": ("that accepts credit cards", "cash-only"),
    "BusinessAcceptsBitcoin": ("that accepts Bitcoin", "that doesn't take Bitcoin"),
    "WheelchairAccessible": ("wheelchair accessible", "not wheelchair accessible"),
    "DogsAllowed": ("dog-friendly", "without dogs"),
    "CoatCheck": ("with coat check", "without coat check"),
    "HappyHour": ("with a happy hour", "without a happy hour"),
    "BYOB": ("that's BYOB", "that isn't BYOB"),
    "Caters": ("that caters", "that doesn't cater"),
    "GoodForDancing": ("good for dancing", "not for dancing"),
    "ByAppointmentOnly": ("by appointment only", "open to walk-ins"),
    "Corkage": ("that charges corkage", "without a corkage fee"),
    "Open24Hours": ("open 24 hours", "not open around the clock"),
})
_TEXT_PHRASES = MappingProxyType({
    ("WiFi", "free"): "with free Wi-Fi",
    ("WiFi", "no"): "without Wi-Fi",
    ("WiFi", "paid"): "with paid Wi-Fi",
    ("NoiseLevel", "quiet"): "quiet",
    ("NoiseLevel", "average"): "with a moderate noise level",
    ("NoiseLevel", "loud"): "lively",
    ("NoiseLevel", "very_loud"): "very loud",
    ("Alcohol", "full_bar"): "with a full bar",
    ("Alcohol", "beer_and_wine"): "serving beer and wine",
    ("Alcohol", "none"): "without alcohol",
    ("RestaurantsPriceRange2", "1"): "budget-friendly",
    ("RestaurantsPriceRange2", "2"): "mid-priced",
    ("RestaurantsPriceRange2", "3"): "pricey",
    ("RestaurantsPriceRange2", "4"): "high-end",
    ("RestaurantsAttire", "casual"): "with a casual dress code",
    ("RestaurantsAttire", "dressy"): "with a dressy dress code",
    ("RestaurantsAttire", "formal"): "with a formal dress code",
    ("Smoking", "no"): "non-smoking",
    ("Smoking", "outdoor"): "with smoking outdoors",
    ("Smoking", "yes"): "where smoking is allowed",
    ("BYOBCorkage", "yes_free"): "with free corkage for your own bottle",
    ("BYOBCorkage", "yes_corkage"): "that charges corkage for your own bottle",
    ("BYOBCorkage", "no"): "that doesn't allow your own bottle",
    ("AgesAllowed", "21plus"): "for ages 21 and up",
    ("AgesAllowed", "allages"): "open to all ages",
})
_NESTED_PHRASES = MappingProxyType({
    "Ambience": "with a {sub} ambience",
    "GoodForMeal": "good for {sub}",
    "BusinessParking": "with {sub} parking",
    "Music": "with {sub} music",
    "BestNights": "best on {sub}s",
    "DietaryRestrictions": "with {sub} options",
})


def attribute_phrase(path: Sequence[str], value: object) -> str:
    """How a request's text says "attribute at ``path`` has ``value``" (a decoded value: bool, text, number).

    ``attribute_phrase(["WiFi"], "free")`` → "with free Wi-Fi"; ``(["Ambience", "hipster"], True)`` → "with a hipster
    ambience"; unknown attributes read "where <label> is <value>"."""
    keys = list(path[1:] if path and path[0] == "attributes" else path)
    label = attribute_label(keys)
    if len(keys) == 2 and keys[0] in _NESTED_PHRASES and value is True:
        sub = words(keys[1])
        return _NESTED_PHRASES[keys[0]].format(sub=sub.capitalize() if keys[0] == "BestNights" else sub)
    if len(keys) == 1 and isinstance(value, bool) and keys[0] in _BOOL_PHRASES:
        return _BOOL_PHRASES[keys[0]][0 if value else 1]
    if len(keys) == 1 and isinstance(value, str) and (keys[0], value.lower()) in _TEXT_PHRASES:
        return _TEXT_PHRASES[(keys[0], value.lower())]
    if isinstance(value, bool):
        return f"where {label.lower()} is {'yes' if value else 'no'}"
    shown = words(value) if isinstance(value, str) else str(value)
    return f"where {label.lower()} is {shown}"
