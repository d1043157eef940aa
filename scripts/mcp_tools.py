#!/usr/bin/env python3
"""Reproduces tests/data/mcp-tools: installs MCP servers from PyPI and npm into a scratch
directory, starts each one on stdio, speaks MCP JSON-RPC to it (initialize,
notifications/initialized, tools/list, following nextCursor) and writes its tools/list result
to OUT/<server>.json. Not run in CI: it needs the package registries, and the servers' answers
change with their versions.

    python3 scripts/mcp_tools.py                          # every server, scratch in /tmp
    python3 scripts/mcp_tools.py --only git time          # some of them
    python3 scripts/mcp_tools.py --scratch DIR --out DIR

PyPI servers get a virtual environment each (with `uv` when it is on PATH, else venv and pip),
so their dependencies never meet; the npm servers share one npm prefix. For every server it prints
the package, its version, the server's own name and version from `initialize`, the licence
its package metadata declares, and the number of tools; the licence files found in the
packages are copied to SCRATCH/licences/ to check against the ones kept in OUT.
"""

import argparse
import glob
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PROTOCOL_VERSION = "2025-06-18"

# name: the fixture's file name; pypi/npm: the package, pinned (after it, for PyPI, what it
# needs besides: servers written for the 1.x SDK do not start under `mcp` 2.x); exe: the
# command the package installs; args/env: what the server needs to start without credentials
# or a service to talk to (`{work}` is a scratch directory, a git repository for `git`).
SERVERS = [
    # The reference servers (github.com/modelcontextprotocol/servers).
    dict(name="git", pypi="mcp-server-git==2026.10.19", exe="mcp-server-git",
         args=["--repository", "{work}"]),
    dict(name="fetch", pypi="mcp-server-fetch==2026.10.24", exe="mcp-server-fetch"),
    dict(name="time", pypi="mcp-server-time==2026.10.19", exe="mcp-server-time",
         args=["--local-timezone", "UTC"]),
    dict(name="filesystem", npm="@modelcontextprotocol/server-filesystem@2026.8.31",
         exe="mcp-server-filesystem", args=["{work}"]),
    dict(name="memory", npm="@modelcontextprotocol/server-memory@2026.8.31",
         exe="mcp-server-memory", env={"MEMORY_FILE_PATH": "{work}/memory.jsonl"}),
    dict(name="everything", npm="@modelcontextprotocol/server-everything@2026.8.31",
         exe="mcp-server-everything", args=["stdio"]),
    dict(name="sequential-thinking",
         npm="@modelcontextprotocol/server-sequential-thinking@2026.8.31",
         exe="mcp-server-sequential-thinking"),
    # Tools with ordinary Python type hints, as each FastMCP generation describes them.
    dict(name="python-types-mcp-sdk1", pypi="mcp==1.30.0 email-validator",
         script="mcp_typed_server.py", args=["sdk1"]),
    dict(name="python-types-mcp-sdk2", pypi="mcp==2.3.0 email-validator",
         script="mcp_typed_server.py", args=["sdk2"]),
    dict(name="python-types-fastmcp", pypi="fastmcp==4.2.3 email-validator",
         script="mcp_typed_server.py", args=["fastmcp"]),
    # Other servers on PyPI.
    dict(name="arxiv", pypi="arxiv-mcp-server==0.8.2", exe="arxiv-mcp-server",
         args=["--storage-path", "{work}"]),
    dict(name="aws-cloudwatch", pypi="awslabs-cloudwatch-mcp-server==0.3.1",
         exe="awslabs.cloudwatch-mcp-server"),
    dict(name="aws-documentation", pypi="awslabs-aws-documentation-mcp-server==1.2.3",
         exe="awslabs.aws-documentation-mcp-server"),
    dict(name="aws-location", pypi="awslabs-aws-location-mcp-server==2.1.1",
         exe="awslabs.aws-location-mcp-server"),
    dict(name="aws-pricing", pypi="awslabs-aws-pricing-mcp-server==1.1.1",
         exe="awslabs.aws-pricing-mcp-server"),
    dict(name="cli", pypi="cli-mcp-server==0.2.5 mcp<2", exe="cli-mcp-server",
         env={"ALLOWED_DIR": "{work}"}),
    dict(name="clickhouse", pypi="mcp-clickhouse==0.7.0", exe="mcp-clickhouse"),
    dict(name="duckdb", pypi="mcp-server-duckdb==1.1.0 mcp<2", exe="mcp-server-duckdb",
         args=["--db-path", "{work}/db.duckdb"]),
    dict(name="duckduckgo", pypi="duckduckgo-mcp-server==0.7.0", exe="duckduckgo-mcp-server"),
    dict(name="excel", pypi="excel-mcp-server==2.2.2", exe="excel-mcp-server", args=["stdio"]),
    dict(name="grafana", pypi="mcp-grafana==2.1.1", exe="mcp-grafana"),
    dict(name="lean-lsp", pypi="lean-lsp-mcp==0.32.0", exe="lean-lsp-mcp"),
    dict(name="motherduck", pypi="mcp-server-motherduck==1.1.0", exe="mcp-server-motherduck",
         args=["--db-path", ":memory:", "--read-write"]),
    dict(name="office-powerpoint", pypi="office-powerpoint-mcp-server==2.0.7 mcp<2",
         exe="ppt_mcp_server"),
    dict(name="office-word", pypi="office-word-mcp-server==1.1.11", exe="word_mcp_server"),
    dict(name="yahoo-finance", pypi="mcp-yahoo-finance==0.2.0", exe="mcp-yahoo-finance"),
    # Other servers on npm (the ones that need a key start with a dummy one; tools/list does
    # not use it).
    dict(name="antv-chart", npm="@antv/mcp-server-chart@0.9.10", exe="mcp-server-chart"),
    dict(name="chrome-devtools", npm="chrome-devtools-mcp@1.11.0", exe="chrome-devtools-mcp"),
    dict(name="circleci", npm="@circleci/mcp-server-circleci@0.20.0",
         exe="mcp-server-circleci", env={"CIRCLECI_TOKEN": "unused"}),
    dict(name="context7", npm="@upstash/context7-mcp@4.1.1", exe="context7-mcp"),
    dict(name="eslint", npm="@eslint/mcp@0.3.13", exe="mcp"),
    dict(name="executeautomation-playwright",
         npm="@executeautomation/playwright-mcp-server@1.0.12", exe="playwright-mcp-server"),
    dict(name="firecrawl", npm="firecrawl-mcp@3.22.2", exe="firecrawl-mcp",
         env={"FIRECRAWL_API_KEY": "unused"}),
    dict(name="gitlab", npm="@zereight/mcp-gitlab@2.1.64", exe="mcp-gitlab",
         env={"GITLAB_PERSONAL_ACCESS_TOKEN": "unused"}),
    dict(name="hello-world", npm="mcp-hello-world@1.1.2", exe="mcp-hello-world"),
    dict(name="mongodb", npm="mongodb-mcp-server@3.0.4", exe="mongodb-mcp-server"),
    dict(name="n8n", npm="n8n-mcp@2.87.0", exe="n8n-mcp"),
    dict(name="notion", npm="@notionhq/notion-mcp-server@2.5.2", exe="notion-mcp-server"),
    dict(name="playwright", npm="@playwright/mcp@0.0.83", exe="playwright-mcp"),
    dict(name="tavily", npm="tavily-mcp@0.2.22", exe="tavily-mcp",
         env={"TAVILY_API_KEY": "unused"}),
]


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def run(command, **kwargs):
    log("$", " ".join(command))
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)


