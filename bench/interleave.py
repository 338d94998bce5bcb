#!/usr/bin/env python3
"""Wall time of commands side by side: each command run in turn, N rounds,
so that all meet the host's load alike; least, first quartile and median
of each, in seconds. Earlier sections of README.md call it multi.py.

Usage: bench/interleave.py N "CMD ARGS..." ["VAR=value CMD ARGS..." ...]
  e.g. bench/interleave.py 41 "urix -c -j 1 text.txt" "urix -c text.txt"
A command may start with VAR=value words, set in its environment only.
"""
import os
import statistics
import subprocess
import sys
import time

n = int(sys.argv[1])
cmds = []
for c in sys.argv[2:]:
    parts, env = c.split(), dict(os.environ)
    while parts and "=" in parts[0] and not parts[0].startswith("/"):
        k, v = parts.pop(0).split("=", 1)
        env[k] = v
    cmds.append((c, parts, env))
res = [[] for _ in cmds]
for _ in range(n):
    for i, (_, argv, env) in enumerate(cmds):
        s = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        res[i].append(time.perf_counter() - s)
for (c, _, _), r in zip(cmds, res):
    x = sorted(r)
    print("%-70s least %.4f q1 %.4f median %.4f" % (c[-70:], x[0], x[len(x) // 4], statistics.median(x)))
