"""``finagent eval retrieval`` (recall@k / MRR per method), ``finagent eval routing`` and
``finagent eval answers`` (a thin wrapper over :mod:`evals.answers`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from finagent.commands.running import run_command

if TYPE_CHECKING:
    from evals.retrieval.runner import EvalQuestion
    from evals.routing.runner import RoutingCase

app = typer.Typer(help="Evaluation runs.", rich_markup_mode=None)


def _taxcode_folder(explicit: Path | None) -> Path:
    """``--taxcode-dir``, else the first folder that holds both parts of the Tax Code
    (FINAGENT_TAXCODE_DIR, ``../shared/data/tax-code``, ``./tax-code``, ``.``)."""
    from finagent.config import get_settings
    from finagent.retrieval.taxcode_source import TaxCodeNotFoundError, find_tax_code

    if explicit is None:
        try:
            explicit = find_tax_code(get_settings().taxcode_dir)[0].path.parent
        except TaxCodeNotFoundError as exc:
            raise typer.BadParameter(str(exc), param_hint="--taxcode-dir") from exc
    if not explicit.is_dir():
        message = f"Tax Code folder not found: {explicit}"
        raise typer.BadParameter(message, param_hint="--taxcode-dir")
    return explicit


@app.command("routing")
def routing(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(help="JSONL routing rows; repeat for several (default: dev + hold-out)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON")] = False,
) -> None:
    """Accuracy of the offline router (rules + semantic classifier) per dataset, and the
    classifier's cross-validated accuracy on its training examples."""
    from evals.routing.report import format_cross_validation, format_report
    from evals.routing.runner import DEFAULT_DATASETS, load_routing_dataset

    explicit = dataset is not None
    paths = [p for p in (dataset or DEFAULT_DATASETS) if explicit or p.is_file()]
    try:
        loaded = [(p, load_routing_dataset(p)) for p in paths]
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--dataset") from exc
    result = run_command(_routing(loaded))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    blocks = [format_report(r) for r in result["datasets"]]
    blocks.append(format_cross_validation(result["cross_validation"]))
    typer.echo("\n\n".join(blocks))


async def _routing(loaded: list[tuple[Path, list[RoutingCase]]]) -> dict[str, Any]:
    from evals.routing.runner import ONCE_IN_TRAINING, cross_validated, evaluate_router
    from finagent.config import get_settings
    from finagent.retrieval.embedding_cache import CachedEmbedder, build_cached_embedder

    settings = get_settings()
    embedder = build_cached_embedder(settings)
    try:
        seen = json.loads(ONCE_IN_TRAINING.read_text("utf-8")) if ONCE_IN_TRAINING.is_file() else {}
        datasets = []
        for path, cases in loaded:
            result = await evaluate_router(
                cases, embedder, settings.routing_min_confidence, seen.get(path.name, [])
            )
            datasets.append({"name": path.name, **result})
        return {
            "min_confidence": settings.routing_min_confidence,
            "datasets": datasets,
            "cross_validation": await cross_validated(embedder),
        }
    finally:
        if isinstance(embedder, CachedEmbedder):
            embedder.cache.close()


@app.command("retrieval")
def retrieval(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(help="JSONL questions; repeat for several (default: dev + hold-out sets)"),
    ] = None,
    taxcode_dir: Annotated[
        Path | None,
        typer.Option(help="Folder with nk-part1/2-2025.txt (default: FINAGENT_TAXCODE_DIR)"),
    ] = None,
    prefetch: Annotated[int | None, typer.Option(help="Prefetch depth per leg")] = None,
    limit: Annotated[
        int | None, typer.Option(help="Only the first N questions per dataset")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON")] = False,
) -> None:
    """Ingest the Tax Code into a temporary index and compare the retrieval methods."""
    from evals.retrieval.report import format_table
    from evals.retrieval.runner import DEFAULT_DATASETS, load_dataset, run_eval
    from finagent.config import get_settings

    folder = _taxcode_folder(taxcode_dir)
    questions: list[EvalQuestion] = []
    for path in dict.fromkeys(dataset or DEFAULT_DATASETS):
        try:
            questions += load_dataset(path, limit)
        except (OSError, ValueError, KeyError) as exc:
            raise typer.BadParameter(f"{path}: {exc}", param_hint="--dataset") from exc
    result = run_command(run_eval(questions, folder, get_settings(), prefetch_limit=prefetch))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        typer.echo(format_table(result))


