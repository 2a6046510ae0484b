//! What the queries answer: [`Answer`] and its items, in f64 world coordinates, and the
//! [`Wrench`] of generalized forces (sized at run time).

use bdtree_core::world::response::{penalty, Penalty};
use bdtree_core::{QueryStats, Scalar, WrenchMut};

/// A query's answer: its items, sorted, and the kernel's counters summed over its walks.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<T> {
    /// The items, sorted (by triangle pair, node pair or node).
    pub items: Vec<T>,
    /// The walks' counters.
    pub stats: QueryStats,
}

impl<T> Default for Answer<T> {
    fn default() -> Self {
        Answer {
            items: Vec::new(),
            stats: QueryStats::default(),
        }
    }
}

/// An intersecting triangle pair with its contact, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Triangle of the first body and of the second (for a primitive: 0).
    pub triangles: [u32; 2],
    /// A point of the intersection (world).
    pub point: [f64; 3],
    /// Unit normal of least penetration, from the first body's triangle to the second's.
    pub normal: [f64; 3],
    /// Penetration depth along the normal, never negative: moving the second triangle by
    /// `depth · normal` separates the pair (0 for a pair that touches only within the rounding
    /// bound).
    pub depth: f64,
}

/// A triangle pair closer than a query's distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    /// Triangle of the first body and of the second.
    pub triangles: [u32; 2],
    /// Their distance (0 when they intersect).
    pub distance: f64,
    /// The witness points on the first and the second triangle (world).
    pub points: [[f64; 3]; 2],
}

/// The nearest points of two bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    /// The distance (0 when the bodies intersect).
    pub distance: f64,
    /// Witness points on the first and the second body (world).
    pub points: [[f64; 3]; 2],
    /// Unit normal from the first body to the second (zero when intersecting).
    pub normal: [f64; 3],
    /// The witnesses' triangles.
    pub triangles: [u32; 2],
    /// Whether the two triangles intersect.
    pub intersecting: bool,
}

/// An overlapping pair of contact proxies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proxy {
    /// The proxy node of each body.
    pub nodes: [u32; 2],
    /// The two world spheres `[x, y, z, r]`.
    pub spheres: [[f64; 4]; 2],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖` (positive when overlapping; the normal is
    /// along `c_b − c_a`).
    pub depth: f64,
}

impl Proxy {
    /// The penalty contact of this pair with `stiffness` (force per length):
    /// [`bdtree_core::world::response::penalty`] on the two world spheres, in f64 — the point in the
    /// middle of the overlap, the unit normal from a's centre to b's, the depth, and the force
    /// `stiffness · depth · normal` on body b (a gets its negative). `None` when the spheres do
    /// not overlap or are concentric, where the response of [`super::proxy_forces`] gives no
    /// force either.
    pub fn penalty(&self, stiffness: f64) -> Option<Penalty<f64>> {
        penalty(self.spheres[0], self.spheres[1], stiffness)
    }
}

/// A contact proxy of a body reaching into a primitive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrimitiveProxy {
    /// The proxy node.
    pub node: u32,
    /// Its world sphere `[x, y, z, r]`.
    pub sphere: [f64; 4],
    /// How deep it reaches in (see [`bdtree_core::PrimitiveProxy`]).
    pub depth: f64,
}

/// A triangle pair that may touch during a motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Swept {
    /// Triangle of the first body and of the second.
    pub triangles: [u32; 2],
    /// A conservative earliest time of impact in `[0, 1]`: the pair cannot touch before it.
    pub time: f64,
}

/// Force, torque and generalized reduced force on one body, in f64, with as many reduced
/// entries as the body has modes (sized at run time). The torque is about the body's
/// translation, in world axes; a reduced entry is force × length per unit of `q`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wrench {
    /// Total world force.
    pub force: [f64; 3],
    /// Total world torque about the body's translation.
    pub torque: [f64; 3],
    /// Generalized force on the reduced coordinates (one entry per mode).
    pub q: Vec<f64>,
}

impl Wrench {
    /// No force, for a body of `modes` modes.
    pub fn zero(modes: usize) -> Wrench {
        Wrench {
            force: [0.0; 3],
            torque: [0.0; 3],
            q: vec![0.0; modes],
        }
    }

    /// Adds another wrench (of the same body).
    pub fn add(&mut self, other: &Wrench) {
        for (a, b) in self.force.iter_mut().zip(other.force) {
            *a += b;
        }
        for (a, b) in self.torque.iter_mut().zip(other.torque) {
            *a += b;
        }
        for (a, b) in self.q.iter_mut().zip(&other.q) {
            *a += b;
        }
    }
}

/// A wrench in a body's scalar, sized at run time, for the kernel's response functions.
pub(crate) struct ScalarWrench<S> {
    force: [S; 3],
    torque: [S; 3],
    q: Vec<S>,
}

impl<S: Scalar> ScalarWrench<S> {
    pub(crate) fn new(modes: usize) -> Self {
        Self {
            force: [S::ZERO; 3],
            torque: [S::ZERO; 3],
            q: vec![S::ZERO; modes],
        }
    }

    pub(crate) fn view(&mut self) -> WrenchMut<'_, S> {
        WrenchMut {
            force: &mut self.force,
            torque: &mut self.torque,
            q: &mut self.q,
        }
    }

    /// Widened to f64 (the torque in the kernel's frame is about the body's translation
    /// already: the arm `p − t` is the same at every origin).
    pub(crate) fn wide(&self) -> Wrench {
        Wrench {
            force: self.force.map(S::to_f64),
            torque: self.torque.map(S::to_f64),
            q: self.q.iter().map(|x| x.to_f64()).collect(),
        }
    }
}

/// `p + origin`.
pub(crate) fn world<S: Scalar>(p: [S; 3], origin: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| p[k].to_f64() + origin[k])
}

pub(crate) fn wide<S: Scalar, const N: usize>(v: [S; N]) -> [f64; N] {
    v.map(S::to_f64)
}

/// A sphere relative to `origin`, in the world.
pub(crate) fn world_sphere<S: Scalar>(s: [S; 4], origin: [f64; 3]) -> [f64; 4] {
    let c = world([s[0], s[1], s[2]], origin);
    [c[0], c[1], c[2], s[3].to_f64()]
}
