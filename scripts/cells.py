#!/usr/bin/env python3
"""Where an iCE40 design's logic cells go: the ICESTORM_LC cells of a netlist packed by nextpnr-ice40
(`nextpnr-ice40 --pack-only --write packed.json`), per block of the design's hierarchy.

An iCE40 logic cell holds one LUT4, one flip-flop and one carry; its single output is either the LUT's or the
flip-flop's. So a flip-flop shares a cell with a LUT only when that LUT drives nothing but the flip-flop's D: a
flip-flop loaded straight from a register, a RAM or a bus (with an enable), or from a LUT whose value is also
used elsewhere, takes a cell of its own with the LUT as a wire ("FF only"). The HX8K's budget is these cells
(7 680), not LUT4s, so the table counts each kind:

  LUT only      a LUT whose output is used combinationally (possibly with the cell's carry)
  LUT + FF      a LUT packed with the flip-flop it alone drives
  FF only       a flip-flop with a pass-through LUT
  carry only    a carry cell with no LUT function (a chain's feed or its legalisation)

A cell is counted for the block whose name its output net carries (the flip-flop's register, or the signal a
LUT computes, as Yosys named it after flattening: `dut.rx$3.rem`, block `dut.rx$3` at --depth 2); cells whose
output net has only a generated name are counted as "(unnamed)". Instances of one block (`rx$0` ... `rx$7`)
are also summed as a family (`rx$*`). The names are Yosys' and approximate the hierarchy: a LUT that computes
an input of block B from signals of A may carry either name.

Usage: cells.py PACKED_JSON [--depth N] [--top NAME] [--title TEXT]
Writes a Markdown table to stdout; exit status 2 with a message naming the file for an unreadable file or
one without ICESTORM_LC cells.
"""

import argparse
import json
import re
import signal
import sys
from collections import Counter, defaultdict

KINDS = ["LUT only", "LUT + FF", "FF only", "carry only"]


def die(msg):
    print(f"cells.py: {msg}", file=sys.stderr)
    sys.exit(2)


def bit_int(v, what, path):
    """A parameter as nextpnr writes it: a binary string (most significant bit first) or a number."""
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"[01xz]+", v):
        return int(v.replace("x", "0").replace("z", "0"), 2)
    die(f"{path}: parameter {what} is {v!r}, not a bit string")


def kind_of(cell, path):
    p = cell.get("parameters", {})
    conn = cell.get("connections", {})
    dff = bit_int(p.get("DFF_ENABLE", "0"), "DFF_ENABLE", path) == 1
    init = bit_int(p.get("LUT_INIT", "0"), "LUT_INIT", path)
    used = [k for k in range(4) if any(isinstance(b, int) for b in conn.get(f"I{k}", []))]
    # A pass-through LUT: one input used, the output equal to it (the other inputs read as 0).
    passthru = len(used) == 1 and (init >> (1 << used[0])) & 1 == 1 and init & 1 == 0
    lut = init != 0 and not passthru
    if lut:
        return "LUT + FF" if dff else "LUT only"
    if dff:
        return "FF only"
    return "carry only"


def split_instance(part):
    """A generated name glued to an instance (`rx$0$adm_busy_SB_LUT4_I0_O`) belongs to the instance
    (`rx$0`, `adm_busy_SB_LUT4_I0_O`)."""
    m = re.fullmatch(r"(.+?\$\d+)\$(\D.*)", part)
    return [m.group(1), m.group(2)] if m else [part]


def family(block):
    return re.sub(r"\$\d+(?=$|\.)", "$*", block)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("packed")
    ap.add_argument("--depth", type=int, default=2, help="hierarchy levels in a block name (default 2)")
    ap.add_argument("--top", help="the wrapper module (default: the only module, or the one ending _wrap)")
    ap.add_argument("--title", default="")
    ap.add_argument("--min", type=float, default=0.5,
                    help="list single blocks of at least this share of the cells, in %% (default 0.5)")
    a = ap.parse_args()
    if a.depth < 1:
        die(f"--depth must be at least 1, got {a.depth}")
    try:
        with open(a.packed) as f:
            d = json.load(f)
    except OSError as e:
        die(f"{a.packed}: {e.strerror}")
    except json.JSONDecodeError as e:
        die(f"{a.packed}: not JSON (line {e.lineno}: {e.msg})")
    mods = d.get("modules") if isinstance(d, dict) else None
    if not mods:
        die(f"{a.packed}: no modules (not a Yosys/nextpnr JSON netlist)")
    if a.top:
        if a.top not in mods:
            die(f"{a.packed}: no module {a.top} (modules: {', '.join(sorted(mods))})")
        name = a.top
    else:
        wraps = [k for k in mods if k.endswith("_wrap")]
        name = wraps[0] if len(wraps) == 1 else next(iter(mods)) if len(mods) == 1 else None
        if name is None:
            die(f"{a.packed}: {len(mods)} modules; name the top with --top")
    m = mods[name]
    # A net's name: the shortest of its names without a `$` in the first character, else "(unnamed)".
    names = {}
    for n, v in m.get("netnames", {}).items():
        for b in v.get("bits", []):
            if not isinstance(b, int):
                continue
            best = names.get(b)
            if n.startswith("$"):
                continue
            if best is None or len(n) < len(best):
                names[b] = n
    count = defaultdict(Counter)
    total = Counter()
    for cn, c in m.get("cells", {}).items():
        if c.get("type") != "ICESTORM_LC":
            continue
        k = kind_of(c, a.packed)
        conn = c.get("connections", {})
        net = None
        for port in ("O", "COUT"):
            bits = [b for b in conn.get(port, []) if isinstance(b, int)]
            if bits and bits[0] in names:
                net = names[bits[0]]
                break
        if net is None:
            block = "(unnamed)"
        else:
            parts = [q for p in net.split(".") for q in split_instance(p)]
            # A net of the wrapper itself (no hierarchy): the wrapper's registers and pins.
            block = ".".join(parts[: a.depth]) if len(parts) > 1 else "(wrapper)"
            block = re.sub(r"\[\d+\]$", "", block)
        count[block][k] += 1
        total[k] += 1
    n = sum(total.values())
    if n == 0:
        die(f"{a.packed}: no ICESTORM_LC cells (packed by nextpnr-ice40 with --pack-only --write?)")
    fams = defaultdict(Counter)
    members = defaultdict(set)
    for b, c in count.items():
        f = family(b)
        if f != b:
            fams[f].update(c)
            members[f].add(b)
    fams = {f: c for f, c in fams.items() if len(members[f]) > 1}

    def row(label, c):
        s = sum(c.values())
        cells = " | ".join(f"{c[k]:,}".replace(",", " ") for k in KINDS)
        return f"| {label} | {s:,} | {cells} | {100.0 * s / n:.1f} % |".replace(",", " ")

    if a.title:
        print(a.title)
        print()
    print("| block | logic cells | " + " | ".join(KINDS) + " | share |")
    print("|---|---:|" + "---:|" * len(KINDS) + "---:|")
    print(row("**all**", total))
    for f in sorted(fams, key=lambda f: -sum(fams[f].values())):
        print(row(f"`{f}` ({len(members[f])} instances)", fams[f]))
    rest, nrest = Counter(), 0
    for b in sorted(count, key=lambda b: (-sum(count[b].values()), b)):
        if 100.0 * sum(count[b].values()) < a.min * n:
            rest.update(count[b])
            nrest += 1
            continue
        label = b if b.startswith("(") else f"`{b}`"
        print(row(label, count[b]))
    if nrest:
        print(row(f"({nrest} blocks of less than {a.min:g} % each)", rest))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
