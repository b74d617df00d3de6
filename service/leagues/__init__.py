"""Leagues: seasons of rounds for players far apart.

``pairing`` decides who plays whom (circle method, networkx weighted matchings for Swiss and
TAC's rotating partners, tables for co-operative and free-for-all games); ``scoring`` turns
results into points, openskill ratings and the standings; ``season`` keeps a league in the
database (sign-up, rounds, settling, advancing from the deadline sweep); ``commands`` are the
league commands players write by mail. Built on ``service.play.start`` (games) and the deadline
policy in ``service.store.policy``.
"""
