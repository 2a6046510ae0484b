//! A tree's box bounds, checked once against its spheres (see [`super`]'s module docs).

use crate::image::tree::TreeView;
use crate::scalar::Scalar;

/// Why a box table was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BoxTableError {
    /// The table does not hold `nodes × (M + 1)` rows.
    WrongLength {
        /// Rows expected.
        expected: usize,
        /// Rows given.
        actual: usize,
    },
    /// A value is not finite, negative, its fourth lane is not zero, or it exceeds the
    /// sphere's matching bound (`H_k ≤ R`, `ΔH_jk ≤ ΔR_j`).
    BadValue {
        /// The node.
        node: usize,
    },
}

impl core::fmt::Display for BoxTableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::WrongLength { expected, actual } => {
                write!(f, "box table has {actual} rows, the tree needs {expected}")
            }
            Self::BadValue { node } => write!(f, "box table node {node} has an invalid bound"),
        }
    }
}

impl core::error::Error for BoxTableError {}

/// Validated box bounds of a tree (see the module docs), borrowed.
#[derive(Debug, Clone, Copy)]
pub struct BoxTable<'a, S: Scalar> {
    rows: &'a [[S; 4]],
    modes: usize,
}

impl<'a, S: Scalar> BoxTable<'a, S> {
    /// Checks `rows` against `tree`: length, finiteness, signs, and `H ≤ R`, `ΔH_j ≤ ΔR_j` per
    /// node (what makes the sphere's rounding bound cover the boxes).
    pub fn new(rows: &'a [[S; 4]], tree: &TreeView<'_, S>) -> Result<Self, BoxTableError> {
        let m = tree.modes();
        let expected = tree.node_count().saturating_mul(m + 1);
        if rows.len() != expected {
            return Err(BoxTableError::WrongLength {
                expected,
                actual: rows.len(),
            });
        }
        for node in 0..tree.node_count() {
            let bad = BoxTableError::BadValue { node };
            let start = node * (m + 1);
            let Some(boxes) = rows.get(start..start + m + 1) else {
                return Err(bad);
            };
            for (r, b) in boxes.iter().enumerate() {
                let Some(s) = tree.row(node, r) else {
                    return Err(bad);
                };
                let ok = b[3] == S::ZERO
                    && b[..3]
                        .iter()
                        .all(|&h| h.is_finite() && h >= S::ZERO && h <= s[3]);
                if !ok {
                    return Err(bad);
                }
            }
        }
        Ok(Self { rows, modes: m })
    }

    /// A node's rows.
    pub fn record(&self, node: usize) -> Option<&'a [[S; 4]]> {
        let stride = self.modes + 1;
        let start = node.checked_mul(stride)?;
        self.rows.get(start..start.checked_add(stride)?)
    }
}
