//! The kernel's working storage and statuses on the host: this thread's pair stack, reused
//! between queries, and a kernel status turned into the host's error.

use bdtree_core::QueryOutcome;

use super::error::HostError;

thread_local! {
    /// The pair stack of this thread's queries, kept between calls.
    static STACK: std::cell::Cell<Vec<[u32; 2]>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A pair stack of at least the capacity asked for: this thread's, reused between queries and
/// given back when dropped (a stack taken while another is out is a fresh one).
pub(crate) struct Stack(Vec<[u32; 2]>);

impl Stack {
    pub(crate) fn take(capacity: usize) -> Stack {
        let mut stack = STACK.with(|s| s.take());
        if stack.len() < capacity {
            stack.resize(capacity, [0; 2]);
        }
        Stack(stack)
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        let stack = std::mem::take(&mut self.0);
        STACK.with(|s| s.set(stack));
    }
}

impl std::ops::Deref for Stack {
    type Target = [[u32; 2]];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Stack {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

pub(crate) fn complete(query: &'static str, outcome: &QueryOutcome) -> Result<(), HostError> {
    if outcome.status.is_complete() {
        Ok(())
    } else {
        Err(HostError::Incomplete {
            query,
            status: outcome.status,
        })
    }
}
