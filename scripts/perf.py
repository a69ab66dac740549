#!/usr/bin/env python3
"""Every performance figure of loopstep next to its target, in one command.

    python3 scripts/perf.py            # build, generate the inputs, measure
    python3 scripts/perf.py --keep DIR # keep the generated inputs in DIR

It builds the release binary, generates the large inputs (never committed),
times the command line end to end against Python's own json.load of the same
file (the two measured alternately), reads peak memory from the kernel, times
the first frame through a pseudo-terminal against `less`, and runs the divan
benchmarks for what happens inside the screen. Figures for README's
"Performance" table come from here.
"""

import argparse
import json
import os
import pty
import re
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "loopstep")
ROUNDS = 5  # alternating repetitions per timing


def lorem(size):
    text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
    return (text * (size // len(text) + 1))[:size]


def openai_log(path, rounds=12_000, result_bytes=4096):
    """One question, `rounds` tool rounds with results of `result_bytes`, then an answer."""
    page = lorem(result_bytes)
    messages = [{"role": "user", "content": "Fetch every page, then say done."}]
    for r in range(rounds):
        call = f"call_{r}"
        messages.append({
            "role": "assistant",
            "content": None,
            "tool_calls": [{
                "id": call,
                "type": "function",
                "function": {"name": "fetch", "arguments": json.dumps({"url": f"https://example.org/{r}"})},
            }],
        })
        messages.append({"role": "tool", "tool_call_id": call, "content": page})
    messages.append({"role": "assistant", "content": "Done."})
    with open(path, "w") as f:
        json.dump({"model": "gpt-5", "messages": messages}, f)


def anthropic_log(path, prompts=5, rounds=400, page_bytes=25_000):
    """`prompts` questions, each followed by `rounds` tool rounds and an answer."""
    page = lorem(page_bytes)
    messages = []
    for p in range(prompts):
        messages.append({"role": "user", "content": f"Question number {p}?"})
        for r in range(rounds):
            tool_id = f"toolu_{p}_{r}"
            messages.append({"role": "assistant", "content": [
                {"type": "text", "text": "Let me fetch another page."},
                {"type": "tool_use", "id": tool_id, "name": "fetch",
                 "input": {"url": f"https://example.org/{p}/{r}"}},
            ]})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": tool_id, "content": page},
            ]})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": "Here is the answer."}]})
    with open(path, "w") as f:
        json.dump({"model": "claude-opus-5-5", "messages": messages}, f)


def measured(argv, stdout=subprocess.DEVNULL):
    """Wall seconds and peak resident bytes of one run of `argv`."""
    start = time.perf_counter()
    pid = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL).pid
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return elapsed, usage.ru_maxrss * 1024


def alternately(a, b):
    """Median wall time of each of two commands, run in turns; and a's peak memory."""
    times_a, times_b, peaks = [], [], []
    for _ in range(ROUNDS):
        t, peak = measured(a)
        times_a.append(t)
        peaks.append(peak)
        times_b.append(measured(b)[0])
    return statistics.median(times_a), statistics.median(times_b), max(peaks)


