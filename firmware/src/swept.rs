//! The swept replay: the tunnelling scene (`fixtures/swept/tunnel.json`: a blade swinging and
//! a ball dropping through a sheet between frames, no contact at any frame) as swept queries
//! on the target, against the host's answers in `pack/swept.bin`.
//!
//! For every motion from frame f − 1 to frame f and every body pair, `collide_swept` over the
//! bodies at both ends; the pairs (body indices, triangles) and the bits of each pair's earliest
//! time must equal the host's, in the host's order. One line per run:
//! `BDTREE swept name=tunnel motions=… pairs=… mismatches=… motion_instructions_max=…`.

use bdtree_core::{
    collide_swept, AlignedImage, Body, CacheEntry, Image, Pose, SweptPair, TrackEntry,
};

use crate::pack::Reader;
use crate::report;
use crate::rt::Counter;

/// The pack's buffer sizes (the replay's too: unused here).
#[allow(dead_code)]
mod limits {
    include!("../pack/limits.rs");
}
use limits::{SWEPT_BODIES, SWEPT_MODES, SWEPT_NODES, SWEPT_PAIRS, SWEPT_STACK};

static PACK: &AlignedImage<[u8]> = &AlignedImage(*include_bytes!("../pack/swept.bin"));
const MAGIC: u32 = u32::from_le_bytes(*b"BDSW");
const VERSION: u32 = 1;

/// Every buffer of the swept replay, in `.bss`: two bodies per scene body (the motion's start
/// and end, the end with a track cache), a stack and the found pairs.
struct Work {
    caches: [[CacheEntry<f32>; SWEPT_NODES]; 2 * SWEPT_BODIES],
    tracks: [[TrackEntry<f32>; SWEPT_NODES]; SWEPT_BODIES],
    modes: [[f32; 5 * SWEPT_MODES]; 2 * SWEPT_BODIES],
    stack: [[u32; 2]; SWEPT_STACK],
    found: [[u32; 5]; SWEPT_PAIRS],
}

static mut WORK: Work = Work {
    caches: [[CacheEntry::EMPTY; SWEPT_NODES]; 2 * SWEPT_BODIES],
    tracks: [[TrackEntry::EMPTY; SWEPT_NODES]; SWEPT_BODIES],
    modes: [[0.0; 5 * SWEPT_MODES]; 2 * SWEPT_BODIES],
    stack: [[0; 2]; SWEPT_STACK],
    found: [[0; 5]; SWEPT_PAIRS],
};

/// Runs the swept scene; `true` when every motion matched the host.
pub fn run(counter: &Counter) -> bool {
    // SAFETY: `run` is called once; this is the only reference to WORK ever made.
    let work = unsafe { &mut *core::ptr::addr_of_mut!(WORK) };
    match replay(work, counter) {
        Ok(ok) => ok,
        Err(e) => {
            report!("BDTREE error scene=tunnel (swept): {}", e);
            false
        }
    }
}

