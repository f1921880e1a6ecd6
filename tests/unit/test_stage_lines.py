"""Progress a person can read when stderr is not a terminal: steps with their counts and
times, a line per quarter of the chunks with the time left, agreed Russian counts."""

from __future__ import annotations

import io
import re

from finagent.language.lemmas import counted
from finagent.retrieval.progress import chunk_progress
from finagent.stage_lines import StageLines, seconds_ru


def test_steps_say_what_starts_and_what_it_produced() -> None:
    out = io.StringIO()
    lines = StageLines(out)
    lines.say("Привет")
    lines.begin("Справочник")
    assert lines.open
    lines.end("7 записей")
    assert not lines.open
    written = out.getvalue().splitlines()
    assert written[:2] == ["Привет", "Справочник…"]
    assert re.fullmatch(r"  Справочник: 7 записей \(\d+,\d с\)", written[2])
    assert re.fullmatch(r"\d+,\d с", lines.total())


def test_disabled_steps_write_nothing() -> None:
    out = io.StringIO()
    lines = StageLines(out, enabled=False)
    lines.begin("Справочник")
    lines.end()
    assert out.getvalue() == ""


def test_seconds_use_a_decimal_comma() -> None:
    assert seconds_ru(12.34) == "12,3 с"


def test_plain_lines_at_each_quarter_with_the_time_left() -> None:
    out = io.StringIO()
    with chunk_progress("закон", show=False, plain=out) as bar:
        bar.expect(200)
        bar.advance(60)  # 30 %: first quarter crossed
        bar.advance(10)  # 35 %: same quarter, no line
        bar.advance(60)  # 65 %: second quarter
        bar.advance(70)  # done: the caller reports the end
    written = out.getvalue().splitlines()
    assert [re.sub(r", осталось.*", "", w) for w in written] == ["  … 60/200", "  … 130/200"]
    assert all(re.search(r"осталось ≈ \d+ с$", w) for w in written)


def test_no_plain_line_when_all_that_is_known_is_done() -> None:
    """A total that grows file by file is never reported as finished early."""
    out = io.StringIO()
    with chunk_progress("документы", show=False, plain=out) as bar:
        for chunks in (3, 5, 2):
            bar.expect(chunks)
            bar.advance(chunks)
    assert out.getvalue() == ""


def test_without_a_plain_stream_nothing_is_written() -> None:
    with chunk_progress("закон", show=False) as bar:
        bar.expect(4)
        bar.advance(2)
    assert bar.plain is None and bar.done == 2


def test_counts_agree_with_their_noun() -> None:
    assert counted(1, "строка") == "1 строка"
    assert counted(22, "строка") == "22 строки"
    assert counted(11, "строка") == "11 строк"
    assert counted(104, "отчёт") == "104 отчёта"
