//! The SVG chart of `starkbatch bench --plot FILE.svg`, written by hand (no plotting crate).
//!
//! One panel per workload, stacked vertically. In a panel, the x axis groups the bars by thread
//! count; within a group there is one bar per backend (coloured, with a legend); the scalar
//! path is the dashed horizontal line. The y axis is the rate (items per second, the unit
//! named in the panel title), from 0 to a rounded maximum with five gridlines. Every bar
//! carries its speed-up over scalar as a label and its exact value as a tooltip (`<title>`).

use crate::bench::Measurement;
use std::fmt::Write;

const W: f64 = 720.0;
const PANEL_H: f64 = 230.0;
const TOP: f64 = 76.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 160.0;
const PLOT_H: f64 = 150.0;
const COLORS: [&str; 6] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The smallest "nice" number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at
/// least `x`.
fn nice_ceil(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    for m in [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0] {
        if m * p >= x {
            return m * p;
        }
    }
    10.0 * p
}

/// An axis label: at most three significant digits and an SI suffix (`250k`, `1.5M`).
fn axis(v: f64) -> String {
    let (x, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let t = format!("{x:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    format!("{t}{suffix}")
}

/// The chart as an SVG document.
pub fn svg(results: &[Measurement], chosen: &str, features: &[&str]) -> String {
    let mut workloads: Vec<&str> = Vec::new();
    let mut all_backends: Vec<&str> = Vec::new();
    for m in results {
        if !workloads.contains(&m.workload) {
            workloads.push(m.workload);
        }
        if m.path == "batch" && !all_backends.contains(&m.backend.as_str()) {
            all_backends.push(&m.backend);
        }
    }
    let height = TOP + PANEL_H * workloads.len() as f64 + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" font-size="16" font-weight="bold">starkbatch bench: throughput per backend and thread count</text>"#,
        LEFT
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="42" fill="#555">CPU: {} ({})</text>"##,
        LEFT,
        esc(std::env::consts::ARCH),
        esc(&features.join(", "))
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="58" fill="#555">chosen backend: {}; bars: batch path, labelled with the speed-up over the dashed scalar line</text>"##,
        LEFT,
        esc(chosen)
    );
    for (wi, w) in workloads.iter().enumerate() {
        let rows: Vec<&Measurement> = results.iter().filter(|m| m.workload == *w).collect();
        // This panel's backends, in the global order (so a backend keeps its colour).
        let backends: Vec<(usize, &str)> = all_backends
            .iter()
            .enumerate()
            .filter(|(_, b)| rows.iter().any(|m| m.path == "batch" && m.backend == **b))
            .map(|(i, b)| (i, *b))
            .collect();
        let unit = rows.first().map_or("items", |m| m.unit);
        let scalar = rows
            .iter()
            .find(|m| m.path == "scalar")
            .map(|m| m.per_second);
        let threads: Vec<usize> = {
            let mut t: Vec<usize> = rows
                .iter()
                .filter(|m| m.path == "batch")
                .map(|m| m.threads)
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let ymax = nice_ceil(rows.iter().map(|m| m.per_second).fold(0.0, f64::max) * 1.05);
        let y0 = TOP + PANEL_H * wi as f64 + 30.0;
        let base = y0 + PLOT_H;
        let pw = W - LEFT - RIGHT;
        let y_of = |v: f64| base - PLOT_H * (v / ymax);
        let _ = writeln!(
            s,
            r#"<text x="{LEFT}" y="{}" font-weight="bold">{} ({}/s)</text>"#,
            y0 - 10.0,
            esc(w),
            esc(unit)
        );
        for k in 0..=5 {
            let v = ymax * k as f64 / 5.0;
            let y = y_of(v);
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end" fill="#333">{}</text>"##,
                LEFT + pw,
                LEFT - 6.0,
                y + 4.0,
                esc(&axis(v))
            );
        }
        let groups = threads.len().max(1) as f64;
        let gw = pw / groups;
        let bw = (gw * 0.8) / backends.len().max(1) as f64;
        for (ti, t) in threads.iter().enumerate() {
            let gx = LEFT + gw * ti as f64 + gw * 0.1;
            for (bi, &(ci, b)) in backends.iter().enumerate() {
                let Some(m) = rows
                    .iter()
                    .find(|m| m.path == "batch" && m.threads == *t && m.backend == b)
                else {
                    continue;
                };
                let x = gx + bw * bi as f64;
                let y = y_of(m.per_second);
                let _ = writeln!(
                    s,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} {} threads: {:.0} {}/s ({:.2}x scalar)</title></rect>"#,
                    (bw - 2.0).max(1.0),
                    base - y,
                    COLORS[ci % COLORS.len()],
                    esc(b),
                    t,
                    m.per_second,
                    esc(unit),
                    m.speedup
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="10">{:.2}x</text>"#,
                    x + bw / 2.0 - 1.0,
                    y - 3.0,
                    m.speedup
                );
            }
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{} thread{}</text>"#,
                LEFT + gw * (ti as f64 + 0.5),
                base + 16.0,
                t,
                if *t == 1 { "" } else { "s" }
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" x2="{}" y1="{base}" y2="{base}" stroke="#333"/>"##,
            LEFT + pw
        );
        if let Some(v) = scalar {
            let y = y_of(v);
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#000" stroke-dasharray="6 4"><title>scalar: {v:.0} {}/s</title></line>"##,
                LEFT + pw,
                esc(unit)
            );
        }
        for (bi, &(ci, b)) in backends.iter().enumerate() {
            let ly = y0 + 16.0 * bi as f64;
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                LEFT + pw + 16.0,
                ly,
                COLORS[ci % COLORS.len()],
                LEFT + pw + 34.0,
                ly + 10.0,
                esc(b)
            );
        }
        let ly = y0 + 16.0 * backends.len() as f64;
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="#000" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}">scalar</text>"##,
            LEFT + pw + 16.0,
            LEFT + pw + 28.0,
            ly + 6.0,
            ly + 6.0,
            LEFT + pw + 34.0,
            ly + 10.0
        );
    }
    s.push_str("</svg>\n");
    s
}
