#!/usr/bin/env python3
"""Checks the snapshot, profile, plan, report, cassette and events JSON Schemas against examples and the repository's own files.

    python3 Schemas/check.py [-v] [--report FILE...] [--cassette FILE...] [--events FILE...] [--stream FILE...]

- the three schemas are valid draft 2020-12 schemas, and the matcher definitions the snapshot and
  profile schemas share are identical;
- every file under Schemas/examples/valid/ is accepted, every file under Schemas/examples/invalid/ rejected;
- every *.json under the repository's Snapshots/ and Validators/, and every built-in profile
  (Sources/TracksnapValidation/Profile/BuiltIn/), is accepted;
- every component schema of control-api.openapi.json, and every schema its stream's `x-events`
  names, is a valid draft 2020-12 schema that accepts each of its `examples`;
- with `--report`, each FILE (a report `tracksnap validate --format json` wrote) is accepted by the
  report schema, and with `--cassette`, each FILE (a cassette tracksnap wrote) by the cassette
  schema, and with `--events`, each FILE (what `tracksnap events --format json` wrote) by the events
  schema, and with `--stream`, each FILE (Server-Sent Events the inspector's stream sent) event by
  event: its name is one `x-events` names and its `data` is accepted by that schema: the Swift tests
  pass the writers' own output here.

A file under a `Reports` directory is a JSON report, one under a `Cassettes` directory a cassette; one whose `plan` is a number is a
tracking plan; one under a `Validators` directory, or naming the profile schema in `$schema`, is a profile; any other a snapshot (as
`tracksnap lint` decides).
The last line is `N passed, M failed`; the exit status is 1 when anything failed. Needs `jsonschema`.
"""

