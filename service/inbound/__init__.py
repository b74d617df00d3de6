"""Inbound: from the IMAP inbox to the command lines of one reply.

fetch (``fetch``: imapclient, NOOP + SEARCH NOT KEYWORD PbemDone, BODY.PEEK[], IDLE) -> store the
raw bytes (``pipeline.store``, Message-ID dedupe) -> filter automatic mail (``autoreply``) -> route
(plus-address, ``ref KEY`` in the subject, In-Reply-To/References) -> authenticate (From is the
seat) -> extract the new text (``extract``: quote trimming) -> split into lines -> hand over to
``service.play``. Nothing here applies a move or builds an answer; ``pipeline.Pipeline.process``
runs the stages in one transaction and quarantines a mail whose stage raised.
"""
