#!/usr/bin/env python3
"""Wall and CPU time of commands side by side: each command run in turn,
N rounds, so that all meet the host's load alike; least and median wall
time and CPU time (user+sys of the process and its threads, from
os.wait4) of each, in seconds. Output goes to /dev/null.

Usage: bench/wallcpu.py N "CMD ARGS..." ["VAR=value CMD ARGS..." ...]
  e.g. bench/wallcpu.py 31 "urix -c mail.mbox" "URIX_X=1 urix -c mail.mbox"
A command may start with VAR=value words, set in its environment only;
CMD is a path (it is not looked up on PATH).
"""
import os
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
    print("%-75s wall %.4f / %.4f  cpu %.4f / %.4f  (least / median)" % (
        c[-75:], min(w), statistics.median(w), min(u), statistics.median(u)))