import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SCHEMAS = Path(__file__).resolve().parent
ROOT = SCHEMAS.parent
EXAMPLES = SCHEMAS / "examples"
# The profiles built into tracksnap (embedded in the binary from these files).
BUILT_IN = "Sources/TracksnapValidation/Profile/BuiltIn"
# Copied into the profile schema so that each file stands alone in an editor; they must not drift apart.
# The control API's OpenAPI description, and where in it the stream names its events' schemas.
CONTROL_API = SCHEMAS / "control-api.openapi.json"
CONTROL_API_URI = "urn:tracksnap:control-api"
STREAM_EVENTS = ["paths", "/__tracksnap/requests/stream", "get", "responses", "200", "content", "text/event-stream", "x-events"]
SHARED_DEFS = ["order", "unexpected", "matcher", "literalValue", "arrayMatcher", "plainObject",
               "regexMatcher", "typeMatcher", "anyMatcher", "absentMatcher", "literalMatcher", "jsonSchemaMatcher", "unorderedMatcher"]


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def main():
    arguments = sys.argv[1:]
    verbose = "-v" in arguments
    def files_after(option):
        if option not in arguments:
            return []
        rest = arguments[arguments.index(option) + 1:]
        return [Path(a) for a in rest[:next((i for i, a in enumerate(rest) if a.startswith("--")), len(rest))]]

    reports, cassettes, events = files_after("--report"), files_after("--cassette"), files_after("--events")
    streams = files_after("--stream")
    passed, failed = 0, 0

    def report(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        if verbose or not ok:
            print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")

    schemas = {}
    for kind in ("snapshot", "profile", "plan", "report", "cassette", "events"):
        schema = load(SCHEMAS / f"{kind}.schema.json")
        try:
            Draft202012Validator.check_schema(schema)
            report(True, f"{kind}.schema.json is a valid draft 2020-12 schema")
        except Exception as error:  # noqa: BLE001 - any failure is reported, not raised
            report(False, f"{kind}.schema.json is a valid draft 2020-12 schema", str(error).splitlines()[0])
            continue
        schemas[kind] = Draft202012Validator(schema)

    if len(schemas) < 6:
        print(f"{passed} passed, {failed} failed")
        return 1

    snapshot_defs = schemas["snapshot"].schema["$defs"]
    profile_defs = schemas["profile"].schema["$defs"]
    for name in SHARED_DEFS:
        report(snapshot_defs.get(name) == profile_defs.get(name) is not None,
               f"$defs/{name} is the same in both schemas")

    def schema_for(path, document):
        if "Reports" in path.parts[:-1]:
            return schemas["report"]
        if "Cassettes" in path.parts[:-1]:
            return schemas["cassette"]
        if isinstance(document, dict) and isinstance(document.get("plan"), (int, float)) and not isinstance(document.get("plan"), bool):
            return schemas["plan"]
        names_profile_schema = isinstance(document, dict) and str(document.get("$schema", "")).endswith("profile.schema.json")
        return schemas["profile"] if "Validators" in path.parts[:-1] or names_profile_schema else schemas["snapshot"]

    def check(path, expect_valid, validator=None):
        label = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        try:
            document = load(path)
        except (OSError, ValueError) as error:
            report(False, str(label), f"cannot be read as JSON: {error}")
            return
        validator = validator or schema_for(path, document)
        error = best_match(validator.iter_errors(document))
        where = "/" + "/".join(str(step) for step in error.absolute_path) if error else ""
        if expect_valid:
            report(error is None, f"{label} is accepted", f"{where} {error.message}" if error else "")
        else:
            report(error is not None, f"{label} is rejected", f"{where} {error.message}" if error else "accepted")

    for expect_valid, folder in ((True, "valid"), (False, "invalid")):
        files = sorted((EXAMPLES / folder).rglob("*.json"))
        report(bool(files), f"examples/{folder} has examples")
        for path in files:
            check(path, expect_valid)

    builtin = sorted((ROOT / BUILT_IN).glob("*.json"))
    report(bool(builtin), f"{BUILT_IN} has the built-in profiles")
    for path in builtin:
        check(path, True)

    for folder in ("Snapshots", "Validators"):
        for path in sorted((ROOT / folder).rglob("*.json")):
            # Pending recordings (`x.new.json`, git-ignored) are drafts awaiting review, not the repository's files.
            if not path.name.endswith(".new.json"):
                check(path, True)

    for path in reports:
        check(path.resolve(), True, schemas["report"])
    for path in cassettes:
        check(path.resolve(), True, schemas["cassette"])
    for path in events:
        check(path.resolve(), True, schemas["events"])

    check_control_api(report, streams)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def pointer(steps):
    return "/" + "/".join(str(step).replace("~", "~0").replace("/", "~1") for step in steps)


def check_control_api(report, streams):
    """The OpenAPI description's schemas and their examples; then each stream FILE, event by event.

    OpenAPI 3.1's schemas are draft 2020-12 schemas: each is validated as a `$ref` into the whole
    description, so that its own `$ref`s (`#/components/schemas/…`) resolve there."""
    api = load(CONTROL_API)
    registry = Registry().with_resource(CONTROL_API_URI, Resource.from_contents(api, default_specification=DRAFT202012))

    def validator(steps):
        return Draft202012Validator({"$ref": CONTROL_API_URI + "#" + pointer(steps)}, registry=registry)

    def errors(validator, document):
        error = best_match(validator.iter_errors(document))
        return f"{pointer(error.absolute_path) if error.absolute_path else '/'} {error.message}" if error else None

    events = api
    for step in STREAM_EVENTS:
        events = events.get(step, {}) if isinstance(events, dict) else {}
    report(bool(events), "control-api.openapi.json names the stream's events' schemas (x-events)")
    named = [(["components", "schemas", name], schema) for name, schema in api["components"]["schemas"].items()]
    named += [(STREAM_EVENTS + [name], schema) for name, schema in events.items()]
    for steps, schema in named:
        label = f"control-api.openapi.json#{pointer(steps)}"
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as error:  # noqa: BLE001 - any failure is reported, not raised
            report(False, f"{label} is a valid draft 2020-12 schema", str(error).splitlines()[0])
            continue
        report(True, f"{label} is a valid draft 2020-12 schema")
        for index, example in enumerate(schema.get("examples", [])):
            problem = errors(validator(steps), example)
            report(problem is None, f"{label} accepts its example {index}", problem or "")

    for path in streams:
        label = path.relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            report(False, str(label), f"cannot be read: {error}")
            continue
        blocks = [block for block in text.replace("\r\n", "\n").split("\n\n") if block.strip()]
        report(bool(blocks), f"{label} holds events")
        for number, block in enumerate(blocks, 1):
            fields = {}
            for line in block.split("\n"):
                field, _, value = line.partition(":")
                fields.setdefault(field, []).append(value[1:] if value.startswith(" ") else value)
            if set(fields) == {"retry"}:
                continue
            name = (fields.get("event") or ["message"])[-1]
            what = f"{label} event {number} ({name})"
            if name not in events:
                report(False, f"{what} is accepted", f"x-events names no event {name!r}")
                continue
            try:
                data = json.loads("\n".join(fields.get("data", [])))
            except ValueError as error:
                report(False, f"{what} is accepted", f"its data is not JSON: {error}")
                continue
            problem = errors(validator(STREAM_EVENTS + [name]), data)
            report(problem is None, f"{what} is accepted", problem or "")


if __name__ == "__main__":
    sys.exit(main())
