//! The lowest eigenpairs of `K u = λ M u` by shift-invert subspace iteration.
//!
//! `K − σM` with a small negative shift `σ` is positive definite even when `K` has the six
//! rigid-body modes of a free body; it is factored once by faer's sparse Cholesky (in the
//! nested-dissection order of [`super::ordering`]), and a block of `p = max(2w, w + 8)`
//! vectors (`w` the eigenpairs wanted; started from the rigid motions, if any, and
//! deterministic pseudo-random vectors) is iterated `X ← (K − σM)⁻¹ M X` with a Rayleigh–Ritz
//! step on the projected `p × p` problem each time, until the `w` lowest Ritz values change by
//! less than `10⁻¹⁰` (relative, or below a round-off floor of `10 ε max(K_ii / M_ii)` on fine
//! lattices).

use super::options::{ModesError, Progress};
use super::sparse::{Csc, System};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::{
    factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering,
};
use faer::sparse::SparseColMat;
use faer::{Conj, Mat, MatMut, Par, Side};

/// Relative change of a Ritz value below which it counts as converged.
const TOLERANCE: f64 = 1e-10;

/// Subspace iterations before giving up.
const MAX_ITERATIONS: usize = 2000;

/// Eigenvalues below this fraction of the largest wanted one count as rigid (zero).
pub(super) const RIGID_FRACTION: f64 = 1e-6;

/// A sparse Cholesky factor `L Lᵀ = P A Pᵀ` of a symmetric positive definite matrix, with
/// the fill-reducing order `P` given.
pub(super) struct Factor {
    symbolic: SymbolicCholesky<usize>,
    values: Vec<f64>,
}

impl Factor {
    /// Factors `a` (lower triangle stored) eliminating dofs in `order`.
    pub fn new(a: &SparseColMat<usize, f64>, order: &[usize]) -> Result<Factor, ModesError> {
        let n = a.nrows();
        let mut inverse = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            inverse[old] = new;
        }
        let perm = PermRef::new_checked(order, &inverse, n);
        let symbolic = factorize_symbolic_cholesky(
            a.symbolic(),
            Side::Lower,
            SymmetricOrdering::Custom(perm),
            Default::default(),
        )
        .map_err(|e| ModesError::Numerical(format!("symbolic Cholesky: {e:?}")))?;
        let mut values = vec![0.0; symbolic.len_val()];
        let mut buffer = MemBuffer::new(
            symbolic.factorize_numeric_llt_scratch::<f64>(Par::Seq, Default::default()),
        );
        symbolic
            .factorize_numeric_llt(
                &mut values,
                a.as_ref(),
                Side::Lower,
                LltRegularization::default(),
                Par::Seq,
                MemStack::new(&mut buffer),
                Default::default(),
            )
            .map_err(|e| ModesError::Numerical(format!("Cholesky of K − σM: {e:?}")))?;
        Ok(Factor { symbolic, values })
    }

    /// Entries of the factor.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Overwrites `rhs` with `A⁻¹ rhs`.
    pub fn solve_in_place(&self, rhs: MatMut<'_, f64>) {
        let mut buffer = MemBuffer::new(
            self.symbolic
                .solve_in_place_scratch::<f64>(rhs.ncols(), Par::Seq),
        );
        LltRef::new(&self.symbolic, &self.values).solve_in_place_with_conj(
            Conj::No,
            rhs,
            Par::Seq,
            MemStack::new(&mut buffer),
        );
    }
}

/// The six rigid motions (3 translations, 3 rotations about the centroid), `M`-orthonormal.
pub(super) fn rigid_modes(sys: &System) -> Result<Mat<f64>, ModesError> {
    let nodes = sys.positions.len();
    let mut centroid = [0.0; 3];
    for p in &sys.positions {
        for a in 0..3 {
            centroid[a] += p[a] / nodes as f64;
        }
    }
    let r = Mat::<f64>::from_fn(3 * nodes, 6, |row, col| {
        let (node, a) = (row / 3, row % 3);
        if col < 3 {
            return if a == col { 1.0 } else { 0.0 };
        }
        // ω = e_(col−3); (ω × d)_a.
        let d: [f64; 3] = core::array::from_fn(|b| sys.positions[node][b] - centroid[b]);
        match (col - 3, a) {
            (0, 1) => -d[2],
            (0, 2) => d[1],
            (1, 0) => d[2],
            (1, 2) => -d[0],
            (2, 0) => -d[1],
            (2, 1) => d[0],
            _ => 0.0,
        }
    });
    m_orthonormalise(&sys.m, r)
}

/// `M`-orthonormalises the columns of `x` by the eigen-decomposition of its Gram matrix.
fn m_orthonormalise(m: &Csc, x: Mat<f64>) -> Result<Mat<f64>, ModesError> {
    let gram = x.transpose() * m.mul(&x);
    let evd = gram
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("Gram eigen-decomposition: {e:?}")))?;
    let s = evd.S().column_vector();
    let u = evd.U();
    let t = Mat::<f64>::from_fn(x.ncols(), x.ncols(), |i, j| {
        u[(i, j)] / s[j].max(1e-300).sqrt()
    });
    Ok(&x * &t)
}

