//! The driver: runs a top's definition against a backend for N cycles of traffic, then drains, comparing
//! every output of every cycle; stops at the first mismatch.

pub use super::ports::Mismatch;
use super::ports::{Frame, Layout};
pub use super::report::Report;
use super::top::{Backend, Top};
use super::{tops, vcd, verilator};
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::{Duration, Instant};

/// Which simulator runs the design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// The exported Verilog compiled by Verilator (in process).
    Verilator,
    /// The RustHDL description in rust-hdl's own simulation.
    RustHdl,
    /// The exported Verilog in Icarus Verilog, on vectors recorded from the model.
    Icarus,
}

impl BackendKind {
    /// The name the CLI accepts and reports print: `verilator`, `rusthdl` or `icarus`.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Verilator => "verilator",
            BackendKind::RustHdl => "rusthdl",
            BackendKind::Icarus => "icarus",
        }
    }
}

impl std::str::FromStr for BackendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "verilator" => Ok(BackendKind::Verilator),
            "rusthdl" => Ok(BackendKind::RustHdl),
            "icarus" => Ok(BackendKind::Icarus),
            _ => Err(format!(
                "unknown backend `{s}` (verilator, rusthdl or icarus)"
            )),
        }
    }
}

/// A deliberate fault, to show that the harness catches one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Perturb {
    /// Flips bit `bit` of output port `port` as the design reports it, in cycle `cycle` only.
    Output {
        /// The cycle (from 0) in which the bit is flipped.
        cycle: u64,
        /// Name of the output port.
        port: String,
        /// Bit index within the port (0: least significant).
        bit: usize,
    },
    /// Flips bit `bit` of input port `port` as applied to the design (not to the model), in cycle `cycle`
    /// only.
    Input {
        /// The cycle (from 0) in which the bit is flipped.
        cycle: u64,
        /// Name of the input port.
        port: String,
        /// Bit index within the port (0: least significant).
        bit: usize,
    },
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The exported top's name (a row of [`tops::TOPS`]).
    pub top: String,
    /// The simulator that runs the design.
    pub backend: BackendKind,
    /// Cycles of traffic; then the top drains (those cycles are compared too).
    pub cycles: u64,
    /// Seed of the top's stimulus.
    pub seed: u64,
    /// On a mismatch: write the last [`VCD_CYCLES`] cycles before it here: for Verilator and rust-hdl the
    /// ports as the design drove them and as the model expected them, and for Verilator also the whole design
    /// beside it (`<stem>.design.vcd`); for Icarus the whole test bench (design, pins and `exp_*` values).
    pub vcd: Option<PathBuf>,
    /// A fault to inject into the design's side, to show the comparison catches it.
    pub perturb: Option<Perturb>,
    /// How the Verilator backend compiles the design (the default: quick to build).
    pub opt: verilator::Opt,
    /// A stimulus other than the top's registered one (directed tests: a scripted [`Top`] for the same
    /// exported design); `None`: `tops::make`.
    pub stimulus: Option<Stimulus>,
}

/// Makes the [`Top`] of a run (a directed test's scripted stimulus and model).
#[derive(Clone)]
pub struct Stimulus(pub std::sync::Arc<dyn Fn() -> Box<dyn Top> + Send + Sync>);

impl std::fmt::Debug for Stimulus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stimulus(..)")
    }
}

impl Options {
    /// `cycles` of traffic of `top` on `backend` with `seed`: no VCD, no fault, the default Verilator
    /// build and the top's registered stimulus.
    pub fn new(top: &str, backend: BackendKind, cycles: u64, seed: u64) -> Options {
        Options {
            top: top.to_string(),
            backend,
            cycles,
            seed,
            vcd: None,
            perturb: None,
            opt: verilator::Opt::default(),
            stimulus: None,
        }
    }

    /// The run's top: the directed stimulus if one is set, else the registered one.
    pub fn make_top(&self) -> Result<Box<dyn Top>> {
        match &self.stimulus {
            Some(s) => Ok((s.0)()),
            None => tops::make(&self.top, self.seed, self.cycles),
        }
    }
}

/// Cycles before a mismatch that its VCD shows.
pub const VCD_CYCLES: u64 = 200;

