//! Reader of the fixture pack that `cargo xtask firmware-pack` writes (the layout is documented
//! in `xtask/src/firmware.rs`). Every read is checked: a short or malformed pack makes the run
//! fail, it never panics.

/// A cursor over the pack's bytes.
#[derive(Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes` from the pack's start (alignment is relative to it).
    base: usize,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of the pack.
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            pos: 0,
            base: 0,
        }
    }

    /// The next `len` bytes.
    pub fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(len)?;
        let part = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(part)
    }

    /// The next `len` bytes as a reader of their own (a scene), skipping them here.
    pub fn sub(&mut self, len: usize) -> Option<Reader<'a>> {
        let base = self.base.checked_add(self.pos)?;
        let bytes = self.bytes(len)?;
        Some(Reader {
            bytes,
            pos: 0,
            base,
        })
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        let word: [u8; 4] = self.bytes(4)?.try_into().ok()?;
        Some(u32::from_le_bytes(word))
    }

    /// A `u32` as a `usize`.
    pub fn usize(&mut self) -> Option<usize> {
        self.u32().map(|x| x as usize)
    }

    /// An `f32` stored as its bits.
    pub fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }

    /// Skips padding up to the next multiple of `to` (a power of two) from the pack's start.
    pub fn align(&mut self, to: usize) -> Option<()> {
        let at = self.base.checked_add(self.pos)?;
        let pad = at.wrapping_neg() & to.wrapping_sub(1);
        self.bytes(pad).map(|_| ())
    }
}
