//! The figures of a demo run's step log (`bdtree demo --log FILE`), finished or still going:
//! steps so far, collision time per step deformable and rigid (mean, median, their ratios),
//! the busiest step (the most chair–chair proxy contacts) and its times, the sphere overlap
//! tests of both sides; with an output path, the plot of the collision time per step.
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example pile_log -- target/pile-3601.csv [target/plot.png] [first step] [last step]
//! ```

use bdtree_cli::view::render::{timeline, Series};

type Error = Box<dyn std::error::Error>;

/// One line of the log.
struct Step {
    step: usize,
    candidates: usize,
    pairs: usize,
    contacts: usize,
    ground: usize,
    ms: [f64; 2],
    tests: [f64; 2],
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .ok_or("usage: pile_log LOG.csv [PLOT.png] [FIRST] [LAST]")?;
    let (first, last) = (
        args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0usize),
        args.get(3)
            .and_then(|a| a.parse().ok())
            .unwrap_or(usize::MAX),
    );
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut steps = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        // A line being written when the log was read is left out.
        if f.len() != 10 {
            continue;
        }
        let int = |k: usize| -> Result<usize, Error> {
            Ok(f[k].parse().map_err(|e| format!("{path}:{}: {e}", n + 1))?)
        };
        let real = |k: usize| -> Result<f64, Error> {
            Ok(f[k].parse().map_err(|e| format!("{path}:{}: {e}", n + 1))?)
        };
        let step = int(0)?;
        if step < first || step > last {
            continue;
        }
        steps.push(Step {
            step,
            candidates: int(2)?,
            pairs: int(3)?,
            contacts: int(4)?,
            ground: int(5)?,
            ms: [real(6)?, real(7)?],
            tests: [real(8)?, real(9)?],
        });
    }
    let Some(busiest) = steps.iter().rev().max_by_key(|s| s.contacts) else {
        return Err(format!("{path}: no step").into());
    };
    let n = steps.len() as f64;
    let side = |k: usize| steps.iter().map(|s| s.ms[k]).collect::<Vec<_>>();
    let (d, r) = (side(0), side(1));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / n;
    let ratios: Vec<f64> = steps.iter().map(|s| s.ms[0] / s.ms[1].max(1e-9)).collect();
    let tests = |k: usize| steps.iter().map(|s| s.tests[k]).sum::<f64>() / n;
    println!(
        "{path}: steps {}–{} ({} steps, t = {:.3} s)",
        steps[0].step,
        steps[steps.len() - 1].step,
        steps.len(),
        (steps[steps.len() - 1].step + 1) as f64 * 0.002
    );
    println!(
        "collision per step: deformable {:.1} ms mean, {:.1} median; rigid {:.1} mean, {:.1} median; deformable/rigid {:.2} mean, {:.2} median, per-step ratio's median {:.2}",
        mean(&d),
        median(&d),
        mean(&r),
        median(&r),
        mean(&d) / mean(&r).max(1e-9),
        median(&d) / median(&r).max(1e-9),
        median(&ratios)
    );
    println!(
        "sphere overlap tests per step: {:.0} deformable, {:.0} rigid ({:.2}); per step (mean): {:.0} candidate chair pairs, {:.0} colliding, {:.0} chair–chair proxy contacts, {:.0} ground",
        tests(0),
        tests(1),
        tests(0) / tests(1).max(1.0),
        steps.iter().map(|s| s.candidates as f64).sum::<f64>() / n,
        steps.iter().map(|s| s.pairs as f64).sum::<f64>() / n,
        steps.iter().map(|s| s.contacts as f64).sum::<f64>() / n,
        steps.iter().map(|s| s.ground as f64).sum::<f64>() / n,
    );
    println!(
        "busiest step {}: {} proxy contacts, {} colliding of {} candidate chair pairs; {:.1} ms deformable, {:.1} ms rigid; {:.0} and {:.0} overlap tests",
        busiest.step,
        busiest.contacts,
        busiest.pairs,
        busiest.candidates,
        busiest.ms[0],
        busiest.ms[1],
        busiest.tests[0],
        busiest.tests[1]
    );
    let slowest = steps
        .iter()
        .max_by(|a, b| a.ms[0].total_cmp(&b.ms[0]))
        .ok_or("no step")?;
    println!(
        "slowest step {}: {:.1} ms deformable ({} proxy contacts)",
        slowest.step, slowest.ms[0], slowest.contacts
    );
    if let Some(plot) = args.get(1) {
        let series = [
            Series {
                name: format!("deformable (mean {:.1} ms)", mean(&d)),
                values: d.clone(),
            },
            Series {
                name: format!("rigid, the same placements (mean {:.1} ms)", mean(&r)),
                values: r.clone(),
            },
        ];
        let title = format!(
            "bdtree demo --pile: collision time per step, steps {}–{}",
            steps[0].step,
            steps[steps.len() - 1].step
        );
        timeline(
            &series,
            0.002,
            &title,
            "collision time per step, ms",
            (1200, 600),
            std::path::Path::new(plot),
        )?;
        println!("plot: {plot}");
    }
    Ok(())
}
