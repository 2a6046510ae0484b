//! The **contact Jacobian**: the derivative of a contact's depth with respect to each body's
//! reduced coordinates, `∂depth/∂q_a` and `∂depth/∂q_b`.
//!
//! A contact's depth ([`super::contacts()`]) is the least penetration of its two triangles
//! ([`bdtree_core::geometry::penetration`]): `depth = n · (a_k − b_l)` on the winning axis,
//! with the normal `n` a function of the triangles' edges and `a_k`, `b_l` their extreme
//! vertices along it. Body a's vertex `v` is `R_a (p_v + U_v q_a) + t_a`, so
//!
//! ```text
//! ∂depth/∂q_a = Σ_v g_vᵀ R_a U_v        (g_v = ∂depth/∂x_v, v over a's triangle)
//! ```
//!
//! and likewise for b — the normal moving with the features that define it, not held fixed
//! (a contact point's motion along a fixed normal, `nᵀ R Σ w_v U_v`, is a different quantity:
//! it misses the normal's turn and uses a point where the depth's features are not).
//!
//! **Where it is the derivative**: where the reported depth is positive and its features
//! ([`PenetrationFeatures`]: axis, orientation, extreme vertices) stay the same in a
//! neighbourhood of the state. It is not at a **feature switch** (two axes, or two vertices,
//! tie: the depth has a kink there, and the row is the one-sided derivative of the features
//! reported), nor at **depth 0** (a contact that touches only within rounding, whose depth is
//! clamped at 0: the row is the derivative of the unclamped overlap, which the clamp hides on
//! the separated side). Compare the features of nearby states to know which case holds.
//!
//! Computed in f64 on the stored model at the states as given (the triangles where f32
//! contacts are measured again), at the pair's floating origin. Cost per contact: the two
//! triangles deformed (`18 M` multiply-adds), about 150 for the gradient, `9 M` per body for
//! the rows.

use bdtree_core::geometry::penetration::{
    least_penetration, penetration_gradient, PenetrationFeatures,
};
use bdtree_core::{Body as KernelBody, Scalar};

use super::answer::Contact;
use super::body::{Body, Exact, OnTwo};
use super::error::HostError;
use super::placing::pair_origin;

/// A contact's depth derivative ([`contact_jacobians`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactJacobian {
    /// `∂depth/∂q_a`, one entry per mode of a: moving `q_a` by `δ` changes the depth by
    /// `a · δ` to first order (module docs: where that holds).
    pub a: Vec<f64>,
    /// `∂depth/∂q_b`, one entry per mode of b.
    pub b: Vec<f64>,
    /// The features the rows differentiate; `None` when the two triangles have no
    /// penetration axis (both of zero area: the rows are 0).
    pub features: Option<PenetrationFeatures>,
}

/// `Σ_v g_vᵀ R U_v`: a body's row from the world gradients `g` of its triangle's vertices.
fn row<S: Scalar>(
    body: &KernelBody<'_, '_, S>,
    exact: &Exact,
    face: [u32; 3],
    gradient: &[[f64; 3]; 3],
) -> Vec<f64> {
    let model = body.model();
    let r = exact.rotation();
    let mut out = vec![0.0; model.modes()];
    for (&v, g) in face.iter().zip(gradient) {
        // Rᵀ g: the gradient in the body's axes.
        let local: [f64; 3] =
            std::array::from_fn(|c| r[0][c] * g[0] + r[1][c] * g[1] + r[2][c] * g[2]);
        for (j, slot) in out.iter_mut().enumerate() {
            for (axis, l) in local.iter().enumerate() {
                let u = model
                    .basis_entry(v as usize, axis, j)
                    .map_or(0.0, S::to_f64);
                *slot += l * u;
            }
        }
    }
    out
}

struct Rows<'c> {
    exact: [Exact; 2],
    contacts: &'c [Contact],
}

impl OnTwo for Rows<'_> {
    type Out = Result<Vec<ContactJacobian>, HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let [ea, eb] = &self.exact;
        let mut out = Vec::with_capacity(self.contacts.len());
        for (i, c) in self.contacts.iter().enumerate() {
            let [t, u] = c.triangles;
            let missing = |which: &str, t: u32, count: usize| HostError::Argument {
                name: "contacts",
                message: format!(
                    "contacts[{i}] names triangle {t} of body {which}, which has {count} triangles"
                ),
            };
            let (faces_a, faces_b) = (a.model().triangles(), b.model().triangles());
            let (Some(&fa), Some(ta)) = (faces_a.get(t as usize), ea.triangle(a, t)) else {
                return Err(missing("a", t, faces_a.len()));
            };
            let (Some(&fb), Some(tb)) = (faces_b.get(u as usize), eb.triangle(b, u)) else {
                return Err(missing("b", u, faces_b.len()));
            };
            let found = least_penetration(&ta, &tb)
                .and_then(|p| penetration_gradient(&ta, &tb, &p.features).map(|g| (p.features, g)));
            out.push(match found {
                Some((features, (ga, gb))) => ContactJacobian {
                    a: row(a, ea, fa, &ga),
                    b: row(b, eb, fb, &gb),
                    features: Some(features),
                },
                None => ContactJacobian {
                    a: vec![0.0; a.model().modes()],
                    b: vec![0.0; b.model().modes()],
                    features: None,
                },
            });
        }
        Ok(out)
    }
}

/// The contact Jacobian of each of `contacts` (those [`super::contacts()`] gave for `a` and `b`
/// at their current states), in their order: `∂depth/∂q_a` and `∂depth/∂q_b` with the
/// features they differentiate (module docs: the definition, and where it is not the
/// derivative). A contact naming a triangle a body does not have is refused, naming it.
pub fn contact_jacobians(
    a: &mut Body,
    b: &mut Body,
    contacts: &[Contact],
) -> Result<Vec<ContactJacobian>, HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    Body::on_two(a, b, Rows { exact, contacts })?
}
