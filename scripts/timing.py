#!/usr/bin/env python3
"""Every register's longest path in a placed and routed design: a static timing analysis of the SDF file that
nextpnr writes (`--sdf`), the delays of the routed design (cell arcs and every routed connection), one line
per register (a flip-flop's bits, or a RAM's ports, grouped by name).

nextpnr reports one critical path per clock. To see the whole gap to a clock goal, this lists every register
whose worst input path is longer than the goal's period: where the path ends (the register), where its
longest path starts, how many cell delays it crosses (LUTs, wide-function multiplexers, carry steps), and how
the time splits between logic and routing. Paths start at a cell's clock-to-output arc and end at a pin with
a setup check; each path's time is the arrivals summed along it plus the end pin's setup time (nextpnr's own
maximum delays, the third value of each SDF triple). The worst path should equal nextpnr's "Max frequency"
line within a few per cent; the script prints both when given the log.

Names: a flip-flop's instance as nextpnr names it after Yosys (`dut.rx$3.rem_TRELLIS_FF_Q_2` on the ECP5,
`dut.rx$3.rem_SB_DFFE_Q_2` on the iCE40) is reported as its register, `dut.rx$3.rem`; `--depth N` groups
registers by the first N parts of their hierarchical name instead (`dut.rx$3` at 2), and instances of one
block (`rx$0` ... `rx$7`) are summed as a family (`rx$*`) in the summary.

Usage: timing.py SDF [--period NS] [--log NEXTPNR_LOG] [--depth N] [--limit K] [--title TEXT]
Writes Markdown to stdout; exit status 2 with a message naming the file for an unreadable or malformed file.
"""

import argparse
import re
import signal
import sys
from collections import defaultdict

signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def die(msg):
    print(f"timing.py: {msg}", file=sys.stderr)
    sys.exit(2)


TOKEN = re.compile(r'\(|\)|"[^"]*"|(?:\\.|[^\s()"\\])+')


def tokens(text):
    for m in TOKEN.finditer(text):
        yield m.group(0)


def parse(text, path):
    """The SDF as nested lists of strings."""
    stack = [[]]
    for t in tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) < 2:
                die(f"{path}: unbalanced ')'")
            e = stack.pop()
            stack[-1].append(e)
        else:
            stack[-1].append(t)
    if len(stack) != 1 or not stack[0] or stack[0][0][:1] != ["DELAYFILE"]:
        die(f"{path}: not an SDF file (no balanced DELAYFILE)")
    return stack[0][0]


def unescape(name):
    return re.sub(r"\\(.)", r"\1", name)


def split_pin(ref):
    """`inst/pin` (the divider unescaped) -> (inst, pin)."""
    k = -1
    i = 0
    while i < len(ref):
        if ref[i] == "\\":
            i += 2
            continue
        if ref[i] == "/":
            k = i
        i += 1
    if k < 0:
        return unescape(ref), ""
    return unescape(ref[:k]), unescape(ref[k + 1 :])


def worst(triple, path):
    """The largest of an SDF value `(min:typ:max)` (as a list of one string), in ps."""
    if not triple:
        return 0.0
    s = triple[0] if isinstance(triple, list) and triple else triple
    try:
        return max(float(v) for v in str(s).split(":") if v != "")
    except ValueError:
        die(f"{path}: delay value {s!r} is not a number triple")


def port(p):
    """`(posedge M)` or `M` -> `M`."""
    return p[-1] if isinstance(p, list) else p


# A register cell's instance name as nextpnr leaves it: ECP5 `x.q_TRELLIS_FF_Q_2`, Gowin `x_DFFE_Q_2`, iCE40
# `x.d_SB_LUT4_O_2_LC` (a LUT packed with its flip-flop, named after the LUT) or `x.q_SB_DFFE_Q_2_DFFLC`, a RAM `x_DP16KD` etc.
CELL_SUFFIX = re.compile(
    r"(_(TRELLIS_FF|TRELLIS_RAMW|TRELLIS_DPR16X4|DPR16X4|DP16KD|SB_RAM40_4K|SB_DFF[A-Z]*|SB_LUT4|SB_CARRY"
    r"|DFF[A-Z]*|RAM16SDP4|SDPB|DPB)"
    r"(_[A-Z]+)*(_\d+)?(_DFFLC|_LC|_RAMW)?)+$"
)
# rust-hdl's register signals end in `.q` / `.d` (a DFF's `dff.q`, a memory's `$q`).
SIGNAL_SUFFIX = re.compile(r"(\.dff)?[.$][dq]$")


