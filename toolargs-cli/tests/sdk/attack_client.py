"""Calls that try to reach a tool past `toolargs gate` by writing the message so that the gate
and the server read it differently, sent as raw lines and raw HTTP requests (an SDK client
cannot send them). Each must be answered by the gate and never reach the tool.

Over stdio, in front of `recording_server.py` and `recording_server.mjs` (which record every
line they receive and read it as Python's `json` and JavaScript's `JSON.parse` do), calls to
the destructive `issue_refund` with an amount past its maximum and an invented key:

- a. a call with id `null`; b. a call as a notification; c. `params` as an array;
- d. a lone surrogate in a key of `params`;
- e. `method`, `params`, `name` or `arguments` written twice;
- f. a key written twice in the arguments;
- g. a tool the server lists twice, under two schemas.

Over Streamable HTTP, in front of the FastMCP server of `fastmcp_server.py` (whose `refund`
records each call it runs), calls it would run: any amount, and `notify` "yes", which the gate
rejects and FastMCP reads as true:

- h. the call at other spellings of the endpoint's path (`/%6Dcp`, `//mcp`, `/MCP`, ...);
- i. the call at an unrelated path, and a body with `NaN`, which Python's `json` reads;
- j. the stdio attacks a-f at the endpoint;
- k. `Mcp-Method` and `Mcp-Name` headers that disagree with the body, or come twice;
- l. a client that sends part of its headers or of its body and then nothing;
- m. a clean call, which reaches the tool: the record works.

Each attack is checked three ways: the answer the client gets, what reached the server (its
record), and the gate's verdict log. Usage: attack_client.py CONTEXT, the JSON object of
`client.py` (`gate`, `sdk`, `run`). Prints what it checked; exits 1 when a check fails.
"""

import http.client
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from http_client import Checks, stop, free_port, read_text, records, start_gate, wait_for_port

CLIENT = "attack"
# Past the strict schema's maximum, with a key it does not declare.
BAD = '{"order_id":"o1","amount_cents":999999,"overwrite":true}'
CLEAN = '{"order_id":"o1","amount_cents":1999}'
# FastMCP refuses a key its tool does not take, so over HTTP the bad call is one it runs: it
# reads "yes" as true, where the gate rejects it (`refund` declares `notify` a boolean).
HTTP_BAD = '{"order_id":"o1","amount_cents":999999,"notify":"yes"}'
HTTP_BAD_CODE = "ambiguous_boolean"
CONTROL_ID = 99
# Outcomes by which a call goes on to the server.
PASSING = ("clean", "repaired", "unchecked")
REFUSED = ("refused", "rejected")
# How long an answer may take; the gate's header and body timeouts, and how long past them
# a slow client may stay connected.
ANSWER_SECONDS = 10
HTTP_TIMEOUT_SECONDS = 2
SLACK_SECONDS = 3
NOTIFICATION = object()


@dataclass
class Attack:
    name: str
    # The message, with TOOL, BAD and CLEAN in place of the tool's name and the arguments.
    template: str
    # The id its answer carries, or NOTIFICATION when it gets none.
    id: object
    # "error": a JSON-RPC error with `code`; "tool": an isError result whose text names `code`;
    # "none": no answer.
    answer: str
    code: object
    outcome: str
    # The log line's codes; None when `code` must only be among them.
    codes: object

    def line(self, tool, bad=BAD):
        return self.template.replace("TOOL", tool).replace("BAD", bad).replace("CLEAN", CLEAN)


def duplicate(name, template, id):
    return Attack(name, template, id, "error", -32600, "refused", ["duplicate_key"])


