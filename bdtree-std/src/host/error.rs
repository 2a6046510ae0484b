//! [`HostError`]: why a host call failed, naming the argument and its value.

use bdtree_core::QueryStatus;

/// The fraction of a body's size its rounding bound may reach before a state is refused as
/// [`HostError::Imprecise`] (see [`super::Body::set_state`]).
pub const IMPRECISE_FRACTION: f64 = 1.0 / 16.0;
/// [`IMPRECISE_FRACTION`] as the messages print it.
const IMPRECISE_TEXT: &str = "1/16";

/// Why a call of the host layer failed. Messages name the argument (as the Rust API spells
/// it: `rotation`, `translation`, `q`, `distance`, …) and the value; front ends add their own
/// context (a frame, a body's name) around them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HostError {
    /// A tree image is not valid (its parser's sentence, with the file when there is one).
    Image {
        /// The problem.
        message: String,
    },
    /// A tree could not be built (the builder's sentence).
    Build {
        /// The problem.
        message: String,
    },
    /// The kernel refused a body over a valid image (a bug: host storage is sized from it).
    Body {
        /// The problem.
        message: String,
    },
    /// A state argument is refused: `argument` is `rotation`, `translation` or `q`.
    State {
        /// The argument.
        argument: &'static str,
        /// What is wrong, with the value.
        message: String,
    },
    /// A state entry is not finite ([`super::check::finite`]).
    NonFinite {
        /// The argument (`rotation`, `translation`, `q`, a primitive's point).
        argument: &'static str,
        /// The entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// A rotation is not a unit quaternion within
    /// [`crate::io::pose::QUATERNION_NORM_TOLERANCE`] ([`super::check::rotation`]).
    NotUnit {
        /// The quaternion `(w, x, y, z)`.
        rotation: [f64; 4],
        /// Its norm.
        norm: f64,
    },
    /// A primitive's argument is refused by its host constructor
    /// ([`super::Primitive::plane`], …): the message names the argument and its value,
    /// `name = value: problem`.
    Input {
        /// The argument, its value and what is wrong.
        message: String,
    },
    /// The state is valid but makes the body's answers useless in its precision: its rounding
    /// bound at its own origin exceeds [`super::IMPRECISE_FRACTION`] of its size (see
    /// [`super::Body::set_state`]).
    Imprecise {
        /// The largest `|q_j|`, and its index.
        q: (usize, f64),
        /// The body's per-coordinate rounding bound at that state.
        bound: f64,
        /// The body's size (its root's rest radius).
        size: f64,
        /// "f32" or "f64".
        precision: &'static str,
    },
    /// Two bodies of one query have different precisions (the kernel compares bodies of one).
    MixedPrecision,
    /// A swept query's two states of one object are over different trees.
    DifferentTrees,
    /// A proxy query on a tree built without `nested` (`which`: "a" or "b").
    NotNested {
        /// The body.
        which: &'static str,
    },
    /// An argument is out of its range.
    Argument {
        /// The argument.
        name: &'static str,
        /// What is wrong, with the value.
        message: String,
    },
    /// A primitive is refused by the kernel (e.g. a zero normal or a negative radius).
    Primitive {
        /// The problem.
        message: String,
    },
    /// A query ended without its whole answer (a bug: the host sizes every stack and sink).
    Incomplete {
        /// The query.
        query: &'static str,
        /// How it ended.
        status: QueryStatus,
    },
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Image { message }
            | Self::Build { message }
            | Self::Body { message }
            | Self::Input { message } => f.write_str(message),
            Self::State { argument, message } => write!(f, "{argument}: {message}"),
            Self::NonFinite {
                argument,
                index,
                value,
            } => write!(f, "{argument}: {argument}[{index}] = {value} is not finite"),
            Self::NotUnit { rotation, .. } => write!(
                f,
                "rotation: {}",
                crate::io::pose::quaternion_problem(*rotation).unwrap_or_default()
            ),
            Self::Imprecise {
                q: (j, value),
                bound,
                size,
                precision,
            } => write!(
                f,
                "q: q[{j}] = {value:e} makes this {precision} body's rounding bound {bound:.3e}, \
                 more than {} of its size (radius {size:.3e}): its {precision} answers would \
                 say nothing (every node pair overlaps); give a smaller q or use an f64 tree",
                IMPRECISE_TEXT
            ),
            Self::MixedPrecision => write!(
                f,
                "the bodies' trees have different precisions (f32 and f64): build them in one"
            ),
            Self::DifferentTrees => write!(
                f,
                "an object's two states (before and now) must be bodies over the same tree"
            ),
            Self::NotNested { which } => write!(
                f,
                "body {which}: its tree was built without `nested`, which proxy queries need"
            ),
            Self::Argument { name, message } => write!(f, "{name}: {message}"),
            Self::Primitive { message } => write!(f, "primitive: {message}"),
            Self::Incomplete { query, status } => {
                write!(f, "the {query} query did not complete: {status:?}")
            }
        }
    }
}

impl std::error::Error for HostError {}
