//! What queries hand back: one sink trait for every output, one fixed-capacity buffer, the
//! statuses queries end with and the work they count.
//!
//! Every query delivers what it finds — triangle pairs, proxy pairs, world contacts — to a
//! [`Sink`]. A sink that refuses an item hands it back, and the query ends with an explicit
//! status naming it (`OutputFull`): nothing is dropped silently. Sinks are
//!
//! * [`Buffer<T, N>`]: a fixed-capacity array (capacity in the type, no allocation);
//! * any `FnMut(T) -> bool` closure (`false` refuses the item);
//! * with the `heapless` feature, `heapless::Vec<T, N>` and the unsized `heapless::VecView<T>`
//!   (so callers need not be generic over `N`).

use crate::scalar::Scalar;

/// A pair of triangles, one of each body (indices into each model's triangles). `repr(C)`:
/// the C API hands the caller's pair buffers to [`crate::refine()`] in place.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TrianglePair {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
}

impl TrianglePair {
    /// The pair of triangle `a` of the first body and `b` of the second.
    pub(crate) const fn new(a: u32, b: u32) -> Self {
        TrianglePair { a, b }
    }
}

/// Where a query puts what it finds. `push` hands the item back when the sink is full; the
/// query then ends with an `OutputFull` status carrying it.
pub trait Sink<T> {
    /// Takes an item, or hands it back when full.
    fn push(&mut self, item: T) -> Result<(), T>;
}

/// Any `FnMut(T) -> bool` is a sink; returning `false` refuses the item.
impl<T: Copy, F: FnMut(T) -> bool> Sink<T> for F {
    #[inline]
    fn push(&mut self, item: T) -> Result<(), T> {
        if self(item) {
            Ok(())
        } else {
            Err(item)
        }
    }
}

/// A sink of triangle pairs (every [`Sink<TrianglePair>`] is one).
pub trait ContactSink: Sink<TrianglePair> {}
impl<X: Sink<TrianglePair> + ?Sized> ContactSink for X {}

/// A fixed-capacity buffer: `N` items in place, no allocation. Full, it refuses (hands back)
/// what it is given.
#[derive(Debug, Clone)]
pub struct Buffer<T, const N: usize> {
    items: [T; N],
    len: usize,
}

/// A fixed-capacity buffer of triangle pairs.
pub type ContactBuffer<const N: usize> = Buffer<TrianglePair, N>;

impl<T: Copy + Default, const N: usize> Default for Buffer<T, N> {
    fn default() -> Self {
        Self::filled(T::default())
    }
}

impl<T: Copy, const N: usize> Buffer<T, N> {
    /// An empty buffer whose unused slots hold `fill` (any value: it is never read).
    pub const fn filled(fill: T) -> Self {
        Self {
            items: [fill; N],
            len: 0,
        }
    }
}

impl<const N: usize> Buffer<TrianglePair, N> {
    /// An empty buffer of triangle pairs (usable in `const` and `static` initialisers).
    pub const fn new() -> Self {
        Self::filled(TrianglePair { a: 0, b: 0 })
    }
}

impl<T, const N: usize> Buffer<T, N> {
    /// The items held, in the order found.
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..self.len).unwrap_or(&[])
    }
    /// The items held, mutable (e.g. to sort them).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.items.get_mut(..self.len).unwrap_or(&mut [])
    }
    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Items held.
    pub fn len(&self) -> usize {
        self.len
    }
    /// No items held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The capacity `N`.
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<T, const N: usize> Sink<T> for Buffer<T, N> {
    #[inline]
    fn push(&mut self, item: T) -> Result<(), T> {
        let Some(slot) = self.items.get_mut(self.len) else {
            return Err(item);
        };
        *slot = item;
        self.len += 1;
        Ok(())
    }
}

/// `heapless::Vec<T, N>` and `heapless::VecView<T>` are sinks (feature `heapless`).
#[cfg(feature = "heapless")]
impl<T, S: heapless::vec::VecStorage<T> + ?Sized> Sink<T> for heapless::vec::VecInner<T, usize, S> {
    #[inline]
    fn push(&mut self, item: T) -> Result<(), T> {
        heapless::vec::VecInner::push(self, item)
    }
}

