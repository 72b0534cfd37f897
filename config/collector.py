"""Python's cyclic garbage collector, set for a long-running server process.

Under ``bench/load.py`` the collector took about 7 % of the web workers' CPU per move
(1.1 of 15 ms; issue 11, docs/benchmarks.md): a move makes thousands of short-lived
containers (a render's context, the parts, the frames), so the youngest generation
filled up after 700 of them, about once a move in each worker, every tenth of those
passes went on to the middle generation, and every tenth of those to a full collection
that walked the whole heap, Django and every module included (about 150,000 objects,
80 to 160 ms each time).

So once the process has imported everything (``config.asgi``):

- what exists then is frozen (``gc.freeze``): modules, classes, settings and the
  URL and template machinery live as long as the process, and a full collection no
  longer walks them;
- the youngest generation holds ``YOUNG`` containers before a pass instead of 700:
  most of a move's objects are freed by reference counting before the next pass, so
  fewer of them are walked at all, and fewer reach the older generations.

Cycles are still collected; only less often, and over fewer objects. ``GC_TUNING=0``
in the environment leaves Python's defaults (to measure the difference).
"""

import gc
import os

YOUNG = 20_000


def tune():
    """Freeze what the process holds now and widen the youngest generation (once)."""
    if os.environ.get("GC_TUNING", "1") == "0" or gc.get_freeze_count():
        return
    gc.collect()  # what is garbage now is not frozen with the rest
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
