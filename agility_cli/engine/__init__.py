"""The pure game: components, PRNG, state, decisions, rules, the seat view, the notation. No I/O."""
