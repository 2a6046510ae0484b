//! One error type for a caller that wants one: [`Error`] holds any of the kernel's errors, each
//! of which converts into it with `?` (`From`). The specific types stay the functions' return
//! types, so a caller that matches on a variant loses nothing.

use core::fmt;

use crate::body::BodyError;
use crate::geometry::pose::PoseError;
use crate::image::model::ModelError;
use crate::image::ImageError;
use crate::query::boxes::BoxTableError;
use crate::query::primitives::PrimitiveError;

/// Any error of the kernel: the image ([`ImageError`], [`ModelError`]), a body or its state
/// ([`BodyError`], [`PoseError`]), a primitive ([`PrimitiveError`]), a box table
/// ([`BoxTableError`]). Displays as the error it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Error {
    /// An image failed validation ([`crate::Image::parse`]).
    Image(ImageError),
    /// A model view failed validation.
    Model(ModelError),
    /// A body could not be made or given a state ([`crate::Body`]).
    Body(BodyError),
    /// A pose was refused ([`crate::Pose`]).
    Pose(PoseError),
    /// A primitive was refused ([`crate::Primitive`]).
    Primitive(PrimitiveError),
    /// A box table was refused ([`BoxTableError`]).
    BoxTable(BoxTableError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Image(e) => e.fmt(f),
            Error::Model(e) => e.fmt(f),
            Error::Body(e) => e.fmt(f),
            Error::Pose(e) => e.fmt(f),
            Error::Primitive(e) => e.fmt(f),
            Error::BoxTable(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for Error {}

macro_rules! from {
    ($($variant:ident($ty:ty)),* $(,)?) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Self {
                Error::$variant(e)
            }
        }
    )*};
}

from!(
    Image(ImageError),
    Model(ModelError),
    Body(BodyError),
    Pose(PoseError),
    Primitive(PrimitiveError),
    BoxTable(BoxTableError),
);
