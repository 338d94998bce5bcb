#!/usr/bin/env python3
"""Wall and CPU time of commands side by side: each command run in turn,
N rounds, so that all meet the host's load alike; least, first quartile
and median wall time of each, then least and median CPU time (user+sys of
the process and its threads, from os.wait4), in seconds. Output goes to
/dev/null. Earlier sections of README.md call it multi.py; the CPU
columns came in session 15 (for a while bench/wallcpu.py).

Usage: bench/interleave.py N "CMD ARGS..." ["VAR=value CMD ARGS..." ...]
  e.g. bench/interleave.py 41 "urix -c -j 1 text.txt" "urix -c text.txt"
A command may start with VAR=value words, set in its environment only.
"""
import os
import shutil
import statistics
import sys
import time

n = int(sys.argv[1])
cmds = []
for c in sys.argv[2:]:
    parts, env = c.split(), dict(os.environ)
    while parts and "=" in parts[0] and not parts[0].startswith("/"):
        k, v = parts.pop(0).split("=", 1)
        env[k] = v
    parts[0] = shutil.which(parts[0], path=env.get("PATH")) or parts[0]
    cmds.append((c, parts, env))
wall = [[] for _ in cmds]
cpu = [[] for _ in cmds]
devnull = os.open(os.devnull, os.O_WRONLY)
for _ in range(n):
    for i, (_, argv, env) in enumerate(cmds):
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, _, ru = os.wait4(pid, 0)
        wall[i].append(time.perf_counter() - start)
        cpu[i].append(ru.ru_utime + ru.ru_stime)
for (c, _, _), w, u in zip(cmds, wall, cpu):
    x = sorted(w)
    print("%-70s least %.4f q1 %.4f median %.4f  cpu least %.4f median %.4f" % (
        c[-70:], x[0], x[len(x) // 4], statistics.median(x), min(u), statistics.median(u)))
