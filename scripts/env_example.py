"""Rewrite ``.env.example`` from the Settings model (finagent/env_example.py).

python scripts/env_example.py
"""

from __future__ import annotations

from pathlib import Path

from finagent.env_example import render

TARGET = Path(__file__).resolve().parents[1] / ".env.example"

if __name__ == "__main__":
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")
