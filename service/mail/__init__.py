"""Mail infrastructure: local SMTP/IMAP stacks, reply-text extraction, auto-reply detection.

Nothing in here knows about games. The service core builds on these pieces; the demo and the
benchmarks use the same stacks the tests use, so what is measured is what is tested.
"""
