"""Simulations of many games: locally (:mod:`.simulate`) or on a Ray cluster
(:mod:`.ray_backend`)."""
