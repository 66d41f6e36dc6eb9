# SPDX-License-Identifier: MIT
"""python/bench/timing.py, the timing loop of the Python benchmarks and the order of
scripts/multi_algo_bench.py's rounds: balanced orders, every sample after its setup and one
untimed call, in those orders, ratios paired within a round, and the counts of rounds
its scripts take."""
import argparse
import collections
import importlib.util
import itertools
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_timing",
                                               ROOT / "python" / "bench" / "timing.py")
timing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(timing)


@pytest.mark.parametrize("count", range(1, 13))
def test_round_orders_are_balanced(count):
    """Over each 2n rounds, every subject comes first exactly twice and follows every other
    one exactly twice (a rotation, the order before, gives each the same predecessor)."""
    for start in (0, 2 * count, 6 * count):
        firsts, follows = collections.Counter(), collections.Counter()
        for r in range(start, start + 2 * count):
            order = timing.round_order(r, count)
            assert sorted(order) == list(range(count)), (r, order)
            firsts[order[0]] += 1
            follows.update(zip(order, order[1:]))
        assert firsts == {i: 2 for i in range(count)}
        assert follows == {(a, b): 2 for a, b in itertools.permutations(range(count), 2)}


def test_rounds_run_in_order_after_setup_and_a_warm_call(monkeypatch):
    """Each sample is preceded by its contender's setup and one call before the clock
    starts; the rounds take the contenders in round_order."""
    log = []
    clock = timing.time.thread_time

    def logged_clock():
        log.append(("clock",))
        return clock()

    monkeypatch.setattr(timing.time, "thread_time", logged_clock)
    labels = ["a", "b", "c", "d"]

    def contender(label):
        def fn(data):
            log.append(("call", label, len(data)))
        return (label, fn, lambda: log.append(("setup", label)))

    repeat = 9
    runs = timing.time_rounds([contender(x) for x in labels], b"xyz", repeat, 1e-4)
    assert {k: len(v) for k, v in runs.items()} == {x: repeat for x in labels}
    assert all(ns > 0 for v in runs.values() for ns in v)
    setups = [i for i, e in enumerate(log) if e[0] == "setup"]
    samples = setups[-repeat * len(labels):]  # autorange's trials come first
    expected = [labels[i] for r in range(repeat) for i in timing.round_order(r, len(labels))]
    assert [log[i][1] for i in samples] == expected
    for i in samples:  # setup, one call, then the clock starts
        assert log[i + 1:i + 3] == [("call", log[i][1], 3), ("clock",)], log[i:i + 4]


def test_paired_ratio_cancels_the_machine_speed_of_each_round():
    base = [10.0, 25.0, 11.0, 40.0, 12.0, 9.0, 30.0]
    med, q1, q3 = timing.paired_ratio([2 * t for t in base], base)
    assert (med, q1, q3) == (2.0, 2.0, 2.0)
    # Ratios of separately taken medians would not see this: each round's ratio, sorted
    ratios = [1.0, 1.1, 1.2, 1.3, 1.4]
    med, q1, q3 = timing.paired_ratio([r * t for r, t in zip(ratios, base)], base[:5])
    assert med == pytest.approx(1.2) and q1 == pytest.approx(1.1) and q3 == pytest.approx(1.3)
    assert timing.paired_ratio([3.0], [2.0]) == (1.5, 1.5, 1.5)
    with pytest.raises(ValueError):
        timing.paired_ratio([1.0, 2.0], [1.0])


def test_whole_number_takes_counts_and_names_what_it_refuses():
    assert timing.whole_number(1)("41") == 41
    assert timing.whole_number(0)("0") == 0
    for least, text in ((1, "0"), (1, "-3"), (0, "-1"), (1, "x"), (1, "1.5"), (1, "")):
        with pytest.raises(argparse.ArgumentTypeError, match=f"{text!r} is not a whole number "
                                                             f"of at least {least}"):
            timing.whole_number(least)(text)
