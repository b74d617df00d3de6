"""Schedule: what runs by itself. ``runtime.Service`` is ``pbem serve``: the poll (IDLE or
timer), the outbox worker and the deadline sweep, each a worker task woken by APScheduler. The
deadline policy, reminders and absences land here.
"""
