"""What `toolargs gate` costs: one MCP server, called directly and through the gate, in one run.

Needs Python 3.8+ (standard library only) and a release build of the CLI:

    cargo build --release -p toolargs-cli && python3 scripts/gate_bench.py

The server is `scripts/gate_bench_server.py` (standard library only): one refund tool, and
answers that cost it little. The client is this script, raw JSON-RPC (no MCP SDK). Four parts,
each printed as a Markdown table:

1. **stdio latency.** Two copies of the server, one started directly and one behind
   `toolargs gate -- python3 gate_bench_server.py`; each gets `initialize`, `tools/list`, then
   sequential `tools/call` round trips, one in flight, each timed with `perf_counter_ns` from
   writing the request to reading the answer's line. Clean calls (`"amount_cents": 1999`) and
   repaired ones (`"amount_cents": "1999"`, which the gate forwards as `1999`), in rounds that
   alternate direct and gated (the first of each round swaps), so that the machine's noise
   falls on both. Gives the median, p90 and p99 of each, and what the gate adds at the median,
   in microseconds and as a share of the direct median.
2. **HTTP.** The server at a Streamable HTTP endpoint, and
   `toolargs gate --listen 127.0.0.1:0 --upstream http://127.0.0.1:PORT/mcp` in front of it.
   First one client's sequential round trips, in rounds alternating direct and gated; then
   `--clients` threads, each with a session of its own on a keep-alive `http.client`
   connection (the sessions open one after another), call together for `--seconds`, in
   rounds alternating direct and gated. Gives the calls per second of each, their ratio, the
   CPU time per call of the client, the server and the gate (`/proc/PID/stat`), and how many
   connections the server accepted.
3. **Memory.** `--memory-calls` calls through the stdio gate, pipelined (at most `--window`
   in flight), half clean and half repaired, each with an id of its own, sampling the gate's
   resident memory (`VmRSS` of `/proc/PID/status`) every tenth of the calls.

Every answer is checked: that the tool got `amount_cents` as an integer (as a string for
repaired calls made directly) and, in the latency runs, its id; a wrong answer stops the
run. Linux only (`/proc`).

4. **Soak** (`--only soak`, not in the default run): the gate with `--log FILE` under a long
   run, against the bench server. `--soak-calls` calls through the stdio gate, pipelined as in
   the memory part, then `--soak-http-calls` calls through the HTTP gate from `--clients`
   clients at once (each with a session of its own, the sessions opened one after another,
   then each client taking the next call from a shared count until none is left), half clean
   and half repaired in both. Samples the gate's `VmRSS` at
   the start, every tenth of the calls and at the end, and its peak `VmHWM`; then reads the
   log back and fails unless it has one line per call made, each JSON with the call's outcome
   (`clean` or `repaired`, half each).

Options: `--only stdio,http,memory,soak`, `--rounds`, `--calls` (per round and side), `--clients`,
`--seconds`, `--http-rounds`, `--http-calls` (sequential HTTP calls per round and side),
`--memory-calls`, `--window`, `--soak-calls`, `--soak-http-calls`, `--toolargs PATH`, and `--fastmcp PYTHON`: the stdio and HTTP
parts against the FastMCP server of the SDK tests (`toolargs-cli/tests/sdk/fastmcp_server.py`, its `refund`
tool, answers as event streams, each call appended to a file) run by PYTHON, an interpreter with
`fastmcp` installed (the SDK tests make one: `target/tmp/gate-sdk/venv/bin/python`), instead of
the bench server; its requests are counted by the clients.
"""

import argparse
import http.client
import io
import itertools
import json
import os
import socket
import statistics
import subprocess
import tempfile
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = Path(__file__).resolve().parent / "gate_bench_server.py"
FASTMCP_SERVER = ROOT / "toolargs-cli/tests/sdk/fastmcp_server.py"
CLOCK_TICK = os.sysconf("SC_CLK_TCK")

# One call, `%d` its id. The repaired one has the integer as a string, which the gate repairs.
CALLS = {
    "clean": b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"refund",'
             b'"arguments":{"order_id":"A-1001","amount_cents":1999,"notify":false}}}',
    "repaired": b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"refund",'
                b'"arguments":{"order_id":"A-1001","amount_cents":"1999","notify":false}}}',
}