ENVELOPES = [
    Attack("a. a call with id null",
           '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"TOOL","arguments":BAD}}',
           None, "error", -32600, "refused", ["invalid_request"]),
    Attack("b. a call as a notification",
           '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"TOOL","arguments":BAD}}',
           NOTIFICATION, "none", None, "refused", ["invalid_request"]),
    Attack("c. params as an array",
           '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":["TOOL",BAD]}',
           3, "error", -32602, "refused", ["invalid_params"]),
    # The key is the six characters \udc00: an escape of a lone surrogate.
    Attack("d. a lone surrogate in a key of params",
           '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"TOOL","\\udc00":0,"arguments":BAD}}',
           4, "error", -32600, "refused", ["invalid_unicode"]),
    duplicate("e. method twice, tools/list first",
              '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"name":"TOOL","arguments":BAD},"method":"tools/call"}',
              5),
    duplicate("e. method twice, tools/call first",
              '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"TOOL","arguments":BAD},"method":"tools/list"}',
              6),
    duplicate("e. params twice, the clean one first",
              '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"TOOL","arguments":CLEAN},'
              '"params":{"name":"TOOL","arguments":BAD}}',
              7),
    duplicate("e. name twice",
              '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nothing","name":"TOOL","arguments":BAD}}',
              8),
    duplicate("e. arguments twice, the clean ones first",
              '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"TOOL","arguments":CLEAN,"arguments":BAD}}',
              9),
    duplicate("e. arguments twice, the bad ones first",
              '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"TOOL","arguments":BAD,"arguments":CLEAN}}',
              10),
    # Read first-wins, the amount is 1; read last-wins (as the servers do), 999999.
    Attack("f. a key twice in the arguments",
           '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"TOOL",'
           '"arguments":{"order_id":"o1","amount_cents":1,"amount_cents":999999}}}',
           11, "tool", "duplicate_key", "rejected", None),
]


def call(id, tool, arguments):
    return f'{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}'


def text_of(result):
    return "".join(c.get("text", "") for c in result.get("content", []) if isinstance(c, dict))


def answer_fits(attack, message):
    """Whether `message` is the answer `attack` expects."""
    if not isinstance(message, dict) or message.get("id", "missing") != attack.id:
        return False
    if attack.answer == "error":
        error = message.get("error")
        return "result" not in message and isinstance(error, dict) and error.get("code") == attack.code
    result = message.get("result")
    return isinstance(result, dict) and result.get("isError") is True and attack.code in text_of(result)


def log_fits(attack, line):
    codes = line.get("codes") or []
    if line.get("outcome") != attack.outcome:
        return False
    return codes == attack.codes if attack.codes is not None else attack.code in codes


def received(path):
    """The lines a recording server received."""
    try:
        return Path(path).read_bytes().decode("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []


def is_control(line):
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("id") == CONTROL_ID and message.get("method") == "tools/call" \
        and message.get("params") == {"name": "issue_refund", "arguments": json.loads(CLEAN)} \
        and "999999" not in line and line.count("tools/call") == 1


def smuggled(lines):
    """The received lines that carry a call, or the bad arguments, other than the control."""
    found = []
    for line in lines:
        if is_control(line):
            continue
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        method = message.get("method") if isinstance(message, dict) else None
        if "tools/call" in line or "999999" in line or "overwrite" in line or method == "tools/call":
            found.append(line)
    return found


class StdioGate:
    """`toolargs gate --log LOG -- SERVER` on pipes, its answers read by a thread."""

    def __init__(self, context, server, record, log, stderr, env=None):
        self.process = subprocess.Popen(
            [context["gate"], "gate", "--log", str(log), "--", *server],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(stderr, "w", encoding="utf-8"),
            env=dict(os.environ, RECORD=str(record), **(env or {})),
        )
        self.lines = queue.Queue()
        self.pings = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, text):
        try:
            self.process.stdin.write(text.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except OSError:
            pass

    def await_id(self, id, seconds=ANSWER_SECONDS):
        """The answer with `id`, or None when none came in time; and what came before it."""
        deadline = time.monotonic() + seconds
        stray = []
        while (left := deadline - time.monotonic()) > 0:
            try:
                raw = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if raw is None:
                self.lines.put(None)
                break
            try:
                message = json.loads(raw)
            except ValueError:
                stray.append(raw)
                continue
            if isinstance(message, dict) and message.get("id", "missing") == id \
                    and ("result" in message or "error" in message):
                return message, stray
            stray.append(message)
        return None, stray

    def exchange(self, line):
        """Sends `line`, then a ping: what comes before the ping's answer answers `line` (the
        gate reads the lines in order, and the server answers in order). None when the ping
        is not answered in time."""
        self.pings += 1
        ping = f"after-{self.pings}"
        self.send(line)
        self.send(f'{{"jsonrpc":"2.0","id":"{ping}","method":"ping"}}')
        pong, before = self.await_id(ping)
        return before if pong is not None else None

    def handshake(self, checks, label):
        self.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
                  '"capabilities":{},"clientInfo":{"name":"attack","version":"1"}}}')
        initialized, _ = self.await_id(1)
        self.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        self.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}')
        listed, _ = self.await_id(2)
        checks.check(
            f"{label}: initialize and tools/list are answered",
            bool(initialized and "result" in initialized and listed and "result" in listed),
            f"{initialized} {listed}",
        )

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def stdio_envelopes(context, run, checks, label, server):
    print(f"== {CLIENT} client: stdio, {label} recording server, attacks a-f")
    record, log = run / f"{label}.record.jsonl", run / f"{label}.verdicts.jsonl"
    gate = StdioGate(context, server, record, log, run / f"{label}.stderr")
    try:
        gate.handshake(checks, label)
        for attack in ENVELOPES:
            name = f"{label}: {attack.name}"
            logged, reached = len(records(log)), len(received(record))
            answers = gate.exchange(attack.line("issue_refund"))
            if attack.id is NOTIFICATION:
                checks.check(f"{name}: is not answered", answers == [], f"{answers}")
            else:
                checks.check(
                    f"{name}: is answered as expected, once",
                    answers is not None and len(answers) == 1 and answer_fits(attack, answers[0]),
                    f"{answers}",
                )
            new = smuggled(received(record)[reached:])
            checks.check(f"{name}: never reaches the server", not new, f"the server received {new}")
            verdicts = records(log)[logged:]
            checks.check(
                f"{name}: the log has its verdict, {attack.outcome} {attack.codes or attack.code}",
                len(verdicts) == 1 and log_fits(attack, verdicts[0]),
                f"{verdicts}",
            )
        answers = gate.exchange(call(CONTROL_ID, "issue_refund", CLEAN))
        checks.check(
            f"{label}: the clean control call is answered by the server",
            answers is not None and len(answers) == 1 and answers[0].get("id") == CONTROL_ID
            and text_of(answers[0].get("result") or {}) == "ran",
            f"{answers}",
        )
    finally:
        gate.close()
    lines = received(record)
    checks.check(
        f"{label}: the server received the control call once",
        sum(map(is_control, lines)) == 1,
        "\n    " + "\n    ".join(lines),
    )
    checks.check(f"{label}: and no other call", not smuggled(lines), f"{smuggled(lines)}")
    verdicts = records(log)
    outcomes = [v.get("outcome") for v in verdicts]
    checks.check(
        f"{label}: the log has one line per attack, none passing, then the control's, clean",
        len(verdicts) == len(ENVELOPES) + 1
        and not set(outcomes[:-1]) & set(PASSING)
        and outcomes[-1:] == ["clean"],
        f"{outcomes}",
    )


