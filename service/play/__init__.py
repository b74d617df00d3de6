"""Play: what a reply means for a game, applied and logged in the caller's transaction.

``replies`` reads the command lines of a game reply (menu numbers, free text, player commands)
and applies each move through the engine; ``player_commands`` are help/state/log/resign/lang/tz;
``mailbox`` handles mail to the plain address (new games by mail, accept); ``start`` creates a
game and queues its first mails. Answers are built by ``service.outbound``.
"""
