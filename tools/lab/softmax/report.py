#!/usr/bin/env python3
"""Joins the lab's and the peers' measurements into one compact table.

    report.py lab.tsv peers.tsv

A line per case: its shape, types, mode and MB moved; liboclfuse's built-in tuning ("auto") and
the best config the lab found, in GB/s and % of the same run's copy ceiling, from the span of a
call in a back-to-back batch (as `oclfuse bench` counts, gaps between kernels included); "best k"
is the best config's kernel-only rate (start to end of its kernel), which is what the peers'
CUDA events around each call measure; each peer; the ratios of auto and best to the best peer
(spans: the conservative comparison). Flags: "<90%" for a case that moves at least 64 MiB
and whose best is under 90 % of copy, "<peer" where the best is under the best peer. Then the
configs that beat auto by more than 3 %, as tuning overrides to consider for the built-in rows.
"""
import sys


def read_tsv(path):
    meta, rows = {}, []
    try:
        with open(path) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if fields[0].startswith("#"):
                    meta[fields[0][1:]] = fields[1:]
                elif fields[0]:
                    rows.append(fields)
    except OSError as error:
        print("report: %s" % error)
    return meta, rows


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def main():
    lab_meta, lab_rows = read_tsv(sys.argv[1])
    _, peer_rows = read_tsv(sys.argv[2]) if len(sys.argv) > 2 else ({}, [])
    ceiling = number(lab_meta.get("ceiling", ["0"])[0]) or 0.0
    print("device: %s   copy ceiling: %.0f GB/s" % (" ".join(lab_meta.get("device", ["?"])), ceiling))

    cases = {}  # index -> info
    for f in lab_rows:
        index = int(f[0])
        case = cases.setdefault(index, {
            "shape": "%sx%s" % (f[1], f[2]), "types": "%s>%s" % (f[3], f[4]) if f[3] != f[4] else f[3],
            "mode": f[5] + ("+len" if f[6] == "1" else ""),
            "mb": int(f[1]) * int(f[2]) * ((4 if f[3] == "f32" else 2) + (4 if f[4] == "f32" else 2)) / 2**20,
            "auto": None, "best": None, "best_kernel": None, "best_config": "", "problems": [],
            "peers": {}})
        status = f[8] if len(f) > 8 else ""
        if status != "ok":
            if not status.startswith("skipped"):
                case["problems"].append("%s: %s" % (f[7], status))
            continue
        gbps = number(f[11])
        if f[7] == "auto":
            case["auto"] = gbps
        if gbps is not None and (case["best"] is None or gbps > case["best"]):
            case["best"], case["best_config"], case["best_kernel"] = gbps, f[7], number(f[12])
    for f in peer_rows:
        if len(f) > 3 and number(f[3]) is not None and int(f[0]) in cases:
            cases[int(f[0])]["peers"][f[1]] = number(f[3])

    def pct(x):
        return "%5.0f %3.0f%%" % (x, 100 * x / ceiling) if x and ceiling else "    -     "

    def cell(x):
        return "%6.0f" % x if x else "     -"

    header = "%-14s %-8s %-11s %6s | %-10s | %-10s %6s | %6s %6s %6s | %5s %5s | %-10s %s" % (
        "rows x cols", "types", "mode", "MB", "auto GB/s", "best GB/s", "best k", "torch", "compil",
        "triton", "a/pr", "b/pr", "flags", "best config")
    print(header)
    print("-" * len(header))
    better = []
    for index in sorted(cases):
        c = cases[index]
        peer = max(c["peers"].values()) if c["peers"] else None
        flags = []
        if c["mb"] >= 64 and (c["best"] or 0) < 0.9 * ceiling:
            flags.append("<90%")
        if peer and (c["best"] or 0) < peer:
            flags.append("<peer")
        if c["problems"]:
            flags.append("ERR")
        ratio = lambda x: "%5.2f" % (x / peer) if x and peer else "    -"
        print("%-14s %-8s %-11s %6.0f | %s | %s %s | %s %s %s | %s %s | %-10s %s" % (
            c["shape"], c["types"], c["mode"], c["mb"], pct(c["auto"]), pct(c["best"]),
            cell(c["best_kernel"]),
            cell(c["peers"].get("torch")), cell(c["peers"].get("torch.compile")),
            cell(c["peers"].get("triton")), ratio(c["auto"]), ratio(c["best"]), ",".join(flags),
            c["best_config"] if c["best_config"] != "auto" else ""))
        if c["auto"] and c["best"] and c["best"] > 1.03 * c["auto"]:
            better.append("  %s %s %s: %s  (+%.0f%%)" % (c["shape"], c["types"], c["mode"],
                                                     c["best_config"], 100 * (c["best"] / c["auto"] - 1)))
        for problem in c["problems"]:
            print("    ! %s" % problem[:150])
    if better:
        print("\nconfigs that beat the built-in tuning by more than 3 %:")
        print("\n".join(better))


if __name__ == "__main__":
    main()