INITIALIZE = {
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "gate-bench", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


class Failed(Exception):
    pass


def expected(kind, gated):
    """The type the tool gets `amount_cents` as: the gate repairs the string, directly it stays one."""
    return "str" if kind == "repaired" and not gated else "int"


def check_answer(line, id_, kind, gated, fastmcp=False):
    answer = json.loads(line)
    want = expected(kind, gated)
    if fastmcp:
        # FastMCP's own validation turns a string into an int too: the tool gets 1999 either way.
        got = answer.get("result", {}).get("structuredContent", {}).get("refunded_cents")
        ok = got == 1999
    else:
        ok = answer.get("result", {}).get("content", [{}])[0].get("text") == want
    if answer.get("id") != id_ or not ok:
        raise Failed("call %d (%s, %s): unexpected answer %s"
                     % (id_, kind, "gated" if gated else "direct", line[:300]))


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise Failed("no VmRSS for process %d" % pid)


def percentile(sorted_values, share):
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def us(ns):
    return ns / 1000


def fmt(value, digits=1):
    return ("{:,.%df}" % digits).format(value).replace(",", " ")


# ---------------------------------------------------------------------------------- stdio


class StdioPeer:
    """A stdio MCP server as a child process (directly, or the gate in front of one)."""

    def __init__(self, argv, gated, fastmcp=False):
        self.gated, self.fastmcp = gated, fastmcp
        env = dict(os.environ, SHOP_RECORD=os.devnull) if fastmcp else None
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env)
        self.fd = self.proc.stdin.fileno()
        self.out = io.BufferedReader(self.proc.stdout, 1 << 16)
        self.next_id = 2
        self.send(INITIALIZE)
        if "result" not in json.loads(self.out.readline()):
            raise Failed("initialize failed")
        self.send(INITIALIZED)
        self.send(LIST)
        tools = json.loads(self.out.readline())["result"]["tools"]
        if "refund" not in [tool["name"] for tool in tools]:
            raise Failed("tools/list: %r" % tools)

    def send(self, message):
        os.write(self.fd, json.dumps(message).encode() + b"\n")

    @property
    def pid(self):
        """The gate's process (or the direct server's)."""
        return self.proc.pid

    def timed_calls(self, kind, n):
        """n sequential round trips; their times in ns."""
        template = CALLS[kind] + b"\n"
        write, fd, readline, clock = os.write, self.fd, self.out.readline, time.perf_counter_ns
        first = self.next_id
        times, answers = [], []
        for id_ in range(first, first + n):
            request = template % id_
            start = clock()
            write(fd, request)
            line = readline()
            times.append(clock() - start)
            answers.append(line)
        self.next_id += n
        for id_, line in zip(range(first, first + n), answers):
            check_answer(line, id_, kind, self.gated, self.fastmcp)
        return times

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def server_argv():
    return [sys.executable, str(SERVER)]