def stdio_listed_twice(context, run, checks, label, server):
    print(f"== {CLIENT} client: stdio, {label} recording server, g. a tool listed twice")
    record, log = run / f"{label}-twice.record.jsonl", run / f"{label}-twice.verdicts.jsonl"
    stderr = run / f"{label}-twice.stderr"
    gate = StdioGate(context, server, record, log, stderr, env={"LIST_TWICE": "1"})
    try:
        gate.handshake(checks, f"{label}, listed twice")
        answers = gate.exchange(call(12, "issue_refund", BAD))
    finally:
        gate.close()
    name = f"{label}: g. a call to a tool listed twice"
    answer = answers[0] if answers and len(answers) == 1 else {}
    result = answer.get("result") or {}
    checks.check(
        f"{name}: is an isError result naming duplicate_tool",
        answer.get("id") == 12 and result.get("isError") is True and "duplicate_tool" in text_of(result),
        f"{answers}",
    )
    new = smuggled(received(record))
    checks.check(f"{name}: never reaches the server", not new, f"the server received {new}")
    verdicts = records(log)
    checks.check(
        f"{name}: the log has its verdict, refused duplicate_tool",
        [(v.get("outcome"), v.get("codes")) for v in verdicts] == [("refused", ["duplicate_tool"])],
        f"{verdicts}",
    )
    checks.check(f"{name}: the gate says on stderr the tool is listed twice",
                 "listed twice" in read_text(stderr), read_text(stderr))


@dataclass
class Answer:
    status: object
    headers: dict
    messages: list
    text: str

    def response(self):
        """The JSON-RPC response in the body (JSON, or an event stream's `data:` lines)."""
        return next((m for m in self.messages if "result" in m or "error" in m), None)

    def __str__(self):
        return f"HTTP {self.status} {self.headers.get('content-type', '')} {self.text[:600]!r}"


def messages_of(text, content_type):
    if "text/event-stream" in content_type:
        datas = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    else:
        datas = [text]
    found = []
    for data in datas:
        try:
            value = json.loads(data)
        except ValueError:
            continue
        found.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, dict))
    return found


