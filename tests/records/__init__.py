"""Game records: the tree, replay, the JSON format and its checks."""
