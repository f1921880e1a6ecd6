"""Routing evaluation: ``finagent eval routing`` (see :mod:`evals.routing.runner`)."""