fn replay(work: &mut Work, counter: &Counter) -> Result<bool, &'static str> {
    const SHORT: &str = "the swept pack ends early";
    let mut reader = Reader::new(&PACK.0);
    if (reader.u32(), reader.u32()) != (Some(MAGIC), Some(VERSION)) {
        return Err("the swept pack has a wrong magic or version");
    }
    let body_count = reader.usize().ok_or(SHORT)?;
    let frame_count = reader.usize().ok_or(SHORT)?;
    if body_count > SWEPT_BODIES {
        return Err("more bodies than the firmware has buffers for");
    }
    let mut images: [Option<Image<'static, f32>>; SWEPT_BODIES] = [None; SWEPT_BODIES];
    let mut modes = [0usize; SWEPT_BODIES];
    for (image, m) in images.iter_mut().zip(modes.iter_mut()).take(body_count) {
        *m = reader.usize().ok_or(SHORT)?;
        let len = reader.usize().ok_or(SHORT)?;
        reader.align(16).ok_or(SHORT)?;
        let bytes = reader.bytes(len).ok_or(SHORT)?;
        reader.align(4).ok_or(SHORT)?;
        *image = Some(Image::<f32>::parse(bytes).map_err(|_| "an image was rejected")?);
        if *m > SWEPT_MODES {
            return Err("more modes than the firmware has buffers for");
        }
    }
    let Work {
        caches,
        tracks,
        modes: slots,
        stack,
        found,
    } = work;
    // Bodies 2k (the motion's start) and 2k + 1 (its end) of scene body k.
    let mut bodies: [Option<Body<'static, '_, f32>>; 2 * SWEPT_BODIES] =
        [const { None }; 2 * SWEPT_BODIES];
    let mut tracks = tracks.iter_mut();
    for (k, ((slot, cache), modes)) in bodies
        .iter_mut()
        .zip(caches.iter_mut())
        .zip(slots.iter_mut())
        .enumerate()
    {
        // The end body of each motion keeps its nodes' tracks (one computation per query).
        let track = if k % 2 == 1 { tracks.next() } else { None };
        if let Some(Some(image)) = images.get(k / 2) {
            let body = Body::new(image, cache, modes).and_then(|b| match track {
                Some(track) => b.with_track_cache(track),
                None => Ok(b),
            });
            *slot = Some(body.map_err(|_| "a body was refused")?);
        }
    }

    let (mut motions, mut total, mut mismatches, mut max) = (0u32, 0u32, 0u32, 0u64);
    let mut state = [([0.0f32; 4], [0.0f32; 3], [0.0f32; SWEPT_MODES]); SWEPT_BODIES];
    for frame in 0..frame_count {
        for ((r, t, q), &m) in state.iter_mut().zip(&modes).take(body_count) {
            for x in r.iter_mut().chain(t.iter_mut()).chain(q.iter_mut().take(m)) {
                *x = reader.f32().ok_or(SHORT)?;
            }
        }
        set_states(&mut bodies, &state, &modes, body_count, 1)?;
        if frame > 0 {
            let expected_count = reader.usize().ok_or(SHORT)?;
            let mut expected = reader.sub(20 * expected_count).ok_or(SHORT)?;
            // A busy motion may run past one SysTick wrap (~670 M instructions).
            let start = counter.now_wide();
            let count = motion(&mut bodies, body_count, stack, found)?;
            max = max.max(counter.now_wide() - start);
            let mut same = count == expected_count;
            for pair in found.iter().take(count) {
                for &x in pair {
                    same &= expected.u32() == Some(x);
                }
            }
            if !same {
                report!(
                    "BDTREE error scene=tunnel (swept) frame={}: {} pairs, the host found {}",
                    frame,
                    count,
                    expected_count
                );
            }
            mismatches += u32::from(!same);
            motions += 1;
            total = total.wrapping_add(count as u32);
        }
        set_states(&mut bodies, &state, &modes, body_count, 0)?;
    }
    report!(
        "BDTREE swept name=tunnel motions={} pairs={} mismatches={} motion_instructions_max={}",
        motions,
        total,
        mismatches,
        max
    );
    Ok(mismatches == 0 && motions > 0 && total > 0)
}

/// Sets bodies `2k + end` (`end` 0: the motion's start, 1: its end) to the frame's states.
fn set_states(
    bodies: &mut [Option<Body<'static, '_, f32>>; 2 * SWEPT_BODIES],
    state: &[([f32; 4], [f32; 3], [f32; SWEPT_MODES]); SWEPT_BODIES],
    modes: &[usize; SWEPT_BODIES],
    body_count: usize,
    end: usize,
) -> Result<(), &'static str> {
    for (k, ((r, t, q), &m)) in state.iter().zip(modes).take(body_count).enumerate() {
        let pose = Pose::from_quaternion(*r, *t).map_err(|_| "a pose was refused")?;
        let body = bodies.get_mut(2 * k + end).and_then(Option::as_mut);
        let q = q.get(..m).ok_or("a q is too long")?;
        body.ok_or("a body is missing")?
            .set_state(pose, q)
            .map_err(|_| "a state was refused")?;
    }
    Ok(())
}

/// The swept pairs of every body pair for the motion between the two sets of bodies, into
/// `found` (`[body a, body b, triangle a, triangle b, time bits]`); returns how many.
fn motion(
    bodies: &mut [Option<Body<'static, '_, f32>>; 2 * SWEPT_BODIES],
    body_count: usize,
    stack: &mut [[u32; 2]],
    found: &mut [[u32; 5]],
) -> Result<usize, &'static str> {
    let mut count = 0usize;
    for i in 0..body_count {
        for j in i + 1..body_count {
            let (head, tail) = bodies.split_at_mut_checked(2 * j).ok_or("no body")?;
            let (a_from, a_to) = head
                .get_mut(2 * i..2 * i + 2)
                .ok_or("no body")?
                .split_at_mut(1);
            let (b_from, b_to) = tail.get_mut(..2).ok_or("no body")?.split_at_mut(1);
            let (Some(Some(a_from)), Some(Some(a_to)), Some(Some(b_from)), Some(Some(b_to))) = (
                a_from.first_mut(),
                a_to.first_mut(),
                b_from.first_mut(),
                b_to.first_mut(),
            ) else {
                return Err("a body is missing");
            };
            let mut keep = |p: SweptPair<f32>| match found.get_mut(count) {
                Some(slot) => {
                    *slot = [i as u32, j as u32, p.a, p.b, p.time.to_bits()];
                    count += 1;
                    true
                }
                None => false,
            };
            let outcome = collide_swept(a_from, a_to, b_from, b_to, stack, &mut keep);
            if !outcome.status.is_complete() {
                return Err("a swept query did not complete");
            }
        }
    }
    Ok(count)
}
