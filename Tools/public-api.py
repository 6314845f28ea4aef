#!/usr/bin/env python3
"""How many public declarations each library product brings into scope: `make public-api`.

A product's scope is its own module's public symbols plus what its `Exports.swift` re-exports:
a whole module (`@_exported import M`) brings all of M's public symbols, a symbol
(`@_exported import struct M.T`) brings T and its members, wherever declared (M's extensions of T
in other modules included). Symbols are counted from the symbol graphs `swift symbolgraph-extract`
writes for the debug build's modules (`swift build` first), synthesized members left out, as DocC
counts them. With `--module-dir DIR --module NAME` it counts another module the same way (a peer,
such as swift-snapshot-testing's, compiled with `swiftc -emit-module`).
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCTS = [
    "TracksnapTesting", "TracksnapTestingServer", "TracksnapCapture", "TracksnapServer", "TracksnapExtensions",
    "TracksnapCommandLine", "TracksnapCommandLineServer",
]
EXPORT = re.compile(r"^@_exported import (?:(?:struct|class|enum|protocol|func|typealias|var|let) )?([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?")


def extract(module, module_dir, out):
    """Writes MODULE's symbol graphs (its own, and its extensions of other modules' types) to OUT."""
    maps = [f"-fmodule-map-file={path}" for path in sorted(glob.glob(os.path.join(ROOT, ".build/checkouts/*/Sources/**/module.modulemap"), recursive=True))]
    maps += [f"-fmodule-map-file={path}" for path in sorted(glob.glob(os.path.join(ROOT, "Sources/C*/module.modulemap")))]
    # SwiftPM writes the module maps of C targets that ship none beside their build products.
    maps += [f"-fmodule-map-file={path}" for path in sorted(glob.glob(os.path.join(module_dir, "..", "*.build", "module.modulemap")))]
    command = ["swift", "symbolgraph-extract", "-module-name", module, "-I", module_dir,
               "-target", f"{os.uname().machine}-unknown-linux-gnu" if sys.platform.startswith("linux") else f"{os.uname().machine}-apple-macosx13.0",
               "-output-dir", out, "-minimum-access-level", "public", "-skip-synthesized-members"]
    for flag in maps:
        command += ["-Xcc", flag]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"public-api: symbolgraph-extract failed for {module}:\n{run.stderr.strip()}")


def symbols(module, module_dir, out, cache):
    """MODULE's public symbols as (extended-or-own type, precise id) pairs, the first path component first."""
    if module not in cache:
        extract(module, module_dir, out)
        found = {}
        for path in glob.glob(os.path.join(out, f"{module}.symbols.json")) + glob.glob(os.path.join(out, f"{module}@*.symbols.json")):
            for symbol in json.load(open(path))["symbols"]:
                found[symbol["identifier"]["precise"]] = symbol["pathComponents"][0]
        cache[module] = found
    return cache[module]


def exports(module):
    """What MODULE's Exports.swift re-exports: (module, symbol or None for the whole module)."""
    path = os.path.join(ROOT, "Sources", module, "Exports.swift")
    if not os.path.exists(path):
        return []
    return [m.groups() for line in open(path) if (m := EXPORT.match(line.strip()))]


def scope(module, module_dir, out, cache, seen=None):
    """The precise ids of every public symbol `import MODULE` brings into scope."""
    seen = set() if seen is None else seen
    if module in seen:
        return set()
    seen.add(module)
    ids = set(symbols(module, module_dir, out, cache))
    for exported, name in exports(module):
        if name is None:
            ids |= scope(exported, module_dir, out, cache, seen)
            continue
        # A symbol brings itself and its members, wherever they are declared among the modules it
        # was re-exported from and those that module depends on (extensions in other modules).
        for other in [exported] + [m for m in cache if m != exported]:
            ids |= {precise for precise, top in symbols(other, module_dir, out, cache).items() if top == name}
    return ids


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--module-dir", default=os.path.join(ROOT, ".build/debug/Modules"))
    parser.add_argument("--module", action="append", help="a module to count instead of the products")
    arguments = parser.parse_args()
    cache = {}
    with tempfile.TemporaryDirectory() as out:
        # Extensions of an exported type may live in any of the package's modules: load them all.
        if arguments.module is None:
            for source in sorted(os.listdir(os.path.join(ROOT, "Sources"))):
                if source.startswith("Tracksnap") and os.path.exists(os.path.join(arguments.module_dir, f"{source}.swiftmodule")):
                    symbols(source, arguments.module_dir, out, cache)
        for module in arguments.module or PRODUCTS:
            print(f"{module:26} {len(scope(module, arguments.module_dir, out, cache)):5} public declarations in scope")


if __name__ == "__main__":
    main()
