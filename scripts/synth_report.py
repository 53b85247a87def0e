#!/usr/bin/env python3
"""The report of one scripts/synth.sh run: OUT/report.md, one OUT/<top>.json per top, and the comparison with
the committed report of the target (a LUT count more than 5 % above it, or an Fmax more than 5 % below it, or a
top that no longer places, is flagged in the report and on stderr; with --check the exit status is then 1).

Input: the rows scripts/synth.sh wrote, ROWS/<top>.row (a comment `<!-- measured DATE with TOOLS, key K[, seed
S] -->` and a Markdown row `| top | generic cells | LUT4 | FF | RAM | carry | depth | Fmax | time |`, ECP5 rows
with the LUT RAM count after the time) and ROWS/<top>.src (where the row came from).

Usage: synth_report.py --target T --rows DIR --out DIR --base FILE --tools TEXT --seconds N --jobs N [--check]
                       [--area] TOP...
(--area: the rows were mapped for area, `scripts/synth.sh --area`; the report and every JSON say so.)
"""

import argparse
import json
import os
import re
import sys

# Capacities: LUT4, flip-flops, block RAMs; what the Fmax was measured on.
DEVICES = {
    "ice40-hx8k": {
        "device": "iCE40 HX8K (ct256)",
        "lut": 7680,
        "ff": 7680,
        "bram": 32,
        "bram_name": "SB_RAM40_4K",
        "pnr": "nextpnr-ice40 on the 1-pin wrapper (register to register through the top)",
    },
    "ecp5-25f": {
        "device": "ECP5 LFE5U-25F",
        "lut": 24288,
        "ff": 24288,
        "bram": 56,
        "bram_name": "DP16KD",
        "pnr": "nextpnr-ecp5 --25k --out-of-context (register to register inside a clocked top; a matcher between registers of a wrapper)",
    },
    "gowin-gw2a18": {
        "device": "Gowin GW2A-LV18QN88C8/I7 (GW2A-18C)",
        "lut": 20736,
        "ff": 15552,
        "bram": 46,
        "bram_name": "BSRAM",
        "lutram_name": "RAM16SDP4",
        "carry_name": "ALU",
        "wide": "MUX2_LUT5..8",
        "pnr": "nextpnr-himbaechel (gowin) on the 1-pin wrapper (register to register through the top)",
    },
    "ecp5-85f": {
        "device": "ECP5 LFE5U-85F",
        "lut": 83640,
        "ff": 83640,
        "bram": 208,
        "bram_name": "DP16KD",
        "pnr": "nextpnr-ecp5 --85k --out-of-context (register to register inside a clocked top; a matcher between registers of a wrapper)",
    },
}

LIMIT = 0.05


