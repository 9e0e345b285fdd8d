"""The CP-SAT model of a round: existence questions with witness lines, and proofs."""
