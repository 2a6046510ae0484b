//! The reduced model: rest vertices, basis rows and triangles, as slices a device can keep in
//! flash — as scalars, or quantized to 16 bits (see [`crate::image`]).

use crate::scalar::Scalar;

/// A reduced deformable mesh: vertex i is at `p_i + U_i q` in the body frame.
#[derive(Debug, Clone, Copy)]
pub struct Model<'a, S: Scalar> {
    storage: Storage<'a, S>,
    vertices: usize,
    triangles: &'a [[u32; 3]],
    modes: usize,
}

/// How the vertices and the basis are stored.
#[derive(Debug, Clone, Copy)]
enum Storage<'a, S: Scalar> {
    Float {
        positions: &'a [[S; 3]],
        basis: &'a [S],
    },
    /// `p = k · scale + offset` per coordinate, `U_ij = k · s_j`, codes `i16`, arithmetic in
    /// `S` (f32 images only, so these are f32 operations the builder reproduces bit for bit).
    Q16 {
        positions: &'a [[i16; 3]],
        basis: &'a [i16],
        /// `[offset_x, offset_y, offset_z, scale]`.
        frame: [f32; 4],
        /// `s_j` per mode.
        mode_scales: &'a [f32],
        /// `e_p`, then `e_j` per mode: the largest per-coordinate deviation of the stored
        /// positions and basis entries from the model the image was made from.
        errors: &'a [f32],
    },
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
            storage: Storage::Float { positions, basis },
            vertices: positions.len(),
            triangles,
            modes,
        })
    }

    /// A model with 16-bit positions and basis (validated by the image loader: lengths, faces,
    /// finite scales and errors). `None` if the lengths disagree.
    pub(crate) fn quantized(
        positions: &'a [[i16; 3]],
        basis: &'a [i16],
        scales: &'a [f32],
        triangles: &'a [[u32; 3]],
        modes: usize,
    ) -> Option<Self> {
        // scales: offset xyz, position scale, s_j (M), e_p, e_j (M).
        let frame: [f32; 4] = scales.get(..4)?.try_into().ok()?;
        let mode_scales = scales.get(4..4 + modes)?;
        let errors = scales.get(4 + modes..)?;
        let ok = errors.len() == modes + 1
            && basis.len() == positions.len().checked_mul(3)?.checked_mul(modes)?
            && !triangles.is_empty();
        ok.then_some(Self {
            storage: Storage::Q16 {
                positions,
                basis,
                frame,
                mode_scales,
                errors,
            },
            vertices: positions.len(),
            triangles,
            modes,
        })
    }

    /// Whether positions and basis are stored as 16-bit codes.
    #[inline]
    pub fn is_quantized(&self) -> bool {
        matches!(self.storage, Storage::Q16 { .. })
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.vertices
    }

    /// The rest position of vertex `i`, in any storage.
    #[inline]
    pub fn position(&self, i: usize) -> Option<[S; 3]> {
        match self.storage {
            Storage::Float { positions, .. } => positions.get(i).copied(),
            Storage::Q16 {
                positions, frame, ..
            } => {
                let [kx, ky, kz] = *positions.get(i)?;
                let [fx, fy, fz, scale] = frame;
                let scale = S::from_f32(scale);
                // Destructured, not indexed in a closure: no bounds check survives at opt-level
                // `s` (the panic check links this at `s` too).
                let at = |k: i16, f: f32| S::from_i32(i32::from(k)) * scale + S::from_f32(f);
                Some([at(kx, fx), at(ky, fy), at(kz, fz)])
            }
        }
    }

    /// Basis entry `U[3i + axis][j]`, in any storage.
    #[inline]
    pub fn basis_entry(&self, i: usize, axis: usize, j: usize) -> Option<S> {
        if axis >= 3 || j >= self.modes {
            return None;
        }
        let at = i
            .checked_mul(3)?
            .checked_add(axis)?
            .checked_mul(self.modes)?
            .checked_add(j)?;
        match self.storage {
            Storage::Float { basis, .. } => basis.get(at).copied(),
            Storage::Q16 {
                basis, mode_scales, ..
            } => Some(S::from_i32(i32::from(*basis.get(at)?)) * S::from_f32(*mode_scales.get(j)?)),
        }
    }

    /// The largest per-coordinate deviation of the stored vertex `p_i + U_i q` from the model the
    /// image was made from: `e_p + Σ_j e_j |q_j|` for a quantized model (computed in `S`; the
    /// caller adds margin), 0 for scalars.
    #[inline]
    pub fn storage_error(&self, q: impl IntoIterator<Item = S>) -> S {
        match self.storage {
            Storage::Float { .. } => S::ZERO,
            Storage::Q16 { errors, .. } => {
                let mut e = errors.first().map_or(S::ZERO, |&x| S::from_f32(x));
                for (&ej, qj) in errors.get(1..).unwrap_or(&[]).iter().zip(q) {
                    e = e + S::from_f32(ej) * qj.abs();
                }
                e
            }
        }
    }

    /// A model without a mesh (what a bounded-depth image carries): no vertices, no
    /// triangles; every vertex lookup is `None`.
    pub const fn empty(modes: usize) -> Self {
        Self {
            storage: Storage::Float {
                positions: &[],
                basis: &[],
            },
            vertices: 0,
            triangles: &[],
            modes,
        }
    }

    /// Modes `M`.
    #[inline]
    pub fn modes(&self) -> usize {
        self.modes
    }

    /// Rest positions as stored scalars; **empty for a quantized model** (use
    /// [`Model::vertex_count`] and [`Model::position`], which read both).
    #[inline]
    pub fn positions(&self) -> &'a [[S; 3]] {
        match self.storage {
            Storage::Float { positions, .. } => positions,
            Storage::Q16 { .. } => &[],
        }
    }

    /// The basis, `3v × M` row-major, as stored scalars; **empty for a quantized model** (use
    /// [`Model::basis_entry`]).
    #[inline]
    pub fn basis(&self) -> &'a [S] {
        match self.storage {
            Storage::Float { basis, .. } => basis,
            Storage::Q16 { .. } => &[],
        }
    }

    /// Triangles (vertex indices, all checked).
    #[inline]
    pub fn triangles(&self) -> &'a [[u32; 3]] {
        self.triangles
    }

    /// The deformed body-frame position `p_i + U_i q` of vertex i computed in f64 from the stored
    /// values (each exact in f64; a quantized entry `k · s` too, as a product of a 16-bit and a
    /// 24-bit significand): what [`crate::refine()`] re-tests f32 answers on. `3M` multiply-adds.
    /// `None` if `i` is out of range or `q` has the wrong length.
    pub fn deformed_f64(&self, i: usize, q: &[S]) -> Option<[f64; 3]> {
        if q.len() != self.modes {
            return None;
        }
        let m = self.modes;
        let start = i.checked_mul(3 * m)?;
        match self.storage {
            Storage::Float { positions, basis } => {
                let mut out = positions.get(i)?.map(S::to_f64);
                let rows = basis.get(start..start.checked_add(3 * m)?)?;
                for (k, o) in out.iter_mut().enumerate() {
                    let row = rows.get(k * m..(k + 1) * m)?;
                    for (&u, &qj) in row.iter().zip(q) {
                        *o += u.to_f64() * qj.to_f64();
                    }
                }
                Some(out)
            }
            Storage::Q16 {
                positions,
                basis,
                frame,
                mode_scales,
                ..
            } => {
                let [kx, ky, kz] = *positions.get(i)?;
                let [fx, fy, fz, scale] = frame.map(f64::from);
                let at = |k: i16, f: f64| f64::from(k) * scale + f;
                let mut out = [at(kx, fx), at(ky, fy), at(kz, fz)];
                let rows = basis.get(start..start.checked_add(3 * m)?)?;
                for (k, o) in out.iter_mut().enumerate() {
                    let row = rows.get(k * m..(k + 1) * m)?;
                    for ((&u, &qj), &s) in row.iter().zip(q).zip(mode_scales) {
                        *o += f64::from(u) * f64::from(s) * qj.to_f64();
                    }
                }
                Some(out)
            }
        }
    }

    /// The deformed body-frame position `p_i + U_i q` of vertex i: `3M` multiply-adds.
    /// `None` if `i` is out of range or `q` has the wrong length.
    #[inline]
    pub fn deformed(&self, i: usize, q: &[S]) -> Option<[S; 3]> {
        if q.len() != self.modes {
            return None;
        }
        let m = self.modes;
        let start = i.checked_mul(3 * m)?;
        match self.storage {
            Storage::Float { positions, basis } => {
                let [mut x, mut y, mut z] = *positions.get(i)?;
                let rows = basis.get(start..start.checked_add(3 * m)?)?;
                let (ux, rest) = rows.split_at_checked(m)?;
                let (uy, uz) = rest.split_at_checked(m)?;
                // The three coordinates in one pass, each summed in mode order.
                for (((&a, &b), &c), &qj) in ux.iter().zip(uy).zip(uz).zip(q) {
                    x = x + a * qj;
                    y = y + b * qj;
                    z = z + c * qj;
                }
                Some([x, y, z])
            }
            Storage::Q16 {
                basis, mode_scales, ..
            } => {
                let mut out = self.position(i)?;
                let rows = basis.get(start..start.checked_add(3 * m)?)?;
                for (k, o) in out.iter_mut().enumerate() {
                    let row = rows.get(k * m..(k + 1) * m)?;
                    for ((&u, &qj), &s) in row.iter().zip(q).zip(mode_scales) {
                        *o = *o + S::from_i32(i32::from(u)) * S::from_f32(s) * qj;
                    }
                }
                Some(out)
            }
        }
    }
}
