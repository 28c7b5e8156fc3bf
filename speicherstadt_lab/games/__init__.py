"""The games on the engine: each in its own package, registered with the engine."""
