"""CLI: ``dinecheck allergens check | synonym add/remove/list | audit | import-off | stats | init`` — a thin shell over the
allergen pipeline (:mod:`dinecheck.allergens.pipeline`) and the store (:mod:`dinecheck.allergens.store`).

Contract (other tools depend on it): ``check --json`` prints one line per label, ``{"id", "verdict", "allergens":
[{"code", "level", "source", "token", "span"}], "unmatched", "risk_phrases", "confidence", "match_rate", "reasons"}``;
``--input FILE.jsonl`` (or ``-`` for standard input) reads lines ``{"id", "ingredients_text"}``, optionally with the
product's declared ``"allergens"`` / ``"traces"`` (codes; ``"traces_known": false`` voids ``traces``), which count as
DEFINITE / TRACE findings unless ``--text-only``. Exit 0 when the check
ran, whatever the verdicts; 2 on bad input (nothing is checked or audited then). Every check writes one audit row.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

import typer

from dinecheck.allergens.audit import AuditRow, CheckedLabel, check_and_audit, parse_since
from dinecheck.allergens.declared import Declaration, declaration_from
from dinecheck.allergens.off_import import ATTRIBUTION, import_taxonomy, read_taxonomy_file
from dinecheck.allergens.off_vocabulary import KINDS, detect_kind, import_vocabulary
from dinecheck.allergens.ontology import Ontology
from dinecheck.allergens.pipeline import parse_profile
from dinecheck.allergens.store import OntologyStore, open_store
from dinecheck.allergens.tokenize import MAX_LABEL_CHARS
from dinecheck.cli.common import echo_json
from dinecheck.errors import DataError, DinecheckError
from dinecheck.files import require_file

app = typer.Typer(help="Check packaged-food ingredient labels for allergens; manage the allergen ontology store.",
                  no_args_is_help=True)  # fmt: skip
synonym_app = typer.Typer(help="Edit the synonyms of the allergen ontology.", no_args_is_help=True)
app.add_typer(synonym_app, name="synonym")

DbOpt = typer.Option(
    None, "--db", help="Store URL: sqlite:///FILE, a file path, or postgresql://…  [default: $DINECHECK_DB or a SQLite "
    "file in the user data directory]",
)  # fmt: skip
JsonOpt = typer.Option(False, "--json", help="Print JSON lines instead of text.")

MAX_LINE_BYTES = 1_000_000
AUDIT_BATCH = 1000


# ------------------------------------------------------------------------------------------------ batch input


@dataclass(frozen=True, slots=True)
class LabelInput:
    id: str | None
    text: str
    where: str  # "file:line" or "TEXT": named in errors
    declared: Declaration | None = None


def parse_label_lines(lines: Iterable[str], source: str) -> list[LabelInput]:
    """Every non-blank line must be a JSON object with a string ``ingredients_text``, an optional ``id`` (string or
    integer) and optional declared ``allergens`` / ``traces`` (allergen codes). The first bad line raises DataError
    naming ``source:line``."""
    labels: list[LabelInput] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        loc = f"{source}:{lineno}"
        if len(line) > MAX_LINE_BYTES:
            raise DataError(f"the line is longer than {MAX_LINE_BYTES} characters", loc)
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid JSON ({exc.msg} at column {exc.colno})", loc) from None
        if not isinstance(obj, dict):
            raise DataError(f"expected a JSON object {{\"id\", \"ingredients_text\"}}, got {type(obj).__name__}", loc)
        if "ingredients_text" not in obj:
            raise DataError("missing \"ingredients_text\"", loc)
        text = obj["ingredients_text"]
        if not isinstance(text, str):
            raise DataError(f"\"ingredients_text\" must be a string, got {type(text).__name__}", loc)
        raw_id = obj.get("id")
        if raw_id is not None and (isinstance(raw_id, bool) or not isinstance(raw_id, str | int)):
            raise DataError(f"\"id\" must be a string or an integer, got {type(raw_id).__name__}", loc)
        if len(text) > MAX_LABEL_CHARS:
            raise DataError(f"\"ingredients_text\" is {len(text)} characters; the limit is {MAX_LABEL_CHARS}", loc)
        labels.append(LabelInput(None if raw_id is None else str(raw_id), text, loc, declaration_from(obj, loc) or None))
    return labels


def _read_lines(path: str) -> tuple[Iterator[str], str, IO[str] | None]:
    if path == "-":
        return iter(sys.stdin), "<stdin>", None
    require_file(path)  # a directory, FIFO or dangling link is named, never opened
    try:
        fh = open(path, encoding="utf-8")  # noqa: SIM115 - closed by the caller
    except FileNotFoundError:
        raise DataError("no such file", path) from None
    except OSError as exc:
        raise DataError(exc.strerror or "cannot be read", path) from None
    return iter(fh), path, fh


def _load_labels(path: str) -> list[LabelInput]:
    lines, source, fh = _read_lines(path)
    try:
        return parse_label_lines(lines, source)
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text ({exc.reason})", source) from None
    finally:
        if fh is not None:
            fh.close()


# ------------------------------------------------------------------------------------------------ output


def _human(checked: CheckedLabel, label_id: str | None) -> str:
    r = checked.result
    head = f"{label_id}: " if label_id is not None else ""
    out = [f"{head}{r.verdict}  (confidence {r.confidence:.2f}, match rate {r.match_rate:.0%}, "
           f"{r.tokens_matched}/{r.tokens_processed} tokens)"]  # fmt: skip
    for f in r.findings:
        path = " → ".join(f.path) if f.path else f.code
        where = f"[{f.span[0]}:{f.span[1]}]" if f.span is not None else "[declared]"
        out.append(f"  {f.code:<10} {f.level.value:<8} {f.source:<10} {f.token!r} {where}  {path}")
        if len(f.all_sources()) > 1:
            out.append(f"  {'':<10} sources: " + ", ".join(
                f"{t!r} {lv.value}" + (f" [{sp[0]}:{sp[1]}]" if sp is not None else " [declared]")
                for t, sp, lv, _src in f.all_sources()))  # fmt: skip
    for p in r.risk_phrases:
        named = f" naming {', '.join(p.allergens)}" if p.allergens else " (applies to the whole profile)"
        out.append(f"  phrase: {p.phrase!r} [{p.span[0]}:{p.span[1]}] {p.type} {p.level.value}{named}")
    if r.unmatched:
        out.append(f"  unmatched: {', '.join(r.unmatched)}")
    for reason in r.review_reasons:
        out.append(f"  why: {reason}")
    return "\n".join(out)


def _emit(checked: CheckedLabel, label_id: str | None, as_json: bool) -> None:
    if as_json:
        echo_json(checked.audit.result)  # the audit row keeps exactly the contract's line for this id
    else:
        typer.echo(_human(checked, label_id))


# ------------------------------------------------------------------------------------------------ commands


def _check_one(lab: LabelInput, profile: tuple[str, ...], ontology: Ontology) -> CheckedLabel:
    try:
        return check_and_audit(lab.text, profile, ontology, lab.id, lab.declared)
    except DinecheckError as err:  # name the input line, keep the pipeline's reason
        raise type(err)(f"{err.location + ': ' if err.location else ''}{err.reason}", lab.where) from None


def _run_checks(
    store: OntologyStore, labels: list[LabelInput], profile: tuple[str, ...], as_json: bool, audit: bool = True
) -> None:
    """Check in chunks: results of a chunk are audited (one transaction) before they are printed (``audit=False``:
    nothing is written)."""
    for start in range(0, len(labels), AUDIT_BATCH):
        chunk = labels[start : start + AUDIT_BATCH]
        ontology = store.ontology()
        if start == 0:
            gc.freeze()  # the ontology stays loaded for the whole command: left out of the collector's passes
        done = [_check_one(lab, profile, ontology) for lab in chunk]
        if audit:
            store.write_audit([c.audit for c in done])
        for lab, c in zip(chunk, done, strict=True):
            _emit(c, lab.id, as_json)


@app.command()
def check(
    text: str | None = typer.Argument(
        None, help="The ingredient label text; '-' reads plain label text from standard input (omit with --input)."
    ),
    allergens: str = typer.Option(
        ..., "--allergens", "-a", help="Profile: allergen codes like PEANUT,MILK, or ALL; common names work too "
        "(DAIRY, PEANUTS, NUTS = TREE_NUTS+PEANUT, EGGS, SOYA, …), in any case."
    ),
    input_file: str | None = typer.Option(
        None, "--input", "-i", help="JSON Lines file of {\"id\", \"ingredients_text\"}; '-' reads standard input."
    ),
    label_id: str | None = typer.Option(None, "--id", help="Product id for a single TEXT (kept in the audit log)."),
    text_only: bool = typer.Option(
        False, "--text-only", help="Ignore the \"allergens\"/\"traces\" declared on --input lines; judge the text alone."
    ),
    no_audit: bool = typer.Option(False, "--no-audit", help="Do not write this run's checks to the audit log."),
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Check labels against an allergen profile: SAFE, AVOID or VERIFY, with the evidence and the reasons.

    Exit 0 when the check ran (whatever the verdicts), 2 on bad input. Every label checked is written to the audit log
    unless --no-audit.
    """
    profile = parse_profile(allergens)
    if text == "-":
        text = _read_stdin_text()
    if (text is None) == (input_file is None):
        raise DataError("give either the label TEXT or --input FILE (not both)", "allergens check")
    if input_file is not None and label_id is not None:
        raise DataError("--id applies to a single TEXT; batch lines carry their own \"id\"", "--id")
    if text is not None and len(text) > MAX_LABEL_CHARS:
        raise DataError(f"the label is {len(text)} characters; the limit is {MAX_LABEL_CHARS}", "TEXT")
    labels = _load_labels(input_file) if input_file is not None else [LabelInput(label_id, text or "", "TEXT")]
    if text_only:
        labels = [replace(lab, declared=None) for lab in labels]
    with open_store(db) as store:
        _run_checks(store, labels, profile, as_json, audit=not no_audit)


