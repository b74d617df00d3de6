"""Exit codes of ``pbem serve`` that a supervisor (systemd, a container runtime) understands.

BSD ``sysexits.h`` values, so ``RestartPreventExitStatus=78`` in the systemd unit stops a restart
loop on a configuration that can never work, while a crash (70) is restarted.

| code | meaning |
|---|---|
| 0 | stopped cleanly (SIGTERM or SIGINT; every worker finished its round) |
| 1 | ``pbem health`` / ``pbem status --check``: unhealthy |
| 2 | bad command line (unknown option, missing argument) |
| 69 | EX_UNAVAILABLE: a port it must listen on (``--health-port``) is taken |
| 70 | EX_SOFTWARE: an unexpected error stopped the service (logged with its traceback) |
| 78 | EX_CONFIG: the configuration is missing or wrong (file, values, database URL) |

A database that is unreachable at start is not an exit: ``pbem serve`` waits for it (1 s,
doubling to 10 s) and its health check says so meanwhile.
"""

from __future__ import annotations

EX_OK = 0
EX_UNHEALTHY = 1
EX_USAGE_CLICK = 2
EX_UNAVAILABLE = 69
EX_SOFTWARE = 70
EX_CONFIG = 78
