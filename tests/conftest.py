"""Shared fixtures. The toy engine is registered for every test session."""

from __future__ import annotations

import engines
from tests.support.toy import ENGINE as TOY

engines.register(TOY)
