//! Contact proxies **in the pair's relative frame**: each body stays at its own floating origin
//! (its translation, where [`Body::set_state`] leaves it) and the kernel's proxy walk sees b's
//! spheres from a's frame, moved by the offset between the two origins and grown by its
//! rounding ([`bdtree_core::collide_proxies_apart`]). Proxies are spheres only — no triangle
//! is tested — so nothing needs a common origin: the pair is never placed, its spheres are the
//! ones the body's broad phase, self pairs and primitives at its own origin computed already,
//! and a body in several pairs computes each sphere once per state.
//!
//! Every computed sphere holds its node's geometry at the state as given (its rounding to the
//! tree's precision included) and the walk's slack covers the offset's rounding, so a proxy
//! pair whose geometry touches is reported, at the precision a common origin between the two
//! bodies would give ([`super::placing`]). The answer's spheres are each body's own, moved to
//! the world in f64, and its depths are measured on them in f64.

use bdtree_core::{
    collide_proxies_apart, proxy_stack_capacity, Body as KernelBody, ProxyPair, Scalar,
};

use super::answer::{world_sphere, Answer, Proxy};
use super::body::{Body, OnTwo};
use super::error::HostError;
use super::placing::self_origin;
use super::stack::{complete, Stack};

/// The walk of the module docs on two kernel bodies each at its own origin.
struct RelativeProxies {
    origins: [[f64; 3]; 2],
    depths: [u32; 2],
}

impl OnTwo for RelativeProxies {
    type Out = Result<Answer<Proxy>, HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let RelativeProxies {
            origins: [oa, ob],
            depths: [la, lb],
        } = self;
        let capacity = proxy_stack_capacity(a.tree().depth(), la, b.tree().depth(), lb);
        let mut stack = Stack::take(capacity);
        let offset = std::array::from_fn(|k| ob[k] - oa[k]);
        let mut found: Vec<[u32; 2]> = Vec::new();
        let outcome =
            collide_proxies_apart(a, b, la, lb, offset, &mut stack, &mut |p: ProxyPair<S>| {
                found.push([p.a, p.b]);
                true
            });
        complete("collide_proxies_apart", &outcome)?;
        let mut items = Vec::with_capacity(found.len());
        for nodes in found {
            // Each body's own sphere (cached by the walk), moved to the world in f64.
            let (Some(sa), Some(sb)) = (a.sphere(nodes[0] as usize), b.sphere(nodes[1] as usize))
            else {
                return Err(HostError::Body {
                    message: format!("proxy nodes {nodes:?} have no sphere"),
                });
            };
            let spheres = [world_sphere(sa, oa), world_sphere(sb, ob)];
            let d: [f64; 3] =
                std::array::from_fn(|k| (sb[k].to_f64() - sa[k].to_f64()) + (ob[k] - oa[k]));
            let gap = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            items.push(Proxy {
                nodes,
                spheres,
                depth: spheres[0][3] + spheres[1][3] - gap,
            });
        }
        items.sort_by_key(|p| p.nodes);
        Ok(Answer {
            items,
            stats: outcome.stats,
        })
    }
}

/// The overlapping contact proxies of `a` (depth `depth_a`) and `b` (`depth_b`), each body at
/// its own origin (module docs). The trees must be nested (the kernel says so otherwise).
pub(crate) fn proxies(
    a: &mut Body,
    depth_a: u32,
    b: &mut Body,
    depth_b: u32,
) -> Result<Answer<Proxy>, HostError> {
    let (oa, ob) = (self_origin(a), self_origin(b));
    a.place(oa)?;
    b.place(ob)?;
    let walk = RelativeProxies {
        origins: [oa, ob],
        depths: [depth_a, depth_b],
    };
    Body::on_two(a, b, walk)?
}
