"""What a person meets: the decision session, narration, the board, pictures, the rules guide."""
