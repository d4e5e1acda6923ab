"""Run every oddsmith command once, quickly, and fail on the first that breaks.

The smoke test of the dependency-floor CI job (docs/development.md,
'Packaging'): installed with the lowest declared versions of its
dependencies, oddsmith must still run every command. Each command runs as
``PYTHON -m oddsmith ...`` in a fresh temporary folder (so the installed
package is used, not a checkout), with few trials, and must exit 0 and print
something (or write its output file).

    python scripts/smoke_commands.py                  # with this interpreter
    python scripts/smoke_commands.py --python /tmp/floor/bin/python
    python scripts/smoke_commands.py --list           # the commands, not run
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (arguments, file the command writes or None for stdout). Every command and
# subcommand of the CLI appears at least once; trials are kept small.
COMMANDS: list[tuple[list[str], str | None]] = [
    (["--version"], None),
    (["hand", "AS AC 8S 8C JD", "-f", "json"], None),
    (["deck", "list"], None),
    (["deck", "show", "law-dogs"], None),
    (["deck", "draws", "law-dogs", "--type", "deed", "--day", "1"], None),
    (["deck", "tune", "law-dogs", "--vs", "outlaws", "--swaps", "1"], None),
    (["sweep", "law-dogs", "outlaws", "--vs", "balanced", "-o", "sweep.csv"], "sweep.csv"),
    (["completion", "bash"], None),
    (["serve", "--help"], None),
    (["lowball", "law-dogs", "--vs", "outlaws"], None),
    (["lowball", "balanced", "-t", "2000", "--seed", "1", "--simulate", "-n", "3"], None),
    (["pull", "law-dogs", "--skill", "2", "--difficulty", "8"], None),
    (["shootout", "stack-16-16-16", "--stud", "2", "--draw", "1", "-t", "2000", "--seed", "1"], None),
    (["shootout", "law-dogs", "--vs", "outlaws", "-t", "2000", "--seed", "1"], None),
    (["shootout", "law-dogs", "--posse", "Philip Swinford; Tommy Harden", "--vs", "outlaws",
      "--vs-posse", "Allie Hensman; Ike Clanton", "--full", "-t", "1000", "--seed", "1"], None),
    (["tradeoff", "balanced", "--vs", "balanced", "--studs", "0-1", "--draws", "0-1", "-t", "1000", "--seed", "1"],
     None),
    (["shadows", "test", "--die", "d8", "--dice", "3"], None),
    (["shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--weapon", "carbine",
      "--range", "long"], None),
    (["shadows", "fight", "--attacker", "hero", "--defender", "novice"], None),
    (["shadows", "recover", "--rank", "veteran"], None),
    (["shadows", "bottle", "--rank", "novice"], None),
    (["shadows", "cast", "--rank", "hero", "--difficulty", "3"], None),
    (["shadows", "dynamite", "--rank", "veteran"], None),
    (["shadows", "table", "bottle", "-f", "csv"], None),
    (["shadows", "advance", "--rank", "veteran"], None),
    (["shadows", "injury", "--rank", "hero"], None),
    (["shadows", "income"], None),
    (["shadows", "recruit", "--boss", "veteran"], None),
    (["shadows", "search", "--boss", "hero"], None),
    (["shadows", "posse", "--faction", "twilight", "--view", "costs"], None),
    (["shadows", "battle", "twilight-order", "--vs", "dark-confederacy", "-t", "300", "--seed", "1"], None),
    (["shadows", "value", "unaligned", "--vs", "twilight-order", "-t", "100", "--top", "3", "--seed", "1"], None),
    (["report", "shadows", "-t", "200", "--seed", "1", "-o", "sheets.md"], "sheets.md"),  # charts drawn as PNG
    (["report", "deck", "law-dogs", "--vs", "outlaws", "-t", "500", "--seed", "1", "-o", "deck.pdf"],
     "deck.pdf"),  # PDF pages
]


def run(python: str, timeout: float) -> int:
    """Run every command; print one line per command; return the number that failed."""
    failed = 0
    env = dict(os.environ, MPLBACKEND="Agg", COLUMNS="100")
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="oddsmith-smoke-") as where:
        for args, output in COMMANDS:
            start = time.perf_counter()
            try:
                done = subprocess.run([python, "-m", "oddsmith", *args], cwd=where, env=env, capture_output=True,
                                      text=True, timeout=timeout, stdin=subprocess.DEVNULL)
                code, out, err = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired:
                code, out, err = -1, "", f"timed out after {timeout:g} s"
            took = time.perf_counter() - start
            wrote = (Path(where) / output).stat().st_size if output and (Path(where) / output).exists() else 0
            ok = code == 0 and (wrote > 0 if output else bool(out.strip()))
            print(f"{'ok  ' if ok else 'FAIL'} {took:5.1f} s  oddsmith {' '.join(args)}", flush=True)
            if not ok:
                failed += 1
                print(f"     exit {code}; stderr:\n" + "\n".join("     " + line for line in err.strip().splitlines()[-15:]))
    return failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="interpreter with oddsmith installed")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds allowed per command")
    ap.add_argument("--list", action="store_true", help="print the commands and exit")
    a = ap.parse_args()
    if a.list:
        for args, _ in COMMANDS:
            print("oddsmith " + " ".join(args))
        return 0
    start = time.perf_counter()
    failed = run(a.python, a.timeout)
    print(f"smoke: {len(COMMANDS) - failed} of {len(COMMANDS)} commands ok in {time.perf_counter() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
