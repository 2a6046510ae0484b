//! The size and instruction budget: the figures of a QEMU run, the ELF's section sizes, and
//! `firmware/budget.txt` read and written.

use super::*;

/// Figures that go into the golden file, from one board's run.
pub(super) fn golden_figures(board: &Board, run: &RunFigures) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (key, &value) in &run.figures {
        let keep = key == "update_m10.instructions"
            || key == "update_m10_portable.instructions"
            || key == "sphere_m10.instructions"
            || key == "sqrt_libm.instructions"
            || key == "sqrt_micromath.instructions"
            || key == "deepest_first.instructions"
            || key.ends_with(".frame_instructions_mean")
            || key.ends_with(".frame_instructions_max")
            || key.ends_with(".motion_instructions_max")
            || key.ends_with(".stack_bytes");
        if keep {
            out.insert(format!("{}.{}.{key}", board.machine, board.target), value);
        }
    }
    out
}

/// Flash and RAM of a 32-bit ELF by section flags: code (`.vector_table`, `.text`), read-only
/// data other than the fixture pack, the pack, initialised data and zeroed data.
pub(super) fn elf_sizes(elf: &Path, pack_len: u64) -> Result<BTreeMap<&'static str, u64>, String> {
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let bad = || format!("{}: not a 32-bit little-endian ELF", elf.display());
    if bytes.get(..6) != Some(b"\x7fELF\x01\x01".as_slice()) {
        return Err(bad());
    }
    let u16_at = |o: usize| -> Option<u64> {
        Some(u64::from(u16::from_le_bytes(
            bytes.get(o..o + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |o: usize| -> Option<u64> {
        Some(u64::from(u32::from_le_bytes(
            bytes.get(o..o + 4)?.try_into().ok()?,
        )))
    };
    let shoff = u32_at(0x20).ok_or_else(bad)? as usize;
    let shentsize = u16_at(0x2e).ok_or_else(bad)? as usize;
    let shnum = u16_at(0x30).ok_or_else(bad)? as usize;
    let (mut text, mut rodata, mut data, mut bss) = (0, 0, 0, 0);
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        let kind = u32_at(h + 4).ok_or_else(bad)?;
        let flags = u32_at(h + 8).ok_or_else(bad)?;
        let size = u32_at(h + 20).ok_or_else(bad)?;
        const WRITE: u64 = 1;
        const ALLOC: u64 = 2;
        const EXEC: u64 = 4;
        const NOBITS: u64 = 8;
        if flags & ALLOC == 0 {
            continue;
        }
        if kind == NOBITS {
            bss += size;
        } else if flags & EXEC != 0 {
            text += size;
        } else if flags & WRITE != 0 {
            data += size;
        } else {
            rodata += size;
        }
    }
    Ok(BTreeMap::from([
        ("text", text),
        ("rodata", rodata.saturating_sub(pack_len)),
        ("pack", pack_len),
        ("data", data),
        ("bss", bss),
    ]))
}

pub(super) fn read_golden() -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(golden_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect()
}

pub(super) fn write_golden(figures: &BTreeMap<String, u64>) -> Result<(), String> {
    let mut text = String::from(
        "# Firmware budget: sizes in bytes (per target; `minimal.*` the minimal firmware at opt-level\n\
         # `s` without default features), instructions under `qemu -icount shift=0` and stack bytes (per board and target).\n\
         # `cargo xtask size` fails when a figure grows by more than 1 %; `cargo xtask size\n\
         # --overwrite` re-blesses this file after a deliberate change.\n",
    );
    for (k, v) in figures {
        let _ = writeln!(text, "{k} {v}");
    }
    std::fs::write(golden_path(), text).map_err(|e| format!("{}: {e}", golden_path().display()))
}
