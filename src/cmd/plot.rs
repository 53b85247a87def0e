//! Latency–load plots (thesis Figs. A.1–A.10) as SVG via plotters, and the CSV of the points behind them.
//! Not a subcommand: shared by `asr benes-table` and `asr sim`; also the simpler plots of `asr fault-curve`
//! (`xy_svg_axes`) and `asr wormhole-figures` (`log_latency_svg`).

use anyhow::{anyhow, Result};
use asr_model::network::sim::SimStats;
use plotters::prelude::*;
use std::path::Path;

/// One curve: a label and its sweep points (in load order).
pub struct Curve<'a> {
    pub label: &'a str,
    pub points: &'a [SimStats],
}

/// Writes the curves' points as CSV, one row per (curve, load); every row starts with `params` (the
/// parameters of the sweep: network, pattern, buffer, …, program version).
pub fn write_csv(path: &Path, params: &[(&str, String)], curves: &[Curve]) -> Result<()> {
    let mut w = csv::Writer::from_path(path)?;
    let mut head: Vec<&str> = params.iter().map(|p| p.0).collect();
    head.extend([
        "routing",
        "offered",
        "accepted",
        "mean_latency",
        "max_latency",
        "mean_network_latency",
        "measured_packets",
        "steady_cycle",
        "window_end",
        "cycles",
    ]);
    w.write_record(&head)?;
    for c in curves {
        for p in c.points {
            let mut row: Vec<String> = params.iter().map(|p| p.1.clone()).collect();
            row.extend([
                c.label.to_string(),
                format!("{:.4}", p.offered),
                format!("{:.4}", p.accepted),
                format!("{:.2}", p.mean_latency),
                p.max_latency.to_string(),
                format!("{:.2}", p.mean_network_latency),
                p.measured.to_string(),
                p.steady_cycle.to_string(),
                p.window_end.to_string(),
                p.cycles.to_string(),
            ]);
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// One point of a latency curve: load `x`, latency `y` (`None`: the run deadlocked), and whether the
/// network was saturated there (accepted below 98 % of offered).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: Option<f64>,
    pub saturated: bool,
}

/// A labelled curve with its saturation throughput (drawn as a dashed vertical line, in the load's units).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<Pt>,
    pub saturation: Option<f64>,
}

/// Accepted below this share of the offered load = saturated (the knee of docs/simulator.md).
pub const SATURATED_BELOW: f64 = 0.98;

impl Line {
    /// A curve of the network simulator's sweep: mean latency against offered load, saturation = the highest
    /// accepted throughput.
    pub fn from_sim(label: &str, pts: &[SimStats]) -> Line {
        Line {
            label: label.to_string(),
            points: pts
                .iter()
                .map(|p| Pt {
                    x: p.offered,
                    y: Some(p.mean_latency),
                    saturated: p.accepted < SATURATED_BELOW * p.offered,
                })
                .collect(),
            saturation: pts.iter().map(|p| p.accepted).reduce(f64::max),
        }
    }
}

/// Titles and axes of a latency–load plot.
pub struct LatencyPlot<'a> {
    /// What was simulated: network, traffic pattern, routings.
    pub title: &'a str,
    /// The run's parameters (packets, seed, …).
    pub subtitle: &'a str,
    pub x_desc: &'a str,
    /// Latency axis ceiling (cycles); points above are drawn on the top edge as triangles with their value.
    pub y_max: f64,
}

/// A latency ceiling that keeps the curves' low-load part readable: 8 × the lowest-load latency (at least
/// 80 cycles), unless everything fits below 1.25 × the highest latency.
pub fn ceiling(lines: &[Line]) -> f64 {
    let ys = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter().filter_map(|p| p.y))
    };
    let lowest = lines
        .iter()
        .filter_map(|l| l.points.iter().find_map(|p| p.y))
        .fold(f64::INFINITY, f64::min);
    let top = ys().fold(0.0f64, f64::max);
    let cap = 8.0
        * if lowest.is_finite() {
            lowest.max(10.0)
        } else {
            20.0
        };
    if top * 1.25 <= cap {
        (top * 1.25).max(10.0)
    } else {
        cap
    }
}