/// CPU time of the calling thread (robust to other processes sharing the machine, unlike wall time).
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to fill; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Cycles per batch handed from the model thread to the backend.
const BATCH: usize = 512;

/// Frames of consecutive cycles from the model thread.
struct Batch {
    first: u64,
    len: usize,
    pins: Vec<u32>,
    expect: Vec<u32>,
    /// The expected frames' defined bits ([`Frame::care`]).
    care: Vec<u32>,
    /// After the last batch: the model's final result.
    end: Option<Result<Final, String>>,
}

struct Final {
    packets: u64,
    counters: Vec<(String, u64)>,
    busy: Duration,
}

/// Runs the model side: `cycles` of traffic, then the drain; sends frames in batches. Stops early if the
/// receiver hangs up (the backend found a mismatch).
fn produce(mut top: Box<dyn Top>, layout: &Layout, cycles: u64, tx: SyncSender<Batch>) {
    let (iw, ow) = (layout.input_words(), layout.output_words());
    let mut pins = Frame::new(&layout.inputs);
    let mut expect = Frame::new(&layout.outputs);
    let cpu0 = thread_cpu();
    let mut n = 0u64;
    let mut draining = false;
    let new_batch = |first| Batch {
        first,
        len: 0,
        pins: Vec::with_capacity(BATCH * iw),
        expect: Vec::with_capacity(BATCH * ow),
        care: Vec::with_capacity(BATCH * ow),
        end: None,
    };
    let mut b = new_batch(0);
    let result = loop {
        if n == cycles && !draining {
            top.drain();
            draining = true;
        }
        if draining && top.drained() {
            break top.finish().map(|()| Final {
                packets: top.packets(),
                counters: top
                    .counters()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                busy: Duration::ZERO,
            });
        }
        if draining && n >= cycles + top.drain_limit() {
            break Err(format!(
                "cycle {n}: not drained {} cycles after the traffic stopped (deadlock or lost packet)",
                top.drain_limit()
            ));
        }
        pins.clear();
        expect.clear();
        if let Err(e) = top.cycle(n, &mut pins, &mut expect) {
            break Err(format!("cycle {n}: {e}"));
        }
        assert!(
            pins.complete() && expect.complete(),
            "{}: cycle {n} did not write every port",
            layout.top
        );
        b.pins.extend_from_slice(&pins.words);
        b.expect.extend_from_slice(&expect.words);
        b.care.extend_from_slice(&expect.care);
        b.len += 1;
        n += 1;
        if b.len == BATCH && tx.send(std::mem::replace(&mut b, new_batch(n))).is_err() {
            return;
        }
    };
    let busy = thread_cpu() - cpu0;
    b.end = Some(result.map(|mut f| {
        f.busy = busy;
        f
    }));
    let _ = tx.send(b);
}

/// Applies `p` to a frame of `ports` in cycle `n`, if it is an input perturbation (`input`) or output one.
fn flip(p: &Option<Perturb>, input: bool, n: u64, ports: &[super::Port], words: &mut [u32]) {
    if let Some((w, m)) = perturbed(p, input, n, ports) {
        words[w] ^= m;
    }
}

/// The word and mask of the bit `p` flips in cycle `n`, if it is an input perturbation (`input`) or output
/// one of that cycle.
fn perturbed(
    p: &Option<Perturb>,
    input: bool,
    n: u64,
    ports: &[super::Port],
) -> Option<(usize, u32)> {
    let (cycle, port, bit) = match p {
        Some(Perturb::Input { cycle, port, bit }) if input => (*cycle, port, *bit),
        Some(Perturb::Output { cycle, port, bit }) if !input => (*cycle, port, *bit),
        _ => return None,
    };
    if cycle != n {
        return None;
    }
    let p = ports
        .iter()
        .find(|x| x.name == *port)
        .expect("checked port");
    Some((p.offset + bit / 32, 1 << (bit % 32)))
}

