"""The list item that answers: «…исчисляется следующим образом: 1) свыше 90 дней — полная
сумма; 2) от 45 до 90 дней — 50 процентов; 3) до 45 дней — …».

The Code states one value per condition in the items of a list, the condition often a
threshold («от 45 до 90 календарных дней»). When the best candidate is such a list (its
introduction, or one of its items), a figure of the question picks the item: the one
whose own text — the lead-in set aside, it is shared by all — names more of the
question's figures than any other item. Words alone do not pick: the item that matches
the question's words may be the special case the question is not in («если это
единственное жильё» beside «в остальных случаях»).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile
from finagent.question.model import Question


def _figures(lemmas: Iterable[str]) -> frozenset[str]:
    return frozenset(lm for lm in lemmas if lm.isdigit())


def list_of(top: Candidate, ranked: list[Candidate]) -> list[Candidate]:
    """The items of the list ``top`` introduces or belongs to (same passage, same lead-in)."""
    # a long item's later windows («…») repeat its condition: the item counts once
    same = [c for c in ranked if c.chunk is top.chunk and c.context and c.sentence[0] != "…"]
    lead = top.context or next((c.context for c in same if top.sentence.startswith(c.context)), "")
    return [c for c in same if c.context == lead] if lead else []


def promote_list_item(
    ranked: list[Candidate],
    items_of: Callable[[Candidate, list[Candidate]], list[Candidate]],
    pick: Callable[[list[Candidate]], Candidate | None],
) -> list[Candidate]:
    """``ranked`` with the list item ``pick`` chooses first, when the best candidate belongs
    to a list of the Code or the knowledge base (``items_of`` gives its items, at least two)."""
    if not ranked or ranked[0].chunk.source == "user_docs":
        return ranked
    top = ranked[0]
    items = items_of(top, ranked)
    if len(items) < 2:
        return ranked
    chosen = pick(items)
    if chosen is None or chosen is top:
        return ranked
    return promoted(ranked, chosen)


def prefer_matching_item(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the list item naming the question's figures first, when the best
    candidate is a list of the Code or the knowledge base and one item names most."""
    asked = _figures(question.lemmas)

    def naming_most(items: list[Candidate]) -> Candidate | None:
        overlap = {id(c): len(_figures(profile(c.sentence).lemmas) & asked) for c in items}
        best = max(items, key=lambda c: overlap[id(c)])
        ties = sum(1 for c in items if overlap[id(c)] == overlap[id(best)])
        return None if ties > 1 or overlap[id(best)] == 0 else best

    return promote_list_item(ranked, list_of, naming_most)