def stdio_latency(args):
    fastmcp = args.fastmcp is not None
    server = [args.fastmcp, str(FASTMCP_SERVER)] if fastmcp else server_argv()
    direct = StdioPeer(server, gated=False, fastmcp=fastmcp)
    gated = StdioPeer([args.toolargs, "gate", "--"] + server, gated=True, fastmcp=fastmcp)
    peers = {"direct": direct, "gated": gated}
    samples = {(kind, side): [] for kind in CALLS for side in peers}
    round_medians = {(kind, side): [] for kind in CALLS for side in peers}
    try:
        for peer in peers.values():  # warm-up, not measured
            for kind in CALLS:
                peer.timed_calls(kind, 500)
        for round_ in range(args.rounds):
            order = ["direct", "gated"] if round_ % 2 == 0 else ["gated", "direct"]
            for kind in CALLS:
                for side in order:
                    times = peers[side].timed_calls(kind, args.calls)
                    samples[(kind, side)].extend(times)
                    round_medians[(kind, side)].append(statistics.median(times))
    finally:
        direct.close()
        gated.close()

    print("### stdio (%s): one `tools/call` round trip, %d rounds x %d calls per side and kind\n"
          % ("FastMCP server" if fastmcp else "bench server", args.rounds, args.calls))
    print("| calls | side | median µs | p90 µs | p99 µs | added at the median | added / direct median |")
    print("|---|---|---:|---:|---:|---:|---:|")
    summary = {}
    for kind in CALLS:
        medians = {}
        for side in peers:
            values = sorted(samples[(kind, side)])
            medians[side] = statistics.median(values)
            cells = [fmt(us(medians[side])), fmt(us(percentile(values, 0.90))),
                     fmt(us(percentile(values, 0.99)))]
            if side == "direct":
                cells += ["", ""]
            else:
                added = medians["gated"] - medians["direct"]
                cells += ["%s µs" % fmt(us(added)), "%s%%" % fmt(100 * added / medians["direct"])]
                summary[kind] = (us(added), 100 * added / medians["direct"])
            print("| %s | %s | %s |" % (kind, side, " | ".join(cells)))
    print()
    print("Added at the median, per round (µs): " + "; ".join(
        "%s %s" % (kind, ", ".join(fmt(us(g - d)) for d, g in
                                   zip(round_medians[(kind, "direct")], round_medians[(kind, "gated")])))
        for kind in CALLS))
    print()
    return summary


# ----------------------------------------------------------------------------------- http


def start_listening(argv, marker):
    """Starts a process that names its endpoint on stderr; returns it and the endpoint's URL."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if marker in line:
            url = line.split("http://", 1)[1].split()[0]
            # Keep reading stderr, so that the process never blocks on it.
            threading.Thread(target=lambda: [sys.stderr.write(l) for l in proc.stderr], daemon=True).start()
            return proc, url
    proc.kill()
    raise Failed("%s did not say it listens" % argv[0])


def post(conn, message, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
        headers["MCP-Protocol-Version"] = "2025-11-25"
    conn.request("POST", "/mcp", body=message, headers=headers)
    response = conn.getresponse()
    return response, response.read()


def message_of(body):
    """The JSON-RPC message of an answer's body: the body, or the data of its one event."""
    if body.startswith((b"event:", b"data:", b"id:", b":")):
        body = b"".join(line[5:].strip() for line in body.splitlines() if line.startswith(b"data:"))
    return json.loads(body)


def answer_wanted(upstream, kind, gated):
    """What the answer to a call holds when the tool got `amount_cents` as it should."""
    if upstream.fastmcp:
        return b'"refunded_cents":1999'
    return b'"text":"%s"' % expected(kind, gated).encode()


def open_session(conn):
    """`initialize`, `notifications/initialized` and `tools/list` on `conn`: the session's id."""
    response, body = post(conn, json.dumps(INITIALIZE).encode())
    session = response.getheader("Mcp-Session-Id")
    if response.status != 200 or not session:
        raise Failed("initialize over HTTP: %d %r" % (response.status, body[:200]))
    response, _ = post(conn, json.dumps(INITIALIZED).encode(), session)
    if response.status != 202:
        raise Failed("notifications/initialized over HTTP: %d" % response.status)
    response, body = post(conn, json.dumps(LIST).encode(), session)
    if "refund" not in [tool["name"] for tool in message_of(body)["result"]["tools"]]:
        raise Failed("tools/list over HTTP: %r" % body[:200])
    return session


