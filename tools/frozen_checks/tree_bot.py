"""An ``exe:`` bot for ``tools/check_frozen.py``'s tournament check: a process tree.

    python tree_bot.py HEARTBEAT_FILE [HANG_AT]

It speaks the bot protocol (one JSON view per line in, one move per line out: the
first legal move), and first starts a helper process of its own that appends a line
to ``HEARTBEAT_FILE`` every 0.1 s for as long as it lives, whatever happens to its
parent. At its ``HANG_AT``-th decision (default 5; 0: never) it stops answering, once
in the whole tournament (``HEARTBEAT_FILE.hung`` marks it), so the tournament's time
limit ends it and starts it again.

When the tournament is over, no helper may still be beating: the tournament ends
every process a bot started, not only the bot.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def beat(path: str) -> None:
    while True:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {time.time():.3f}\n")
        time.sleep(0.1)


def serve(path: str, hang_at: int) -> None:
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "--beat", path],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    n = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        n += 1
        if n == hang_at and not os.path.exists(path + ".hung"):
            open(path + ".hung", "w").close()
            time.sleep(3600)
        view = json.loads(line)
        sys.stdout.write(json.dumps(view["legal"][0]) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--beat"]:
        beat(sys.argv[2])
    else:
        serve(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