/// How a query ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum QueryStatus {
    /// Every intersecting pair was delivered to the sink.
    Complete,
    /// The sink refused `pair`; the pairs delivered before it are valid, and more may exist:
    /// treat the bodies as colliding.
    OutputFull {
        /// The first pair that did not fit.
        pair: TrianglePair,
    },
    /// The stack given is smaller than the query needs ([`crate::stack_capacity`] and
    /// siblings); nothing was done. Treat the bodies as possibly colliding.
    StackTooSmall {
        /// Entries required.
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// A proxy query was asked of a tree that is not nested (built without nesting): nothing
    /// was done. Rebuild the tree nested (see [`crate::query::proxies`]).
    NotNested,
    /// The proxy sink refused the pair of nodes `a`, `b`; the pairs delivered before it are
    /// valid, and more may exist: treat the bodies as colliding.
    ProxyOutputFull {
        /// The first body's proxy node of the refused pair.
        a: u32,
        /// The second body's proxy node.
        b: u32,
    },
    /// A world query was given more bodies than its sweep or root storage holds: nothing was
    /// done.
    TooManyBodies {
        /// Bodies given.
        bodies: usize,
    },
    /// A node index did not resolve (only possible with a tree and model from different
    /// images); the answer is incomplete: treat the bodies as possibly colliding.
    Inconsistent,
    /// A triangle query was asked of a bounded-depth tree ([`crate::TreeView::is_bounded`]),
    /// which stores no leaves below its depth and no mesh: nothing was done. Treat the bodies
    /// as possibly colliding, or ask a proxy query ([`crate::collide_proxies`]).
    Truncated,
    /// A section of the image the query reads where it uses it (a self query's `normals` or
    /// `spheres`, [`crate::image::self_tables::BadRow`]) is malformed: `section` names it and
    /// `index` its first bad place (a node's entry, or the node count plus a value's position
    /// in the rows). The answer is incomplete: treat the body as possibly colliding, and
    /// rebuild the image.
    BadSection {
        /// The section's name (as [`crate::image::SECTION_NAMES`]).
        section: &'static str,
        /// The first bad place in it.
        index: usize,
    },
}

impl QueryStatus {
    /// Whether the answer is the complete set of pairs. When `false`, the bodies must be treated
    /// as possibly colliding.
    pub fn is_complete(&self) -> bool {
        matches!(self, Self::Complete)
    }
}

/// Work counters of one query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QueryStats {
    /// Node pairs visited: pairs whose bounds overlap, each expanded into its children or, at
    /// two leaves, tested exactly (disjoint pairs are counted in `overlap_tests` only).
    pub nodes_visited: u32,
    /// Spheres updated (first visit of a node in this step; later visits hit the cache).
    pub sphere_updates: u32,
    /// Bound overlap tests (sphere–sphere, box–box, distance bounds).
    pub overlap_tests: u32,
    /// Triangle–triangle tests.
    pub triangle_tests: u32,
    /// Items delivered to the sink.
    pub pairs: u32,
}

impl QueryStats {
    /// Adds another query's counters (wrapping).
    pub fn add(&mut self, other: &QueryStats) {
        self.nodes_visited = self.nodes_visited.wrapping_add(other.nodes_visited);
        self.sphere_updates = self.sphere_updates.wrapping_add(other.sphere_updates);
        self.overlap_tests = self.overlap_tests.wrapping_add(other.overlap_tests);
        self.triangle_tests = self.triangle_tests.wrapping_add(other.triangle_tests);
        self.pairs = self.pairs.wrapping_add(other.pairs);
    }
}

/// An item a query delivers, and the status that ends the query when the sink refuses it.
pub(crate) trait Reported: Copy {
    /// The status naming this item as the first that did not fit.
    fn refused(&self) -> QueryStatus;
}

impl Reported for TrianglePair {
    fn refused(&self) -> QueryStatus {
        QueryStatus::OutputFull { pair: *self }
    }
}

/// Delivers `item` to `sink`, counted in `stats.pairs`; a refusal ends the query with the
/// item's [`Reported::refused`] status.
#[inline(always)]
pub(crate) fn report<T: Reported>(
    sink: &mut (impl Sink<T> + ?Sized),
    item: T,
    stats: &mut QueryStats,
) -> Result<(), QueryStatus> {
    match sink.push(item) {
        Ok(()) => {
            stats.pairs += 1;
            Ok(())
        }
        Err(item) => Err(item.refused()),
    }
}

