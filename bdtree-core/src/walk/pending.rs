//! The containers of pending pairs: the walk's [`Pending`] interface, the caller's stack as a
//! depth-first container, and the nearest-first stack of the distance query.

use crate::scalar::Scalar;

/// The container of pending pairs. A pair stays pending until its step is done, so that an
/// interrupted walk's pending pairs always cover what it has not confirmed.
pub(crate) trait Pending<K: Copy> {
    /// Every pair it holds was pushed during this walk (not in an earlier call resumed now), so
    /// the bounds of its nodes were computed in this walk (`Policy::pending_bound`).
    const FRESH: bool = true;
    /// The next pair to visit (it stays pending until [`Pending::pop`]).
    fn peek(&self) -> Option<[u32; 2]>;
    /// Removes the pair [`Pending::peek`] returned.
    fn pop(&mut self);
    /// Whether `children` more pairs fit once the current one is popped.
    fn room(&self, children: usize) -> bool;
    /// A child pair: kept when its bounds overlap (`key` is `Some`), dropped otherwise.
    fn offer(&mut self, entry: [u32; 2], key: Option<K>);
    /// The child pairs of one expansion, in order (by default offered one by one).
    #[inline(always)]
    fn offer_all(&mut self, children: &[([u32; 2], Option<K>)]) {
        for &(entry, key) in children {
            self.offer(entry, key);
        }
    }
    /// After the offers of one expansion.
    #[inline(always)]
    fn commit(&mut self) {}
}

/// The caller's stack as a depth-first container.
pub(crate) struct Stack<'s> {
    slots: &'s mut [[u32; 2]],
    len: usize,
}

impl<'s> Stack<'s> {
    /// An empty stack over the caller's slots.
    pub fn new(slots: &'s mut [[u32; 2]]) -> Self {
        Stack { slots, len: 0 }
    }

    /// Pushes an entry; `false` when full.
    pub fn push(&mut self, entry: [u32; 2]) -> bool {
        let Some(slot) = self.slots.get_mut(self.len) else {
            return false;
        };
        *slot = entry;
        self.len += 1;
        true
    }
}

impl<K: Copy> Pending<K> for Stack<'_> {
    #[inline(always)]
    fn peek(&self) -> Option<[u32; 2]> {
        self.slots.get(self.len.checked_sub(1)?).copied()
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    #[inline(always)]
    fn room(&self, children: usize) -> bool {
        self.len.saturating_sub(1) + children <= self.slots.len()
    }

    /// Children are written whether or not they overlap and kept only if they do: the overlap
    /// test is a coin toss the branch predictor cannot learn. (The slot exists: [`Stack::room`]
    /// was asked first.)
    #[inline(always)]
    fn offer(&mut self, entry: [u32; 2], key: Option<K>) {
        if let Some(slot) = self.slots.get_mut(self.len) {
            *slot = entry;
            self.len += usize::from(key.is_some());
        }
    }

    #[inline(always)]
    fn offer_all(&mut self, children: &[([u32; 2], Option<K>)]) {
        let end = self.len + children.len();
        let Some(window) = self.slots.get_mut(self.len..end) else {
            return;
        };
        let mut kept = 0;
        for &(entry, key) in children {
            if let Some(slot) = window.get_mut(kept) {
                *slot = entry;
            }
            kept += usize::from(key.is_some());
        }
        self.len += kept;
    }
}

/// The caller's stack, nearest first: an expansion's kept children are pushed farthest first
/// (so the nearest is expanded next).
pub(crate) struct NearestFirst<'s, S> {
    stack: Stack<'s>,
    batch: [([u32; 2], S); 4],
    len: usize,
}

impl<'s, S: Scalar> NearestFirst<'s, S> {
    /// An empty container over the caller's slots.
    pub fn new(slots: &'s mut [[u32; 2]]) -> Self {
        NearestFirst {
            stack: Stack::new(slots),
            batch: [([0; 2], S::ZERO); 4],
            len: 0,
        }
    }

    /// Pushes an entry; `false` when full.
    pub fn push(&mut self, entry: [u32; 2]) -> bool {
        self.stack.push(entry)
    }
}

impl<S: Scalar> Pending<S> for NearestFirst<'_, S> {
    #[inline(always)]
    fn peek(&self) -> Option<[u32; 2]> {
        Pending::<S>::peek(&self.stack)
    }

    #[inline(always)]
    fn pop(&mut self) {
        Pending::<S>::pop(&mut self.stack);
    }

    #[inline(always)]
    fn room(&self, children: usize) -> bool {
        Pending::<S>::room(&self.stack, children)
    }

    #[inline(always)]
    fn offer(&mut self, entry: [u32; 2], key: Option<S>) {
        if let (Some(key), Some(slot)) = (key, self.batch.get_mut(self.len)) {
            *slot = (entry, key);
            self.len += 1;
        }
    }

    fn commit(&mut self) {
        let batch = self.batch.get_mut(..self.len).unwrap_or(&mut []);
        // Insertion sort, descending by gap (at most four entries).
        for k in 1..batch.len() {
            let mut m = k;
            while m > 0 && batch.get(m - 1).map(|e| e.1) < batch.get(m).map(|e| e.1) {
                batch.swap(m - 1, m);
                m -= 1;
            }
        }
        for &(entry, _) in batch.iter() {
            // Room was checked before the expansion.
            self.stack.push(entry);
        }
        self.len = 0;
    }
}