def install(server, scratch):
    """Installs the server's package; returns (command prefix, package directory)."""
    root = os.path.join(scratch, "servers", server["name"])
    if "pypi" in server:
        venv = os.path.join(root, "venv")
        python = os.path.join(venv, "bin", "python")
        marker = os.path.join(venv, ".installed")
        if not os.path.exists(marker) or open(marker).read() != server["pypi"]:
            packages = server["pypi"].split()
            if shutil.which("uv"):
                run(["uv", "venv", "-q", "--python", sys.executable, venv])
                run(["uv", "pip", "install", "-q", "--python", python, *packages])
            else:
                run([sys.executable, "-m", "venv", venv])
                run([python, "-m", "pip", "install", "-q", *packages])
            with open(marker, "w") as f:
                f.write(server["pypi"])
        if "script" in server:
            return [python, os.path.join(HERE, server["script"])], venv
        return [os.path.join(venv, "bin", server["exe"])], venv
    # One prefix for every npm server (installing them one by one is slow); each command is
    # read from its package's `bin`, since two packages may install the same name.
    prefix = os.path.join(scratch, "npm")
    wanted = sorted(s["npm"] for s in SERVERS if "npm" in s)
    marker = os.path.join(prefix, ".installed")
    if not os.path.exists(marker) or open(marker).read() != "\n".join(wanted):
        os.makedirs(prefix, exist_ok=True)
        # --ignore-scripts: no browser downloads; listing tools needs none.
        run(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix",
             prefix, *wanted])
        with open(marker, "w") as f:
            f.write("\n".join(wanted))
    package = os.path.join(prefix, "node_modules", package_name(server))
    bins = json.load(open(os.path.join(package, "package.json")))["bin"]
    if isinstance(bins, str):
        bins = {server["exe"]: bins}
    return ["node", os.path.join(package, bins[server["exe"]])], prefix


def package_name(server):
    if "pypi" in server:
        return server["pypi"].split()[0].split("==")[0].split("[")[0]
    return server["npm"].rsplit("@", 1)[0]


