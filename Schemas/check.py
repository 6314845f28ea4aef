#!/usr/bin/env python3
"""Checks the snapshot, profile, plan, report, cassette and events JSON Schemas against examples and the repository's own files.

    python3 Schemas/check.py [-v] [--report FILE...] [--cassette FILE...] [--events FILE...]

- the three schemas are valid draft 2020-12 schemas, and the matcher definitions the snapshot and
  profile schemas share are identical;
- every file under Schemas/examples/valid/ is accepted, every file under Schemas/examples/invalid/ rejected;
- every *.json under the repository's Snapshots/ and Validators/, and every built-in profile
  (Sources/TracksnapValidation/Profile/BuiltIn/), is accepted;
- with `--report`, each FILE (a report `tracksnap validate --format json` wrote) is accepted by the
  report schema, and with `--cassette`, each FILE (a cassette tracksnap wrote) by the cassette
  schema, and with `--events`, each FILE (what `tracksnap events --format json` wrote) by the events
  schema: the Swift tests pass the writers' own output here.

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

SCHEMAS = Path(__file__).resolve().parent
ROOT = SCHEMAS.parent
EXAMPLES = SCHEMAS / "examples"
# The profiles built into tracksnap (embedded in the binary from these files).
BUILT_IN = "Sources/TracksnapValidation/Profile/BuiltIn"
# Copied into the profile schema so that each file stands alone in an editor; they must not drift apart.
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

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
