//! One scene frame's geometry, ready to draw or export: every body's deformed mesh, its
//! intersecting triangle pairs, the overlapping contact proxies, its spheres at a tree level and
//! a point of each pair's intersection ([`contact_point`]). The scene runner fills it from a
//! scene ([`crate::runner::frame_geometry`]); Python from its bodies.
//!
//! A contact point is a point of the intersection of the two triangles, the kernel's
//! [`bdtree_core::geometry::closest::intersection_point`] in f64: the mean of the points where an
//! edge of one crosses the other (the midpoint of the intersection segment for a transversal
//! pair), or the midpoint of the two nearest points when no edge crosses (coplanar or touching
//! pairs).

/// One contact: body indices (a < b, or a == b for a self-contact, then ta < tb) and triangle
/// indices (face order of each mesh).
pub type Contact = (usize, usize, u32, u32);

/// An overlapping pair of contact proxies (see [`bdtree_core::query::proxies`]), widened to f64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProxyContact {
    /// Body indices, `a < b`.
    pub bodies: (usize, usize),
    /// The proxy node of each body.
    pub nodes: (u32, u32),
    /// The two world spheres `[x, y, z, r]`, in the mesh's units.
    pub spheres: [[f64; 4]; 2],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖` (positive when overlapping).
    pub depth: f64,
}

/// One body of a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyGeometry {
    /// The body's name in the scene.
    pub name: String,
    /// Deformed world vertices (f64).
    pub vertices: Vec<[f64; 3]>,
    /// The mesh's triangles.
    pub triangles: Vec<[u32; 3]>,
    /// The triangles in at least one intersecting pair, sorted, each once.
    pub contact_triangles: Vec<u32>,
    /// Of those, the triangles in self-contacts only (no pair with another body), sorted.
    pub self_contact_triangles: Vec<u32>,
    /// With a sphere level (`bdtree export --spheres`): the world spheres `[x, y, z, r]` of the cut, each with
    /// its growth `r(q) / r_rest`.
    pub spheres: Vec<([f64; 4], f64)>,
}

/// One frame of a scene, ready to draw or export.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameGeometry {
    /// The bodies, in scene order.
    pub bodies: Vec<BodyGeometry>,
    /// The intersecting triangle pairs (kernel, f64), sorted.
    pub pairs: Vec<Contact>,
    /// With proxies asked for (`bdtree export --proxies`): the overlapping proxy pairs.
    pub proxies: Vec<ProxyContact>,
    /// One point of each pair's intersection, in the order of `pairs`.
    pub contact_points: Vec<[f64; 3]>,
}

/// A point of the intersection of two intersecting triangles (see the module documentation).
pub fn contact_point(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [f64; 3] {
    let tolerance = bdtree_core::geometry::triangle_pair::contact_tolerance(a, b, 0.0);
    bdtree_core::geometry::closest::intersection_point(a, b, tolerance)
}
