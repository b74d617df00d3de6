"""Local mail servers for the demo, the tests and the benchmarks — never the production path.

The embedded stack (aiosmtpd SMTP + pymap IMAP, ``stack``), Dovecot as a child process with an
SMTP/LMTP front (``dovecot``, ``smtpfront``, ``lmtp``), the stack in its own process
(``stackprocess``), and ``pbem mailserver`` (``mailserver``). A guard test keeps every production
package from importing this one.
"""
