"""Packet Row's rules, cards, notation, explanations, hidden information and scenarios."""