class HttpClient:
    """Raw requests to the gate's listening address."""

    def __init__(self, endpoint):
        split = urlsplit(endpoint)
        self.host, self.port = split.hostname, split.port
        self.session = None

    def post(self, path, body, headers=()):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=ANSWER_SECONDS)
        data = body.encode("utf-8")
        sent = [
            ("Accept", "application/json, text/event-stream"),
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2025-11-25"),
            *([("Mcp-Session-Id", self.session)] if self.session else []),
            *headers,
            ("Content-Length", str(len(data))),
        ]
        try:
            connection.putrequest("POST", path, skip_accept_encoding=True)
            for name, value in sent:
                connection.putheader(name, value)
            connection.endheaders(data)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            received_headers = {k.lower(): v for k, v in response.getheaders()}
            return Answer(response.status, received_headers,
                          messages_of(text, received_headers.get("content-type", "")), text)
        except (OSError, http.client.HTTPException) as e:
            return Answer(None, {}, [], f"no answer: {e!r}")
        finally:
            connection.close()

    def open_session(self, checks):
        answer = self.post("/mcp", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
                                   '"2025-11-25","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}}')
        self.session = answer.headers.get("mcp-session-id")
        initialized = self.post("/mcp", '{"jsonrpc":"2.0","method":"notifications/initialized"}')
        checks.check(
            "http: a session opens through the gate",
            answer.status == 200 and bool(self.session) and initialized.status == 202,
            f"{answer} / {initialized}",
        )


def judged(answer):
    """The gate judged the bad call: an isError result with the gate's errors."""
    result = (answer.response() or {}).get("result") or {}
    text = text_of(result)
    return result.get("isError") is True and '"ok":false' in text and HTTP_BAD_CODE in text


def not_found_or_judged(answer):
    return answer.status == 404 or judged(answer)


def refused_or_error(answer):
    return answer.status in (400, 404) or "error" in (answer.response() or {})


def header_mismatch(answer):
    return answer.status == 400 and ((answer.response() or {}).get("error") or {}).get("code") == -32020


def envelope_answer(attack):
    def fits(answer):
        if attack.answer == "none":
            return answer.status in (400, 202)
        return answer_fits(attack, answer.response())
    return fits


def over_http(context, run, checks):
    record, log = run / "http.record.jsonl", run / "http.verdicts.jsonl"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(Path(context["sdk"]) / "fastmcp_server.py"), "--http", str(port)],
        env=dict(os.environ, SHOP_RECORD=str(record)),
        stdin=subprocess.DEVNULL,
        stdout=open(run / "http-server.stdout", "w"),
        stderr=open(run / "http-server.stderr", "w"),
    )
    gate = None
    try:
        wait_for_port(port, server)
        timeouts = ["--header-timeout", str(HTTP_TIMEOUT_SECONDS), "--body-timeout", str(HTTP_TIMEOUT_SECONDS)]
        gate, endpoint = start_gate(context, f"http://127.0.0.1:{port}/mcp", log, run / "http-gate.stderr", timeouts)
        client = HttpClient(endpoint)
        print(f"== {CLIENT} client: http, gate at {endpoint}")
        client.open_session(checks)
        http_attacks(client, record, log, checks)
        slow_clients(client, checks)
        control(client, record, checks)
    finally:
        stop(gate, server)