/// The Rayleigh–Ritz step: Ritz values (ascending) and `M`-orthonormal Ritz vectors of `K` in
/// the span of `y`.
fn rayleigh_ritz(sys: &System, mut y: Mat<f64>) -> Result<(Vec<f64>, Mat<f64>), ModesError> {
    let p = y.ncols();
    for j in 0..p {
        let norm = y.col(j).norm_l2();
        if norm > 0.0 {
            y.col_as_slice_mut(j).iter_mut().for_each(|v| *v /= norm);
        }
    }
    let mr = y.transpose() * sys.m.mul(&y);
    let kr = y.transpose() * sys.k.mul(&y);
    let evd = mr
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("projected mass: {e:?}")))?;
    let s = evd.S().column_vector();
    let largest = (0..p).map(|j| s[j]).fold(0.0, f64::max);
    // Whitening transform, dropping directions the block no longer spans.
    let keep: Vec<usize> = (0..p).filter(|&j| s[j] > 1e-14 * largest).collect();
    let u = evd.U();
    let t = Mat::<f64>::from_fn(p, keep.len(), |i, j| u[(i, keep[j])] / s[keep[j]].sqrt());
    let c = t.transpose() * &kr * &t;
    let evd = c
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("projected stiffness: {e:?}")))?;
    let theta: Vec<f64> = (0..keep.len())
        .map(|j| evd.S().column_vector()[j])
        .collect();
    let x = &y * (&t * evd.U());
    Ok((theta, x))
}

/// A deterministic xorshift64 generator for the start vectors.
fn xorshift(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

/// The converged Ritz pairs.
pub(super) struct Eigenpairs {
    /// The `wanted` lowest Ritz values, ascending.
    pub values: Vec<f64>,
    /// Their `M`-orthonormal Ritz vectors, one per column.
    pub vectors: Mat<f64>,
    /// Every Ritz value of the final block, ascending (the ones past `wanted` are not
    /// converged; they show zero modes beyond the wanted ones).
    pub block: Vec<f64>,
    /// Subspace iterations run.
    pub iterations: usize,
}

/// The `wanted` lowest eigenpairs of `K u = λ M u`, iterating with the factor of `K − σM`.
/// `start` (the rigid motions of a free body) fills the first columns of the starting block.
pub(super) fn lowest(
    sys: &System,
    factor: &Factor,
    wanted: usize,
    start: Option<&Mat<f64>>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Eigenpairs, ModesError> {
    let n = sys.k.n;
    let p = (2 * wanted).max(wanted + 8).min(n);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut x = Mat::<f64>::from_fn(n, p, |_, _| xorshift(&mut seed));
    if let Some(start) = start {
        for j in 0..start.ncols().min(p) {
            for i in 0..n {
                x[(i, j)] = start[(i, j)];
            }
        }
    }
    let rigid = start.map_or(0, |s| s.ncols());
    // Round-off floor of a Ritz value: `xᵀKx` sums terms up to ≈ λ_max, estimated by the
    // largest K_ii / M_ii.
    let lambda_max = (0..n)
        .map(|i| sys.k.diagonal(i) / sys.m.diagonal(i))
        .filter(|r| r.is_finite())
        .fold(0.0, f64::max);
    let floor = 10.0 * f64::EPSILON * lambda_max;
    let mut previous: Vec<f64> = Vec::new();
    let mut iterations = 0;
    loop {
        iterations += 1;
        let mut y = sys.m.mul(&x);
        factor.solve_in_place(y.as_mut());
        let (theta, next) = rayleigh_ritz(sys, y)?;
        x = next;
        if theta.len() < wanted {
            return Err(ModesError::Numerical(format!(
                "the iteration block collapsed to {} vectors",
                theta.len()
            )));
        }
        let scale = theta[wanted - 1].abs().max(f64::MIN_POSITIVE);
        let converged = if previous.len() >= wanted {
            (0..wanted)
                .take_while(|&i| {
                    // Rigid modes are exact from the start; their Ritz values are round-off.
                    (i < rigid && theta[i] < RIGID_FRACTION * scale)
                        || (theta[i] - previous[i]).abs() <= (TOLERANCE * theta[i].abs()).max(floor)
                })
                .count()
        } else {
            0
        };
        progress(Progress::Iteration {
            iteration: iterations,
            converged,
            wanted,
        });
        if converged == wanted {
            return Ok(Eigenpairs {
                values: theta[..wanted].to_vec(),
                vectors: x.subcols(0, wanted).to_owned(),
                iterations,
                block: theta,
            });
        }
        if iterations >= MAX_ITERATIONS {
            return Err(ModesError::NotConverged { iterations });
        }
        previous = theta;
    }
}
