"""Mail fixtures for this package.

Imported by name: pytest refuses ``pytest_plugins`` outside the top-level conftest.py.
"""

from tests.support.mailservers import any_stack, dovecot_stack, mail_stack

__all__ = ["any_stack", "dovecot_stack", "mail_stack"]