/// The first port whose words differ on a defined bit (`care`).
fn first_difference(
    layout: &Layout,
    n: u64,
    expect: &[u32],
    care: &[u32],
    actual: &[u32],
) -> Mismatch {
    let f = |w: &[u32]| {
        let mut fr = Frame::new(&layout.outputs);
        fr.words.copy_from_slice(w);
        fr
    };
    let (mut e, a) = (f(expect), f(actual));
    e.care.copy_from_slice(care);
    let p = layout
        .outputs
        .iter()
        .find(|p| {
            let r = p.offset..p.offset + p.words();
            !super::ports::same(&e.words[r.clone()], &e.care[r.clone()], &a.words[r])
        })
        .expect("the frames differ");
    Mismatch {
        cycle: n,
        signal: p.name.clone(),
        expected: format!("{}'h{}", p.width, e.hex(p)),
        actual: format!("{}'h{}", p.width, a.hex(p)),
    }
}

fn check_perturb(layout: &Layout, p: &Option<Perturb>) -> Result<()> {
    let Some(p) = p else { return Ok(()) };
    let (ports, port, bit) = match p {
        Perturb::Input { port, bit, .. } => (&layout.inputs, port, *bit),
        Perturb::Output { port, bit, .. } => (&layout.outputs, port, *bit),
    };
    let Some(x) = ports.iter().find(|x| x.name == *port) else {
        bail!("{} has no such port `{port}` to perturb", layout.top);
    };
    if bit >= x.width {
        bail!("`{port}` has {} bits: cannot flip bit {bit}", x.width);
    }
    Ok(())
}

/// Runs `opts.top` on `opts.backend` against its model. A mismatch is a result (`Report::first`), not an
/// error; an error is a model-side failure (scoreboard, invariant, deadlock) or a backend that cannot run.
pub fn run(opts: &Options) -> Result<Report> {
    let (layout, verilog) = tops::layout(&opts.top)?;
    run_design(opts, &layout, &verilog)
}

/// [`run`] on a design given by its Verilog and layout rather than by a row of the table of tops (a
/// generated network: `opts.stimulus` gives its definition). The rust-hdl backend needs a row.
pub fn run_design(opts: &Options, layout: &Layout, verilog: &str) -> Result<Report> {
    check_perturb(layout, &opts.perturb)?;
    if opts.backend == BackendKind::Icarus {
        return run_icarus(opts, layout, verilog);
    }
    let mut backend: Box<dyn Backend> = match opts.backend {
        BackendKind::Verilator => {
            Box::new(verilator::Verilated::new(layout, verilog, false, opts.opt)?)
        }
        BackendKind::RustHdl => tops::rusthdl(&opts.top, layout)?,
        BackendKind::Icarus => unreachable!("handled above"),
    };
    let top = opts.make_top()?;
    let mut report = lockstep(opts, layout, top, backend.as_mut())?;
    if let (Some(m), Some(path)) = (&report.first, &opts.vcd) {
        if opts.backend == BackendKind::Verilator {
            let design = design_vcd_path(path);
            verilator_design_vcd(opts, layout, verilog, m.cycle, &design)?;
            report.vcd.push(design);
        }
    }
    Ok(report)
}

/// `<stem>.design.vcd` beside `path`.
pub fn design_vcd_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("cosim".into(), |s| s.to_string_lossy().to_string());
    path.with_file_name(format!("{stem}.design.vcd"))
}