def licence(server, directory):
    """(declared licence, licence files) from the installed package's metadata."""
    name = package_name(server)
    if "pypi" in server:
        norm = name.replace("-", "_").lower()
        for info in glob.glob(os.path.join(directory, "lib", "python*", "site-packages",
                                           "*.dist-info")):
            base = os.path.basename(info).lower()
            if not base.startswith(norm + "-"):
                continue
            declared = []
            for line in open(os.path.join(info, "METADATA"), encoding="utf-8"):
                if line.startswith(("License-Expression:", "License:")):
                    declared.append(line.split(":", 1)[1].strip())
                elif line.startswith("Classifier: License ::"):
                    declared.append(line.rsplit("::", 1)[1].strip())
                elif not line.strip():
                    break
            files = [p for p in glob.glob(os.path.join(info, "**", "*"), recursive=True)
                     if os.path.isfile(p)
                     and os.path.basename(p).upper().startswith(("LICEN", "NOTICE"))]
            return "; ".join(declared) or "?", files
        return "?", []
    package = os.path.join(directory, "node_modules", name)
    meta = json.load(open(os.path.join(package, "package.json")))
    files = [p for p in glob.glob(os.path.join(package, "*"))
             if os.path.basename(p).upper().startswith(("LICEN", "NOTICE"))]
    return str(meta.get("license", "?")), files


class Connection:
    """JSON-RPC over a child's stdin and stdout, one message a line."""

    def __init__(self, command, env, cwd):
        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, env=env, cwd=cwd, text=True,
                                      encoding="utf-8")
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self.next_id = 0

    def _read(self):
        for line in self.child.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain(self):
        for line in self.child.stderr:
            self.stderr.append(line)

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()

    def request(self, method, params, timeout):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no answer to {method} in {timeout} s")
            if line is None:
                raise RuntimeError(f"the server exited: {''.join(self.stderr[-20:])}")
            try:
                answer = json.loads(line)
            except ValueError:
                continue  # a server that logs to stdout
            if answer.get("id") != self.next_id:
                continue  # a notification or a request of the server's
            if "error" in answer:
                raise RuntimeError(f"{method}: {answer['error']}")
            return answer["result"]

    def close(self):
        try:
            self.child.stdin.close()
            self.child.wait(timeout=5)
        except Exception:
            self.child.kill()
            self.child.wait()


def tools_list(command, env, cwd, timeout):
    """(initialize result, tools/list result with every page's tools in one list)."""
    connection = Connection(command, env, cwd)
    try:
        init = connection.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "toolargs-fixtures", "version": "0.1.0"},
        }, timeout)
        connection.notify("notifications/initialized")
        result = connection.request("tools/list", {}, timeout)
        while result.get("nextCursor"):
            page = connection.request("tools/list", {"cursor": result.pop("nextCursor")},
                                      timeout)
            result["tools"].extend(page["tools"])
            if page.get("nextCursor"):
                result["nextCursor"] = page["nextCursor"]
        return init, result
    finally:
        connection.close()


def substitute(value, work):
    return value.replace("{work}", work)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "mcp-tools"))
    parser.add_argument("--out", default=os.path.join(REPO, "tests", "data", "mcp-tools"))
    parser.add_argument("--only", nargs="*", help="server names")
    parser.add_argument("--timeout", type=float, default=120.0)
    options = parser.parse_args()

    found = os.path.join(options.scratch, "licences")
    os.makedirs(found, exist_ok=True)
    failed = []
    for server in SERVERS:
        if options.only and server["name"] not in options.only:
            continue
        name = server["name"]
        try:
            command, directory = install(server, options.scratch)
            work = os.path.join(options.scratch, "work", name)
            os.makedirs(work, exist_ok=True)
            if name == "git" and not os.path.isdir(os.path.join(work, ".git")):
                run(["git", "init", "-q", work])
            env = dict(os.environ)
            env.update({k: substitute(v, work) for k, v in server.get("env", {}).items()})
            args = [substitute(a, work) for a in server.get("args", [])]
            init, result = tools_list(command + args, env, work, options.timeout)
        except Exception as e:  # one server that does not start does not stop the others
            log(f"{name}: {e}")
            failed.append(name)
            continue
        with open(os.path.join(options.out, f"{name}.json"), "w", encoding="utf-8") as f:
            # As sent on the wire: compact, one line.
            json.dump(result, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        declared, files = licence(server, directory)
        for path in files:
            shutil.copy(path, os.path.join(found, f"{name}-{os.path.basename(path)}"))
        info = init.get("serverInfo", {})
        spec = server.get("pypi", server.get("npm")).split()[0]
        print(f"| {name} | `{spec}` | {info.get('name')} {info.get('version')} | {declared} "
              f"| {len(result['tools'])} |", flush=True)
    if failed:
        log("did not answer:", " ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