def client(upstream, host_port, kind, gated, barrier, window, counts, index):
    """One client: a session, then calls until the window closes; its count of calls in the
    window in counts[index], and of every request it made in counts[index + clients]."""
    host, port = host_port.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    session = open_session(conn)
    made = 3
    template = CALLS[kind]
    want = answer_wanted(upstream, kind, gated)
    id_ = 2
    barrier.wait()
    start, end = window
    calls = 0
    while True:
        now = time.perf_counter()
        if now >= end[0]:
            break
        response, body = post(conn, template % id_, session)
        made += 1
        if response.status != 200 or want not in body:
            raise Failed("call over HTTP: %d %r" % (response.status, body[:300]))
        if now >= start[0]:
            calls += 1
        id_ += 1
    counts[index] = calls
    counts[index + len(counts) // 2] = made
    conn.close()


def http_round(upstream, endpoint, gated, args):
    """One timed window of `args.clients` clients on `endpoint`: the calls in the window, and
    every request made."""
    barrier = threading.Barrier(args.clients + 1)
    counts = [0] * (2 * args.clients)
    errors = []
    start, end = [float("inf")], [float("inf")]

    def run(index):
        try:
            client(upstream, endpoint, "clean", gated, barrier, (start, end), counts, index)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
            barrier.abort()

    # The sessions open one after another (each client starts once the one before it is
    # waiting at the barrier), then all call at once.
    threads = [threading.Thread(target=run, args=(i,)) for i in range(args.clients)]
    for thread in threads:
        waiting = barrier.n_waiting
        thread.start()
        while barrier.n_waiting == waiting and thread.is_alive() and not errors:
            time.sleep(0.001)
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass
    # A short ramp-up not counted, then the window.
    start[0] = time.perf_counter() + 1.0
    end[0] = start[0] + args.seconds
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return sum(counts[:args.clients]), sum(counts[args.clients:])


def stats(server_url):
    host, port = server_url.split("/", 1)[0].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", "/stats")
    counts = json.loads(conn.getresponse().read())
    conn.close()
    return counts


def http_latency(upstream, endpoints, rounds, calls):
    """Sequential round trips of one client over HTTP, rounds alternating; ns per call."""
    times = {side: [] for side in endpoints}
    for round_ in range(rounds):
        order = ["direct", "gated"] if round_ % 2 == 0 else ["gated", "direct"]
        for side in order:
            host, port = endpoints[side].rsplit(":", 1)
            conn = http.client.HTTPConnection(host, int(port), timeout=60)
            session = open_session(conn)
            want = answer_wanted(upstream, "clean", side == "gated")
            for id_ in range(2, 2 + calls):
                start = time.perf_counter_ns()
                response, body = post(conn, CALLS["clean"] % id_, session)
                times[side].append(time.perf_counter_ns() - start)
                if response.status != 200 or want not in body:
                    raise Failed("call over HTTP: %d %r" % (response.status, body[:300]))
            conn.close()
    return times


class Upstream:
    """The HTTP server the clients call, directly and through the gate."""

    def __init__(self, args, record):
        self.fastmcp = args.fastmcp is not None
        if self.fastmcp:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            self.proc = subprocess.Popen(
                [args.fastmcp, str(FASTMCP_SERVER), "--http", str(port)],
                env={"SHOP_RECORD": str(record), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL)
            self.url = "127.0.0.1:%d/mcp" % port
            deadline = time.time() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline or self.proc.poll() is not None:
                        raise Failed("the FastMCP server did not listen")
                    time.sleep(0.1)
        else:
            self.proc, self.url = start_listening(server_argv() + ["--http", "0"], "listening on")

    def connections(self):
        """How many connections the server accepted so far (`None` when it cannot tell)."""
        return None if self.fastmcp else stats(self.url)["connections"]


def http_throughput(args):
    record = Path(tempfile.mkdtemp()) / "record.jsonl"
    upstream = Upstream(args, record)
    server, server_url = upstream.proc, upstream.url
    gate, gate_url = start_listening(
        [args.toolargs, "gate", "--listen", "127.0.0.1:0", "--upstream", "http://" + server_url],
        "toolargs gate: listening on")
    endpoints = {"direct": server_url.split("/", 1)[0], "gated": gate_url.split("/", 1)[0]}
    rows = {"direct": [], "gated": []}
    try:
        latency = http_latency(upstream, endpoints, 3, args.http_calls)
        for side in ("direct", "gated"):  # warm-up
            args_warm = argparse.Namespace(**{**vars(args), "seconds": 1.0})
            http_round(upstream, endpoints[side], side == "gated", args_warm)
        for round_ in range(args.http_rounds):
            order = ["direct", "gated"] if round_ % 2 == 0 else ["gated", "direct"]
            for side in order:
                before = (os.times(), cpu_seconds(server.pid), cpu_seconds(gate.pid), upstream.connections())
                wall = time.perf_counter()
                calls, made = http_round(upstream, endpoints[side], side == "gated", args)
                wall = time.perf_counter() - wall
                after = (os.times(), cpu_seconds(server.pid), cpu_seconds(gate.pid), upstream.connections())
                # CPU over the whole round (sessions and ramp-up included) over its requests.
                client_cpu = (after[0].user + after[0].system) - (before[0].user + before[0].system)
                rows[side].append({
                    "rate": calls / args.seconds,
                    "client_us": 1e6 * client_cpu / made,
                    "server_us": 1e6 * (after[1] - before[1]) / made,
                    "gate_us": 1e6 * (after[2] - before[2]) / made,
                    # Less the connection of the `/stats` request after the round.
                    "connections": None if after[3] is None else after[3] - before[3] - 1,
                    "requests": made,
                    "wall": wall,
                })
    finally:
        gate.terminate()
        server.terminate()
        gate.wait(timeout=10)
        server.wait(timeout=10)

    print("### HTTP: one client, sequential clean calls, 3 rounds x %d calls per side\n" % args.http_calls)
    print("| side | median µs | p90 µs | p99 µs |")
    print("|---|---:|---:|---:|")
    for side in ("direct", "gated"):
        values = sorted(latency[side])
        print("| %s | %s | %s | %s |" % (side, fmt(us(statistics.median(values))),
                                         fmt(us(percentile(values, 0.90))), fmt(us(percentile(values, 0.99)))))
    print()
    print("### HTTP (%s): %d clients, %d rounds x %g s per side\n" % (
        "FastMCP server" if upstream.fastmcp else "bench server", args.clients, args.http_rounds, args.seconds))
    print("| side | calls/s, median of rounds | rounds | client CPU µs/call | server CPU µs/call "
          "| gate CPU µs/call | connections the server accepted, per round |")
    print("|---|---:|---|---:|---:|---:|---:|")
    medians = {}
    for side in ("direct", "gated"):
        r = rows[side]
        medians[side] = statistics.median(x["rate"] for x in r)
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            side, fmt(medians[side], 0), ", ".join(fmt(x["rate"], 0) for x in r),
            fmt(statistics.median(x["client_us"] for x in r)),
            fmt(statistics.median(x["server_us"] for x in r)),
            "" if side == "direct" else fmt(statistics.median(x["gate_us"] for x in r)),
            "n/a" if upstream.fastmcp else fmt(statistics.median(x["connections"] for x in r), 0)))
    ratios = [g["rate"] / d["rate"] for d, g in zip(rows["direct"], rows["gated"])]
    print()
    print("gated / direct: %.3f (median of rounds; per round %s)\n"
          % (statistics.median(ratios), ", ".join("%.3f" % x for x in ratios)))
    return statistics.median(ratios), rows