/// Runs `top` against `backend` (which must be freshly built), the model in a second thread.
pub fn lockstep(
    opts: &Options,
    layout: &Layout,
    top: Box<dyn Top>,
    backend: &mut dyn Backend,
) -> Result<Report> {
    let (iw, ow) = (layout.input_words(), layout.output_words());
    let mut out = vec![0u32; ow];
    let mut scratch = vec![0u32; iw];
    let mut care_flipped = vec![0u32; ow];
    let mut ring = opts
        .vcd
        .as_ref()
        .map(|_| vcd::Ring::new(VCD_CYCLES as usize + 1));
    let mut first = None;
    let mut cycles = 0u64;
    let cpu0 = thread_cpu();
    let mut fin: Option<Result<Final, String>> = None;
    let start = Instant::now();
    std::thread::scope(|s| {
        let (tx, rx): (SyncSender<Batch>, Receiver<Batch>) = sync_channel(8);
        let cyc = opts.cycles;
        s.spawn(move || produce(top, layout, cyc, tx));
        'outer: for b in rx.iter() {
            for i in 0..b.len {
                let n = b.first + i as u64;
                let mut pins = &b.pins[i * iw..(i + 1) * iw];
                let expect = &b.expect[i * ow..(i + 1) * ow];
                let mut care = &b.care[i * ow..(i + 1) * ow];
                if matches!(opts.perturb, Some(Perturb::Input { cycle, .. }) if cycle == n) {
                    scratch.copy_from_slice(pins);
                    flip(&opts.perturb, true, n, &layout.inputs, &mut scratch);
                    pins = &scratch;
                }
                backend.cycle(pins, &mut out);
                if let Some((w, m)) = perturbed(&opts.perturb, false, n, &layout.outputs) {
                    // The flipped bit is compared, defined or not.
                    care_flipped.copy_from_slice(care);
                    care_flipped[w] |= m;
                    care = &care_flipped;
                }
                flip(&opts.perturb, false, n, &layout.outputs, &mut out);
                cycles = n + 1;
                if let Some(r) = ring.as_mut() {
                    r.push(n, pins, expect, care, &out);
                }
                // Equal words first (the common case, one comparison); the defined bits only if not.
                if out != expect && !super::ports::same(expect, care, &out) {
                    first = Some(first_difference(layout, n, expect, care, &out));
                    break 'outer;
                }
            }
            if let Some(e) = b.end {
                fin = Some(e);
            }
        }
        // Dropping `rx` here stops the model thread at its next batch.
    });
    let seconds = start.elapsed().as_secs_f64();
    let backend_busy = thread_cpu() - cpu0;
    let mut report = Report {
        top: layout.top.clone(),
        backend: opts.backend.name(),
        seed: opts.seed,
        cycles,
        seconds,
        cycles_per_s: cycles as f64 / seconds.max(1e-9),
        packets: 0,
        mismatches: first.is_some() as u64,
        first,
        counters: Vec::new(),
        model_seconds: 0.0,
        backend_seconds: backend_busy.as_secs_f64(),
        vcd: Vec::new(),
    };
    match fin {
        Some(Ok(f)) => {
            report.packets = f.packets;
            report.counters = f.counters;
            report.model_seconds = f.busy.as_secs_f64();
        }
        Some(Err(e)) if report.first.is_none() => {
            bail!("{} (seed {:#x}), model side: {e}", layout.top, opts.seed)
        }
        _ if report.first.is_none() => bail!("{}: the model thread stopped early", layout.top),
        _ => {}
    }
    if let (Some(r), Some(path)) = (&ring, &opts.vcd) {
        if report.first.is_some() {
            vcd::write(path, layout, &r.cycles)?;
            report.vcd.push(path.clone());
        }
    }
    Ok(report)
}

/// Frames recorded from a fresh definition: pins and expected outputs, one frame after the other, and the
/// definition after the last cycle.
pub struct Recording {
    /// Input frames of the recorded cycles, concatenated.
    pub pins: Vec<u32>,
    /// Expected output frames of the same cycles, concatenated.
    pub expect: Vec<u32>,
    /// Their defined bits ([`Frame::care`]), concatenated.
    pub care: Vec<u32>,
    /// The definition after the last recorded cycle (for its packet count and counters).
    pub top: Box<dyn Top>,
}

/// Frames of at most `upto` cycles of `opts.top` with `opts.seed`: `opts.cycles` of traffic, then the drain
/// until the top is empty (or `upto`).
pub fn record(opts: &Options, layout: &Layout, upto: u64) -> Result<Recording> {
    let mut top = opts.make_top()?;
    let mut pins = Frame::new(&layout.inputs);
    let mut expect = Frame::new(&layout.outputs);
    let (mut p, mut e, mut c) = (Vec::new(), Vec::new(), Vec::new());
    let mut draining = false;
    for n in 0..upto {
        if n == opts.cycles && !draining {
            top.drain();
            draining = true;
        }
        if draining && top.drained() {
            break;
        }
        pins.clear();
        expect.clear();
        top.cycle(n, &mut pins, &mut expect).map_err(|e| {
            anyhow!(
                "{} (seed {:#x}), model side: cycle {n}: {e}",
                layout.top,
                opts.seed
            )
        })?;
        p.extend_from_slice(&pins.words);
        e.extend_from_slice(&expect.words);
        c.extend_from_slice(&expect.care);
    }
    Ok(Recording {
        pins: p,
        expect: e,
        care: c,
        top,
    })
}

