# SPDX-License-Identifier: MIT
"""The one timing loop of the Python benchmarks (peers.py, gil.py, and the order of
scripts/multi_algo_bench.py's rounds): time per call of callables on one buffer, their
samples interleaved in balanced orders, ratios paired within a round, and the check of
their counts of rounds."""
import argparse
import statistics
import time
import timeit


def round_order(round_, count):
    """The order of `count` subjects in round `round_`, as crcforge bench takes them:
    Williams' design (0, 1, n-1, 2, n-2, ... plus the round, mod n), reversed in every
    other block of n rounds.  Over each 2n rounds each subject follows each other one
    exactly twice and comes first exactly twice: a subject inherits the cache, predictor
    and clock state of the one before it, so no subject always follows the same one."""
    shift, reverse = round_ % count if count else 0, (round_ // count) % 2 if count else 0
    base = [0 if j == 0 else (j + 1) // 2 if j % 2 else count - j // 2 for j in range(count)]
    order = [(b + shift) % count for b in base]
    return order[::-1] if reverse else order


def time_rounds(contenders, data, repeat, target_s):
    """{label: [ns per call, one a round]} of fn(data) for each (label, fn) or
    (label, fn, setup) of contenders.  setup, when given, runs before each of that
    contender's samples, outside the timed loop (to set a mode, such as the GIL
    threshold); then one untimed call, so that a sample does not time the state the
    contender before it left.  Every round times each contender once, in round_order,
    so that a change in the machine's load falls on all of them alike.  Time is the
    timing thread's CPU time (time.thread_time), so that moments when a shared machine
    runs other processes on this CPU are not counted against whoever was being timed;
    each sample lasts about target_s seconds."""
    plans = []
    for label, fn, *setup in contenders:
        timer = timeit.Timer("fn(data)", setup="setup(); fn(data)", timer=time.thread_time,
                             globals={"fn": fn, "data": data,
                                      "setup": setup[0] if setup else lambda: None})
        number, elapsed = timer.autorange()  # enough calls for >= 0.2 s
        plans.append((label, timer, max(1, int(number * target_s / elapsed))))
    runs = {label: [] for label, _, _ in plans}
    for r in range(repeat):
        for i in round_order(r, len(plans)):
            label, timer, number = plans[i]
            runs[label].append(timer.timeit(number) / number * 1e9)
    return runs


def paired_ratio(numerator, denominator):
    """(median, first quartile, third quartile) over the rounds of numerator[r] /
    denominator[r]: two subjects' times taken in the same rounds, so that a change of
    the machine's speed between rounds falls out of each ratio."""
    ratios = [n / d for n, d in zip(numerator, denominator, strict=True)]
    if len(ratios) == 1:
        return ratios[0], ratios[0], ratios[0]
    q1, med, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
    return med, q1, q3


def whole_number(least):
    """An argparse type: a whole number of at least `least` (rounds, repeats), anything else
    refused with a message naming it, before anything is timed or written."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < least:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least {least}")
        return value
    return parse
