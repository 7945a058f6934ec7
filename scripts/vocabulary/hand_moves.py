"""Hand moves after the merge (issue 8 third round): names that both writers and both reviewers flag but whose
curated entry is allergen-free (the merge never overrides those)."""
import json
from pathlib import Path
D = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "ingredients"
move = {"onion": {"fried onions", "fried onion", "crispy onions", "oignons frits", "oignon frit", "Röstzwiebeln", "cebolla frita", "cipolla fritta"},
        "shallot": {"fried shallots", "échalotes frites"}, "beef_tallow": {"suet", "beef suet"}}
for name in ("f_vegetables_legumes.jsonl", "f_oils_fats.jsonl"):
    p = D / name
    out = []
    for l in p.read_text().splitlines():
        e = json.loads(l)
        if e["id"] in move:
            for lang in e["names"]:
                e["names"][lang] = [n for n in e["names"][lang] if n not in move[e["id"]]]
            l = json.dumps(e, ensure_ascii=False)
        out.append(l)
    p.write_text("\n".join(out) + "\n")
note = ("general vocabulary (issue 8, third round): helper-written, reviewed; moved by hand from an allergen-free "
        "entry because both writers and both reviewers flag it (fried onions and shallots are often coated in wheat "
        "flour; shredded suet is rolled in wheat flour)")
P = "POSSIBLE"
extra = {"g_fried_onion": ("g_plants.jsonl", "onion", {"en": ["fried onions", "fried onion", "crispy onions", "crispy fried onions"],
             "fr": ["oignons frits", "oignon frit", "oignons croustillants"], "de": ["Röstzwiebeln", "Röstzwiebel", "Röstzwiebelringe"],
             "es": ["cebolla frita", "cebollas fritas", "cebolla crujiente"], "it": ["cipolla fritta", "cipolle fritte"]}),
         "g_fried_shallot": ("g_plants.jsonl", "shallot", {"en": ["fried shallots", "fried shallot", "crispy shallots"], "fr": ["échalotes frites", "échalote frite"]}),
         "g_suet": ("g_staples.jsonl", "beef_tallow", {"en": ["suet", "beef suet", "shredded suet", "shredded beef suet"]})}
for gid, (fname, parent, names) in extra.items():
    p = D / fname
    lines = [json.loads(l) for l in p.read_text().splitlines()]
    have = next((e for e in lines if e["id"] == gid), None)
    if have is None:
        have = {"id": gid, "category": "vegetable" if fname == "g_plants.jsonl" else "fat", "allergens": {}, "names": {}}
        lines.append(have)
    have["allergens"] = {**have.get("allergens", {}), "WHEAT": P, "GLUTEN": P}
    have["contains"] = [parent]
    for lang, ns in names.items():
        cur = have["names"].setdefault(lang, [])
        cur[:0] = [n for n in ns if n not in cur]
    have["note"] = note
    p.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in lines) + "\n")