/// Replays cycles 0..=`upto` through the traced Verilator build, writing the whole design's VCD from
/// cycle `upto − VCD_CYCLES` on.
fn verilator_design_vcd(
    opts: &Options,
    layout: &Layout,
    verilog: &str,
    upto: u64,
    path: &Path,
) -> Result<()> {
    design_vcd(
        opts,
        layout,
        verilog,
        upto.saturating_sub(VCD_CYCLES),
        upto,
        path,
    )
    .map(|_| ())
}

/// Runs cycles 0..=`upto` of `opts`' stimulus (the model's pins, `opts.perturb` applied) through a traced
/// Verilator build of `verilog` and writes the whole design's VCD of cycles `from..=upto` to `path` (every
/// signal of the design under the scope `TOP.<top>`; one cycle is 10 time units, the rising edge at its
/// middle). Nothing is compared: the run that checks the design is [`run_design`]. Returns the cycles run
/// (fewer than `upto + 1` when the stimulus drained first).
pub fn design_vcd(
    opts: &Options,
    layout: &Layout,
    verilog: &str,
    from: u64,
    upto: u64,
    path: &Path,
) -> Result<u64> {
    let mut v = verilator::Verilated::new(layout, verilog, true, opts.opt)?;
    let pins = record(opts, layout, upto + 1)?.pins;
    let (iw, ow) = (layout.input_words(), layout.output_words());
    let mut out = vec![0u32; ow];
    let mut ran = 0;
    for (n, p) in pins.chunks(iw.max(1)).enumerate().take(upto as usize + 1) {
        let n = n as u64;
        if n == from {
            v.trace(Some(path))?;
        }
        let mut p = p.to_vec();
        flip(&opts.perturb, true, n, &layout.inputs, &mut p);
        v.cycle(&p, &mut out);
        ran = n + 1;
    }
    v.trace(None).context("closing the design VCD")?;
    Ok(ran)
}

/// The Icarus backend: records the model's frames (traffic and drain), runs them in Icarus, reports the
/// first mismatch; with `--vcd`, reruns the cycles up to a mismatch with the whole design dumped.
fn run_icarus(opts: &Options, layout: &Layout, verilog: &str) -> Result<Report> {
    let t = Instant::now();
    let limit = opts.cycles + opts.make_top()?.drain_limit();
    let Recording {
        mut pins,
        mut expect,
        mut care,
        mut top,
    } = record(opts, layout, limit)?;
    let (iw, ow) = (layout.input_words(), layout.output_words());
    let n = (expect.len() / ow.max(1)) as u64;
    if n >= limit && !top.drained() {
        bail!(
            "{} (seed {:#x}): not drained after {limit} cycles",
            layout.top,
            opts.seed
        );
    }
    top.finish()
        .map_err(|e| anyhow!("{} (seed {:#x}), model side: {e}", layout.top, opts.seed))?;
    let model_seconds = t.elapsed().as_secs_f64();
    for c in 0..n {
        let i = c as usize;
        flip(
            &opts.perturb,
            true,
            c,
            &layout.inputs,
            &mut pins[i * iw..(i + 1) * iw],
        );
        // An output perturbation is the same as expecting the flipped value.
        flip(
            &opts.perturb,
            false,
            c,
            &layout.outputs,
            &mut expect[i * ow..(i + 1) * ow],
        );
        if let Some((w, m)) = perturbed(&opts.perturb, false, c, &layout.outputs) {
            care[i * ow + w] |= m;
        }
    }
    let t = Instant::now();
    let r = super::icarus::run_frames(layout, verilog, &pins, &expect, &care, None)?;
    let seconds = t.elapsed().as_secs_f64();
    if r.xz_expected != 0 {
        bail!(
            "{}: {} vectors with X or Z in an expected value",
            layout.top,
            r.xz_expected
        );
    }
    let mut report = Report {
        top: layout.top.clone(),
        backend: "icarus",
        seed: opts.seed,
        cycles: r.applied,
        seconds,
        cycles_per_s: r.applied as f64 / seconds.max(1e-9),
        packets: top.packets(),
        mismatches: r.first.is_some() as u64,
        first: r.first.clone(),
        counters: top
            .counters()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        model_seconds,
        backend_seconds: seconds,
        vcd: Vec::new(),
    };
    if r.first.is_none() && r.applied != n {
        bail!(
            "{}: Icarus applied {} of {n} vectors",
            layout.top,
            r.applied
        );
    }
    if let (Some(m), Some(path)) = (&r.first, &opts.vcd) {
        // Rerun up to the mismatch with the whole test bench dumped: the design's ports and internal signals
        // and the expected values (`exp_*`) side by side.
        let upto = m.cycle as usize + 1;
        super::icarus::run_frames(
            layout,
            verilog,
            &pins[..upto * iw],
            &expect[..upto * ow],
            &care[..upto * ow],
            Some((m.cycle.saturating_sub(VCD_CYCLES), path)),
        )?;
        report.vcd = vec![path.clone()];
    }
    Ok(report)
}

