"""Alembic migrations of the service schema (shipped in the wheel)."""
