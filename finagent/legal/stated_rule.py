"""A rule the user was told and asks to compute by, with a condition the Code does not have.

«Слышала, что если документ пришёл в пятницу после 18:00, срок идёт с понедельника плюс
3 дня на отправку — посчитайте по этому правилу»: the Code's periods (ст. 6.1 НК РФ and
the period table) never look at the hour a document arrived and add no days «на
отправку» beyond the rules they name themselves (a registered letter's sixth working day,
п. 4 ст. 31; an action done until 24 o'clock of the last day, п. 8 ст. 6.1). Such a
question is declined (:data:`STATED_RULE`): computing by the told rule would invent law,
and computing by the Code's rule alone would answer another question without saying so.

A told rule is a sentence with hearsay («слышал», «говорят», «якобы», «нам сказали») or
a question that asks to count «по этому правилу»; its condition is foreign to the Code
when a rule sentence names an hour of the day or adds days (``rule_extra_day_words`` with
a number of days, or days «на отправку»: ``rule_sending_words``), grants a reduction for
acting in time (``rule_benefit_words``: «оплатить в течение 20 дней — скидка 50 %») or
borrows another law's rule («как у ГИБДД»: a debt or citation of ``governing_laws``).
"""

from __future__ import annotations

from finagent.legal.calc_lexicon import law_phrases, phrases, word_set
from finagent.legal.calc_text import CalcText, Word

STATED_RULE = "rule_not_in_code"

# an hour of the day («18:00», «после 18 часов»); 24 o'clock is the Code's own (п. 8 ст. 6.1)
_HOURS = frozenset({"час"})


_RULE_WORDS = frozenset({"если", "считаться"})


def _told(text: CalcText) -> bool:
    """Hearsay or a reference to a stated rule anywhere in the question."""
    hearsay = word_set("rule_hearsay")
    if any(w.lemma in hearsay and not w.negated for w in text.words):
        return True
    return any(text.has(p) for p in phrases("rule_references"))


def _rule_sentences(text: CalcText) -> set[int]:
    """The sentences stating a rule («если …», «срок считается …») with a condition no
    period of the Code has, when the question tells a rule at all."""
    if not _told(text):
        return set()
    stating = {w.sentence for w in text.words if w.lemma in _RULE_WORDS}
    return {
        s
        for s in stating
        if _names_hour(text, s) or _adds_days(text, s) or _grants_or_borrows(text, s)
    }


def _grants_or_borrows(text: CalcText, sentence: int) -> bool:
    """The rule sentence grants a reduction for acting in time (``rule_benefit_words``:
    «дают скидку 50 %») or borrows another law's rule (a payment or debt of another law
    of ``governing_laws``: «как у ГИБДД»): no period of the Code does either."""
    words = [w for w in text.words if w.sentence == sentence]
    benefit = word_set("rule_benefit_words")
    if any(w.lemma in benefit and not w.negated for w in words):
        return True
    for phrase in (*law_phrases("cites"), *law_phrases("debts")):
        found = text.find(phrase)
        if found and all(text.words[i].sentence == sentence for i in found):
            return True
    return False


def _sentence_text(text: CalcText, sentence: int) -> str:
    words = [w for w in text.words if w.sentence == sentence]
    return text.text[words[0].start : words[-1].end] if words else ""


def _adds_days(text: CalcText, sentence: int) -> bool:
    words = [w for w in text.words if w.sentence == sentence]
    extra = word_set("rule_extra_day_words")
    sending = word_set("rule_sending_words")
    for k, w in enumerate(words):
        if w.lemma == "день" and any(v.text.isdigit() for v in words[max(0, k - 2) : k]):
            if any(v.lemma in extra for v in words[max(0, k - 4) : k]):
                return True
            if any(v.lemma in sending for v in words[k + 1 : k + 4]):
                return True
    return False


def _clock(words: list[Word], k: int) -> bool:
    """Words ``k``..``k+2`` are a time of day before 24 o'clock («18», «:», «00»)."""
    if k + 2 >= len(words) or words[k + 1].text != ":":
        return False
    hour, minute = words[k].text, words[k + 2].text.rstrip(".,;!?»)")
    return (
        hour.isdigit()
        and minute.isdigit()
        and len(minute) == 2
        and int(hour) < 24
        and int(minute) < 60
    )


def _names_hour(text: CalcText, sentence: int) -> bool:
    words = [w for w in text.words if w.sentence == sentence]
    return any(
        _clock(words, k)
        or (
            w.lemma in _HOURS
            and k > 0
            and words[k - 1].text.isdigit()
            and words[k - 1].text != "24"
        )
        for k, w in enumerate(words)
    )


def stated_rule(text: CalcText) -> bool:
    """Whether the question tells a rule and asks to compute by it, and the rule has a
    condition no period of the Code has (an hour of the day, days added)."""
    return bool(_rule_sentences(text))


def without_rule(text: CalcText) -> str:
    """The question without its told rule's sentences and its hearsay: what the Code's
    own count reads (the asking sentence stays unless it states the rule itself)."""
    hearsay = word_set("rule_hearsay")
    dropped = _rule_sentences(text) | {w.sentence for w in text.words if w.lemma in hearsay}
    kept = sorted({w.sentence for w in text.words} - dropped)
    return " ".join(_sentence_text(text, s) for s in kept)
