#!/usr/bin/env python3
"""Every performance figure of loopstep next to its target, in one command.

    python3 scripts/perf.py            # build, generate the inputs, measure
    python3 scripts/perf.py --keep DIR # keep the generated inputs in DIR

It builds the release binary, generates the large inputs (never committed),
times the command line end to end against Python's own json.load of the same
file (the two measured alternately), reads peak memory from the kernel, times
the first frame through a pseudo-terminal against `less`, and runs the divan
benchmarks for what happens inside the screen. Figures for
docs/performance.md come from here.
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


def chat(path, prompts=10_000):
    """A chat of `prompts` one-word questions, each answered in one word:
    every prompt is a run whose history is the whole chat before it."""
    messages = []
    for _ in range(prompts):
        messages += [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}]
    with open(path, "w") as f:
        json.dump({"model": "gpt-5", "messages": messages}, f)


def claude_code_session(path, prompts=40, rounds=595, result_bytes=20_000):
    """A Claude Code session: `prompts` prompts, each followed by `rounds` tool
    rounds whose replies are written as the client writes them, one line per
    block (thinking, text, tool_use) sharing the response's message id, and
    a tool result line with a `result_bytes` result; then an answer."""
    page = lorem(result_bytes)
    session = "0f3c8a52-5d2e-4c1b-9a7e-2b6f1d9e4c77"
    parent = None
    n = 0

    def line(f, kind, message, **extra):
        nonlocal parent, n
        n += 1
        uuid = f"00000000-0000-4000-8000-{n:012d}"
        record = {"parentUuid": parent, "isSidechain": False, "userType": "external",
                  "cwd": "/home/user/project", "sessionId": session, "version": "2.0.14",
                  "type": kind, "message": message, "uuid": uuid,
                  "timestamp": f"2026-11-{1 + n // 2_000_000:02d}T10:00:00.000Z", **extra}
        parent = uuid
        f.write(json.dumps(record) + "\n")

    def reply(f, msg_id, blocks, stop):
        for block in blocks:
            line(f, "assistant", {"id": msg_id, "type": "message", "role": "assistant",
                                  "model": "claude-sonnet-4-5", "content": [block],
                                  "stop_reason": stop, "stop_sequence": None,
                                  "usage": {"input_tokens": 12, "output_tokens": 40}},
                 requestId=f"req_{msg_id}")

    with open(path, "w") as f:
        for p in range(prompts):
            line(f, "user", {"role": "user", "content": f"Task {p}: read every file and report."})
            for r in range(rounds):
                tool_id = f"toolu_{p:03d}_{r:04d}"
                reply(f, f"msg_{p:03d}_{r:04d}", [
                    {"type": "thinking", "thinking": "The next file may hold it.", "signature": "sig"},
                    {"type": "text", "text": "Reading the next file."},
                    {"type": "tool_use", "id": tool_id, "name": "Read",
                     "input": {"file_path": f"/home/user/project/src/{r}.rs"}},
                ], "tool_use")
                line(f, "user", {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": tool_id, "content": page}]},
                     toolUseResult={"type": "text", "file": {"filePath": f"src/{r}.rs"}})
            reply(f, f"msg_{p:03d}_end", [{"type": "text", "text": "Every file is read."}], "end_turn")


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
    talk = os.path.join(folder, "chat-20000-messages.json")
    session = os.path.join(folder, "claude-code-40x595.jsonl")
    for path, make in [(big, openai_log), (multi, anthropic_log), (talk, chat),
                       (session, claude_code_session)]:
        if not os.path.exists(path):
            make(path)
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

    with open(os.devnull, "w") as null:
        for command in (["run", talk, "--format", "json"], ["import", talk]):
            t, peak = measured([BIN, *command], stdout=null)
            row(f"`{command[0]}` on a chat of 20,000 messages (10,000 prompts)",
                f"{t:.2f} s, {peak / 1e6:.0f} MB", "≤ 3 s, ≤ 300 MB", t <= 3 and peak <= 300e6)

    session_size = os.path.getsize(session)
    python_lines = [sys.executable, "-c",
                    "import json, sys\nfor line in open(sys.argv[1]): json.loads(line)"]
    ours, theirs, peak = alternately([BIN, "validate", session], python_lines + [session])
    row(f"`validate` {session_size / 1e6:.0f} MB Claude Code session, time ÷ Python json.loads per line",
        f"{ours / theirs:.2f}× ({ours:.2f} s vs {theirs:.2f} s)", "≤ 0.5×", ours / theirs <= 0.5)
    row("the same, peak memory ÷ file size", f"{peak / session_size:.1f}× ({peak / 1e6:.0f} MB)",
        "≤ 1.2×", peak / session_size <= 1.2)
    first_run = first_output([BIN, "play", session], b"turn 0", timeout=60)
    if first_run is not None:
        row("`play` on it: the first prompt's run on screen", f"{first_run:.2f} s", "≤ 1 s",
            first_run <= 1)

    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
