#!/usr/bin/env python3
"""Compares the verdicts of a quick reproduction run with the committed ones.

    python3 scripts/repro_verdicts.py compare OUTROOT page...
    python3 scripts/repro_verdicts.py update OUTROOT page...

OUTROOT is the directory scripts/reproduce.sh --quick wrote into: one
folder per page, each with <page>.verdicts.json (claim -> reached, partly
or missed). `compare` checks them against
docs/reproductions/quick-verdicts.json and exits 1, listing every claim
whose verdict changed, appeared or disappeared; `update` rewrites the
committed file's entries for the pages given and keeps the others.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECTED = os.path.join(ROOT, "docs", "reproductions", "quick-verdicts.json")


def load(path):
    with open(path) as fh:
        return json.load(fh)


def got_of(outroot, pages):
    got = {}
    for page in pages:
        path = os.path.join(outroot, page, page + ".verdicts.json")
        if not os.path.exists(path):
            sys.exit("repro_verdicts: %s wrote no verdicts (%s)" % (page, path))
        got[page] = load(path)
    return got


def diff(page, want, got):
    """The differences of one page, as lines."""
    lines = []
    for claim in sorted(set(want) | set(got)):
        a, b = want.get(claim), got.get(claim)
        if a == b:
            continue
        if a is None:
            lines.append("  + %s: %s (a claim not in quick-verdicts.json)" % (claim, b))
        elif b is None:
            lines.append("  - %s: was %s, no longer on the page" % (claim, a))
        else:
            lines.append("  ~ %s: recorded %s, now %s" % (claim, a, b))
    return lines


def compare(outroot, pages):
    expected = load(EXPECTED) if os.path.exists(EXPECTED) else {}
    got = got_of(outroot, pages)
    bad = 0
    for page in pages:
        want = expected.get(page)
        if want is None:
            print("%s: no verdicts recorded in %s; record them with "
                  "scripts/reproduce.sh --quick --update-verdicts %s" % (page, EXPECTED, page))
            bad += 1
            continue
        lines = diff(page, want, got[page])
        counts = {v: list(got[page].values()).count(v) for v in ("reached", "partly", "missed")}
        print("%s: %d claims (%d reached, %d partly, %d missed): %s" % (
            page, len(got[page]), counts["reached"], counts["partly"], counts["missed"],
            "verdicts unchanged" if not lines else "%d verdicts CHANGED" % len(lines)))
        for line in lines:
            print(line)
        bad += bool(lines)
    if bad:
        print("\nThe quick run's verdicts differ from docs/reproductions/quick-verdicts.json "
              "(pages in %s). If the change is intended, regenerate the full pages and record "
              "the new verdicts: scripts/reproduce.sh --quick --update-verdicts" % outroot)
        return 1
    return 0


def update(outroot, pages):
    expected = load(EXPECTED) if os.path.exists(EXPECTED) else {}
    got = got_of(outroot, pages)
    for page in pages:
        for line in diff(page, expected.get(page, {}), got[page]):
            print("%s:%s" % (page, line))
        expected[page] = got[page]
    with open(EXPECTED, "w") as fh:
        json.dump(expected, fh, indent=1, ensure_ascii=False, sort_keys=True)
        fh.write("\n")
    print("wrote %s (%s)" % (os.path.relpath(EXPECTED, ROOT), ", ".join(pages)))
    return 0


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("compare", "update"):
        sys.exit(__doc__)
    fn = compare if sys.argv[1] == "compare" else update
    sys.exit(fn(sys.argv[2], sys.argv[3:]))


if __name__ == "__main__":
    main()
