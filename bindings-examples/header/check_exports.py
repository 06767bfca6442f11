#!/usr/bin/env python3
"""librota.so exports exactly the functions rota.h declares, and nothing else.

Usage: check_exports.py path/to/rota.h path/to/librota.so
"""
import re
import subprocess
import sys


def main(header, lib):
    text = open(header, encoding="utf-8").read()
    declared = set(re.findall(r"^ROTA_API\b[^;(]*?\b(rota_\w+)\s*\(", text, re.M))
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            exported.add(parts[2].split("@")[0])
    stray = sorted(s for s in exported if not s.startswith("rota_"))
    missing = sorted(declared - exported)
    undeclared = sorted(s for s in exported - declared if s.startswith("rota_"))
    print(f"{len(declared)} functions declared, {len(exported)} symbols exported")
    for what, names in (("exported but not rota_*", stray), ("declared but not exported", missing),
                        ("exported but not declared in rota.h", undeclared)):
        for n in names:
            print(f"FAIL {what}: {n}")
    ok = declared and not (stray or missing or undeclared)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
