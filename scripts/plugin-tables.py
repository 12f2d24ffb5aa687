#!/usr/bin/env python3
"""Prints the per-plugin option tables of docs/configuration.md from Plugins.json.

Usage: python3 scripts/plugin-tables.py > /tmp/tables.md, then paste between the markers in
docs/configuration.md. A test (ConfigurationDocTests) fails when the doc and the catalog disagree.
"""
import json
import sys

catalog = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "Plugins.json"))
for plugin in catalog["plugins"]:
    print(f"### `{plugin['type']}` ({plugin['role']})\n")
    print(plugin["summary"] + "\n")
    if "defaultRateLimit" in plugin:
        limit = plugin["defaultRateLimit"]
        if limit["requests"] == 0:
            print(f"Default rate limit: no request budget, concurrency {limit['concurrency']}.\n")
        else:
            print(f"Default rate limit: {limit['requests']} per {limit['per']}, burst {limit['burst']}, "
                  f"concurrency {limit['concurrency']}.\n")
    for preset, limit in plugin.get("presetRateLimits", {}).items():
        print(f"- preset `{preset}`: {limit['requests']} per {limit['per']}, burst {limit['burst']}, "
              f"concurrency {limit['concurrency']}")
    if plugin.get("presetRateLimits"):
        print()
    print("| Option | Type | Default | Description |")
    print("| --- | --- | --- | --- |")
    for option in plugin["options"]:
        default = json.dumps(option["default"]) if "default" in option else ("required" if option["required"] else "—")
        print(f"| `{option['name']}` | {option['type']} | `{default}` | {option['description']} |".replace("`required`", "**required**").replace("`—`", "—"))
    print()
