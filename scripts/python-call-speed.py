#!/usr/bin/env python3
"""What a call of the Python package costs beside the games it plays: the wall time of one
`warsim.simulate("war", games=1, threads=1)` (median of CALLS calls), and of 1,000 calls of
1,000 games each in a loop, with the CPU named. Run it with the `warsim` package to be timed
installed (`pip install '.[notebook]'`, or scripts/python-test.sh which installs it); compare
two versions by running it under each.

Usage: scripts/python-call-speed.py [CALLS]   (default 200)
"""
import platform
import statistics
import sys
import time

import warsim


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    warsim.simulate("war", games=1, threads=1)  # the first call loads what it loads once
    small = [seconds(lambda: warsim.simulate("war", games=1, threads=1)) for _ in range(calls)]
    loop = seconds(lambda: [warsim.simulate("war", games=1000, seed=s, threads=1)
                            for s in range(1000)])
    print(f"warsim {warsim.__version__} on {cpu()}, Python {platform.python_version()}")
    print(f"one call of 1 game: median {1000 * statistics.median(small):.2f} ms "
          f"(of {calls} calls; min {1000 * min(small):.2f} ms)")
    print(f"1,000 calls of 1,000 games: {loop:.2f} s ({loop:.2f} ms a call)")


if __name__ == "__main__":
    main()
