//! The queries on one, two or four [`Body`](crate::host::Body)s, one file per query family,
//! named as the kernel's ([`bdtree_core::query`]): each places its bodies at the floating
//! origin of the placing rule ([`crate::host::placing`]), asks the kernel, refines an f32
//! answer in f64, moves it to world coordinates and sorts it. Every query takes its bodies
//! first, then its parameters, and returns an [`Answer`] (its items and the kernel's counters)
//! or a [`HostError`](crate::host::HostError).
//!
//! | module | queries | the kernel's |
//! |---|---|---|
//! | [`triangles`] | [`pairs`] | [`bdtree_core::collide`] |
//! | [`contacts`](mod@contacts) | [`contacts()`], [`contact_forces`], [`within`] | [`bdtree_core::collide_contacts`], [`bdtree_core::within`] |
//! | [`proxies`](mod@proxies) | [`proxies()`], [`proxy_forces`] | [`bdtree_core::collide_proxies`] |
//! | [`boxes`] | [`pairs_with`] | [`bdtree_core::query::boxes::collide_boxes`] |
//! | [`separation`] | [`distance`], [`closer_than`] | [`bdtree_core::nearest`], [`bdtree_core::closer_than`] |
//! | [`primitives`] | [`primitive_contacts`], [`primitive_proxies`] | [`bdtree_core::collide_primitive`], [`bdtree_core::collide_primitive_proxies`] |
//! | [`self_collision`] | [`self_pairs`] | [`bdtree_core::collide_self_lazy`] |
//! | [`swept`](mod@swept) ([`swept::front`]) | [`swept()`], [`swept_front`] | [`bdtree_core::collide_swept`], [`bdtree_core::collide_swept_front`] |
//! | `traversal` | [`Interruptible`] | [`bdtree_core::Traversal`] |

pub mod boxes;
pub mod contacts;
pub mod primitives;
pub mod proxies;
pub mod self_collision;
pub mod separation;
pub mod swept;
mod traversal;
pub mod triangles;

pub use super::answer::{Answer, Contact, Near, Nearest, PrimitiveProxy, Proxy, Swept, Wrench};
pub use super::response::force_at_node;
pub use boxes::{pairs_with, PairBound};
pub use contacts::{contact_forces, contacts, within};
pub use primitives::{primitive_contacts, primitive_proxies};
pub use proxies::{proxies, proxy_forces};
pub use self_collision::self_pairs;
pub use separation::{closer_than, distance, Closer};
pub use swept::front::{swept_front, Front, Fronts};
pub use swept::swept;
pub use traversal::{Budget, Cover, Interruptible, Order, Progress, RunStatus};
pub use triangles::pairs;

pub(crate) use proxies::{check_nested, proxy_wrenches};
