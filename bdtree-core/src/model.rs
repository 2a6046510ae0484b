//! The reduced model: rest vertices, basis rows and triangles, as slices a device can keep in
//! flash.

use crate::scalar::Scalar;

/// A reduced deformable mesh: vertex i is at `p_i + U_i q` in the body frame.
#[derive(Debug, Clone, Copy)]
pub struct Model<'a, S: Scalar> {
    positions: &'a [[S; 3]],
    basis: &'a [S],
    triangles: &'a [[u32; 3]],
    modes: usize,
}

/// Why slices do not form a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ModelError {
    /// The basis does not have `3 · vertices · modes` entries.
    BasisLength {
        /// Entries expected.
        expected: usize,
        /// Entries given.
        actual: usize,
    },
    /// A triangle refers to a vertex that does not exist.
    BadFace {
        /// The triangle.
        triangle: usize,
    },
    /// No triangles.
    Empty,
}

impl core::fmt::Display for ModelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::BasisLength { expected, actual } => {
                write!(
                    f,
                    "basis has {actual} entries, expected 3 × vertices × modes = {expected}"
                )
            }
            Self::BadFace { triangle } => {
                write!(f, "triangle {triangle} refers to a missing vertex")
            }
            Self::Empty => write!(f, "model has no triangles"),
        }
    }
}

impl core::error::Error for ModelError {}

impl<'a, S: Scalar> Model<'a, S> {
    /// A model from rest positions, the basis (`3v × M`, row-major: the rows of vertex i are its
    /// x, y and z displacements, each `M` entries) and triangles. Checks lengths and indices.
    pub fn new(
        positions: &'a [[S; 3]],
        basis: &'a [S],
        triangles: &'a [[u32; 3]],
        modes: usize,
    ) -> Result<Self, ModelError> {
        let expected = positions.len().saturating_mul(3).saturating_mul(modes);
        if basis.len() != expected {
            return Err(ModelError::BasisLength {
                expected,
                actual: basis.len(),
            });
        }
        if triangles.is_empty() {
            return Err(ModelError::Empty);
        }
        for (triangle, face) in triangles.iter().enumerate() {
            if face.iter().any(|&v| v as usize >= positions.len()) {
                return Err(ModelError::BadFace { triangle });
            }
        }
        Ok(Self {
            positions,
            basis,
            triangles,
            modes,
        })
    }

    /// A model without a mesh (what a bounded-depth image carries): no vertices, no
    /// triangles; every vertex lookup is `None`.
    pub const fn empty(modes: usize) -> Self {
        Self {
            positions: &[],
            basis: &[],
            triangles: &[],
            modes,
        }
    }

    /// Modes `M`.
    #[inline]
    pub fn modes(&self) -> usize {
        self.modes
    }

    /// Rest positions.
    #[inline]
    pub fn positions(&self) -> &'a [[S; 3]] {
        self.positions
    }

    /// The basis, `3v × M` row-major.
    #[inline]
    pub fn basis(&self) -> &'a [S] {
        self.basis
    }

    /// Triangles (vertex indices, all checked).
    #[inline]
    pub fn triangles(&self) -> &'a [[u32; 3]] {
        self.triangles
    }

    /// The deformed body-frame position `p_i + U_i q` of vertex i: `3M` multiply-adds.
    /// `None` if `i` is out of range or `q` has the wrong length.
    #[inline]
    pub fn deformed(&self, i: usize, q: &[S]) -> Option<[S; 3]> {
        let p = *self.positions.get(i)?;
        if q.len() != self.modes {
            return None;
        }
        let m = self.modes;
        let start = i.checked_mul(3 * m)?;
        let rows = self.basis.get(start..start.checked_add(3 * m)?)?;
        let mut out = p;
        for (k, o) in out.iter_mut().enumerate() {
            let row = rows.get(k * m..(k + 1) * m)?;
            for (&u, &qj) in row.iter().zip(q) {
                *o = *o + u * qj;
            }
        }
        Some(out)
    }
}
