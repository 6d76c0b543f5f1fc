"""What every Dask worker of a LocalCluster runs when it starts (a Dask preload module).

A terminal sends Ctrl-C to the whole process group: the LocalCluster's worker processes get it
too. Left at Python's default they die with a KeyboardInterrupt traceback while the command
waits on their tasks; here they ignore it, so the command alone decides what a Ctrl-C does (stop
after the work in flight, print what finished, close the cluster).
"""

from __future__ import annotations

import signal
import threading


def dask_setup(worker: object) -> None:
    """Dask's preload hook, in the worker process at start: ignore SIGINT there."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