def register_of(inst):
    """A flip-flop's or RAM's instance name -> the register it belongs to."""
    m = CELL_SUFFIX.search(inst)
    name = inst[: m.start()] if m else inst
    name = re.sub(r"\.mem\.\d+\.\d+(\$[A-Z_]+\d*)?$", ".mem", name)
    return SIGNAL_SUFFIX.sub("", name) or name


def family(name):
    return re.sub(r"\$\d+", "$*", name)


def block_of(reg):
    """A register's block family: the second part of its name (`dut.rx$3.rem` -> `rx$*`), or the name."""
    parts = reg.split(".")
    return family(parts[1] if len(parts) > 1 else reg)


def analyse(sdf, path):
    arcs = defaultdict(list)  # node -> [(node, delay, is a cell arc)]
    starts = {}  # node -> clock-to-out delay
    setup = {}  # node -> setup time
    for e in sdf[1:]:
        if not isinstance(e, list) or not e or e[0] != "CELL":
            continue
        inst = None
        for f in e[1:]:
            if f[0] == "INSTANCE":
                inst = unescape(f[1]) if len(f) > 1 else ""
            elif f[0] == "DELAY":
                for a in f[1:]:
                    for d in a[1:]:
                        if d[0] == "IOPATH":
                            src, dst = port(d[1]), port(d[2])
                            dl = worst(d[3] if len(d) > 3 else [], path)
                            if src in ("CLK", "CLKA", "CLKB", "WCK", "RCLK", "WCLK", "CLKI"):
                                k = f"{inst}/{dst}"
                                starts[k] = max(starts.get(k, 0.0), dl)
                            else:
                                arcs[f"{inst}/{src}"].append((f"{inst}/{dst}", dl, True))
                        elif d[0] == "INTERCONNECT":
                            a_i, a_p = split_pin(d[1])
                            b_i, b_p = split_pin(d[2])
                            dl = worst(d[3] if len(d) > 3 else [], path)
                            arcs[f"{a_i}/{a_p}"].append((f"{b_i}/{b_p}", dl, False))
            elif f[0] == "TIMINGCHECK":
                for c in f[1:]:
                    if c[0] in ("SETUPHOLD", "SETUP"):
                        k = f"{inst}/{port(c[1])}"
                        setup[k] = max(setup.get(k, 0.0), worst(c[3] if len(c) > 3 else [], path))
    if not starts:
        die(f"{path}: no clock-to-output arc (no register in the design?)")
    # Longest arrival by a topological order of the arcs reachable from the starts.
    indeg = defaultdict(int)
    reach = set(starts)
    stack = list(starts)
    while stack:
        n = stack.pop()
        for m, _, _ in arcs.get(n, ()):
            indeg[m] += 1
            if m not in reach:
                reach.add(m)
                stack.append(m)
    # Per pin: (time, the start pin of its longest path, cell delays on it, logic time, routing time).
    arr = {n: (d, n, 0, d, 0.0) for n, d in starts.items()}
    ready = [n for n in starts if indeg[n] == 0]
    seen = 0
    while ready:
        n = ready.pop()
        seen += 1
        t, st, lv, lg, rt = arr[n]
        for m, dl, cell_arc in arcs.get(n, ()):
            nt = t + dl
            if m not in arr or nt > arr[m][0]:
                arr[m] = (nt, st, lv + 1, lg + dl, rt) if cell_arc else (nt, st, lv, lg, rt + dl)
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
    if seen < len(reach):
        print(f"timing.py: {path}: {len(reach) - seen} pins on combinational loops left out", file=sys.stderr)
    # Per end pin: (time with its setup, the pin, its start pin, cell delays, logic time, routing time).
    ends = []
    for n, su in setup.items():
        if n in arr:
            t, st, lv, lg, rt = arr[n]
            ends.append((t + su, n, st, lv, lg + su, rt))
    return ends


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sdf")
    ap.add_argument("--period", type=float, default=10.0, help="the clock goal's period in ns (default 10: 100 MHz)")
    ap.add_argument("--log", help="nextpnr's log, for its Max frequency line")
    ap.add_argument("--depth", type=int, default=0, help="group registers by this many name parts (default: by register)")
    ap.add_argument("--limit", type=int, default=40, help="rows of the table (default 40)")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    if a.period <= 0:
        die(f"--period must be positive, got {a.period}")
    if a.depth < 0 or a.limit < 1:
        die("--depth must be ≥ 0 and --limit ≥ 1")
    try:
        text = open(a.sdf, encoding="utf-8", errors="replace").read()
    except OSError as e:
        die(f"{a.sdf}: {e.strerror}")
    ends = analyse(parse(text, a.sdf), a.sdf)
    if not ends:
        die(f"{a.sdf}: no path ends at a setup check")
    # Per register cell (a flip-flop or a RAM cell), its worst end pin.
    cell = {}
    for t, n, st, lv, lg, rt in ends:
        inst = n.rsplit("/", 1)[0]
        if inst not in cell or t > cell[inst][0]:
            cell[inst] = (t, register_of(st.rsplit("/", 1)[0]), lv, lg, rt)
    groups = {}
    for inst, w in cell.items():
        reg = register_of(inst)
        if a.depth:
            reg = ".".join(re.split(r"\.(?![^\[]*\])", reg)[: a.depth])
        g = groups.setdefault(reg, {"worst": None, "bits": set(), "over": set()})
        g["bits"].add(inst)
        if w[0] / 1000.0 > a.period:
            g["over"].add(inst)
        if g["worst"] is None or w[0] > g["worst"][0]:
            g["worst"] = w
    rows = sorted(groups.items(), key=lambda kv: -kv[1]["worst"][0])
    top = rows[0][1]["worst"][0] / 1000.0
    over = [r for r in rows if r[1]["worst"][0] / 1000.0 > a.period]
    if a.title:
        print(a.title)
        print()
    line = f"Worst path {top:.2f} ns ({1000.0 / top:.2f} MHz) from the SDF"
    if a.log:
        try:
            m = re.findall(r"Max frequency for clock[^:]*: ([0-9.]+) MHz", open(a.log, errors="replace").read())
        except OSError as e:
            die(f"{a.log}: {e.strerror}")
        if m:
            line += f"; nextpnr's log: {float(m[-1]):.2f} MHz"
    n_over = sum(len(g["over"]) for _, g in rows)
    n_all = sum(len(g["bits"]) for _, g in rows)
    print(
        f"{line}. Registers over {a.period:g} ns ({1000.0 / a.period:.0f} MHz): {len(over)} of {len(rows)} "
        f"({n_over} of {n_all} register cells)."
    )
    print()
    fam = defaultdict(lambda: [0, 0, 0.0])
    for name, g in rows:
        f = fam[block_of(name)]
        f[0] += len(g["over"])
        f[1] += len(g["bits"])
        f[2] = max(f[2], g["worst"][0] / 1000.0)
    print("| block (family) | register cells over | of | worst ns |")
    print("|---|---:|---:|---:|")
    for k, (o, n, w) in sorted(fam.items(), key=lambda kv: -kv[1][2]):
        print(f"| `{k}` | {o} | {n} | {w:.2f} |")
    print()
    # The register cells by their worst path, in steps of a fifth of the goal, with the levels they cross.
    edges = [a.period * (1 + k / 5.0) for k in range(5)]
    bins = defaultdict(list)
    for inst, w in cell.items():
        ns = w[0] / 1000.0
        k = sum(1 for e in edges if ns > e)
        bins[k].append(w[2])
    print("| worst path of a register cell | cells | cell delays on it (min–max) |")
    print("|---|---:|---:|")
    for k in range(len(edges) + 1):
        if k == 0:
            label = f"≤ {edges[0]:g} ns"
        elif k == len(edges):
            label = f"> {edges[-1]:g} ns"
        else:
            label = f"{edges[k - 1]:g}–{edges[k]:g} ns"
        lv = bins.get(k, [])
        span = f"{min(lv)}–{max(lv)}" if lv else "–"
        print(f"| {label} | {len(lv)} | {span} |")
    print()
    # The paths over the goal by the blocks they join: the block a register cell's longest path ends in and
    # the block it starts in.
    join = defaultdict(lambda: [0, 0.0, None])
    for inst, w in cell.items():
        if w[0] / 1000.0 <= a.period:
            continue
        src = w[1]
        j = join[(block_of(register_of(inst)), block_of(src))]
        j[0] += 1
        if w[0] / 1000.0 > j[1]:
            j[1] = w[0] / 1000.0
            j[2] = (register_of(inst), src, w[2])
    if join:
        print("| paths over the goal: ends in ← starts in | register cells | worst ns | the worst: register ← start (cell delays) |")
        print("|---|---:|---:|---|")
        for (e, b), (c, ns, (r, src, lv)) in sorted(join.items(), key=lambda kv: -kv[1][0]):
            print(f"| `{e}` ← `{b}` | {c} | {ns:.2f} | `{r}` ← `{src}` ({lv}) |")
        print()
    print("| register | cells over / all | worst ns | levels | logic ns | routing ns | its longest path starts at |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, g in rows[: a.limit]:
        t, src, lv, lg, rt = g["worst"]
        print(
            f"| `{name}` | {len(g['over'])} / {len(g['bits'])} | {t / 1000:.2f} | {lv} | {lg / 1000:.2f} | "
            f"{rt / 1000:.2f} | `{src}` |"
        )


if __name__ == "__main__":
    main()
