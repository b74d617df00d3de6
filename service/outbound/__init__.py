"""Outbound: from a changed game to a personal mail for every player, and the sending.

``notify`` decides who gets which mail and builds each from the seat's view only; ``render``
turns a purpose + language into text/HTML (jinja2) and a MIME message; ``keys`` issues the HMAC
reply keys; ``outbox`` keeps the transactional outbox rows and sends them over SMTP;
``invitations`` are the "you are invited" mails.
"""