# --------------------------------------------------------------------------------- memory


def pipelined(argv, total, window, samples_every):
    """`total` calls through the stdio gate started with `argv`, at most `window` in flight,
    alternately clean and repaired: the gate's `(calls, VmRSS KiB, elapsed s)` at the start
    and every `samples_every` calls, its peak `VmHWM` in KiB, and the seconds taken."""
    peer = StdioPeer(argv, gated=True)
    requests = [CALLS["clean"] + b"\n", CALLS["repaired"] + b"\n"]
    want = b'"text":"int"'
    fd, read_fd = peer.fd, peer.proc.stdout.fileno()
    samples = [(0, rss_kib(peer.pid), 0.0)]
    sent = received = 0
    pending = b""
    started = time.perf_counter()
    next_sample = samples_every
    try:
        while received < total:
            room = min(window - (sent - received), total - sent)
            if room >= window // 2 or (room > 0 and sent + room == total):
                batch = b"".join(requests[i & 1] % (i + 2) for i in range(sent, sent + room))
                while batch:
                    batch = batch[os.write(fd, batch):]
                sent += room
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                raise Failed("the gate closed its output after %d answers" % received)
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if want not in line:
                    raise Failed("stdio run: unexpected answer %r" % line[:300])
            received += len(lines)
            while received >= next_sample and next_sample <= total:
                samples.append((next_sample, rss_kib(peer.pid), time.perf_counter() - started))
                next_sample += samples_every
        elapsed = time.perf_counter() - started
        peak = hwm_kib(peer.pid)
    finally:
        peer.close()
    return samples, peak, elapsed