/// Mean latency against load, one line per curve, as an SVG. Points above `y_max` sit on the top edge as
/// triangles labelled with their latency; deadlocked points are crosses labelled `deadlock`; saturated points
/// are hollow circles; each curve's saturation throughput is a dashed vertical line (its value in the
/// legend). The marker kinds present are explained in the legend.
pub fn latency_svg(path: &Path, plot: &LatencyPlot, lines: &[Line]) -> Result<()> {
    let err = |e: String| anyhow!("plotting {}: {e}", path.display());
    let root = SVGBackend::new(path, (820, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let (top, area) = root.split_vertically(52);
    top.draw(&Text::new(
        plot.title,
        (16, 8),
        ("sans-serif", 19).into_font(),
    ))
    .map_err(|e| err(e.to_string()))?;
    top.draw(&Text::new(
        plot.subtitle,
        (16, 32),
        ("sans-serif", 13).into_font().color(&RGBColor(80, 80, 80)),
    ))
    .map_err(|e| err(e.to_string()))?;
    let y_max = plot.y_max;
    let mut chart = ChartBuilder::on(&area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..1.0f64, 0.0..y_max)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc(plot.x_desc)
        .y_desc("mean latency (cycles)")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let colors = [
        RED,
        BLUE,
        RGBColor(0, 140, 0),
        BLACK,
        MAGENTA,
        CYAN,
        RGBColor(255, 140, 0),
        RGBColor(128, 128, 128),
    ];
    // The label of a point on the top edge: below the marker, one line per curve `k`, right-aligned near the
    // right edge so that it stays inside the plot.
    let tag = |x: f64, k: usize, text: String, col: RGBColor| {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let anchor = if x > 0.85 { HPos::Right } else { HPos::Center };
        let style = ("sans-serif", 12)
            .into_font()
            .color(&col)
            .pos(Pos::new(anchor, VPos::Top));
        EmptyElement::at((x, y_max)) + Text::new(text, (0, 9 + 14 * k as i32), style)
    };
    for (k, line) in lines.iter().enumerate() {
        let col = colors[k % colors.len()];
        let shown: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter_map(|p| p.y.map(|y| (p.x, y.min(y_max))))
            .collect();
        let label = match line.saturation {
            Some(s) => format!("{} (saturation {s:.3})", line.label),
            None => line.label.clone(),
        };
        chart
            .draw_series(LineSeries::new(shown, col.stroke_width(2)))
            .map_err(|e| err(e.to_string()))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(2)));
        if let Some(s) = line.saturation.filter(|s| *s > 0.0 && *s <= 1.0) {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(s, 0.0), (s, y_max)],
                    6,
                    4,
                    col.stroke_width(1),
                ))
                .map_err(|e| err(e.to_string()))?;
        }
        for p in &line.points {
            match p.y {
                Some(y) if y > y_max => {
                    chart
                        .draw_series([TriangleMarker::new((p.x, y_max), 6, col.filled())])
                        .map_err(|e| err(e.to_string()))?;
                    chart
                        .draw_series([tag(p.x, k, format!("{y:.0}"), col)])
                        .map_err(|e| err(e.to_string()))?;
                }
                Some(y) if p.saturated => {
                    chart
                        .draw_series([Circle::new((p.x, y), 4, col.stroke_width(2))])
                        .map_err(|e| err(e.to_string()))?;
                }
                Some(y) => {
                    chart
                        .draw_series([Circle::new((p.x, y), 4, col.filled())])
                        .map_err(|e| err(e.to_string()))?;
                }
                None => {
                    chart
                        .draw_series([Cross::new((p.x, y_max), 7, col.stroke_width(3))])
                        .map_err(|e| err(e.to_string()))?;
                    chart
                        .draw_series([tag(p.x, k, "deadlock".into(), col)])
                        .map_err(|e| err(e.to_string()))?;
                }
            }
        }
    }
    // Explain the marker kinds that occur.
    let pts = || lines.iter().flat_map(|l| l.points.iter());
    let grey = RGBColor(90, 90, 90);
    if pts().any(|p| p.y.is_some_and(|y| y <= y_max) && p.saturated) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(e.to_string()))?
            .label(format!(
                "saturated: accepted < {:.0} % of offered",
                SATURATED_BELOW * 100.0
            ))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, grey.stroke_width(2)));
    }
    if pts().any(|p| p.y.is_some_and(|y| y > y_max)) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(e.to_string()))?
            .label(format!(
                "above {y_max:.0} cycles: on the top edge, latency printed"
            ))
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, grey.filled()));
    }
    if pts().any(|p| p.y.is_none()) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(e.to_string()))?
            .label("deadlock (no latency)")
            .legend(move |(x, y)| Cross::new((x + 10, y), 6, grey.stroke_width(3)));
    }
    if lines.iter().any(|l| l.saturation.is_some()) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(e.to_string()))?
            .label("dashed: saturation throughput")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

/// A file-name part from a network name: `sp2:512` → `sp2_512`, `fly:4,3` → `fly_4_3`, `dir/my.top` →
/// `my_top`.
pub fn file_part(network: &str) -> String {
    let base = Path::new(network)
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| network.to_string());
    base.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// An SVG line plot with both axes given (x from `x_max` = the largest x of the curves).
