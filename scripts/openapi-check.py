#!/usr/bin/env python3
"""Checks live answers of a watcher status server against docs/openapi.yaml.

Usage: /usr/bin/python3 scripts/openapi-check.py SPEC BASE_URL < requests.json
requests.json: [{"method": "GET", "path": "/api/blocks?limit=2", "body": {...}?, "headers": {...}?}, ...]
Each answer's status must be documented for the path and method, and its JSON body must match the documented
schema (JSON Schema 2020-12, as OpenAPI 3.1 uses). Prints one line per request; exits 1 on any mismatch.
Run it with Debian's /usr/bin/python3, which sees python3-jsonschema and python3-yaml (`make test-deps`); a pyenv
or venv `python3` first on PATH, which the shebang would pick, may not. The tests run it with $WATCHER_PYTHON.
"""
import json
import re
import sys
import urllib.error
import urllib.request

import jsonschema
import yaml


def operation(spec, method, path):
    bare = path.split("?", 1)[0]
    for template, item in spec["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, bare) and method.lower() in item:
            return template, item[method.lower()]
    return None, None


def response_schema(spec, op, status):
    answer = op["responses"].get(str(status))
    if answer is None:
        return None, False
    if "$ref" in answer:
        answer = spec["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    content = answer.get("content", {}).get("application/json")
    return (content or {}).get("schema"), True


def main():
    spec = yaml.safe_load(open(sys.argv[1]))
    base = sys.argv[2].rstrip("/")
    failures = 0
    covered = set()
    for request in json.load(sys.stdin):
        method, path = request["method"], request["path"]
        data = json.dumps(request["body"]).encode() if "body" in request else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        headers.update(request.get("headers", {}))
        req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                status, body = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        template, op = operation(spec, method, path)
        if op is None:
            print(f"FAIL {method} {path}: not in the spec")
            failures += 1
            continue
        covered.add((template, method.lower()))
        schema, documented = response_schema(spec, op, status)
        if not documented:
            print(f"FAIL {method} {path}: status {status} is not documented: {body[:200]!r}")
            failures += 1
            continue
        if request.get("status") and request["status"] != status:
            print(f"FAIL {method} {path}: expected {request['status']}, got {status}: {body[:200]!r}")
            failures += 1
            continue
        if schema is not None:
            root = dict(schema)
            root["components"] = spec["components"]
            try:
                jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker()).validate(
                    json.loads(body)
                )
            except (jsonschema.ValidationError, ValueError) as error:
                print(f"FAIL {method} {path} ({status}): {str(error).splitlines()[0]}")
                failures += 1
                continue
        print(f"ok   {method} {path} ({status})")
    for template, item in spec["paths"].items():
        for method in item:
            if (template, method) not in covered and template != "/api/events/stream":
                print(f"FAIL {method.upper()} {template}: documented but not exercised")
                failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
