//! GTKWave save files (`.gtkw`) for the scenarios' VCDs: one named row per signal or per field of a packed
//! bus, in titled groups, the VCD named by its absolute path (and the save file's own, so GTKWave also finds
//! the VCD when both are moved together), and a zoom that shows the whole run when the window opens.
//!
//! Row names use `/` between instance and signal (`sw3/ib_data0`, `rx2/state`, `in5/byte`): GTKWave shortens
//! names at `.`, which would make rows indistinguishable again.

use std::fmt::Write as _;
use std::path::Path;

/// How a row's value is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fmt {
    /// Binary.
    Bin,
    /// Hexadecimal.
    Hex,
    /// Decimal (unsigned).
    Dec,
}

impl Fmt {
    /// GTKWave's trace flags: the radix, right-justified names.
    fn flags(self) -> u32 {
        const RJUSTIFY: u32 = 0x20;
        RJUSTIFY
            | match self {
                Fmt::Hex => 0x2,
                Fmt::Dec => 0x4,
                Fmt::Bin => 0x8,
            }
    }
}

/// Names for the values of an encoded field (a state register), shown instead of the numbers through a
/// GTKWave translate-filter file `<save file stem>.<id>.txt` beside the save file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    /// Names the filter file (`<save file stem>.<id>.txt`); rows sharing an id share the file.
    pub id: &'static str,
    /// (value, name) pairs.
    pub values: &'static [(u64, &'static str)],
}

/// One row of the view: `len` bits from bit `lsb` of the VCD variable `uut.<signal>` (declared `width` bits
/// wide), shown as `name`, its value by name if `names` is set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The name shown in the signal pane.
    pub name: String,
    /// The VCD variable's path under the `uut` scope.
    pub signal: String,
    /// The variable's declared width in bits.
    pub width: usize,
    /// The row's lowest bit within the variable.
    pub lsb: usize,
    /// The row's width in bits.
    pub len: usize,
    /// The radix of the value.
    pub fmt: Fmt,
    /// Value names shown instead of numbers, if any.
    pub names: Option<Names>,
}

impl Row {
    /// The whole variable.
    pub fn whole(
        name: impl Into<String>,
        signal: impl Into<String>,
        width: usize,
        fmt: Fmt,
    ) -> Row {
        Row {
            name: name.into(),
            signal: signal.into(),
            width,
            lsb: 0,
            len: width,
            fmt,
            names: None,
        }
    }

    /// Bits `lsb .. lsb + len` of the variable (a port's field of a packed bus).
    pub fn part(
        name: impl Into<String>,
        signal: impl Into<String>,
        width: usize,
        lsb: usize,
        len: usize,
        fmt: Fmt,
    ) -> Row {
        assert!(lsb + len <= width && len > 0, "bits out of the variable");
        Row {
            name: name.into(),
            signal: signal.into(),
            width,
            lsb,
            len,
            fmt,
            names: None,
        }
    }

    /// The row with its values shown by name (decimal values in the filter file).
    pub fn named(mut self, names: Names) -> Row {
        self.fmt = Fmt::Dec;
        self.names = Some(names);
        self
    }

    /// The variable as GTKWave names it in a save file, under `scope`.
    fn var(&self, scope: &str) -> String {
        if self.width == 1 {
            format!("{scope}.{}", self.signal)
        } else {
            format!("{scope}.{}[{}:0]", self.signal, self.width - 1)
        }
    }

    fn line(&self, scope: &str) -> String {
        let v = self.var(scope);
        if self.len == self.width {
            format!("+{{{}}} {v}", self.name)
        } else if self.len == 1 {
            // `(k)var` is bit k of the variable counted from its most significant bit.
            format!("+{{{}}} ({}){v}", self.name, self.width - 1 - self.lsb)
        } else {
            let bits: Vec<String> = (self.lsb..self.lsb + self.len)
                .rev()
                .map(|b| format!("({}){v}", self.width - 1 - b))
                .collect();
            format!("#{{{}}} {}", self.name, bits.join(" "))
        }
    }
}

/// A titled group of rows (opened).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group's title row.
    pub title: String,
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
}

