"""Write a dataset replicated N times (restaurant and review ids suffixed ``~k``) for scaling benchmarks.

    python bench/make_replicated_dataset.py --src ../shared/data/philly_cafes --factor 100 --out /tmp/cafes_x100

Replica k of a restaurant keeps every attribute, hour and review (so a request's matches grow N-fold); the friend
graph is copied unchanged. Streams line by line: memory does not grow with the factor.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path


def replicate(src: Path, factor: int, out: Path) -> Path:
    """Write ``out`` = ``src`` replicated ``factor`` times (replica 0 keeps the original ids)."""
    out.mkdir(parents=True, exist_ok=True)
    rest_lines = (src / "restaurants.jsonl").read_text(encoding="utf-8").splitlines()
    rev_lines = (src / "reviews.jsonl").read_text(encoding="utf-8").splitlines()
    with (out / "restaurants.jsonl").open("w", encoding="utf-8") as rf, \
            (out / "reviews.jsonl").open("w", encoding="utf-8") as vf:
        for k in range(factor):
            sfx = "" if k == 0 else f"~{k}"
            for line in rest_lines:
                if line.strip():
                    obj = json.loads(line)
                    obj["business_id"] += sfx
                    rf.write(json.dumps(obj, ensure_ascii=False) + "\n")
            for line in rev_lines:
                if line.strip():
                    obj = json.loads(line)
                    obj["business_id"] += sfx
                    obj["review_id"] += sfx
                    vf.write(json.dumps(obj, ensure_ascii=False) + "\n")
    if (src / "social.json").is_file():
        shutil.copyfile(src / "social.json", out / "social.json")
    return out


def add_new_reviews(data: Path, review_ids: set[str], tag: str = "new") -> int:
    """Append a copy of each named review as a *new* review: id suffixed ``~TAG``, one sentence added to the text (so
    both the id and the text hash are new). Returns how many were added."""
    path = data / "reviews.jsonl"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    added = 0
    with path.open("a", encoding="utf-8") as f:
        for line in lines:
            obj = json.loads(line)
            if obj["review_id"] in review_ids:
                obj["review_id"] += f"~{tag}"
                obj["text"] += "\nCame back again last week."
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
                added += 1
    return added


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True)
    ap.add_argument("--factor", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    replicate(args.src, args.factor, args.out)
    print(f"wrote {args.out} (x{args.factor})")


if __name__ == "__main__":
    main()
