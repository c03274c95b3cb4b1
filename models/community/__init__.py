"""Community domain: discussion and question posts, answers, moments, follows and reactions."""
