"""The one timing loop of the Python benchmarks (peers.py, gil.py): time per call of
callables on one buffer, their samples interleaved."""
import statistics
import time
import timeit


def time_per_call(contenders, data, repeat, target_s):
    """{label: (min ns, median ns)} per call of fn(data) for each (label, fn) or
    (label, fn, setup) of contenders.  setup, when given, runs before each of that
    contender's samples, outside the timed loop (to set a mode, such as the GIL
    threshold).  The contenders take turns within each repeat, so that a change in the
    machine's load falls on all of them alike.  Time is the timing thread's CPU time
    (time.thread_time), so that moments when a shared machine runs other processes on
    this CPU are not counted against whoever was being timed; each sample lasts about
    target_s seconds."""
    plans = []
    for label, fn, *setup in contenders:
        timer = timeit.Timer("fn(data)", setup="setup()", timer=time.thread_time,
                             globals={"fn": fn, "data": data,
                                      "setup": setup[0] if setup else lambda: None})
        number, elapsed = timer.autorange()  # enough calls for >= 0.2 s
        plans.append((label, timer, max(1, int(number * target_s / elapsed))))
    runs = {label: [] for label, _, _ in plans}
    for _ in range(repeat):
        for label, timer, number in plans:
            runs[label].append(timer.timeit(number) / number * 1e9)
    return {label: (min(r), statistics.median(r)) for label, r in runs.items()}
