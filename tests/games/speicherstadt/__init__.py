"""Die Speicherstadt's rules by phase, its catalogue, notation, explanations and scenarios."""
