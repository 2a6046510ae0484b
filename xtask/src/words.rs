//! The little-endian words the C API's fixture pack and the firmware's packs are written in
//! (`c/pack.rs`, `firmware/pack.rs`; each adds the writers of its own format).

/// Bytes written as little-endian words.
#[derive(Default)]
pub(crate) struct Words(pub(crate) Vec<u8>);

impl Words {
    /// A `u32`.
    pub(crate) fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    /// A size as a `u32` (an error names one that does not fit).
    pub(crate) fn usize(&mut self, x: usize) -> Result<(), String> {
        self.u32(u32::try_from(x).map_err(|_| format!("{x} does not fit a u32"))?);
        Ok(())
    }

    /// Zeros up to a multiple of `to` bytes.
    pub(crate) fn pad(&mut self, to: usize) {
        while !self.0.len().is_multiple_of(to) {
            self.0.push(0);
        }
    }
}
