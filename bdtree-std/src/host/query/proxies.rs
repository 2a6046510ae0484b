//! [`proxies`] (the overlapping contact proxies of two bodies, compared in f64 in the pair's
//! relative frame, [`crate::host::relative`]) and [`proxy_forces`] (with their penalty wrenches)
//! — the host's counterpart of [`bdtree_core::query::proxies`].

use crate::host::answer::{Answer, Proxy, Wrench};
use crate::host::body::Body;
use crate::host::check;
use crate::host::error::HostError;
use crate::host::relative;
use crate::host::response::apply_forces;

pub(crate) fn check_nested(a: &Body, b: &Body) -> Result<(), HostError> {
    for (body, which) in [(a, "a"), (b, "b")] {
        if !body.tree().nested() {
            return Err(HostError::NotNested { which });
        }
    }
    Ok(())
}

/// The overlapping contact proxies of `a` and `b` — nodes at depth `depth_a` of a and
/// `depth_b` of b, or leaves above them — with their world spheres and penetration depths,
/// sorted by nodes. Each body stays at its own origin and the spheres are compared in f64
/// (the pair's relative frame: proxies are spheres only, see [`crate::host::relative`]), so a body
/// in many pairs computes each sphere once per state. The trees must be nested.
pub fn proxies(
    a: &mut Body,
    depth_a: u32,
    b: &mut Body,
    depth_b: u32,
) -> Result<Answer<Proxy>, HostError> {
    check_nested(a, b)?;
    relative::proxies(a, depth_a, b, depth_b)
}

/// [`proxies`] with the penalty forces of the proxy contacts ([`Proxy::penalty`]: `stiffness ·
/// depth` along the centre line, at the middle of the overlap, in f64; each body's share
/// applied at its proxy node through the node's `Ū`, [`bdtree_core::apply_at_node_mut`], at
/// the body's own origin). Returns the proxies and the two bodies' wrenches.
pub fn proxy_forces(
    a: &mut Body,
    depth_a: u32,
    b: &mut Body,
    depth_b: u32,
    stiffness: f64,
) -> Result<(Answer<Proxy>, [Wrench; 2]), HostError> {
    check::stiffness(stiffness)?;
    let answer = proxies(a, depth_a, b, depth_b)?;
    let wrenches = proxy_wrenches(a, b, &answer.items, stiffness)?;
    Ok((answer, wrenches))
}

/// The two bodies' wrenches of the penalty contacts of `proxies` (of `a` and `b`, in this
/// order), each body's forces applied at its own origin.
pub(crate) fn proxy_wrenches(
    a: &mut Body,
    b: &mut Body,
    proxies: &[Proxy],
    stiffness: f64,
) -> Result<[Wrench; 2], HostError> {
    let mut on_a = Vec::new();
    let mut on_b = Vec::new();
    for p in proxies {
        if let Some(c) = p.penalty(stiffness) {
            on_a.push((p.nodes[0] as usize, c.point, c.force.map(|x| -x)));
            on_b.push((p.nodes[1] as usize, c.point, c.force));
        }
    }
    Ok([apply_forces(a, &on_a)?, apply_forces(b, &on_b)?])
}
