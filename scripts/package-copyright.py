#!/usr/bin/python3
"""Writes the Debian copyright file of the watcher package (scripts/package.sh) to standard output.

Usage: package-copyright.py TEMPLATE WORKSPACE_STATE CHECKOUTS SWIFT_VERSION

TEMPLATE is packaging/debian/copyright.in; its @BUNDLED@ line becomes one Files stanza per Swift package that SwiftPM
resolved (WORKSPACE_STATE, .build/workspace-state.json), with the licence read from the package's own LICENSE file in
CHECKOUTS (.build/checkouts). A licence it cannot tell (neither Apache-2.0 nor MIT/Expat) stops it with exit 1: a new
dependency's licence must be looked at by a person, and the template extended, before it ships.
"""

import json
import os
import re
import sys


def licence(text):
    if "Apache License" in text and "Version 2.0" in text:
        return "Apache-2.0"
    if "Permission is hereby granted, free of charge" in text:
        return "Expat"
    return None


def holder(directory, identity, text):
    for name in ("NOTICE.txt", "NOTICE"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as notice:
                for line in notice:
                    found = re.search(r"Copyright\s+(?:\([cC]\)\s*)?(.*\d{4}.*)", line)
                    if found:
                        return found.group(1).strip()
    found = re.search(r"Copyright \(c\)\s+(.*)", text)
    if found:
        return found.group(1).strip()
    return "the " + identity + " authors"


def main():
    template, state_path, checkouts, swift_version = sys.argv[1:5]
    with open(state_path, encoding="utf-8") as state_file:
        state = json.load(state_file)
    stanzas = []
    unknown = []
    dependencies = sorted(state["object"]["dependencies"], key=lambda d: d["packageRef"]["identity"])
    for dependency in dependencies:
        reference = dependency["packageRef"]
        directory = os.path.join(checkouts, dependency.get("subpath", reference["identity"]))
        names = [n for n in os.listdir(directory) if re.match(r"(?i)^licen[cs]e(\.txt|\.md)?$", n)]
        text = ""
        if names:
            with open(os.path.join(directory, names[0]), encoding="utf-8") as licence_file:
                text = licence_file.read()
        kind = licence(text)
        if kind is None:
            unknown.append(reference["identity"])
            continue
        version = dependency["state"].get("checkoutState", {}).get("version") or "unversioned"
        stanzas.append(
            "Files: .build/checkouts/%s/*\nCopyright: %s\nLicense: %s\nComment: %s %s, %s\n"
            % (
                os.path.basename(directory),
                holder(directory, reference["identity"], text),
                kind,
                reference["identity"],
                version,
                reference["location"],
            )
        )
    if unknown:
        sys.stderr.write("no known licence for: %s (extend %s)\n" % (", ".join(unknown), template))
        sys.exit(1)
    with open(template, encoding="utf-8") as template_file:
        text = template_file.read()
    text = text.replace("@SWIFT_VERSION@", swift_version).replace("@BUNDLED@\n", "\n".join(stanzas) + "\n")
    sys.stdout.write(text)


main()
