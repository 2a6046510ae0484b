//! Reader of the fixture pack that `cargo xtask firmware-pack` writes (the layout is documented
//! in `xtask/src/firmware.rs`). Every read is checked: a short or malformed pack makes the run
//! fail, it never panics.

/// A cursor over the pack's bytes.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    pub fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(len)?;
        let part = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(part)
    }

    pub fn u32(&mut self) -> Option<u32> {
        let word: [u8; 4] = self.bytes(4)?.try_into().ok()?;
        Some(u32::from_le_bytes(word))
    }

    pub fn usize(&mut self) -> Option<usize> {
        self.u32().map(|x| x as usize)
    }

    pub fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }

    /// Skips padding up to the next multiple of `to` (a power of two) from the pack's start.
    pub fn align(&mut self, to: usize) -> Option<()> {
        let pad = self.pos.wrapping_neg() & (to - 1);
        self.bytes(pad).map(|_| ())
    }
}
