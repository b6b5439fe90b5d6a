"""Adapters to research frameworks: OpenSpiel (:mod:`.openspiel`), PettingZoo
(:mod:`.backalley_v0`; :mod:`.pettingzoo` is its former, deprecated name) and the
tensor encodings they share (:mod:`.encoding`)."""
