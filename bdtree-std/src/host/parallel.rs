//! A world's bodies and body pairs answered on several threads (`rayon`), with the serial
//! run's answers bit for bit.
//!
//! A body's sphere cache is written by every query that reads it, so two pairs sharing a body
//! cannot run at once. The bodies are cut into **blocks** of consecutive indices (8 per
//! thread), and the pairs grouped into **tasks**, one per pair of blocks (a block with itself
//! for the pairs within it), each task's pairs in pair order. Every thread takes the first task
//! (the largest first) whose two blocks no running task holds, answers its pairs one after the
//! other, gives the blocks back and takes the next; a thread finding every pending task
//! blocked waits until a block is given back. A thread never waits on the others otherwise
//! (no rounds: a thread the machine preempts holds up only the tasks that need its blocks),
//! and a body's pairs with one block run one after the other, its cached spheres still warm.
//! Every pair's answer depends only on the two bodies' states (a cached sphere is the same
//! whichever pair computed it), and the answers are handed back in pair order, so the caller
//! sums and sorts them exactly as the serial run does.
//!
//! One thread runs everything in order on the calling thread, with no pool.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

use rayon::prelude::*;

use super::body::Body;
use super::error::HostError;

/// Scratch of one thread (the certificate's node-pair stack).
pub(crate) type Scratch = Vec<(u32, u32)>;

/// How many threads a world's queries use, and their pool.
#[derive(Clone)]
pub(crate) struct Threads {
    pool: Option<Arc<rayon::ThreadPool>>,
    count: usize,
}

impl Threads {
    /// One thread: everything on the calling thread.
    pub(crate) fn serial() -> Self {
        Self {
            pool: None,
            count: 1,
        }
    }

    /// `count` threads (0: one per core).
    pub(crate) fn new(count: usize) -> Result<Self, HostError> {
        let count = if count == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            count
        };
        if count == 1 {
            return Ok(Self::serial());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(count)
            .build()
            .map_err(|e| HostError::Argument {
                name: "threads",
                message: format!("could not start {count} threads: {e}"),
            })?;
        Ok(Self {
            pool: Some(Arc::new(pool)),
            count,
        })
    }

    /// The thread count.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// `f(i, body i)` for every body, the results in body order.
    pub(crate) fn bodies<T: Send>(
        &self,
        bodies: &mut [Body],
        f: impl Fn(usize, &mut Body) -> T + Sync,
    ) -> Vec<T> {
        match &self.pool {
            None => bodies
                .iter_mut()
                .enumerate()
                .map(|(i, b)| f(i, b))
                .collect(),
            Some(pool) => pool.install(|| {
                bodies
                    .par_iter_mut()
                    .enumerate()
                    .map(|(i, b)| f(i, b))
                    .collect()
            }),
        }
    }

    /// `f(k, body i, body j, scratch)` for every pair `k` = `[i, j]` (`i < j < bodies.len()`),
    /// the results in pair order (module docs).
    pub(crate) fn pairs<T: Send>(
        &self,
        bodies: &mut [Body],
        pairs: &[[usize; 2]],
        scratch: &mut Scratch,
        f: impl Fn(usize, &mut Body, &mut Body, &mut Scratch) -> T + Sync,
    ) -> Vec<T> {
        let serial = |bodies: &mut [Body], k: usize, scratch: &mut Scratch| {
            let [i, j] = pairs[k];
            let (head, tail) = bodies.split_at_mut(j);
            f(k, &mut head[i], &mut tail[0], scratch)
        };
        let Some(pool) = &self.pool else {
            return (0..pairs.len())
                .map(|k| serial(bodies, k, scratch))
                .collect();
        };
        let plan = Plan::new(bodies.len(), pairs, self.count);
        let schedule = Mutex::new(Schedule {
            blocks: bodies.chunks_mut(plan.size).map(Some).collect(),
            pending: (0..plan.tasks.len()).collect(),
        });
        let freed = Condvar::new();
        let done: Vec<Vec<(usize, T)>> =
            pool.broadcast(|_| work(&plan, pairs, &schedule, &freed, &f));
        let mut out: Vec<Option<T>> = (0..pairs.len()).map(|_| None).collect();
        for (k, t) in done.into_iter().flatten() {
            if let Some(slot) = out.get_mut(k) {
                *slot = Some(t);
            }
        }
        // Every pair is in exactly one task (a pair out of range would have failed serially
        // too: it is answered here).
        out.into_iter()
            .enumerate()
            .map(|(k, t)| t.unwrap_or_else(|| serial(bodies, k, scratch)))
            .collect()
    }
}

/// The bodies cut into blocks of consecutive indices, and the pairs grouped into **tasks**, one
/// per pair of blocks (module docs).
struct Plan {
    /// Bodies per block.
    size: usize,
    /// Per task: its two blocks (equal for the pairs within one block) and its pairs' indices,
    /// in pair order. The tasks are sorted by their number of pairs, the most first.
    tasks: Vec<([usize; 2], Vec<usize>)>,
}

