"""The game contract: what a game declares and offers (rules rows, policy registry, states and
deciders, records, strategies)."""
