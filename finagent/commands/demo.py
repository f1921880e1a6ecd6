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
    from finagent.demo import run_demo

    result = run(lambda: run_demo(load_settings(), data_root, echo=not json_out, live=live))
    if json_out:
        print_json(result)
