"""The bots (random, greedy, MCTS) in both games."""
