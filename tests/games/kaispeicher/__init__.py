"""The Kaispeicher expansion: set-up, the top row, its cards in loading and at the end."""