impl Group {
    /// A group titled `title` holding `rows`.
    pub fn new(title: impl Into<String>, rows: Vec<Row>) -> Group {
        Group {
            title: title.into(),
            rows,
        }
    }
}

/// Window size the save file asks for, and the signal pane's width, in pixels.
pub const WINDOW: (u32, u32) = (1400, 900);
const SIGNALS_WIDTH: u32 = 260;
/// Time units GTKWave shows across this window's wave pane at zoom 0 (measured with GTKWave 3.3.118 under
/// Xvfb: the wave pane is about 1 090 pixels wide and zoom 0 is about 200 pixels per time unit); each zoom
/// step halves it.
const UNITS_AT_ZOOM0: f64 = 5.4;

fn abs(p: &Path) -> String {
    std::path::absolute(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The translate-filter file of `names` for the save file `gtkw`: `<gtkw stem>.<id>.txt` beside it.
pub fn filter_path(gtkw: &Path, names: &Names) -> std::path::PathBuf {
    let stem = gtkw
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    gtkw.with_file_name(format!("{stem}.{}.txt", names.id))
}

/// Writes the save file `gtkw` for `vcd` (see [`save_file`]) and the translate-filter files its rows use.
pub fn write_save_file(vcd: &Path, gtkw: &Path, end: u64, groups: &[Group]) -> anyhow::Result<()> {
    write_save_file_in(SCOPE, vcd, gtkw, end, groups)
}

/// The scope of the rows' signals in the scenarios' VCDs (rust-hdl's writer and the model's).
pub const SCOPE: &str = "uut";

/// [`write_save_file`] for a VCD whose signals are under `scope` (`TOP.<top>` in a Verilator trace).
pub fn write_save_file_in(
    scope: &str,
    vcd: &Path,
    gtkw: &Path,
    end: u64,
    groups: &[Group],
) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut done = std::collections::HashSet::new();
    for n in groups.iter().flat_map(|g| &g.rows).filter_map(|r| r.names) {
        if done.insert(n.id) {
            let text: String = n.values.iter().map(|(v, s)| format!("{v} {s}\n")).collect();
            let f = filter_path(gtkw, &n);
            std::fs::write(&f, text).with_context(|| format!("writing {}", f.display()))?;
        }
    }
    std::fs::write(gtkw, save_file_in(scope, vcd, gtkw, end, groups))
        .with_context(|| format!("writing {}", gtkw.display()))
}

/// The save file's text for `vcd` (made absolute), the save file itself at `gtkw`, a run of `end` time
/// units, and the groups in order. GTKWave finds the VCD and the filter files relative to the save file
/// when the folder was moved (it compares the `[savefile]` line with where the file is now).
pub fn save_file(vcd: &Path, gtkw: &Path, end: u64, groups: &[Group]) -> String {
    save_file_in(SCOPE, vcd, gtkw, end, groups)
}

/// [`save_file`] for a VCD whose signals are under `scope`.
pub fn save_file_in(scope: &str, vcd: &Path, gtkw: &Path, end: u64, groups: &[Group]) -> String {
    // Zoom so that the whole run and 4 % more fit the pane.
    let zoom = -((end.max(1) as f64 * 1.04) / UNITS_AT_ZOOM0).log2();
    let mut s = String::new();
    let _ = writeln!(s, "[*] written by asr (asr_testbench::wave::gtkw)");
    let _ = writeln!(s, "[dumpfile] \"{}\"", abs(vcd));
    let _ = writeln!(s, "[savefile] \"{}\"", abs(gtkw));
    let _ = writeln!(s, "[timestart] 0");
    let _ = writeln!(s, "[size] {} {}", WINDOW.0, WINDOW.1);
    let _ = writeln!(s, "[signals_width] {SIGNALS_WIDTH}");
    let _ = writeln!(s, "[sst_expanded] 0");
    let _ = writeln!(s, "*{zoom:.6} -1");
    for g in groups {
        let _ = writeln!(s, "@800200\n-{}", g.title);
        for r in &g.rows {
            match r.names {
                None => {
                    let _ = writeln!(s, "@{:x}\n{}", r.fmt.flags(), r.line(scope));
                }
                Some(n) => {
                    const FILTERED: u32 = 0x2000;
                    let f = abs(&filter_path(gtkw, &n));
                    let _ = writeln!(
                        s,
                        "@{:x}\n^1 {f}\n{}",
                        r.fmt.flags() | FILTERED,
                        r.line(scope)
                    );
                }
            }
        }
        let _ = writeln!(s, "@1000200\n-{}", g.title);
    }
    s
}

/// The rows' names in order, group titles before and after their rows, as GTKWave lists its traces.
pub fn trace_names(groups: &[Group]) -> Vec<String> {
    let mut v = Vec::new();
    for g in groups {
        v.push(g.title.clone());
        v.extend(g.rows.iter().map(|r| r.name.clone()));
        v.push(g.title.clone());
    }
    v
}

/// What GTKWave showed after opening a save file.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The VCD GTKWave loaded (absolute path).
    pub dumpfile: String,
    /// Every trace's name in order, group titles included (as [`trace_names`] lists them).
    pub traces: Vec<String>,
    /// The time range in view.
    pub window: (u64, u64),
    /// GTKWave's own output.
    pub log: String,
}

