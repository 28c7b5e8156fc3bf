"""The OpenSpiel and PettingZoo adapters, judged by those libraries' own tests."""
