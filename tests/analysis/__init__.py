"""Analysis and teaching: evaluation, chance lines, the value model and its intervals, review, hints,
simulation, puzzles, lessons."""
