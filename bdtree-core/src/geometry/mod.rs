//! Geometry of rigid poses and triangles: [`pose`] (unit quaternion and translation), closest
//! features ([`closest`]), the exact leaf test with its rounding margin ([`triangle`]), and what
//! two triangles are to each other — a contact's point, normal and depth, a separation
//! ([`triangle_pair`]), and the depth's features and derivative ([`penetration`]). Plain
//! arithmetic over the scalars; nothing here knows a tree.

pub mod closest;
pub mod penetration;
pub mod pose;
pub mod triangle;
pub mod triangle_pair;
#[cfg(test)]
mod triangle_pair_witness;
