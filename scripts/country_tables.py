"""Rewrite the shipped country tables (finagent/language/data/countries.json) from the
installed pycountry and pymorphy3: run it after changing finagent/language/countries.py,
the lemmatiser functions it calls, or either package's version.

python scripts/country_tables.py
"""

from __future__ import annotations

from finagent.language.countries import SHIPPED_PATH, write_shipped

if __name__ == "__main__":
    write_shipped()
    print(f"wrote {SHIPPED_PATH}")
