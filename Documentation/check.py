#!/usr/bin/env python3
"""Checks the project's documentation (README.md, ARCHITECTURE.md, Documentation/*.md).

- Every relative link leads to a file of the repository, and every `#anchor` to a heading of the
  page it names (GitHub's rule: lower case, punctuation dropped, spaces as hyphens).
- With `--demo FILE`: the README's demo output (the ```text block after "`make demo` prints:")
  is exactly FILE, what `make demo` printed.
- With `--front-page DIR`: writes into DIR the package a user makes from the README's "A Swift
  test": its Package.swift as shown (the tracksnap package a path dependency on this checkout,
  `DIR/tracksnap`), its Swift test as `Tests/ShopTests/CheckoutTests.swift`, with the app and the
  snapshot from Tests/FrontPage, and a test target of extension points (Tests/FrontPage/
  ShopExtensionTests); and the guide's command line of one's own (Documentation/
  SnapshotsAndProfiles.md, "The command line with a decoder of your own": its target and its
  main.swift as shown) with a test target that runs it (Tests/FrontPage/ShopCommandLineTests);
  `make front-page-check` runs `swift test` in it.

Exit 0 when all hold, 1 otherwise, each problem on stderr as FILE:LINE: message.
"""

import argparse
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "Documentation").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
DEMO_INTRO = "`make demo` prints:"
PACKAGE_INTRO = "so it is excluded:"
TEST_INTRO = "whole diff:"
EXTENSION_TESTS = """
package.targets.append(
    .testTarget(
        name: "ShopExtensionTests",
        dependencies: [
            .product(name: "TracksnapCapture", package: "tracksnap"),
            .product(name: "TracksnapExtensions", package: "tracksnap"),
        ]))
"""
GUIDE = ROOT / "Documentation" / "SnapshotsAndProfiles.md"
COMMAND_TARGET_INTRO = "beside its dependency on tracksnap, one target:"
COMMAND_MAIN_INTRO = "main.swift`, the whole program:"
COMMAND_LINE_TESTS = """
package.targets.append(
    .testTarget(name: "ShopCommandLineTests", dependencies: ["shop-tracksnap"]))
"""
DEPENDENCY = re.compile(r'\.package\(url: "[^"]*/tracksnap", branch: "main"\)')


def prose(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield number, line


def anchors(path):
    found = set()
    for _, line in prose(path.read_text()):
        if match := re.match(r"^#{1,6} (.*)$", line):
            slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def check_links(problems):
    for page in PAGES:
        for number, line in prose(page.read_text()):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                linked = (page.parent / file).resolve() if file else page
                where = f"{page.relative_to(ROOT)}:{number}"
                if not linked.exists():
                    problems.append(f"{where}: the link {target} leads to no file")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    problems.append(f"{where}: the link {target} names no heading of {linked.relative_to(ROOT)}")


def readme_block(language, after, page=ROOT / "README.md"):
    """(first line number, lines) of the page's first ```language block after the line that ends with `after`."""
    lines = page.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if line.endswith(after))
    opening = next(i for i in range(start, len(lines)) if lines[i] == "```" + language)
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i] == "```")
    return opening + 2, lines[opening + 1 : closing]


def fenced(language, after, page=ROOT / "README.md"):
    return "\n".join(readme_block(language, after, page)[1]) + "\n"


def write_front_page(directory, problems):
    """The README's Package.swift and Swift test as a package of their own in `directory`."""
    manifest, count = DEPENDENCY.subn('.package(path: "tracksnap")', fenced("swift", PACKAGE_INTRO))
    if count != 1:
        problems.append(f"README.md: the Package.swift after {PACKAGE_INTRO!r} names no tracksnap package by URL")
        return
    package = Path(directory)
    shutil.rmtree(package / "Sources", ignore_errors=True)
    shutil.rmtree(package / "Tests", ignore_errors=True)
    (package / "Sources" / "Shop").mkdir(parents=True)
    (package / "Tests" / "ShopTests").mkdir(parents=True)
    # Not the README's: a second test target, the proof that the extension points and the
    # in-process capture are usable from the products a user depends on.
    manifest += EXTENSION_TESTS
    # The guide's command line of one's own: its target and main.swift as the guide shows them.
    manifest += "\npackage.targets.append(\n" + fenced("swift", COMMAND_TARGET_INTRO, GUIDE).rstrip() + ")\n"
    manifest += COMMAND_LINE_TESTS
    (package / "Sources" / "shop-tracksnap").mkdir(parents=True)
    (package / "Sources" / "shop-tracksnap" / "main.swift").write_text(fenced("swift", COMMAND_MAIN_INTRO, GUIDE))
    (package / "Package.swift").write_text(manifest)
    checkout = package / "tracksnap"
    if not checkout.is_symlink():
        checkout.symlink_to(ROOT)
    # The main package's pins, so that the dependencies resolve to the versions its build uses.
    if (ROOT / "Package.resolved").exists():
        shutil.copy(ROOT / "Package.resolved", package / "Package.resolved")
    fixtures = ROOT / "Tests" / "FrontPage"
    for source in [*sorted((fixtures / "Shop").glob("*.swift")), ROOT / "Tests/TracksnapTestingTests/FakeAnalytics.swift"]:
        shutil.copy(source, package / "Sources" / "Shop" / source.name)
    shutil.copytree(fixtures / "Snapshots", package / "Tests" / "ShopTests" / "Snapshots")
    shutil.copytree(fixtures / "ShopExtensionTests", package / "Tests" / "ShopExtensionTests")
    shutil.copytree(fixtures / "ShopCommandLineTests", package / "Tests" / "ShopCommandLineTests")
    (package / "Tests" / "ShopTests" / "CheckoutTests.swift").write_text(fenced("swift", TEST_INTRO))


def check_demo(output, problems):
    first, expected = readme_block("text", DEMO_INTRO)
    actual = Path(output).read_text().rstrip("\n").split("\n")
    for offset, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            problems.append(
                f"README.md:{first + offset}: the demo output differs from make demo:\n"
                f"  README:    {want}\n  make demo: {got}"
            )
            return
    if len(expected) != len(actual):
        problems.append(
            f"README.md:{first}: the demo output has {len(expected)} lines, make demo printed {len(actual)}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--demo", metavar="FILE", help="what make demo printed")
    parser.add_argument("--front-page", metavar="DIR", help="write the README's Swift package into DIR")
    arguments = parser.parse_args()
    problems = []
    if arguments.front_page:
        write_front_page(arguments.front_page, problems)
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    check_links(problems)
    if arguments.demo:
        check_demo(arguments.demo, problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    checked = f"{len(PAGES)} pages" + (" and the demo's output" if arguments.demo else "")
    print(f"documentation: {checked} checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
