#!/usr/bin/env python3
"""Lists the GPU code embedded in an executable or object (its .nv_fatbin section).

cuobjdump is not installed on the machines that build Strata; this reads the fat binary
headers directly: each entry is PTX (kind 1) or machine code (kind 2) for one architecture;
entry flag 0x100000 marks an arch-specific target ("sm_90a"). With --expect, exits 1 unless
every listed target (e.g. sm_80,sm_90a,sm_100,compute_80) is present.
"""
import argparse
import struct
import subprocess
import sys

FATBIN_MAGIC = 0xBA55ED50
ARCH_SPECIFIC = 0x100000


def fatbin_section(path):
    out = subprocess.run(["readelf", "-S", "-W", path], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if ".nv_fatbin" in line:
            fields = line.split("]", 1)[1].split()
            return int(fields[3], 16), int(fields[4], 16)
    return None


def entries(data):
    pos = 0
    while pos + 16 <= len(data):
        magic, _version, header, size = struct.unpack_from("<IHHQ", data, pos)
        if magic != FATBIN_MAGIC:
            pos += 8
            continue
        entry, end = pos + header, pos + header + size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch = struct.unpack_from("<I", data, entry + 28)[0]
            flags = struct.unpack_from("<Q", data, entry + 40)[0]
            suffix = "a" if flags & ARCH_SPECIFIC else ""
            yield ("compute_" if kind == 1 else "sm_") + str(arch) + suffix
            entry += entry_header + payload
        pos = end


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("binary")
    parser.add_argument("--expect", default="", help="comma-separated targets that must be present")
    args = parser.parse_args()
    section = fatbin_section(args.binary)
    if not section:
        print(f"{args.binary}: no .nv_fatbin section (built without CUDA?)")
        return 1
    offset, size = section
    with open(args.binary, "rb") as f:
        f.seek(offset)
        data = f.read(size)
    found = {}
    for target in entries(data):
        found[target] = found.get(target, 0) + 1
    for target in sorted(found):
        kind = "PTX" if target.startswith("compute_") else "machine code"
        print(f"{target:12} {kind:13} in {found[target]} module(s)")
    missing = [t for t in args.expect.split(",") if t and t not in found]
    if missing:
        print("missing: " + ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
