#!/usr/bin/env python3
"""Runs the commands of a Markdown document's console blocks and checks their
output, so that the document cannot go stale.

    run-console-blocks.py DOC REPO WORKDIR [TAG]

In every block that opens with ```console (or ```console TAG when TAG is
given), a line starting with "$ " is a command, run by sh in WORKDIR (where
REPO's examples/, test/ and docs/ are linked, $OBS_BUILD_DIR as build/, and
the entries of REPO's $OBS_DOC_FOLDER when it is set); the lines after it, up to the next command or
the end of the block, are its expected output (stdout and stderr). A line
"..." in it stands for any number of lines. Each command must exit with 0.
Prints one line per command and a summary; exits with 1 when one failed.
"""
import os
import subprocess
import sys


def blocks(path, tag):
    """The lines of each wanted block, less the indentation of its fence (a
    block inside a list item is indented with it)."""
    wanted = "```console" + (" " + tag if tag else "")
    inside = False
    block, indent = [], ""
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not inside and line.strip() == wanted:
            inside, block = True, []
            indent = line[:len(line) - len(line.lstrip())]
        elif inside and line.strip() == "```":
            inside = False
            yield block
        elif inside:
            block.append(line[len(indent):] if line.startswith(indent) else line)


def commands(block):
    current = None
    for line in block:
        if line.startswith("$ "):
            if current:
                yield current
            current = (line[2:], [])
        elif current:
            current[1].append(line)
    if current:
        yield current


def matches(actual, expected):
    """Whether `actual` lines match `expected`, where "..." is any lines."""
    if not expected:
        return True
    if "..." not in expected:
        return actual == expected
    pieces, piece = [], []
    for line in expected:
        if line == "...":
            pieces.append(piece)
            piece = []
        else:
            piece.append(line)
    pieces.append(piece)
    first, last, middle = pieces[0], pieces[-1], pieces[1:-1]
    if actual[:len(first)] != first:
        return False
    position = len(first)
    end = len(actual) - len(last)
    if end < position or actual[end:] != last:
        return False
    for piece in middle:
        if not piece:
            continue
        while position + len(piece) <= end and actual[position:position + len(piece)] != piece:
            position += 1
        if position + len(piece) > end:
            return False
        position += len(piece)
    return True


def main():
    doc, repo, workdir = sys.argv[1:4]
    tag = sys.argv[4] if len(sys.argv) > 4 else ""
    os.makedirs(workdir, exist_ok=True)
    # The repository's inputs, and the build as build/ (OBS_BUILD_DIR).
    links = {name: os.path.join(repo, name) for name in ("examples", "test", "docs")}
    if os.environ.get("OBS_BUILD_DIR"):
        links["build"] = os.environ["OBS_BUILD_DIR"]
    # A document whose commands name files relative to a folder of the
    # repository (examples/README.md's `paper/incr.mlir`): that folder's
    # entries are linked too (OBS_DOC_FOLDER=examples).
    folder = os.environ.get("OBS_DOC_FOLDER")
    if folder:
        for name in os.listdir(os.path.join(repo, folder)):
            links.setdefault(name, os.path.join(repo, folder, name))
    for name, target in links.items():
        link = os.path.join(workdir, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    failures = total = 0
    for block in blocks(doc, tag):
        for command, expected in commands(block):
            total += 1
            run = subprocess.run(["sh", "-c", command], cwd=workdir,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
            actual = [line.rstrip() for line in run.stdout.splitlines()]
            expected = [line.rstrip() for line in expected]
            while expected and not expected[-1]:
                expected.pop()
            if run.returncode == 0 and matches(actual, expected):
                print("ok:", command)
                continue
            failures += 1
            print("FAILED:", command)
            print("  exit code:", run.returncode)
            print("  expected:", *expected, sep="\n    ")
            print("  got:", *actual, sep="\n    ")
    print(f"{total} commands, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
