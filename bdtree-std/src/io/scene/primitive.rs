//! Rigid primitive bodies of scene files: a half-space (a floor), a sphere (a tool tip), a
//! capsule (a robot link) or a box, written in place of `mesh`:
//!
//! ```json
//! {"name": "floor", "plane": {"normal": [0, 0, 1], "offset": 0}}
//! {"name": "tool", "sphere": 0.02}
//! {"name": "link", "capsule": {"radius": 0.03, "half_length": 0.2}}
//! {"name": "table", "box": {"half_extents": [0.5, 0.3, 0.02]}}
//! ```
//!
//! A primitive body is posed like any body — every frame gives its `rotation` and
//! `translation` (no `q`: it is rigid) — and is defined in its own **local frame**, which the
//! pose places at `R x + t`:
//!
//! * **plane**: the solid half-space `n · x ≤ offset · |n|` below the plane through
//!   `offset · n / |n|` (`n` any non-zero length, pointing out of the solid): with the identity
//!   pose, the world's; posed, its normal turns with `R` and its plane moves with `t`;
//! * **sphere**: the ball of that radius centred at the local origin (at `t` in the world);
//! * **capsule**: the points within `radius` of the segment from `(0, 0, −h)` to `(0, 0, +h)`
//!   (`h = half_length`) along the local `z` axis;
//! * **box**: the box centred at the local origin with the local axes as its edges'
//!   directions, `|x_k| ≤ half_extents[k]`.
//!
//! Radii, half lengths and half extents must be finite and non-negative (zero gives a point, a
//! segment, a rectangle), the plane's normal finite and non-zero.

use serde::{Deserialize, Serialize};

use super::super::pose::Pose;

/// The shape of a rigid primitive body in its local frame (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PrimitiveShape {
    /// The half-space `normal · x ≤ offset · |normal|`.
    Plane {
        /// Outward normal (any non-zero length).
        normal: [f64; 3],
        /// Signed distance of the plane from the local origin along the unit normal.
        offset: f64,
    },
    /// A ball of this radius about the local origin.
    Sphere(f64),
    /// The points within `radius` of the local segment `(0, 0, ±half_length)`.
    Capsule {
        /// Radius.
        radius: f64,
        /// Half the axis length.
        half_length: f64,
    },
    /// The box `|x_k| ≤ half_extents[k]` in the local frame.
    Box {
        /// Half extents along the local x, y, z axes.
        half_extents: [f64; 3],
    },
}

/// The kinds, as the scene file spells them.
pub const PRIMITIVE_KINDS: [&str; 4] = ["plane", "sphere", "capsule", "box"];

impl PrimitiveShape {
    /// The key the scene file uses for this kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Plane { .. } => "plane",
            Self::Sphere(_) => "sphere",
            Self::Capsule { .. } => "capsule",
            Self::Box { .. } => "box",
        }
    }

    /// The first problem with the numbers, as `(field under the kind's key, message)`: a
    /// non-finite number, a negative size, a zero normal.
    pub fn problem(&self) -> Option<(String, String)> {
        let finite = |field: &str, values: &[f64]| {
            crate::io::pose::non_finite(values).map(|i| {
                let at = if values.len() == 1 {
                    field.to_string()
                } else {
                    format!("{field}[{i}]")
                };
                (at, format!("{} is not a finite number", values[i]))
            })
        };
        let size = |field: &str, what: &str, values: &[f64]| {
            finite(field, values).or_else(|| {
                values.iter().position(|v| *v < 0.0).map(|i| {
                    let at = if values.len() == 1 {
                        field.to_string()
                    } else {
                        format!("{field}[{i}]")
                    };
                    (at, format!("{what} {} is negative", values[i]))
                })
            })
        };
        match *self {
            Self::Plane { normal, offset } => finite("normal", &normal)
                .or_else(|| finite("offset", &[offset]))
                .or_else(|| {
                    (normal == [0.0; 3]).then(|| {
                        (
                            "normal".to_string(),
                            "the plane's normal is zero (it needs a direction)".to_string(),
                        )
                    })
                }),
            Self::Sphere(radius) => size("", "radius", &[radius]),
            Self::Capsule {
                radius,
                half_length,
            } => size("radius", "radius", &[radius])
                .or_else(|| size("half_length", "half length", &[half_length])),
            Self::Box { half_extents } => size("half_extents", "half extent", &half_extents),
        }
    }
}

/// A rigid primitive of a loaded scene.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenePrimitive {
    /// Its name from the scene file.
    pub name: String,
    /// Its index in the scene file's `bodies` (and in every frame's `bodies`).
    pub place: usize,
    /// Its shape in its local frame.
    pub shape: PrimitiveShape,
    /// Its pose in every frame.
    pub poses: Vec<Pose>,
}
