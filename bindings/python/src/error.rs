//! Every Python error of the module: the one exception, `bdtree.Error` (a `ValueError`), the
//! form of a bad argument's message (`name = value: expected what`), and the Python words of
//! the host's refusals — an input, a query on named bodies, a world query, a world's bodies.
//! The checks are elsewhere (arguments in `args`, values in the host); the messages are here.

use bdtree_std::host::{self, HostError};
use bdtree_std::io::pose::QUATERNION_NORM_TOLERANCE;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::answers::precision_text;

pyo3::create_exception!(
    bdtree,
    Error,
    PyValueError,
    "An error of the library: a bad file (its path, place and problem), a bad argument (its \
     parameter and value), a bad state."
);

/// A `bdtree.Error` carrying `message`.
pub(crate) fn err(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

/// A short text of a Python value for messages: its `repr`, cut at 60 characters.
pub(crate) fn shown(x: &Bound<'_, PyAny>) -> String {
    let text = x
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The error of a bad argument: `name = value: expected what` (`what` says what it must be:
/// "a finite distance ≥ 0").
pub(crate) fn expected(name: &str, x: &Bound<'_, PyAny>, what: &str) -> PyErr {
    err(format!("{name} = {}: expected {what}", shown(x)))
}

/// The Python error of a host refusal of an input: a non-finite entry or a rotation off unit
/// length in Python's words (`translation[1] = NaN: every entry must be finite`,
/// `rotation = (w, x, y, z): a quaternion of norm …`), from the host's fields (the checks are
/// the host's, [`host::check`]); anything else as the host words it.
pub(crate) fn input_error(e: HostError) -> PyErr {
    match e {
        HostError::NonFinite {
            argument,
            index,
            value,
        } => err(format!(
            "{argument}[{index}] = {value}: every entry must be finite"
        )),
        HostError::NotUnit {
            rotation: [w, x, y, z],
            norm,
        } => err(format!(
            "rotation = ({w}, {x}, {y}, {z}): a quaternion of norm {norm}; rotations must be \
             unit quaternions (w, x, y, z) (| norm − 1 | ≤ {QUATERNION_NORM_TOLERANCE:e}, on \
             every surface)"
        )),
        e => err(e),
    }
}

/// The Python error of a state the host refused for `body` (`rotation`, `translation`, `q` as
/// given, every entry already read as a number): finite numbers, a unit quaternion and as many
/// coordinates as modes, refused for the translation or q, are beyond the range of the body's
/// precision; anything else is a bad input ([`input_error`]).
pub(crate) fn state_error(
    body: &host::Body,
    translation: &[f64; 3],
    q: &[f64],
    e: HostError,
) -> PyErr {
    match e {
        // The host checks `NonFinite` and `NotUnit` first.
        HostError::State { argument, .. }
            if argument != "rotation" && q.len() == body.tree().modes() =>
        {
            let precision = precision_text(body.precision());
            err(out_of_range(
                precision,
                largest(q),
                largest(translation),
                "",
                &e,
            ))
        }
        e => input_error(e),
    }
}

/// The largest `|x|` of a slice.
fn largest(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// The message of a state beyond what a body's precision can compute with (`place`: at its
/// own origin or a query's), with the largest `|q|` and `|t|` and the host's sentence.
fn out_of_range(precision: &str, q: f64, t: f64, place: &str, e: &HostError) -> String {
    format!(
        "state out of range for a {precision} body{place} (|q| up to {q:e}, |t| up to {t:e}): \
         {e}"
    )
}

/// The refusal of bodies whose trees are built in different precisions: `names` (the
/// parameters), then what to do — "build both in one" or "build them in one".
pub(crate) fn mixed_precision(names: &str, whom: &str) -> PyErr {
    err(format!(
        "{names}: the bodies' trees have different precisions (f32 and f64): build {whom} in one"
    ))
}

/// The Python error of a host query on `bodies` (named by their parameters), called as
/// `what`. States were accepted when they were set, so a state refused during a query is out
/// of range at the query's floating origin; proxies need nested trees.
pub(crate) fn query_error(what: &str, bodies: &[(&str, &host::Body)], e: HostError) -> PyErr {
    let names = || {
        bodies
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match e {
        HostError::State { .. } => {
            let q = bodies
                .iter()
                .fold(0.0f64, |m, (_, b)| m.max(largest(&b.state().q)));
            let t = bodies
                .iter()
                .fold(0.0f64, |m, (_, b)| m.max(largest(&b.state().translation)));
            let precision = bodies
                .first()
                .map_or("f64", |(_, b)| precision_text(b.precision()));
            err(format!(
                "{what}: {}: {}",
                names(),
                out_of_range(precision, q, t, " at the query's floating origin", &e)
            ))
        }
        HostError::NotNested { .. } => err(format!(
            "{what}: proxy queries need trees built with nested=True (Tree.build(..., \
             nested=True)); at least one of these trees is not nested"
        )),
        HostError::MixedPrecision => mixed_precision(&format!("{what}: {}", names()), "them"),
        HostError::DifferentTrees => err(format!(
            "{what}: an object's bodies before and now must hold the same tree"
        )),
        e => err(format!("{what}: {e}")),
    }
}

/// The Python error of a world query: a state out of range names the body with the largest
/// coordinates (`bodies[i]`), other errors as the two-body functions give them.
pub(crate) fn world_error(what: &str, world: &host::World, e: HostError) -> PyErr {
    let size = |b: &host::Body| {
        let s = b.state();
        s.q.iter()
            .chain(&s.translation)
            .fold(0.0f64, |m, x| m.max(x.abs()))
    };
    let bodies = world.bodies();
    let largest = (0..bodies.len())
        .max_by(|&i, &j| size(&bodies[i]).total_cmp(&size(&bodies[j])))
        .unwrap_or(0);
    match bodies.get(largest) {
        Some(body) => query_error(what, &[(&format!("bodies[{largest}]"), body)], e),
        None => query_error(what, &[], e),
    }
}

/// The Python error of a world refused its bodies (`bdtree.World(bodies, ...)`).
pub(crate) fn world_bodies_error(e: HostError) -> PyErr {
    match e {
        HostError::MixedPrecision => mixed_precision("bodies", "them"),
        e => err(format!("bodies: {e}")),
    }
}