/// Opens `gtkw` in GTKWave (Debian package `gtkwave`) on a virtual X server (`xvfb-run`, package `xvfb`),
/// with `cwd` as the current folder, and reports what it shows through GTKWave's Tcl interface. An error
/// when a tool is missing, GTKWave prints an error (a `GTKWAVE |` line other than its note that it runs
/// the script, e.g. a VCD it cannot load), exits with a failure, or does not answer within 120 s. One
/// GTKWave at a time per process (`xvfb-run -a` can race for a display number).
pub fn open_in_gtkwave(gtkw: &Path, cwd: &Path) -> anyhow::Result<Opened> {
    use anyhow::{bail, Context};
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let script = std::env::temp_dir().join(format!("asr-gtkw-check-{}.tcl", std::process::id()));
    std::fs::write(
        &script,
        "puts \"ASR-DUMP [gtkwave::getDumpFileName]\"\n\
         set n [gtkwave::getTotalNumTraces]\n\
         for {set i 0} {$i < $n} {incr i} { puts \"ASR-TRACE [gtkwave::getTraceNameFromIndex $i]\" }\n\
         puts \"ASR-WINDOW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]\"\n\
         gtkwave::/File/Quit\n",
    )
    .with_context(|| format!("writing {}", script.display()))?;
    let mut attempt = 0;
    let out = loop {
        attempt += 1;
        let out = std::process::Command::new("timeout")
            .args(["120", "xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", "gtkwave", "-S"])
            .arg(&script)
            .arg(gtkw)
            .current_dir(cwd)
            .output()
            .context("running `timeout 120 xvfb-run ... gtkwave` (Debian packages coreutils, xvfb, gtkwave; scripts/setup.sh installs them)")?;
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if attempt < 3 && log.contains("Xvfb failed to start") {
            continue;
        }
        break (out.status, log);
    };
    let _ = std::fs::remove_file(&script);
    let (status, log) = out;
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("GTKWAVE |") && !l.contains("Executing Tcl script"))
        .collect();
    if !errors.is_empty() {
        bail!(
            "GTKWave reported errors opening {}:\n{}",
            gtkw.display(),
            errors.join("\n")
        );
    }
    if !status.success() {
        bail!("GTKWave on {} exited with {status}:\n{log}", gtkw.display());
    }
    let mut o = Opened {
        dumpfile: String::new(),
        traces: Vec::new(),
        window: (0, 0),
        log: log.clone(),
    };
    let mut window = None;
    for l in log.lines() {
        if let Some(d) = l.strip_prefix("ASR-DUMP ") {
            o.dumpfile = d.to_string();
        } else if let Some(t) = l.strip_prefix("ASR-TRACE ") {
            o.traces.push(t.to_string());
        } else if let Some(w) = l.strip_prefix("ASR-WINDOW ") {
            let v: Vec<u64> = w
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if let [a, b] = v[..] {
                window = Some((a, b));
            }
        }
    }
    o.window = window.with_context(|| {
        format!(
            "GTKWave did not run the check script on {}:\n{log}",
            gtkw.display()
        )
    })?;
    Ok(o)
}