/// Runs `top` in Verilator for `cycles` cycles with the test seed and bit `bit` of input `port` flipped
/// in cycle `cycle` as the design sees it (not the model), and returns the first mismatch with the report,
/// asserting that there is one and that it is not before the flip. For the tests that show a harness
/// catches an injected fault; the caller asserts where it shows.
pub fn input_fault_caught(
    top: &str,
    cycles: u64,
    cycle: u64,
    port: &str,
    bit: usize,
) -> (Mismatch, Report) {
    let s = crate::harness::seed();
    let mut o = Options::new(top, BackendKind::Verilator, cycles, s);
    o.perturb = Some(Perturb::Input {
        cycle,
        port: port.into(),
        bit,
    });
    let r = run(&o).unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
    let m = r
        .first
        .clone()
        .unwrap_or_else(|| panic!("fault not caught: {r} (ASR_SEED={s:#x})"));
    assert!(
        m.cycle >= cycle,
        "{m} before the fault: {r} (ASR_SEED={s:#x})"
    );
    (m, r)
}

/// Flips one input bit for one cycle in each of `flips` (`(cycle, port, bit)`, one rust-hdl run of `cycles`
/// cycles each, as the design sees it, not the model, with the test seed): a mismatch is never reported
/// before its flip. Returns how many flips were reported (a flip may change nothing the outputs show). For
/// the fault tests of the blocks.
pub fn input_flips_caught(top: &str, cycles: u64, flips: &[(u64, &str, usize)]) -> usize {
    let s = crate::harness::seed();
    let mut caught = 0;
    for &(cycle, port, bit) in flips {
        let mut o = Options::new(top, BackendKind::RustHdl, cycles, s);
        o.perturb = Some(Perturb::Input {
            cycle,
            port: port.into(),
            bit,
        });
        let r = run(&o).unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
        if let Some(m) = &r.first {
            assert!(
                m.cycle >= cycle,
                "{m} before the flip of {port} at {cycle}: {r} (ASR_SEED={s:#x})"
            );
            caught += 1;
        }
    }
    caught
}

/// Flips output `port`'s bit `bit` at `cycle` (rust-hdl, `cycles` cycles, the test seed): it is reported at
/// that cycle and signal, and only once.
pub fn output_flip_reported(top: &str, cycles: u64, cycle: u64, port: &str, bit: usize) {
    let s = crate::harness::seed();
    let mut o = Options::new(top, BackendKind::RustHdl, cycles, s);
    o.perturb = Some(Perturb::Output {
        cycle,
        port: port.into(),
        bit,
    });
    let r = run(&o).unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
    let m = r
        .first
        .clone()
        .unwrap_or_else(|| panic!("fault not reported: {r} (ASR_SEED={s:#x})"));
    assert_eq!(
        (m.cycle, m.signal.as_str(), r.mismatches),
        (cycle, port, 1),
        "{r} (ASR_SEED={s:#x})"
    );
}

/// Runs `top` on `backend` for `cycles` cycles of traffic with the test seed ([`crate::harness::seed`]),
/// asserting no mismatch and no model-side failure, and returns the report (printed on stderr). For tests.
pub fn check(top: &str, backend: BackendKind, cycles: u64) -> Report {
    let seed = crate::harness::seed();
    let r = run(&Options::new(top, backend, cycles, seed))
        .unwrap_or_else(|e| panic!("{top} on {}: {e:#} (ASR_SEED={seed:#x})", backend.name()));
    r.assert_clean(cycles);
    r
}
