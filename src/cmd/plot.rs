//! Latency–load plots (thesis Figs. A.1–A.10) as SVG via plotters, and the CSV of the points behind them.
//! Not a subcommand: shared by `asr benes-table` and `asr sim`.

use anyhow::{anyhow, Result};
use asr_model::network::sim::SimStats;
use plotters::prelude::*;
use std::path::Path;

/// One curve: a label and its sweep points (in load order).
pub struct Curve<'a> {
    pub label: &'a str,
    pub points: &'a [SimStats],
}

/// Writes the curves' points as CSV, one row per (curve, load).
pub fn write_csv(path: &Path, curves: &[Curve]) -> Result<()> {
    let mut w = csv::Writer::from_path(path)?;
    w.write_record([
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
    ])?;
    for c in curves {
        for p in c.points {
            w.write_record([
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
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}

/// Mean latency against offered load, one line per curve; latency axis clipped at `y_max` cycles (points
/// above are drawn at the top edge, as the thesis' curves leave the plot when latency diverges).
pub fn latency_svg(path: &Path, title: &str, curves: &[Curve], y_max: f64) -> Result<()> {
    let xy: Vec<(&str, Vec<(f64, f64)>)> = curves
        .iter()
        .map(|c| {
            (
                c.label,
                c.points
                    .iter()
                    .map(|p| (p.offered, p.mean_latency))
                    .collect(),
            )
        })
        .collect();
    xy_svg(
        path,
        title,
        "offered load (packets / input / cycle)",
        &xy,
        y_max,
    )
}

/// Mean latency (y, clipped at `y_max`) against load (x in 0..1), one line per labelled curve.
pub fn xy_svg(
    path: &Path,
    title: &str,
    x_desc: &str,
    curves: &[(&str, Vec<(f64, f64)>)],
    y_max: f64,
) -> Result<()> {
    let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..1.0f64, 0.0..y_max)
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("mean latency (cycles)")
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
            .draw_series(
                pts.iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, col.filled())),
            )
            .map_err(|e| anyhow!("{e}"))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
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
