//! The host's input checks, once for every front end (Rust callers, the CLI's world, Python):
//! finite values and a unit quaternion, refused as [`HostError::NonFinite`] and
//! [`HostError::NotUnit`] with the argument, the entry and the value (a front end words them
//! its own way from these fields: Python's `translation[1] = NaN: every entry must be
//! finite`); a query's distance and a response's stiffness, refused as
//! [`HostError::Argument`]. The tests themselves are the library's one
//! ([`crate::io::pose::state_problem`], [`crate::io::pose::non_finite`],
//! [`crate::io::pose::off_unit`]), which a scene file's reader words with its own place.

use super::error::HostError;
use crate::io::pose::{non_finite, off_unit, state_problem, StateProblem};

/// A refused input, its message naming the argument and the value.
pub(crate) fn input(message: String) -> HostError {
    HostError::Input { message }
}

/// Every entry of the argument `name` finite.
pub fn finite(name: &'static str, values: &[f64]) -> Result<(), HostError> {
    match non_finite(values) {
        Some(index) => Err(HostError::NonFinite {
            argument: name,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}

/// A body's rotation: a unit quaternion `(w, x, y, z)` within
/// [`crate::io::pose::QUATERNION_NORM_TOLERANCE`] of unit length (never normalised silently).
pub fn rotation(rotation: [f64; 4]) -> Result<(), HostError> {
    match off_unit(rotation) {
        Some(norm) => Err(HostError::NotUnit { rotation, norm }),
        None => Ok(()),
    }
}

/// A body's state as [`super::Body::set_state`] takes it: every entry finite (`rotation`, then
/// `translation`, then `q`), then a unit quaternion. The number of coordinates and the range
/// of the tree's precision are the body's to check.
pub fn state(rotation: [f64; 4], translation: [f64; 3], q: &[f64]) -> Result<(), HostError> {
    match state_problem(rotation, translation, q) {
        Some(StateProblem::NonFinite {
            argument,
            index,
            value,
        }) => Err(HostError::NonFinite {
            argument,
            index,
            value,
        }),
        Some(StateProblem::NotUnit { norm }) => Err(HostError::NotUnit { rotation, norm }),
        None => Ok(()),
    }
}

/// A query's distance (`within`, `closer_than`): finite and at least 0.
pub(crate) fn distance(distance: f64) -> Result<(), HostError> {
    at_least_zero("distance", distance)
}

/// The stiffness of a penalty response: finite and at least 0.
pub(crate) fn stiffness(stiffness: f64) -> Result<(), HostError> {
    at_least_zero("stiffness", stiffness)
}

fn at_least_zero(name: &'static str, value: f64) -> Result<(), HostError> {
    if value.is_finite() && value >= 0.0 {
        return Ok(());
    }
    Err(HostError::Argument {
        name,
        message: format!("{value} must be finite and at least 0"),
    })
}

/// A size argument (a radius): finite and `≥ 0`.
pub(crate) fn radius(name: &str, value: f64) -> Result<(), HostError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(input(format!(
            "{name} = {value}: expected a finite radius ≥ 0"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusals and their Rust messages (Python words them from the fields).
    #[test]
    fn refusals_name_the_argument_and_the_value() {
        let cases: [(Result<(), HostError>, &str); 4] = [
            (
                state([1.0, 0.0, 0.0, 0.0], [0.0, f64::NAN, 0.0], &[]),
                "translation: translation[1] = NaN is not finite",
            ),
            (
                state([1.0 + 2e-6, 0.0, 0.0, 0.0], [0.0; 3], &[]),
                "rotation: quaternion (w, x, y, z) = (1.000002, 0, 0, 0) has norm 1.000002; \
                 rotations must be unit quaternions (|norm − 1| ≤ 1e-6)",
            ),
            (
                state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0, f64::INFINITY]),
                "q: q[1] = inf is not finite",
            ),
            (
                radius("radius", -1.0),
                "radius = -1: expected a finite radius ≥ 0",
            ),
        ];
        for (got, expected) in cases {
            assert_eq!(got.map_err(|e| e.to_string()), Err(expected.to_string()));
        }
        assert_eq!(
            state([1.0 + 5e-7, 0.0, 0.0, 0.0], [1e300; 3], &[1.0]),
            Ok(())
        );
    }
}
