"""Python's cyclic garbage collector, set for a long-running server process.

Under ``bench/load.py`` the collector took a measurable share of the web workers' CPU
per move (figures: docs/benchmarks.md): a move makes thousands of short-lived
containers (a render's context, the parts, the frames), so Python's default youngest
generation (700 objects) filled up every other move or so, every tenth of those passes
went on to the middle generation, and every tenth of those to a full collection that
walked the whole heap, Django and every module included.

So once the process has imported everything (``config.asgi``):

- what exists then is frozen (``gc.freeze``): modules, classes, settings and the
  URL and template machinery live as long as the process, and a full collection no
  longer walks them;
- the youngest generation holds ``YOUNG`` containers before a pass instead of 700:
  most of a move's objects are freed by reference counting before the next pass, so
  fewer of them are walked at all, and fewer reach the older generations.

Cycles are still collected; only less often, and over fewer objects. ``GC_TUNING=0``
in the environment leaves Python's defaults (to measure the difference). ``GC_LOG``, a
folder, makes each process write a line per collection there (``bench/load.py --gc``
sums them over its load).
"""

import gc
import os
import time
from pathlib import Path

YOUNG = 20_000


def set_up():
    """What a server process does once it has imported everything (``config.asgi``)."""
    folder = os.environ.get("GC_LOG")
    if folder:
        log_passes(Path(folder) / f"gc-{os.getpid()}.log")
    if os.environ.get("GC_TUNING", "1") != "0":
        tune()


def tune():
    """Freeze what the process holds now and widen the youngest generation (once)."""
    if gc.get_freeze_count():
        return
    gc.collect()  # what is garbage now is not frozen with the rest
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


def log_passes(path):
    """Append a line per collection to ``path``: when it ended (seconds since the
    epoch), its generation (0 young, 1 middle, 2 full) and how long it took (seconds;
    the process holds the GIL throughout, so about its CPU). For measuring only."""
    out = open(path, "a", buffering=1)  # noqa: SIM115 (open while the process lives)
    started = 0.0

    def record(phase, info):
        nonlocal started
        if phase == "start":
            started = time.perf_counter()
        else:
            took = time.perf_counter() - started
            out.write(f"{time.time():.3f} {info['generation']} {took:.6f}\n")

    gc.callbacks.append(record)
