"""Adapters to research frameworks: OpenSpiel (:mod:`.openspiel`), PettingZoo
(:mod:`.pettingzoo`) and the tensor encodings they share (:mod:`.encoding`)."""
