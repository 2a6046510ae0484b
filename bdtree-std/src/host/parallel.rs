//! A world's bodies and body pairs answered on several threads (`rayon`), with the serial
//! run's answers bit for bit.
//!
//! A body's sphere cache is written by every query that reads it, so two pairs sharing a body
//! cannot run at once. The pairs are split into **rounds** in which no body appears twice
//! (a greedy edge colouring in pair order: each pair takes the first round where both its
//! bodies are free, up to 128 rounds; the rest run one by one after them), and each round's
//! pairs run in parallel. Every pair's answer depends only on the two bodies' states (a
//! cached sphere is the same whichever pair computed it), and the answers are handed back in
//! pair order, so the caller sums and sorts them exactly as the serial run does.
//!
//! One thread runs everything in order on the calling thread, with no pool.

use std::sync::Arc;

use rayon::prelude::*;

use super::body::Body;
use super::error::HostError;

/// Scratch of one thread (the certificate's node-pair stack).
pub(crate) type Scratch = Vec<(u32, u32)>;

/// Most rounds of one batch of pairs (a bit of a `u128` per body).
const ROUNDS: usize = 128;

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
        let (rounds, rest) = rounds(bodies.len(), pairs);
        let mut out: Vec<Option<T>> = (0..pairs.len()).map(|_| None).collect();
        for round in &rounds {
            let mut slots: Vec<Option<&mut Body>> = bodies.iter_mut().map(Some).collect();
            let tasks: Vec<(usize, &mut Body, &mut Body)> = round
                .iter()
                .filter_map(|&k| {
                    let [i, j] = pairs[k];
                    let a = slots[i].take()?;
                    let b = slots[j].take()?;
                    Some((k, a, b))
                })
                .collect();
            let done: Vec<(usize, T)> = pool.install(|| {
                tasks
                    .into_par_iter()
                    .map_init(Vec::new, |s, (k, a, b)| (k, f(k, a, b, s)))
                    .collect()
            });
            for (k, t) in done {
                out[k] = Some(t);
            }
        }
        for k in rest {
            out[k] = Some(serial(bodies, k, scratch));
        }
        // Every pair is in exactly one round or in `rest`.
        out.into_iter()
            .enumerate()
            .map(|(k, t)| t.unwrap_or_else(|| serial(bodies, k, scratch)))
            .collect()
    }
}

/// The rounds of the module docs: pair indices per round, and the pairs left for after them.
fn rounds(n: usize, pairs: &[[usize; 2]]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut used = vec![0u128; n];
    let mut rounds: Vec<Vec<usize>> = Vec::new();
    let mut rest = Vec::new();
    for (k, &[i, j]) in pairs.iter().enumerate() {
        let r = (used[i] | used[j]).trailing_ones() as usize;
        if r >= ROUNDS {
            rest.push(k);
            continue;
        }
        used[i] |= 1 << r;
        used[j] |= 1 << r;
        if rounds.len() <= r {
            rounds.resize_with(r + 1, Vec::new);
        }
        rounds[r].push(k);
    }
    (rounds, rest)
}

#[cfg(test)]
mod tests {
    use super::rounds;

    /// No body twice in a round; every pair once; a star of 200 pairs overflows to `rest`.
    #[test]
    fn rounds_keep_bodies_apart() {
        let mut pairs = Vec::new();
        for i in 0..30 {
            for j in i + 1..30 {
                if (i * 7 + j * 3) % 4 == 0 {
                    pairs.push([i, j]);
                }
            }
        }
        for j in 31..231 {
            pairs.push([30, j]);
        }
        let (rounds, rest) = rounds(231, &pairs);
        let mut seen = vec![false; pairs.len()];
        for round in &rounds {
            let mut bodies = std::collections::HashSet::new();
            for &k in round {
                assert!(bodies.insert(pairs[k][0]) && bodies.insert(pairs[k][1]));
                assert!(!std::mem::replace(&mut seen[k], true));
            }
        }
        assert_eq!(rest.len(), 200 - 128);
        for k in rest {
            assert_eq!(pairs[k][0], 30);
            assert!(!std::mem::replace(&mut seen[k], true));
        }
        assert!(seen.iter().all(|&s| s));
    }
}
