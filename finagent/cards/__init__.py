"""Document cards: typed facts of a user's document, each with the sentence it came from."""
