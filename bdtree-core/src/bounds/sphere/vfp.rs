//! The f32 update in ARM VFP assembly (feature `asm`; 32-bit ARM with a hardware FPU): per
//! pair of modes two `vldmia` of eight registers (two rows, two weights `[q, q, q, |q|]`) and
//! eight `vmla.f32` (a multiply rounded, then an add rounded: the same bits as the separate
//! operations of the Rust kernels), in the order of [`super::update`].

/// [`super::update`] in f32; reads all four lanes of each weight (which [`super::mode_weights`]
/// makes `[q, q, q, |q|]`, as hosts read them). Inlined, so that the registers it uses are
/// saved once by the caller (the traversal), not per node, and the result stays in
/// registers.
#[inline(always)]
pub fn update(record: &[[f32; 4]], weights: &[[f32; 4]]) -> [f32; 4] {
    let Some((head, _)) = record.split_first() else {
        return [0.0; 4];
    };
    let m = weights.len().min(record.len().saturating_sub(1));
    let pairs = m / 2;
    let odd_mode = m % 2;
    let (x, y, z, r): (usize, usize, usize, usize);
    // `pairs` is 0 where the odd accumulator is zeroed from it (+0.0).
    // SAFETY: reads `1 + 2·pairs + odd_mode = m + 1 ≤ record.len()` rows from `head` and
    // `m ≤ weights.len()` weights (16 bytes each); every register it changes is declared.
    // (The result leaves through core registers: rustc takes `s` registers only as
    // clobbers on these targets.)
    unsafe {
        vfp_asm!(options(nostack, readonly);
            accumulate!(),
            "vadd.f32 s0, s0, s4",
            "vadd.f32 s1, s1, s5",
            "vadd.f32 s2, s2, s6",
            "vadd.f32 s3, s3, s7",
            "vmov {rec}, {w}, s0, s1",
            "vmov {pairs}, {odd}, s2, s3",
            rec = inout(reg) head.as_ptr() as usize => x,
            w = inout(reg) weights.as_ptr() as usize => y,
            pairs = inout(reg) pairs => z,
            odd = inout(reg) odd_mode => r,
        );
    }
    [x, y, z, r].map(|bits| f32::from_bits(bits as u32))
}

/// The world sphere of a node in one pass, for [`crate::Body::sphere`]: the update as in
/// [`update`], then `R c + t` (per row `((r₀ c₀ + r₁ c₁) + r₂ c₂) + t`, the order of
/// [`crate::Pose::apply`]) and `r + inflation` (`inflation = 3δ`, computed by the caller),
/// written to `out`. `None` (and `out` untouched) when `record` is empty. Mode counts 4,
/// 6, 8, 10, 12 and 16 run a straight-line kernel (no loop control); others a loop.
#[inline(always)]
pub fn world_sphere(
    record: &[[f32; 4]],
    weights: &[[f32; 4]],
    rotation: &[[f32; 3]; 3],
    translation: &[f32; 3],
    inflation: &f32,
    out: &mut [f32; 4],
) -> Option<()> {
    let (head, _) = record.split_first()?;
    let m = weights.len().min(record.len().saturating_sub(1));
    let rec: *const [f32; 4] = head;
    let w = weights.as_ptr();
    let rot = rotation.as_ptr();
    let t = translation.as_ptr();
    let sc: *const f32 = inflation;
    let out = out.as_mut_ptr();
    // SAFETY (every arm): reads `m + 1 ≤ record.len()` rows, `m ≤ weights.len()` weights,
    // the nine entries of `rotation`, the three of `translation` and `inflation`; writes
    // the four words of `out`; every register it changes is declared.
    unsafe {
        match m {
            4 => fixed!(rec, w, rot, t, sc, out; p),
            6 => fixed!(rec, w, rot, t, sc, out; p p),
            8 => fixed!(rec, w, rot, t, sc, out; p p p),
            10 => fixed!(rec, w, rot, t, sc, out; p p p p),
            12 => fixed!(rec, w, rot, t, sc, out; p p p p p),
            16 => fixed!(rec, w, rot, t, sc, out; p p p p p p p),
            _ => looped(rec, w, m / 2, m % 2, rot, t, sc, out),
        }
    }
    Some(())
}

/// The update of `pairs` pairs of modes and `odd` one more, as a loop: the first row into the
/// even accumulator `s0-s3`, each pair into it and the odd one `s4-s7` (+0.0, from `pairs`,
/// when there is no pair), the last mode into the even one. Labels `2:` to `5:`.
macro_rules! accumulate {
    () => {
        concat!(
            "vldmia {rec}!, {{s0-s3}}\n\
             cmp {pairs}, #0\n\
             bne 2f\n\
             vmov s4, {pairs}\n\
             vmov s5, {pairs}\n\
             vmov s6, {pairs}\n\
             vmov s7, {pairs}\n\
             b 4f\n\
             2:\n",
            pair!("vmul.f32"),
            "subs {pairs}, {pairs}, #1\n\
             beq 4f\n\
             3:\n",
            pair!("vmla.f32"),
            "subs {pairs}, {pairs}, #1\n\
             bne 3b\n\
             4:\n\
             cmp {odd}, #0\n\
             beq 5f\n\
             vldmia {rec}, {{s8-s11}}\n\
             vldmia {w}, {{s16-s19}}\n\
             vmla.f32 s0, s8, s16\n\
             vmla.f32 s1, s9, s17\n\
             vmla.f32 s2, s10, s18\n\
             vmla.f32 s3, s11, s19\n\
             5:\n"
        )
    };
}

