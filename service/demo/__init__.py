"""``pbem demo``: every landed engine played to the end by mail on the embedded mail stack."""
