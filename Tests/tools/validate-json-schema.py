#!/usr/bin/python3
"""Validates a JSON document against a JSON Schema (draft 2020-12) with the `jsonschema` package.

Usage: validate-json-schema.py SCHEMA INSTANCE
Prints every error with its JSON path; exit status 0 valid, 1 invalid, 2 trouble.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("the jsonschema package is missing: apt-get install python3-jsonschema", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as handle:
        schema = json.load(handle)
    with open(sys.argv[2], encoding="utf-8") as handle:
        instance = json.load(handle)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = sorted(validator_class(schema).iter_errors(instance), key=lambda error: list(error.absolute_path))
    for error in errors[:50]:
        path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path) or "(root)"
        print(f"{path}: {error.message}")
    if len(errors) > 50:
        print(f"... and {len(errors) - 50} more")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