def http_attacks(client, record, log, checks):
    bad = call(20, "refund", HTTP_BAD)
    # Not JSON; Python's json reads it, and FastMCP runs the call.
    nan = f'{{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{{"name":"refund","arguments":{HTTP_BAD}}},"x":NaN}}'

    # (name, path, body, extra headers, what the answer may be, the log line's fit or None)
    table = []
    for path in ["/%6Dcp", "/%6dcp", "//mcp", "/./mcp", "/x/../mcp", "/mcp/", "/MCP", "/%2Fmcp", "/messages/"]:
        table.append((f"h/i. the bad call at {path}", path, bad, [], not_found_or_judged, None))
    for path in ["/%6Dcp", "/mcp"]:
        table.append((f"i. a body with NaN at {path}", path, nan, [], refused_or_error, None))
    for attack in ENVELOPES:
        table.append((f"j. {attack.name}", "/mcp", attack.line("refund", HTTP_BAD), [], envelope_answer(attack), attack))
    header_attacks = [
        ("Mcp-Method tools/list on a tools/call", [("Mcp-Method", "tools/list")]),
        ("Mcp-Name quote on a call to refund", [("Mcp-Method", "tools/call"), ("Mcp-Name", "quote")]),
        ("Mcp-Method twice, the same", [("Mcp-Method", "tools/call"), ("Mcp-Method", "tools/call")]),
        ("Mcp-Method twice, tools/call then tools/list", [("Mcp-Method", "tools/call"), ("Mcp-Method", "tools/list")]),
    ]
    for name, headers in header_attacks:
        table.append((f"k. {name}", "/mcp", bad, headers, header_mismatch, None))

    for name, path, body, headers, fits, attack in table:
        logged, reached = len(records(log)), read_text(record)
        answer = client.post(path, body, headers)
        if attack is not None and attack.id is NOTIFICATION:
            # A server may run a notification after it answered 202.
            time.sleep(0.5)
        checks.check(f"http: {name}: is answered as it should be", fits(answer), f"{answer}")
        checks.check(f"http: {name}: never reaches the tool", read_text(record) == reached,
                     f"the tool ran: {read_text(record)[len(reached):]}")
        verdicts = records(log)[logged:]
        if answer.status == 404:
            logged_ok = len(verdicts) <= 1 and all(v.get("outcome") in REFUSED for v in verdicts)
        elif attack is not None:
            logged_ok = len(verdicts) == 1 and log_fits(attack, verdicts[0])
        else:
            logged_ok = len(verdicts) == 1 and verdicts[0].get("outcome") in REFUSED
        checks.check(f"http: {name}: the log has its verdict, refused or rejected", logged_ok, f"{verdicts}")


def slow_clients(client, checks):
    """A client that stops partway is answered 408 or let go within the timeout."""
    head = "POST /mcp HTTP/1.1\r\nHost: x\r\n"
    body_head = (
        "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        f"Mcp-Session-Id: {client.session}\r\nContent-Length: 100\r\n\r\n"
        '{"jsonrpc"'
    )
    for name, data in [("part of the headers", head), ("the headers and 10 of 100 body bytes", body_head)]:
        limit = HTTP_TIMEOUT_SECONDS + SLACK_SECONDS
        started = time.monotonic()
        got, closed = b"", False
        try:
            with socket.create_connection((client.host, client.port), timeout=limit) as s:
                s.sendall(data.encode())
                while (left := started + limit - time.monotonic()) > 0:
                    s.settimeout(left)
                    chunk = s.recv(4096)
                    if not chunk:
                        closed = True
                        break
                    got += chunk
        except ConnectionResetError:
            closed = True
        except OSError:
            pass
        elapsed = time.monotonic() - started
        checks.check(
            f"http: l. a client that sends {name} and stops is let go within {limit} s (408 or closed)",
            closed and (got == b"" or got.startswith(b"HTTP/1.1 408")),
            f"after {elapsed:.1f} s: closed {closed}, received {got[:300]!r}",
        )


def control(client, record, checks):
    before = records(record)
    answer = client.post("/mcp", call(30, "refund", CLEAN))
    result = (answer.response() or {}).get("result") or {}
    checks.check("http: m. the clean control call is answered by the tool",
                 answer.status == 200 and "result" in (answer.response() or {}) and not result.get("isError"),
                 f"{answer}")
    control_record = {"tool": "refund", "arguments": {"order_id": "o1", "amount_cents": 1999, "notify": False}}
    checks.check("http: m. and reaches it", records(record)[len(before):] == [control_record], f"{records(record)}")
    checks.check("http: the tool ran the control call only", records(record) == [control_record], f"{records(record)}")


def section(checks, name, run_it):
    """Runs one part; one that stops on an exception is a failed check, and the others run."""
    try:
        run_it()
    except Exception:
        checks.check(f"{name} runs to its end", False, traceback.format_exc())


def main():
    context = json.loads(sys.argv[1])
    run = Path(context["run"])
    run.mkdir(parents=True, exist_ok=True)
    sdk = Path(context["sdk"])
    checks = Checks()
    servers = [
        ("python", [sys.executable, str(sdk / "recording_server.py")]),
        ("node", ["node", str(sdk / "recording_server.mjs")]),
    ]
    for label, server in servers:
        section(checks, f"stdio, {label}", lambda: stdio_envelopes(context, run, checks, label, server))
        section(checks, f"stdio, {label}, listed twice", lambda: stdio_listed_twice(context, run, checks, label, server))
    section(checks, "http", lambda: over_http(context, run, checks))
    for failure in checks.failures:
        print(f"FAILED: {failure}")
    print(f"{CLIENT} client: {checks.cases} cases, {len(checks.failures)} failures")
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    main()
