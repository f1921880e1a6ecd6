"""The decline probe set: questions to decline or ask back, and answerable near-misses.

``evals/datasets/direct_decline_probes.jsonl`` has no documents of its own: its ``demo``
items read the sample documents and its ``fresh`` items the documents of
``direct_dev_blind11``. It runs on the data dir of the fourteen dev sets, so a warm run
of those sets serves it too::

    python -m evals.direct.probes --taxcode-dir /work/shared/data/tax-code

``--probes FILE`` runs another file of such items on the same data dir (a lane's own
items over the sample documents: ``direct_dev_own_decl4.jsonl``), ``--report FILE``
keeps the full result. Printed: the decline rate (declined or asked back, of the items
to decline or clarify), the false-decline rate (declined or asked back, of the
answerable items), the hit rate of the answerable items, and every item that went the
wrong way.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from evals import DATASETS_DIR
from evals.answers.runner import TAXCODE_FILES
from evals.direct.dataset import LoadedDataset, load_direct_dataset
from evals.direct.runner import DirectEvalConfig, run_direct_eval
from finagent.commands.running import run_command
from finagent.config import get_settings

PROBES = DATASETS_DIR / "direct_decline_probes.jsonl"
FRESH_OF = "direct_dev_blind11"  # whose documents the probes' fresh user holds
DEV_SETS = sorted(
    DATASETS_DIR.glob("direct_dev_blind*.jsonl"),
    key=lambda p: int(p.stem.removeprefix("direct_dev_blind")),
)


def probe_datasets(path: Path = PROBES) -> list[LoadedDataset]:
    """The fourteen dev sets without items (so the data dir is theirs) and the probes."""
    dev = [replace(load_direct_dataset(p), items=[]) for p in DEV_SETS]
    probes = load_direct_dataset(path)
    probes.items = [replace(i, dataset=FRESH_OF) if i.user == "fresh" else i for i in probes.items]
    return [*dev, probes]


def summarise(result: dict[str, Any], name: str = PROBES.stem) -> dict[str, Any]:
    """Decline rate, false-decline rate and the items that went the wrong way."""
    items = result["by_dataset"][name]["modes"]["direct"]["items"]
    refuse = [i for i in items if i["expected"] != "answer"]
    answer = [i for i in items if i["expected"] == "answer"]

    def abstained(i: dict[str, Any]) -> bool:
        """The item was declined, asked back or met an unavailable live source."""
        return bool(i["declined"] or i["clarified"] or i["live_unavailable"])

    return {
        "declined": f"{sum(map(abstained, refuse))}/{len(refuse)}",
        "false_declines": f"{sum(map(abstained, answer))}/{len(answer)}",
        "answer_hits": f"{sum(bool(i['hit']) for i in answer)}/{len(answer)}",
        "answered_instead": [(i["id"], i["summary"][:160]) for i in refuse if not abstained(i)],
        "declined_instead": [(i["id"], i["summary"][:160]) for i in answer if abstained(i)],
        "missed": [
            (i["id"], i["summary"][:160]) for i in answer if not abstained(i) and not i["hit"]
        ],
    }


def main() -> None:
    """Run the probe set on the dev sets' data dir and print its rates."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--taxcode-dir", type=Path, required=True)
    parser.add_argument("--data-root", type=Path, default=None)
    parser.add_argument(
        "--probes", type=Path, default=PROBES, help="another probe file (demo items only)"
    )
    parser.add_argument("--report", type=Path, default=None, help="write the full result here")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[2]
    config = DirectEvalConfig(
        kb_csv=repo / "knowledge_base" / "train_data.csv",
        demo_docs=repo / "sample_docs",
        taxcode=[(args.taxcode_dir / name, part) for part, name in TAXCODE_FILES.items()],
        modes=["direct"],
        data_root=args.data_root,
    )
    result = run_command(run_direct_eval(probe_datasets(args.probes), get_settings(), config))
    if args.report is not None:
        args.report.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    for key, value in summarise(result, args.probes.stem).items():
        if isinstance(value, list):
            print(f"{key}: {len(value)}")
            for item_id, summary in value:
                print(f"  {item_id}: {summary}")
        else:
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
