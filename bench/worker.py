"""One benchmark worker: what ``pbem serve`` does, with settings given as JSON (``PBEM_BENCH_SETTINGS``).

``bench.pipeline --workers N`` starts N of these on one database; each serves until SIGTERM
(a graceful stop: every job finishes its round, as ``pbem serve`` does), then prints its CPU time.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import time

from service.config import Settings
from service.schedule.runtime import Service


def main() -> None:
    settings = Settings(**json.loads(os.environ["PBEM_BENCH_SETTINGS"]))

    async def serve() -> None:
        service = await Service.when_ready(settings)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, service.stop)
        print(f"ready {time.process_time():.3f}", flush=True)
        await service.serve_forever()

    asyncio.run(serve())
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the outbox process, ended with the service
    print(f"cpu {time.process_time() + children.ru_utime + children.ru_stime:.3f}", flush=True)


if __name__ == "__main__":
    main()