/// A pair of modes: two rows loaded into `s8-s15` and two weights into `s16-s23`, the first
/// mode multiply-added into the even accumulator `s0-s3`, the second into the odd one `s4-s7`
/// by `$odd`: `"vmul.f32"` for the first pair (starting it), `"vmla.f32"` for the others.
macro_rules! pair {
    ($odd:literal) => {
        concat!(
            "vldmia {rec}!, {{s8-s15}}\n\
             vldmia {w}!, {{s16-s23}}\n\
             vmla.f32 s0, s8, s16\n\
             vmla.f32 s1, s9, s17\n\
             vmla.f32 s2, s10, s18\n\
             vmla.f32 s3, s11, s19\n",
            odd!($odd, "s4, s12, s20"),
            odd!($odd, "s5, s13, s21"),
            odd!($odd, "s6, s14, s22"),
            odd!($odd, "s7, s15, s23"),
        )
    };
}

/// One instruction of a pair's odd half: `$op` on `$registers`.
macro_rules! odd {
    ($op:literal, $registers:literal) => {
        concat!($op, " ", $registers, "\n")
    };
}

/// `asm!` with the registers every kernel here changes (`s0-s23`) declared, then `options`.
macro_rules! vfp_asm {
    (options($($option:ident),*); $($template_and_operands:tt)*) => {
        core::arch::asm!(
            $($template_and_operands)*
            out("s0") _, out("s1") _, out("s2") _, out("s3") _,
            out("s4") _, out("s5") _, out("s6") _, out("s7") _,
            out("s8") _, out("s9") _, out("s10") _, out("s11") _,
            out("s12") _, out("s13") _, out("s14") _, out("s15") _,
            out("s16") _, out("s17") _, out("s18") _, out("s19") _,
            out("s20") _, out("s21") _, out("s22") _, out("s23") _,
            options($($option),*),
        )
    };
}

/// Even and odd accumulators added, then `R c + t`, `r + 3δ`, stored.
macro_rules! finish {
    () => {
        "vadd.f32 s8, s0, s4\n\
         vadd.f32 s9, s1, s5\n\
         vadd.f32 s10, s2, s6\n\
         vadd.f32 s11, s3, s7\n\
         vldmia {rot}, {{s12-s20}}\n\
         vldmia {t}, {{s21-s23}}\n\
         vldmia {sc}, {{s0}}\n\
         vmul.f32 s1, s12, s8\n\
         vmul.f32 s2, s15, s8\n\
         vmul.f32 s3, s18, s8\n\
         vmla.f32 s1, s13, s9\n\
         vmla.f32 s2, s16, s9\n\
         vmla.f32 s3, s19, s9\n\
         vmla.f32 s1, s14, s10\n\
         vmla.f32 s2, s17, s10\n\
         vmla.f32 s3, s20, s10\n\
         vadd.f32 s4, s1, s21\n\
         vadd.f32 s5, s2, s22\n\
         vadd.f32 s6, s3, s23\n\
         vadd.f32 s7, s11, s0\n\
         vstmia {out}, {{s4-s7}}\n"
    };
}

/// The straight-line kernel for `2 (1 + pairs after the first)` modes.
macro_rules! fixed {
    ($rec:ident, $w:ident, $rot:ident, $t:ident, $sc:ident, $out:ident; $($more:ident)*) => {
        vfp_asm!(options(nostack);
            "vldmia {rec}!, {{s0-s3}}",
            pair!("vmul.f32"),
            $(concat!("@ ", stringify!($more), "\n", pair!("vmla.f32")),)*
            finish!(),
            rec = inout(reg) $rec => _,
            w = inout(reg) $w => _,
            rot = in(reg) $rot,
            t = in(reg) $t,
            sc = in(reg) $sc,
            out = in(reg) $out,
        )
    };
}
use {accumulate, finish, fixed, odd, pair, vfp_asm};

/// [`world_sphere`] for any mode count: the pairs as a loop.
///
/// # Safety
///
/// `rec` points to `2 pairs + odd + 1` rows, `w` to `2 pairs + odd` weights, `rot` to nine
/// floats, `t` to three, `sc` to one, `out` to four writable ones.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn looped(
    rec: *const [f32; 4],
    w: *const [f32; 4],
    pairs: usize,
    odd: usize,
    rot: *const [f32; 3],
    t: *const f32,
    sc: *const f32,
    out: *mut f32,
) {
    // SAFETY: as the caller promises.
    unsafe {
        vfp_asm!(options(nostack);
            accumulate!(),
            finish!(),
            rec = inout(reg) rec => _,
            w = inout(reg) w => _,
            pairs = inout(reg) pairs => _,
            odd = in(reg) odd,
            rot = in(reg) rot,
            t = in(reg) t,
            sc = in(reg) sc,
            out = in(reg) out,
        );
    }
}
