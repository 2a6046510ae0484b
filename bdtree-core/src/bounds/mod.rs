//! Bounds: the BD-Tree sphere update and its rounding bound ([`sphere`]), the coherent update
//! from a reference state ([`coherence`]), the cache of swept node bounds
//! ([`track_cache`]) and the fitted spheres beside the exact ones with their reach
//! ([`fitted`]). Arithmetic on the scalars only: the tree, the body and the queries use
//! these.

pub mod coherence;
pub mod fitted;
pub mod sphere;
pub mod track_cache;
