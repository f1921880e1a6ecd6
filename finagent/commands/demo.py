"""``finagent demo``: ingest the bundled data, then answer sample questions offline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from finagent.commands.common import REPO_ROOT, JsonOpt, load_settings, print_json, run


def demo(
    data_root: Annotated[
        Path, typer.Option(help="Folder with knowledge_base/ and sample_docs/")
    ] = REPO_ROOT,
    live: Annotated[bool, typer.Option("--live", help="Also query the Bank of Russia")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Ingest the bundled data and the Tax Code (when found), then answer sample questions.

    The knowledge base and the sample documents (stored for user demo) ship with the package;
    the Tax Code text is looked up where "finagent ingest law nk" looks for it.
    """
    from finagent.stage_lines import StageLines

    # the first line before the heavy imports: a silent minute reads as a hang
    stages = StageLines(enabled=not json_out)
    stages.say("finagent demo: загружаю данные и отвечаю на примеры вопросов (офлайн).")
    stages.begin("Загружаю программу, модели и индекс")
    from finagent.demo import run_demo

    settings = load_settings()
    result = run(lambda: run_demo(settings, data_root, echo=not json_out, live=live, stages=stages))
    if json_out:
        print_json(result)
