"""Store: the database. SQLModel tables (``models``), engine/session/migrations (``db``,
Alembic under ``migrations/``), and the game records (``games``: players, games, optimistic-locked
states, the move log, redacted event queries). Nothing here sends or reads mail.
"""
