"""Helpers shared by the tests and the benchmarks (not tests themselves): scenario builders, positions, the toy game,
the browser server."""