def _read_stdin_text() -> str:
    """The whole of standard input as one plain-text label (``check -``)."""
    try:
        data = sys.stdin.read(MAX_LABEL_CHARS + 1)
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text ({exc.reason})", "<stdin>") from None
    if len(data) > MAX_LABEL_CHARS:
        raise DataError(f"the label is over {MAX_LABEL_CHARS} characters; the limit is {MAX_LABEL_CHARS}", "<stdin>")
    return data


@synonym_app.command("add")
def synonym_add(
    synonym: str = typer.Argument(..., help="The new name, as written on labels."),
    canonical: str = typer.Option(..., "--canonical", help="Canonical ingredient id or name, e.g. peanut_oil."),
    lang: str | None = typer.Option(None, "--lang", help="Language code, e.g. hi."),
    region: str | None = typer.Option(None, "--region", help="Region code, e.g. IN."),
    typ: str = typer.Option("USER", "--type", help="Synonym type: COMMON, TRANSLATION, REGIONAL, SCIENTIFIC, …"),
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Add a synonym of a canonical ingredient (refused if its lookup key already names something)."""
    with open_store(db) as store:
        syn = store.add_synonym(synonym, canonical, lang, region, typ)
        version = store.version()
    if as_json:
        echo_json({"synonym": syn.text, "key": syn.key, "canonical": syn.canonical_id, "lang": syn.lang,
                   "region": syn.region, "type": syn.type, "ontology_version": version})  # fmt: skip
    else:
        where = ", ".join(x for x in (syn.lang, syn.region, syn.type) if x)
        typer.echo(f"added {syn.text!r} → {syn.canonical_id} ({where}); ontology version {version}")


@synonym_app.command("remove")
def synonym_remove(
    synonym: str = typer.Argument(..., help="The name to remove (matched by its lookup key)."),
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Remove a user-added or OFF-imported synonym (names from the shipped data stay)."""
    with open_store(db, seed=False) as store:  # works even when a re-seed is blocked by this very synonym
        removed = store.remove_synonym(synonym)
        version = store.version()
    for syn in removed:
        if as_json:
            echo_json({"removed": syn.text, "canonical": syn.canonical_id, "source": syn.source,
                       "ontology_version": version})  # fmt: skip
        else:
            typer.echo(f"removed {syn.text!r} → {syn.canonical_id} ({syn.source}); ontology version {version}")


@synonym_app.command("list")
def synonym_list(
    source: str | None = typer.Option(None, "--source", help="Only DATA, USER or OFF synonyms."),
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """List stored synonyms (e.g. ``--source USER`` for the ones added by hand)."""
    with open_store(db) as store:
        rows = store.synonyms(source)
    for syn in rows:
        if as_json:
            echo_json({"synonym": syn.text, "canonical": syn.canonical_id, "lang": syn.lang, "region": syn.region,
                       "type": syn.type, "source": syn.source})  # fmt: skip
        else:
            where = "".join(f"{x}, " for x in (syn.lang, syn.region) if x)
            typer.echo(f"{syn.text} → {syn.canonical_id} ({where}type {syn.type}, source {syn.source})")


@app.command()
def audit(
    since: str | None = typer.Option(None, "--since", help="Only checks at or after this ISO-8601 date/time (UTC "
                                        "unless an offset is given)."),  # fmt: skip
    unmatched: bool = typer.Option(False, "--unmatched", help="Report unmatched tokens → count, most frequent first."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="At most this many rows (not with --unmatched)."),
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """List the audit log of label checks (newest first), or the unmatched-token report (how to find missing
    synonyms)."""
    when = parse_since(since) if since is not None else None
    with open_store(db) as store:
        if unmatched:
            report = store.unmatched_report(since=when)
            for u in report[:limit] if limit else report:
                if as_json:
                    echo_json(u.to_json())
                else:
                    typer.echo(f"{u.count:>6}  {u.token}")
            return
        rows = store.audit(since=when, limit=limit, newest_first=True)
    for row in rows:
        if as_json:
            echo_json(row.to_json())
        else:
            typer.echo(_audit_line(row))


def _audit_line(row: AuditRow) -> str:
    text = " ".join(row.raw_input.split())
    text = text if len(text) <= 60 else text[:57] + "..."
    unm = f"  unmatched: {', '.join(row.unmatched_tokens)}" if row.unmatched_tokens else ""
    return (f"{row.id:>6}  {row.created_at.strftime('%Y-%m-%dT%H:%M:%SZ')}  {row.verdict:<6}  "
            f"{row.product_id or '-'}  [{','.join(row.profile)}]  {text!r}{unm}")  # fmt: skip


@app.command("import-off")
def import_off(
    file: Path = typer.Argument(..., help="An Open Food Facts taxonomy file: allergens.txt, ingredients.txt or "
                                "ingredients_processing.txt."),  # fmt: skip
    kind: str | None = typer.Option(None, "--kind", help="allergens, ingredients or processing [default: "
                                       "detected from the content]"),  # fmt: skip
    db: str | None = DbOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Import an Open Food Facts taxonomy (allergen names, the ingredients vocabulary, or processing words) into the
    store; existing names are never replaced and a second import adds nothing."""
    if kind is not None and kind not in KINDS:
        raise DataError(f"unknown kind {kind!r}; use one of {', '.join(KINDS)}", "--kind")
    taxonomy = read_taxonomy_file(file)
    kind = kind or detect_kind(taxonomy)
    if kind is None:
        raise DataError("cannot tell which Open Food Facts taxonomy this is; give --kind", str(file))
    with open_store(db) as store:
        if kind != "allergens":
            vocab = import_vocabulary(store, taxonomy, kind)
            if as_json:
                echo_json(vocab.to_json())
                return
            typer.echo(f"{kind}: added {vocab.added} names, skipped {vocab.skipped} (already known or repeated); "
                       f"{vocab.ingredients_added} new ingredients; ontology version {vocab.ontology_version}")  # fmt: skip
            if kind == "ingredients":
                typer.echo(f"  entries: {vocab.free} allergen-free, {vocab.with_allergens} with allergens, "
                           f"{vocab.unknown} of unknown composition (every allergen POSSIBLE), {vocab.linked} lent "
                           "their names to known ingredients")  # fmt: skip
            typer.echo(f"Source: {vocab.attribution}")
            return
        report = import_taxonomy(store, taxonomy)
    if as_json:
        echo_json(report.to_json())
        return
    typer.echo(f"added {report.added} synonyms, skipped {report.skipped} (already known or repeated); "
               f"ontology version {report.ontology_version}")  # fmt: skip
    for e, t in report.targets.items():
        typer.echo(f"  {e} → {t}")
    typer.echo("  (an OFF name is its allergen for sure and every other allergen possibly: it never makes a label SAFE)")
    if report.unmapped_entries:
        typer.echo(f"  not allergens here (skipped): {', '.join(report.unmapped_entries)}")
    typer.echo("  per language (added/skipped): " + ", ".join(f"{c.lang} {c.added}/{c.skipped}"
                                                             for c in report.languages))  # fmt: skip
    for c in report.conflicts:
        typer.echo(f"  review: {c}")
    typer.echo(f"Source: {ATTRIBUTION}")


def _print_stats(store: OntologyStore, as_json: bool) -> None:
    st = store.stats()
    if as_json:
        echo_json(st.to_json())
        return
    typer.echo(f"store       {st.url} ({st.dialect}, schema v{st.schema_version}, ontology v{st.ontology_version})")
    typer.echo(f"allergens   {st.allergens}")
    typer.echo(f"ingredients {st.ingredients}")
    by = ", ".join(f"{k} {v}" for k, v in st.synonyms_by_source.items())
    typer.echo(f"synonyms    {st.synonyms} ({by})")
    typer.echo(f"phrases     {st.risk_phrases}")
    typer.echo(f"audit rows  {st.audit_rows}")


@app.command()
def stats(db: str | None = DbOpt, as_json: bool = JsonOpt) -> None:
    """Show what the store holds (counts by table, versions)."""
    with open_store(db) as store:
        _print_stats(store, as_json)


@app.command()
def init(db: str | None = DbOpt, as_json: bool = JsonOpt) -> None:
    """Create (or migrate and re-seed) the store now instead of on first use, and show its counts."""
    with open_store(db) as store:
        _print_stats(store, as_json)