def hwm_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise Failed("no VmHWM for process %d" % pid)


def memory(args):
    total, window = args.memory_calls, args.window
    every = max(1, total // 10)
    samples, peak, elapsed = pipelined(
        [args.toolargs, "gate", "--"] + server_argv(), total, window, every)

    print("### Memory: %s calls through the stdio gate, at most %d in flight\n" % (fmt(total, 0), window))
    print("| calls | gate VmRSS KiB | elapsed s |")
    print("|---:|---:|---:|")
    for calls, rss, at in samples:
        print("| %s | %s | %s |" % (fmt(calls, 0), fmt(rss, 0), fmt(at)))
    after_warmup = [rss for calls, rss, _ in samples if calls >= every]
    growth = after_warmup[-1] - after_warmup[0]
    print()
    print("%s calls/s; peak VmHWM %s KiB; after the first %s calls VmRSS stays within %s–%s KiB, "
          "and ends %+d KiB from where it was then\n"
          % (fmt(total / elapsed, 0), peak, fmt(every, 0), fmt(min(after_warmup), 0),
             fmt(max(after_warmup), 0), growth))
    return samples, growth


# ----------------------------------------------------------------------------------- soak


def check_log(path, calls):
    """Fails unless the verdict log at `path` has one line per call made, each a JSON verdict
    on `refund`, half of them clean and half repaired; the counts of each outcome."""
    outcomes = {}
    lines = 0
    with open(path, "rb") as log:
        for line in log:
            lines += 1
            try:
                verdict = json.loads(line)
            except ValueError:
                raise Failed("%s, line %d: not JSON: %r" % (path, lines, line[:200]))
            if verdict.get("tool") != "refund":
                raise Failed("%s, line %d: not a verdict on refund: %r" % (path, lines, line[:200]))
            outcome = verdict.get("outcome")
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    if lines != calls:
        raise Failed("%s has %d lines for %d calls" % (path, lines, calls))
    expected = {"clean": calls - calls // 2, "repaired": calls // 2}
    if outcomes != {k: v for k, v in expected.items() if v}:
        raise Failed("%s: outcomes %r, expected %r" % (path, outcomes, expected))
    return outcomes


def soak_table(title, samples, peak, total, elapsed, outcomes):
    print("### %s\n" % title)
    print("| calls | gate VmRSS KiB | elapsed s |")
    print("|---:|---:|---:|")
    for calls, rss, at in samples:
        print("| %s | %s | %s |" % (fmt(calls, 0), fmt(rss, 0), fmt(at)))
    print()
    print("%s calls/s; VmRSS %s KiB at the start, %s KiB at the end; peak VmHWM %s KiB; the log "
          "has %s lines, one per call (%s clean, %s repaired)\n"
          % (fmt(total / elapsed, 0), fmt(samples[0][1], 0), fmt(samples[-1][1], 0), fmt(peak, 0),
             fmt(sum(outcomes.values()), 0), fmt(outcomes.get("clean", 0), 0),
             fmt(outcomes.get("repaired", 0), 0)))


def soak_stdio(args, log):
    total = args.soak_calls
    samples, peak, elapsed = pipelined(
        [args.toolargs, "gate", "--log", str(log), "--"] + server_argv(), total, args.window,
        max(1, total // 10))
    outcomes = check_log(log, total)
    soak_table("Soak, stdio: %s calls through `toolargs gate --log FILE`, at most %d in flight"
               % (fmt(total, 0), args.window), samples, peak, total, elapsed, outcomes)


def soak_client(host_port, tickets, total, done, index, barrier):
    """One soak client: a session, then the next call of the shared count until none is left;
    its calls counted in done[index]."""
    host, port = host_port.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    session = open_session(conn)
    want = b'"text":"int"'
    barrier.wait()
    while True:
        n = next(tickets)
        if n >= total:
            break
        kind = "clean" if n & 1 == 0 else "repaired"
        response, body = post(conn, CALLS[kind] % (n + 2), session)
        if response.status != 200 or want not in body:
            raise Failed("soak call over HTTP: %d %r" % (response.status, body[:300]))
        done[index] += 1
    conn.close()


def soak_http(args, log):
    total, clients = args.soak_http_calls, args.clients
    server, server_url = start_listening(server_argv() + ["--http", "0"], "listening on")
    gate, gate_url = start_listening(
        [args.toolargs, "gate", "--log", str(log), "--listen", "127.0.0.1:0",
         "--upstream", "http://" + server_url], "toolargs gate: listening on")
    endpoint = gate_url.split("/", 1)[0]
    tickets = itertools.count()
    done = [0] * clients
    errors = []
    barrier = threading.Barrier(clients + 1)
    every = max(1, total // 10)

    def run(index):
        try:
            soak_client(endpoint, tickets, total, done, index, barrier)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
            barrier.abort()

    try:
        samples = [(0, rss_kib(gate.pid), 0.0)]
        # The sessions open one after another, as in the HTTP part, then all call at once.
        threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
        for thread in threads:
            waiting = barrier.n_waiting
            thread.start()
            while barrier.n_waiting == waiting and thread.is_alive() and not errors:
                time.sleep(0.001)
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        # The sessions are open: what the gate holds for them, before the first call.
        samples.append((0, rss_kib(gate.pid), 0.0))
        started = time.perf_counter()
        next_sample = every
        while any(thread.is_alive() for thread in threads):
            made = sum(done)
            while made >= next_sample and next_sample < total:
                samples.append((next_sample, rss_kib(gate.pid), time.perf_counter() - started))
                next_sample += every
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        made = sum(done)
        samples.append((made, rss_kib(gate.pid), elapsed))
        peak = hwm_kib(gate.pid)
    finally:
        gate.terminate()
        server.terminate()
        gate.wait(timeout=30)
        server.wait(timeout=10)
    if made != total:
        raise Failed("the HTTP soak made %d calls of %d" % (made, total))
    outcomes = check_log(log, made)
    soak_table("Soak, HTTP: %s calls through `toolargs gate --log FILE --listen ...` from %d "
               "clients at once (the second row: their sessions open)" % (fmt(total, 0), clients),
               samples, peak, total, elapsed, outcomes)


def soak(args):
    directory = Path(tempfile.mkdtemp(prefix="gate-soak-"))
    try:
        soak_stdio(args, directory / "stdio.jsonl")
        soak_http(args, directory / "http.jsonl")
    finally:
        for log in directory.iterdir():
            log.unlink()
        directory.rmdir()


# ----------------------------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", default="stdio,http,memory")
    parser.add_argument("--toolargs", default=str(ROOT / "target/release/toolargs"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--http-rounds", type=int, default=3)
    parser.add_argument("--http-calls", type=int, default=100)
    parser.add_argument("--memory-calls", type=int, default=1_000_000)
    parser.add_argument("--window", type=int, default=256)
    parser.add_argument("--soak-calls", type=int, default=1_000_000)
    parser.add_argument("--soak-http-calls", type=int, default=500_000)
    parser.add_argument("--fastmcp", default=None, metavar="PYTHON")
    args = parser.parse_args()
    if not Path(args.toolargs).exists():
        sys.exit("no %s: build it with `cargo build --release -p toolargs-cli`" % args.toolargs)
    parts = args.only.split(",")
    print("python %s, load average %s\n" % (sys.version.split()[0], " ".join(
        open("/proc/loadavg").read().split()[:3])))
    try:
        if "stdio" in parts:
            stdio_latency(args)
        if "http" in parts:
            http_throughput(args)
        if "memory" in parts:
            memory(args)
        if "soak" in parts:
            soak(args)
    except Failed as e:
        sys.exit("gate_bench: %s" % e)
    print("load average at the end %s" % " ".join(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
