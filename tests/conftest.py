"""Shared fixtures. The toy engine is registered for every test session.

Under CI (``CI`` set) hypothesis runs derandomized: the same examples every run, so a run is
reproducible and a landing never depends on the luck of the draw; locally every run draws anew.
"""

from __future__ import annotations

import os

from hypothesis import settings

import engines
from tests.support.toy import ENGINE as TOY

engines.register(TOY)

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
