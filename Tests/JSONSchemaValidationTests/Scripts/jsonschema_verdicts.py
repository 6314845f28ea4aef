"""Python jsonschema's verdicts on the differential test's cases.

Reads a JSON file of cases, [{"schema": {...}, "instances": [...]}], each schema naming its draft in
`$schema`, and prints one JSON array per case of whether each instance is valid, as
`jsonschema` (the version pinned in the Makefile's test venv) decides.
"""

import json
import sys

import jsonschema

cases = json.load(open(sys.argv[1]))
verdicts = []
for case in cases:
    validator_class = jsonschema.validators.validator_for(case["schema"])
    validator = validator_class(case["schema"])
    verdicts.append([validator.is_valid(instance) for instance in case["instances"]])
json.dump({"version": jsonschema.__version__ if hasattr(jsonschema, "__version__") else "", "verdicts": verdicts}, sys.stdout)
