//! Helpers shared by the criterion benchmarks in `benches/` (see `README.md` for the commands,
//! the book's `docs/src/performance/` for the figures).

/// The one seeded generator of the workspace (xorshift64*), so every run measures the same
/// data.
pub use bdtree_std::rng::Rng;

pub mod broad_scene;
pub mod fem_scene;
pub mod measure;
pub mod pair_storage;
pub mod query_scene;
pub mod refit;
pub mod self_refit;
pub mod self_scene;
pub mod versus;
pub mod wide;
