"""What the stdio test servers `quote_server.py` and `refund_server.py` share: each request
read from standard input answered on standard output, `initialize` here and the rest by the
server's own `answer`."""
import json
import sys


def serve(name, answer):
    """Answers every request until standard input closes: `initialize` with the server's
    `name`, any other method with `answer(method, params)`; notifications get nothing."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue
        method, params = message["method"], message.get("params") or {}
        if method == "initialize":
            result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                      "serverInfo": {"name": name, "version": "1"}}
        else:
            result = answer(method, params)
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()
