//! `bdtree interrupt`: interrupted queries per test budget (the interruptible-collision
//! paper's Table 1).

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::build::{BuildOptions, Precision, TreeKind};
use bdtree_std::runner::budget_table;

use crate::error::CliError;
use crate::options::{load_and_prepare, OrderArg};

#[derive(clap::Args)]
pub struct Args {
    /// The scene (JSON).
    scene: PathBuf,
    /// Test budgets per query (sphere overlap tests + triangle tests), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "8,32,128,512,2048,8192,32768"
    )]
    budgets: Vec<u32>,
    /// Which pending pair is refined next; all three when omitted.
    #[arg(long, value_enum)]
    order: Option<OrderArg>,
    /// Pending-list capacity (entries).
    #[arg(long, default_value_t = 1 << 16)]
    capacity: usize,
    /// Arithmetic of the kernel.
    #[arg(long, value_enum, default_value_t = Precision::F32)]
    precision: Precision,
    /// Which partition the trees are built on (a scene body's `"tree"` overrides it).
    #[arg(long, value_enum, default_value_t = TreeKind::default())]
    tree: TreeKind,
    /// One JSON object per order and budget, one per line.
    #[arg(long)]
    json: bool,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = BuildOptions {
        precision: args.precision,
        tree: args.tree,
        ..BuildOptions::default()
    };
    let (scene, prepared) = load_and_prepare(&args.scene, options, Some("`bdtree interrupt`"))?;
    let orders = match args.order {
        Some(o) => vec![o],
        None => vec![OrderArg::Breadth, OrderArg::Deepest, OrderArg::Largest],
    };
    let (budgets, capacity) = (&args.budgets, args.capacity);
    let mut out = std::io::stdout().lock();
    let mut uncovered = 0;
    for o in orders {
        let order = o.into();
        let rows = match args.precision {
            Precision::F32 => budget_table::<f32>(&scene, &prepared, budgets, order, capacity),
            Precision::F64 => budget_table::<f64>(&scene, &prepared, budgets, order, capacity),
        }?;
        if !args.json {
            writeln!(out, "{}", report::budget_header(&args.scene, order, &rows))?;
        }
        for r in &rows {
            uncovered += r.uncovered;
            writeln!(out, "{}", report::budget_line(order, r, args.json))?;
        }
    }
    if uncovered > 0 {
        return Err(CliError::OutsideCover { count: uncovered });
    }
    Ok(())
}
