"""Retrieval evaluation on the Tax Code: ``finagent eval retrieval`` (see
:mod:`evals.retrieval.runner`)."""
