"""Tests of the engine: the grammar, the state schema, a third game by registration, conformance, bad input,
chance variations."""