/// Blocks per thread: enough that a thread finds a task whose blocks are free while the others
/// work, few enough that a block's bodies stay together in a task (a body's sphere cache is
/// reused by its pairs with the other block's bodies, one after the other).
const BLOCKS_PER_THREAD: usize = 8;

impl Plan {
    fn new(n: usize, pairs: &[[usize; 2]], threads: usize) -> Plan {
        let size = n.div_ceil(BLOCKS_PER_THREAD * threads.max(1)).max(1);
        let mut keyed: Vec<([usize; 2], usize)> = pairs
            .iter()
            .enumerate()
            .map(|(k, &[i, j])| ([i / size, j / size], k))
            .collect();
        // Stable: each task's pairs stay in pair order.
        keyed.sort_by_key(|&(blocks, _)| blocks);
        let mut tasks: Vec<([usize; 2], Vec<usize>)> = Vec::new();
        for (blocks, k) in keyed {
            match tasks.last_mut() {
                Some((last, ks)) if *last == blocks => ks.push(k),
                _ => tasks.push((blocks, vec![k])),
            }
        }
        tasks.sort_by_key(|(_, ks)| std::cmp::Reverse(ks.len()));
        Plan { size, tasks }
    }
}

/// What the threads share: every block not lent to a running task, and the tasks not started.
struct Schedule<'b> {
    blocks: Vec<Option<&'b mut [Body]>>,
    pending: Vec<usize>,
}

/// One thread's part: takes the first pending task whose blocks are both free, answers its
/// pairs in order on them, gives them back, until no task is left; waits while every pending
/// task has a block lent out. The answers, each with its pair's index.
fn work<T>(
    plan: &Plan,
    pairs: &[[usize; 2]],
    schedule: &Mutex<Schedule<'_>>,
    freed: &Condvar,
    f: &(impl Fn(usize, &mut Body, &mut Body, &mut Scratch) -> T + Sync),
) -> Vec<(usize, T)> {
    let lock = || schedule.lock().unwrap_or_else(PoisonError::into_inner);
    let mut out = Vec::new();
    let mut scratch = Scratch::new();
    let mut state = lock();
    loop {
        let free = |state: &Schedule<'_>, t: usize| {
            let [a, b] = plan.tasks[t].0;
            state.blocks.get(a).is_some_and(Option::is_some)
                && state.blocks.get(b).is_some_and(Option::is_some)
        };
        let Some(p) = state.pending.iter().position(|&t| free(&state, t)) else {
            if state.pending.is_empty() {
                return out;
            }
            state = freed.wait(state).unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        let t = state.pending.remove(p);
        let ([a, b], ks) = &plan.tasks[t];
        let (a, b) = (*a, *b);
        // Both free (checked above): a task whose blocks could not be taken is left to the
        // caller's serial pass.
        let Some(first) = state.blocks.get_mut(a).and_then(Option::take) else {
            continue;
        };
        let second = if a == b {
            None
        } else {
            match state.blocks.get_mut(b).and_then(Option::take) {
                Some(other) => Some(other),
                None => {
                    state.blocks[a] = Some(first);
                    continue;
                }
            }
        };
        drop(state);
        let (first, mut second) = (first, second);
        for &k in ks {
            let [i, j] = pairs[k];
            let (i, j) = (i - a * plan.size, j - b * plan.size);
            let found = match &mut second {
                // Both bodies in one block: `i < j`.
                None => {
                    let (head, tail) = first.split_at_mut(j);
                    f(k, &mut head[i], &mut tail[0], &mut scratch)
                }
                Some(other) => f(k, &mut first[i], &mut other[j], &mut scratch),
            };
            out.push((k, found));
        }
        state = lock();
        state.blocks[a] = Some(first);
        if let Some(other) = second {
            state.blocks[b] = Some(other);
        }
        freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::Plan;

    /// Every pair in exactly one task, in pair order within it, both bodies in the task's
    /// blocks; the tasks the most pairs first.
    #[test]
    fn a_plan_holds_every_pair_once_in_its_blocks() {
        let mut pairs = Vec::new();
        for i in 0..300 {
            for j in i + 1..300 {
                if (i * 7 + j * 3) % 11 == 0 || j == i + 1 || i == 0 {
                    pairs.push([i, j]);
                }
            }
        }
        for threads in [2, 3, 8] {
            let plan = Plan::new(300, &pairs, threads);
            assert_eq!(plan.size, 300usize.div_ceil(8 * threads));
            let mut seen = vec![false; pairs.len()];
            for ([a, b], ks) in &plan.tasks {
                assert!(a <= b && !ks.is_empty());
                assert!(ks.windows(2).all(|w| w[0] < w[1]));
                for &k in ks {
                    let [i, j] = pairs[k];
                    assert_eq!([i / plan.size, j / plan.size], [*a, *b]);
                    assert!(!std::mem::replace(&mut seen[k], true));
                }
            }
            assert!(seen.iter().all(|&s| s));
            assert!(plan.tasks.windows(2).all(|w| w[0].1.len() >= w[1].1.len()));
        }
    }
}
