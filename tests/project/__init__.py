"""The project as a whole: docs, docstrings, the rooms' import rules, notebooks, benchmarks, resources, the command
line."""
