"""Tests of the games' rules, one folder per game, and the golden playthroughs of all of them (data in tests/golden)."""
