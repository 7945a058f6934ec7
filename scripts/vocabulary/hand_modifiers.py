"""Hand edits of the modifier data (issue 8, fifth round), run after the fourth round's two commands (README).

* Drops the mechanical non-words the first round's inflection of multi-word phrases wrote ("en morceause", "pur
  juses", "in scaglii", Italian "secci"/"secce" for secchi/secche): they matched no text, but they are no words.
* Adds two small families from general sources: salt iodisation, a fortification process like "enriched" (the
  dictionaries' forms of iodised/iodé/jodiert/yodado/iodato), and the certification words of the RSPO supply-chain
  models for palm oil (Identity Preserved, Segregated, Mass Balance). None names an allergen, a negation or a number;
  the ontology drops on load any modifier that would.

Usage: ``python scripts/vocabulary/hand_modifiers.py`` (rewrites ``m_modifiers.jsonl`` in place; idempotent).
"""

from __future__ import annotations

import json
from pathlib import Path

PATH = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "ingredients" / "m_modifiers.jsonl"

BOGUS = {
    "fr": {"en morceause", "en morceauses", "en dése", "en déss", "en déses", "en tranchese", "en tranchess",
           "en trancheses", "en lamellese", "en lamelless", "en lamelleses", "en floconse", "en floconss",
           "en floconses", "pur juse", "pur juss", "pur juses"},
    "es": {"en rodajases", "en polva", "en polvas", "en trozoses", "en dadoses", "en láminases", "en coposes",
           "en conservaes"},
    "it": {"in scaglii", "in purei", "a fetti", "secci", "secce"},
}  # fmt: skip

ADD = {
    "modifier_processing": {
        "en": ["iodised", "iodized"],
        "fr": ["iodé", "iodée", "iodés", "iodées"],
        "de": ["jodiert", "jodierte", "jodierter", "jodiertes", "jodierten", "jodiertem"],
        "es": ["yodado", "yodada", "yodados", "yodadas"],
        "it": ["iodato", "iodata", "iodati", "iodate"],
    },
    "modifier_quality": {
        "en": ["rspo", "rspo certified", "rspo certified sustainable", "certified sustainable", "mass balance",
               "rspo mass balance", "segregated", "rspo segregated", "identity preserved"],
    },
}  # fmt: skip


def main() -> None:
    entries = [json.loads(line) for line in PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    for entry in entries:
        names = entry["names"]
        for lang, bogus in BOGUS.items():
            if lang in names:
                names[lang] = [n for n in names[lang] if n not in bogus]
        for lang, words in ADD.get(entry["id"], {}).items():
            have = names.setdefault(lang, [])
            have.extend(w for w in words if w not in have)
    PATH.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")


if __name__ == "__main__":
    main()