/// The outcome of a query: status and counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QueryOutcome {
    /// How it ended.
    pub status: QueryStatus,
    /// What it did.
    pub stats: QueryStats,
}

/// An overlapping pair of proxies, one of each body, with their world spheres.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ProxyPair<S> {
    /// The proxy node of the first body.
    pub a: u32,
    /// The proxy node of the second body.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]` (as [`crate::Body::sphere`] returns it).
    pub sphere_a: [S; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [S; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖` (units of the mesh), computed in the scalar:
    /// positive when the spheres overlap; within rounding of 0 (possibly slightly negative)
    /// when they touch. The contact normal is along `c_b − c_a`.
    pub depth: S,
}

impl<S: Copy> Reported for ProxyPair<S> {
    fn refused(&self) -> QueryStatus {
        QueryStatus::ProxyOutputFull {
            a: self.a,
            b: self.b,
        }
    }
}

impl<S: Scalar> Default for ProxyPair<S> {
    fn default() -> Self {
        ProxyPair {
            a: 0,
            b: 0,
            sphere_a: [S::ZERO; 4],
            sphere_b: [S::ZERO; 4],
            depth: S::ZERO,
        }
    }
}

/// Where [`crate::collide_proxies`] puts the pairs it finds (every [`Sink<ProxyPair<S>>`] is one). A
/// sink that refuses a pair ends the query with [`QueryStatus::ProxyOutputFull`]: nothing is
/// dropped silently.
pub trait ProxySink<S>: Sink<ProxyPair<S>> {}
impl<S, X: Sink<ProxyPair<S>> + ?Sized> ProxySink<S> for X {}

/// A fixed-capacity buffer of proxy pairs.
pub type ProxyBuffer<S, const N: usize> = Buffer<ProxyPair<S>, N>;

impl<S: Scalar, const N: usize> Buffer<ProxyPair<S>, N> {
    /// An empty buffer of proxy pairs.
    pub fn new() -> Self {
        Self::filled(ProxyPair::default())
    }
}

/// A contact proxy of a body against a primitive ([`crate::query::primitives::collide_primitive_proxies`]): a node at
/// the proxy depth (or a shallower leaf, or a cut node) whose world sphere may touch the
/// primitive.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PrimitiveProxy<S> {
    /// The proxy node.
    pub node: u32,
    /// Its world sphere `[x, y, z, r]` (as [`crate::Body::sphere`] returns it).
    pub sphere: [S; 4],
    /// How deep the sphere reaches into the primitive: its radius less its center's signed
    /// distance to the primitive's surface (for a plane `r − (n · c − offset)`, the contact
    /// normal `−n`; for a sphere or capsule, towards the center or axis). Positive when it
    /// reaches in; within the tolerance of 0, possibly negative, when it only may.
    pub depth: S,
}

impl<S: Copy> Reported for PrimitiveProxy<S> {
    fn refused(&self) -> QueryStatus {
        QueryStatus::ProxyOutputFull { a: self.node, b: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_buffer_hands_the_item_back() {
        let mut buffer = ContactBuffer::<2>::new();
        let p = |a| TrianglePair { a, b: 0 };
        assert_eq!(buffer.push(p(1)), Ok(()));
        assert_eq!(buffer.push(p(2)), Ok(()));
        assert_eq!(buffer.push(p(3)), Err(p(3)));
        assert_eq!(buffer.as_slice(), &[p(1), p(2)]);
        buffer.clear();
        assert!(buffer.is_empty());
    }

    #[cfg(feature = "heapless")]
    #[test]
    fn heapless_vectors_and_views_are_sinks() {
        let mut vec = heapless::Vec::<TrianglePair, 1>::new();
        let p = TrianglePair { a: 1, b: 2 };
        assert_eq!(Sink::push(&mut vec, p), Ok(()));
        let view: &mut heapless::vec::VecView<TrianglePair> = &mut vec;
        assert_eq!(Sink::push(view, p), Err(p));
        assert_eq!(vec.len(), 1);
    }

    #[test]
    fn a_closure_refusing_is_a_full_sink() {
        let mut taken = 0;
        let mut sink = |_: u32| {
            taken += 1;
            taken <= 1
        };
        assert_eq!(Sink::push(&mut sink, 7), Ok(()));
        assert_eq!(Sink::push(&mut sink, 8), Err(8));
    }
}
