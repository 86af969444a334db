"""Who decides: the random, greedy and search bots, self-play and the benchmark."""