pub fn xy_svg_axes(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    curves: &[(&str, Vec<(f64, f64)>)],
    y_max: f64,
) -> Result<()> {
    let x_max = curves
        .iter()
        .flat_map(|(_, c)| c.iter().map(|p| p.0))
        .fold(1.0f64, f64::max);
    let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    let colors = [RED, BLUE, GREEN, BLACK];
    for (k, (label, c)) in curves.iter().enumerate() {
        let col = colors[k % colors.len()];
        let pts: Vec<(f64, f64)> = c.iter().map(|&(x, y)| (x, y.min(y_max))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))
            .map_err(|e| anyhow!("{e}"))?
            .label(*label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], col));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, col.filled())))
            .map_err(|e| anyhow!("{e}"))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// Colours of the lines of [`log_latency_svg`], in order.
const COLOURS: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// Tick values of a log axis from `lo` to `hi`: 1, 2, 3, 5 × 10^k, so that even a short range has several
/// labels.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut decade = 10f64.powf(lo.max(1e-9).log10().floor());
    while decade <= hi {
        for m in [1.0, 2.0, 3.0, 5.0] {
            let t = m * decade;
            if t >= lo && t <= hi {
                v.push(t);
            }
        }
        decade *= 10.0;
    }
    v
}

/// Latency (log scale) against throughput, one labelled line of (x, latency) points per series, as an SVG
/// (the wormhole figures). Room on the right for the legend; the log axis keeps saturating curves readable.
pub fn log_latency_svg(
    path: &Path,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<()> {
    let all = || series.iter().flat_map(|s| s.1.iter().copied());
    let xmax = all().map(|q| q.0).fold(10.0f64, f64::max) * 1.45;
    let ymax = all().map(|q| q.1).fold(100.0f64, f64::max) * 1.3;
    let ymin = all().map(|q| q.1).fold(ymax, f64::min).max(1.0) * 0.8;
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    let err = |e: String| anyhow!("plotting {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(
            0.0..xmax,
            (ymin..ymax)
                .log_scale()
                .with_key_points(log_ticks(ymin, ymax)),
        )
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    for (k, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
            .map_err(|e| err(e.to_string()))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&q| Circle::new(q, 3, c.filled())))
            .map_err(|e| err(e.to_string()))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points above the ceiling keep their value, deadlocks and saturation are marked and explained.
    #[test]
    fn marks_points_above_the_ceiling_deadlocks_and_saturation() {
        let pt = |x, y: Option<f64>, saturated| Pt { x, y, saturated };
        let lines = [
            Line {
                label: "ASR".into(),
                points: vec![
                    pt(0.2, Some(22.0), false),
                    pt(0.5, Some(90.0), true),
                    pt(1.0, Some(1282.0), true),
                ],
                saturation: Some(0.444),
            },
            Line {
                label: "single-path".into(),
                points: vec![pt(0.2, Some(25.0), false), pt(0.8, None, false)],
                saturation: Some(0.39),
            },
        ];
        let y_max = ceiling(&lines);
        assert_eq!(y_max, 8.0 * 22.0);
        let path = std::env::temp_dir().join(format!("asr-plot-{}.svg", std::process::id()));
        latency_svg(
            &path,
            &LatencyPlot {
                title: "64×64 Beneš, uniform traffic: ASR against random routing",
                subtitle: "test",
                x_desc: "offered load",
                y_max,
            },
            &lines,
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        for text in [
            "1282",
            "deadlock",
            "ASR (saturation 0.444)",
            "single-path (saturation 0.390)",
            "saturated: accepted &lt; 98 % of offered",
            "above 176 cycles",
            "dashed: saturation throughput",
            "64×64 Beneš, uniform traffic",
        ] {
            assert!(svg.contains(text), "the plot lacks `{text}`");
        }
        // Without such points, no legend entries for them.
        let calm = [Line {
            label: "ASR".into(),
            points: vec![pt(0.2, Some(22.0), false), pt(0.3, Some(23.0), false)],
            saturation: None,
        }];
        let y = ceiling(&calm);
        assert!((28.0..30.0).contains(&y), "{y}");
        let path = std::env::temp_dir().join(format!("asr-plot-calm-{}.svg", std::process::id()));
        let plot = LatencyPlot {
            title: "t",
            subtitle: "s",
            x_desc: "x",
            y_max: y,
        };
        latency_svg(&path, &plot, &calm).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(!svg.contains("deadlock") && !svg.contains("saturated") && !svg.contains("above"));
    }

    #[test]
    fn log_ticks_label_short_ranges() {
        assert_eq!(log_ticks(12.0, 130.0), vec![20.0, 30.0, 50.0, 100.0]);
        assert_eq!(log_ticks(1.0, 1000.0).len(), 13);
    }

    #[test]
    fn file_parts_have_no_separators() {
        assert_eq!(file_part("sp2:512"), "sp2_512");
        assert_eq!(file_part("fly:4,3"), "fly_4_3");
        assert_eq!(file_part("dir/my.top"), "my_top");
    }
}
