"""Training of the direct composer's sentence ranker (finagent.answering.ranker)."""