@app.command("answers")
def answers(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(help="JSONL items; repeat for several (default: dev + hold-out sets)"),
    ] = None,
    taxcode_dir: Annotated[
        Path | None,
        typer.Option(help="Folder with nk-part1/2-2025.txt (default: FINAGENT_TAXCODE_DIR)"),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N items per dataset")] = None,
    baseline: Annotated[
        bool,
        typer.Option(
            "--baseline/--no-baseline",
            help="Also run the unverified composer (verified_answers=false) side by side",
        ),
    ] = True,
    llm: Annotated[
        bool,
        typer.Option("--llm/--offline", help="Answer with the configured LLM (default: offline)"),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON")] = False,
    calc: Annotated[
        bool,
        typer.Option("--calc", help="Deadline and пени items: exact date/amount, offline"),
    ] = False,
    calc_llm: Annotated[
        str | None,
        typer.Option(
            "--calc-llm",
            help="With --calc: a scripted LLM extractor refereed by the rules, 'agree' (the "
            "rules' own reading) or 'perturb' (a changed reading)",
        ),
    ] = None,
) -> None:
    """Answer every item with the agent over the Tax Code and score the answers."""
    if calc:
        _calc_answers(dataset, as_json, calc_llm)
        return
    from evals.answers import (
        DEFAULT_DATASETS,
        AnswerEvalConfig,
        AnswerItem,
        format_report,
        load_answer_dataset,
        run_answer_eval,
    )
    from finagent.config import get_settings

    folder = _taxcode_folder(taxcode_dir)
    if limit is not None and limit < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--limit")
    settings = get_settings()
    if llm and not settings.llm_enabled:
        raise typer.BadParameter(
            "no LLM is configured (set FINAGENT_LLM_API_KEY or FINAGENT_LLM_MODEL)",
            param_hint="--llm",
        )
    paths = list(dict.fromkeys(dataset or [p for p in DEFAULT_DATASETS if p.exists()]))
    if not paths:
        raise typer.BadParameter("no dataset found", param_hint="--dataset")
    for default in DEFAULT_DATASETS:
        if not dataset and default not in paths:
            typer.echo(f"note: {default.name} not found, skipped", err=True)
    items: list[AnswerItem] = []
    for path in paths:
        try:
            items += load_answer_dataset(path, limit)
        except (OSError, ValueError, KeyError) as exc:
            raise typer.BadParameter(f"{path}: {exc}", param_hint="--dataset") from exc
    config = AnswerEvalConfig(taxcode_dir=folder, baseline=baseline, llm=llm)
    result = run_command(run_answer_eval(items, settings, config))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        typer.echo(format_report(result))


def _calc_answers(dataset: list[Path] | None, as_json: bool, reader: str | None) -> None:
    """``finagent eval answers --calc``: the calculators' items (see evals.answers.calc)."""
    if reader not in (None, "agree", "perturb"):
        raise typer.BadParameter("agree or perturb", param_hint="--calc-llm")
    from evals.answers.calc import (
        CALC_DATASETS,
        format_calc_report,
        load_calc_dataset,
        run_calc_eval,
    )

    paths = list(dict.fromkeys(dataset or [p for p in CALC_DATASETS if p.exists()]))
    try:
        items = [item for path in paths for item in load_calc_dataset(path)]
    except (OSError, ValueError, KeyError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--dataset") from exc
    if not items:
        raise typer.BadParameter("no calc items found", param_hint="--dataset")
    result = run_command(run_calc_eval(items, reader))  # type: ignore[arg-type]
    typer.echo(
        json.dumps(result, ensure_ascii=False, indent=2) if as_json else format_calc_report(result)
    )


@app.command("direct")
def direct(
    dataset: Annotated[
        list[Path] | None,
        typer.Option(help="JSONL direct-answer items; repeat for several (default: the dev set)"),
    ] = None,
    mode: Annotated[
        list[str] | None,
        typer.Option(help="Composer modes to compare (default: every answer_composer value)"),
    ] = None,
    taxcode_dir: Annotated[
        Path | None,
        typer.Option(help="Folder with nk-part1/2-2025.txt (default: FINAGENT_TAXCODE_DIR)"),
    ] = None,
    key_fact: Annotated[
        bool,
        typer.Option(
            "--key-fact/--no-key-fact",
            help="Also run the answer evaluation's dev and hold-out sets for the key fact",
        ),
    ] = True,
    limit: Annotated[int | None, typer.Option(help="Only the first N items per dataset")] = None,
    report: Annotated[
        Path | None,
        typer.Option(help="JSON report with the miss list (default: REPORTS_DIR/eval_direct.json)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON")] = False,
) -> None:
    """Does the Краткий вывод state what was asked? Offline, every composer side by side."""
    from evals.answers.dataset import DEFAULT_DATASETS as ANSWER_DATASETS
    from evals.answers.dataset import load_answer_dataset
    from evals.answers.runner import TAXCODE_FILES
    from evals.direct import (
        DEV_DATASET,
        DirectEvalConfig,
        format_report,
        lead_misses,
        load_direct_dataset,
        misses,
        run_direct_eval,
    )
    from finagent.config import get_settings

    if limit is not None and limit < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--limit")
    folder = _taxcode_folder(taxcode_dir)
    repo = Path(__file__).resolve().parents[2]
    try:
        loaded = [load_direct_dataset(p, limit) for p in dict.fromkeys(dataset or [DEV_DATASET])]
        answers = [
            item
            for path in (ANSWER_DATASETS if key_fact else [])
            if path.is_file()
            for item in load_answer_dataset(path, limit)
        ]
    except (OSError, ValueError, KeyError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--dataset") from exc
    settings = get_settings()
    config = DirectEvalConfig(
        kb_csv=repo / "knowledge_base" / "train_data.csv",
        demo_docs=repo / "sample_docs",
        taxcode=[(folder / name, part) for part, name in TAXCODE_FILES.items()],
        modes=mode,
        key_fact_items=answers,
    )
    try:
        result = run_command(run_direct_eval(loaded, settings, config))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--mode") from exc
    target = report or settings.reports_path / "eval_direct.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        json.dumps(
            {**result, "misses": misses(result), "lead_misses": lead_misses(result)},
            ensure_ascii=False,
            indent=2,
        ),
        "utf-8",
    )
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        typer.echo(format_report(result) + f"\n\nreport: {target}")
