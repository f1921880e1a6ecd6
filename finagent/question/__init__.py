"""The typed question: what is asked, about what, as of when, and which user documents."""