def num(text):
    """A number of a report cell, or None."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def read_row(rows, top):
    """(fields, comment) of ROWS/<top>.row, or None."""
    path = os.path.join(rows, f"{top}.row")
    if not os.path.exists(path):
        return None
    comment, fields = "", None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("<!--"):
                comment = line
            elif line.startswith("|"):
                fields = [c.strip() for c in line.strip("|").split("|")]
    if fields is None or len(fields) < 9:
        sys.exit(f"synth_report.py: {path}: no report row")
    return fields, comment


def read_base(path):
    """{top: {"lut": ..., "fmax": ...}} from a committed report (the first table with a `top` column)."""
    if not os.path.exists(path):
        return None
    base, cols = {}, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("|"):
                if cols is not None and base:
                    break
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cols is None:
                if cells and cells[0] == "top":
                    cols = cells
                    for need in ("LUT4", "Fmax (MHz)"):
                        if need not in cols:
                            sys.exit(f"synth_report.py: {path}:{n}: the table has no `{need}` column")
                continue
            if set(cells[0]) <= set("-: "):
                continue
            row = dict(zip(cols, cells))
            top = row["top"].strip("`")
            base[top] = {"lut": num(row["LUT4"]), "fmax": row["Fmax (MHz)"]}
    if cols is None:
        sys.exit(f"synth_report.py: {path}: no table with a `top` column")
    return base


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True, choices=sorted(DEVICES))
    ap.add_argument("--rows", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--jobs", type=int, required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--area", action="store_true")
    ap.add_argument("tops", nargs="+")
    a = ap.parse_args()
    dev = DEVICES[a.target]
    # The ECP5 and Gowin rows have a LUT RAM column and no generic cell count.
    ecp5 = not a.target.startswith("ice40")
    flow = a.target + ("-area" if a.area else "")
    base = read_base(a.base)

    lines, flags, missing = [], [], 0
    for top in a.tops:
        src_path = os.path.join(a.rows, f"{top}.src")
        src = open(src_path, encoding="utf-8").read().strip() if os.path.exists(src_path) else ""
        got = read_row(a.rows, top)
        if got is None:
            why = src if src.startswith("not cached") else f"failed: see synth/build/{flow}/log/"
            if not src.startswith("not cached"):
                missing += 1
            lines.append(f"| {top} | {why} |" + " |" * 11)
            continue
        f, comment = got
        gen, lut, ff, ram, carry, depth, fmax, secs = f[1:9]
        lutram = f[9] if len(f) > 9 else "0"
        m = re.match(r"<!-- measured (\S+) with (.*), key ([0-9a-f]+)(?:, seed (\d+))? -->", comment)
        measured, tools, key, seed = (m.group(1), m.group(2), m.group(3), int(m.group(4) or 1)) if m else (None, None, None, 1)
        fmax_v = num(fmax)
        placed = fmax != "-"
        counts = {"lut": num(lut), "ff": num(ff), "bram": num(ram)}
        over = [k for k, v in counts.items() if v is not None and v > dev[k]]
        if fmax_v is not None:
            fits = True
        elif fmax.startswith("does not fit") or over:
            fits = False
        else:
            fits = None  # not placed (or place-and-route failed otherwise): unknown
        rec = {
            "top": top,
            "target": a.target,
            "mapping": "area" if a.area else "default",
            "lut": int(counts["lut"]) if counts["lut"] is not None else None,
            "ff": int(counts["ff"]) if counts["ff"] is not None else None,
            "bram": int(counts["bram"]) if counts["bram"] is not None else None,
            "fmax_mhz": fmax_v,
            "fits": fits,
            "seed": seed if placed else None,
            "device": dev["device"],
            "carry": int(num(carry)) if num(carry) is not None else None,
            "lut_depth": int(num(depth)) if num(depth) is not None else None,
            "pnr": fmax if fmax_v is None and placed else ("placed" if placed else "not placed"),
            "measured": measured,
            "tools": tools,
            "cache_key": key,
            "source": "cached" if src.startswith("*cached*") else "synthesised now",
        }
        if ecp5:
            rec["lutram"] = int(num(lutram) or 0)
        else:
            rec["generic_cells"] = int(num(gen)) if num(gen) is not None else None
        with open(os.path.join(a.out, f"{top}.json"), "w", encoding="utf-8") as out:
            json.dump(rec, out, indent=1)
            out.write("\n")

        vs = "no base" if base is None else "new"
        if base is not None and top in base:
            b = base[top]
            parts, bad = [], []
            if b["lut"] and counts["lut"] is not None:
                d = counts["lut"] / b["lut"] - 1
                parts.append(f"LUT4 {d:+.1%}")
                if d > LIMIT:
                    bad.append(f"LUT4 {int(b['lut'])} → {int(counts['lut'])} ({d:+.1%})")
            bf = num(b["fmax"])
            if bf:
                if fmax_v is not None:
                    d = fmax_v / bf - 1
                    parts.append(f"Fmax {d:+.1%}")
                    if d < -LIMIT:
                        bad.append(f"Fmax {bf:g} → {fmax_v:g} MHz ({d:+.1%})")
                elif placed:
                    bad.append(f"Fmax {bf:g} MHz → {fmax}")
            vs = ", ".join(parts) or "–"
            if bad:
                flags.append(f"{top}: " + "; ".join(bad))
                vs = "**FLAG** " + "; ".join(bad)
        fits_s = {True: "yes", False: "no", None: "–"}[fits]
        if ecp5:
            cells = [top, lut, ff, ram, lutram, carry, depth, fmax, fits_s, str(seed) if placed else "–", secs, src, vs]
        else:
            cells = [top, gen, lut, ff, ram, carry, depth, fmax, fits_s, str(seed) if placed else "–", secs, src, vs]
        lines.append("| " + " | ".join(cells) + " |")

    if ecp5:
        head = [
            "top",
            "LUT4",
            "FF",
            f"BRAM ({dev['bram_name']})",
            f"LUT RAM ({dev.get('lutram_name', 'DPR16X4')})",
            f"carry ({dev.get('carry_name', 'CCU2C')})",
            "LUT depth",
        ]
    else:
        head = ["top", "generic cells", "LUT4", "FF", "BRAM (SB_RAM40_4K)", "carry", "LUT depth"]
    head += ["Fmax (MHz)", "fits", "seed", "time (s)", "source", f"vs. {a.base}"]
    base_note = (
        f"Compared with the committed {a.base}: a LUT4 count more than 5 % above it or an Fmax more than 5 % below it is flagged."
        if base is not None
        else f"No committed {a.base}: nothing to compare with (copy this report there to make it the base)."
    )
    with open(os.path.join(a.out, "report.md"), "w", encoding="utf-8") as out:
        out.write(
            f"Target {a.target}: {dev['device']}; {a.tools}."
            + (
                " Mapped for area (`scripts/synth.sh --area`): every memory marked `ram_style = \"block\"`, "
                "`synth_ecp5 -nowidelut -noccu2`."
                if a.area
                else ""
            )
            + " Rows marked *cached* were measured on the date shown, "
            "with the same Verilog, script, seed and tools (synth/cache/).\n\n"
        )
        out.write("| " + " | ".join(head) + " |\n")
        out.write("|" + "---|" * len(head) + "\n")
        for line in lines:
            out.write(line + "\n")
        out.write(
            f"\nCounts: the top alone after Yosys' synthesis for the family"
            + (
                f" (LUT4: LUT cells only; the slices' {dev.get('wide', 'PFUMX/L6MUX21')} wide-function multiplexers are not counted)"
                if ecp5
                else ""
            )
            + ". LUT depth: `ltp -noff` (LUT/carry levels of the "
            f"longest path). Fmax: {dev['pnr']}, nextpnr seed as shown. fits: placed and routed (yes), "
            f"more than the device has or nextpnr could not place it (no), not placed (–); the device has "
            f"{dev['lut']} LUT4, {dev['ff']} FF, {dev['bram']} {dev['bram_name']}.\n"
        )
        out.write(f"{base_note}\n")
        if flags:
            out.write("\n**Flagged against the committed report:**\n\n")
            for fl in flags:
                out.write(f"- {fl}\n")
        out.write(f"\nSynthesis wall time: {a.seconds} s with -j {a.jobs}.\n")
    for fl in flags:
        print(f"synth.sh: {a.target}: FLAG {fl} (against {a.base})", file=sys.stderr)
    if missing:
        sys.exit(1)
    if a.check and flags:
        print(f"synth.sh: --check: {len(flags)} top(s) flagged against {a.base}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