def first_output(argv, marker, timeout=10.0):
    """Seconds until `marker` appears on a pseudo-terminal of 200×50 running `argv`."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(LINES="50", COLUMNS="200", TERM="xterm-256color")
        os.execvp(argv[0], argv)
    import fcntl
    import struct
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    seen = b""
    found = None
    while time.perf_counter() - start < timeout:
        ready, _, _ = select.select([fd], [], [], 0.01)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
            if marker in seen:
                found = time.perf_counter() - start
                break
    os.write(fd, b"q")
    time.sleep(0.05)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    return found


def divan(bench):
    """Median and slowest sample of each divan benchmark in `bench`, by name, in seconds."""
    out = subprocess.run(["cargo", "bench", "--bench", bench], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    units = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
    figures = {}
    for line in out.splitlines():
        # "│  ├─ name   fastest │ slowest │ median │ …": the tree, then columns.
        row = re.sub(r"^[\s│├╰─]+", "", line)
        cells = [c.strip() for c in row.split("│")]
        time = lambda cell: re.fullmatch(r"([\d.]+) (ns|µs|ms|s)", cell)
        if len(cells) >= 4 and cells[0] and time(cells[2]) and time(cells[1]):
            median, slowest = time(cells[2]), time(cells[1])
            name = cells[0].split()[0]
            figures[name] = (float(median[1]) * units[median[2]],
                             float(slowest[1]) * units[slowest[2]])
    return figures


def row(what, figure, target, met):
    print(f"| {what} | {figure} | {target} | {'met' if met else 'MISSED'} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="generate the inputs into this folder and keep them")
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    folder = args.keep or tempfile.mkdtemp(prefix="loopstep-perf-")
    os.makedirs(folder, exist_ok=True)
    big = os.path.join(folder, "openai-12000-rounds.json")
    multi = os.path.join(folder, "anthropic-5x400.json")
    if not os.path.exists(big):
        openai_log(big)
    if not os.path.exists(multi):
        anthropic_log(multi)
    big_size, multi_size = os.path.getsize(big), os.path.getsize(multi)
    python = [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))"]

    print(f"inputs: {big} ({big_size / 1e6:.1f} MB), {multi} ({multi_size / 1e6:.1f} MB)\n")
    print("| figure | measured | target | |")
    print("|---|---|---|---|")

    replay = divan("replay")
    few, many = replay["1000"][0], replay["16000"][0]
    row("replay 16,000 turns ÷ 1,000 turns", f"{many / few:.1f}× ({few * 1e3:.1f} → {many * 1e3:.1f} ms)",
        "≤ 20×", many / few <= 20)

    ours, theirs, peak = alternately([BIN, "validate", big], python + [big])
    row("`validate` 50 MB log, time ÷ Python json.load", f"{ours / theirs:.2f}× ({ours:.2f} s vs "
        f"{theirs:.2f} s)", "≤ 0.5×", ours / theirs <= 0.5)
    row("`validate` 50 MB log, peak memory ÷ file size", f"{peak / big_size:.1f}× ({peak / 1e6:.0f} MB)",
        "≤ 1.5×", peak / big_size <= 1.5)

    less = shutil.which("less")
    ours_first = first_output([BIN, "play", big], b"opening")
    if less:
        less_first = first_output([less, big], b"Lorem")
        if ours_first is not None and less_first is not None:
            row("`play` 50 MB log, first frame", f"{ours_first * 1e3:.0f} ms (less: {less_first * 1e3:.0f} ms)",
                "≤ less + 100 ms", ours_first <= less_first + 0.1)
    ours_open = first_output([BIN, "play", big], b"turn 0")
    if ours_open is not None:
        print(f"| `play` 50 MB log, first turn drawn | {ours_open * 1e3:.0f} ms | (no target) | |")

    keys = divan("keys")
    budget = keys.pop("budget_down_or_up")
    worst = max(median for median, _ in keys.values())
    slowest = max(slow for _, slow in keys.values())
    row("key → update + draw at 200×50 on the 50 MB log, start/middle/end (worst median; slowest sample)",
        f"{worst * 1e3:.2f} ms; {slowest * 1e3:.2f} ms", "< 1 ms median, < 5 ms p99",
        worst < 1e-3 and slowest < 5e-3)
    row("`-` or `+` plus a draw at the end of the 50 MB log", f"{budget[0] * 1e3:.2f} ms", "< 50 ms",
        budget[0] < 0.05)

    with open(os.devnull, "w") as null:
        t, peak = measured([BIN, "run", multi, "--format", "json"], stdout=null)
    row("`run --format json` 5 prompts × 400 rounds, peak memory ÷ file size",
        f"{peak / multi_size:.1f}× ({peak / 1e6:.0f} MB, {t:.2f} s)", "< 2×", peak / multi_size < 2)

    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
