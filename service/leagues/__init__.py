"""Leagues (coming): sign-up by mail, rounds and pairings, standings and ratings.

An empty room on purpose: the league issue builds here (``league``, ``pairing``, ``standings``,
``ratings``), on top of ``service.play.start`` and the deadline policy in ``service.schedule``.
"""
