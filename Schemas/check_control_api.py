#!/usr/bin/env python3
"""Holds `tracksnap serve` to its OpenAPI description (Schemas/control-api.openapi.json).

    .build/sdk-venv/bin/python Schemas/check_control_api.py [--max-examples N]

Starts the tracksnap binary ($TRACKSNAP_BIN, default .build/debug/tracksnap) on a free port with
a root of its own holding one snapshot, then runs schemathesis against it: every operation, in
positive and negative mode, through its examples, coverage, fuzzing and stateful phases (a
session started, sent an event, then used), with the checks that need no credentials of another
user: no 5xx, every status code, content type, header and body as described, invalid data
refused, 405 with `Allow` (all but the live stream, which never ends). Waits the calls ask for are kept short, and each session started is
sent its event, by schemathesis_hooks.py, which also makes the files calls name exist. Exits
with schemathesis's status (1 when anything failed), or 1 when the server did not outlive the
run, or when a call that reads or writes a file (`REACHED`) never succeeded: the run would then
have tested only its refusals.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tracksnap import Tracksnap

SCHEMAS = Path(__file__).resolve().parent
ROOT = SCHEMAS.parent
CHECKS = ",".join([
    "not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
    "response_schema_conformance", "negative_data_rejection", "unsupported_method", "allow_header_conformance",
])
# Operations that must answer 200 at least once: what they do, not only what they refuse.
REACHED = [
    "POST /__tracksnap/sessions/{id}/validate", "POST /__tracksnap/sessions/{id}/record",
    "POST /__tracksnap/snapshots/accept", "POST /__tracksnap/snapshots/reject",
]
SNAPSHOT = {"requests": [{"method": "POST", "url": {"$regex": ".*/v1/t"}, "body": {"event": "Order Completed"}}]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument("--seed", type=int, default=None)
    arguments = parser.parse_args()
    binary = os.environ.get("TRACKSNAP_BIN") or str(ROOT / ".build/debug/tracksnap")
    with tempfile.TemporaryDirectory(prefix="tracksnap-openapi-") as root:
        (Path(root) / "snapshots").mkdir()
        (Path(root) / "snapshots/checkout.json").write_text(json.dumps(SNAPSHOT))
        with Tracksnap.start(root=root, binary=binary) as server:
            command = [
                sys.executable, "-m", "schemathesis.cli", "run", str(SCHEMAS / "control-api.openapi.json"),
                "--url", server.url, "--checks", CHECKS, "--max-examples", str(arguments.max_examples),
                "--request-timeout", "10", "--workers", "1", "--no-color", "--generation-database", "none",
                "--suppress-health-check", "all",
                # The live stream never ends, so no check could read its answer whole; InspectorTests
                # hold it to its description (its guards, its events, its end for a slow reader).
                "--exclude-operation-id", "streamRequests",
            ]
            if arguments.seed is not None:
                command += ["--seed", str(arguments.seed)]
            calls = Path(tempfile.mkdtemp(prefix="tracksnap-openapi-calls-")) / "calls.txt"
            environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", TRACKSNAP_CALLS=str(calls),
                               PYTHONPATH=os.pathsep.join(filter(None, [str(SCHEMAS), os.environ.get("PYTHONPATH")])))
            status = subprocess.run(command, env=environment, cwd=root).returncode
            # The server outlived everything schemathesis sent.
            if server.health()["status"] != "ok":
                status = status or 1
            answered = calls.read_text().splitlines() if calls.exists() else []
            for operation in REACHED:
                succeeded = sum(1 for line in answered if line == f"{operation} 200")
                sent = sum(1 for line in answered if line.rsplit(" ", 1)[0] == operation)
                print(f"{operation}: {succeeded} of {sent} calls answered 200")
                if succeeded == 0:
                    print(f"error: no {operation} call reached what it does", file=sys.stderr)
                    status = status or 1
            calls.unlink(missing_ok=True)
            calls.parent.rmdir()
    sys.exit(status)


if __name__ == "__main__":
    main()
