//! Corrupting images on purpose: bytes changed, the checksum made right again, the parse's
//! refusal (the image tests share these).

use bdtree_core::image::{checksum, CHECKSUM_OFFSET};
use bdtree_core::ImageError;
use bdtree_std::io::ImageBuf;

/// Writes the checksum of `bytes` into their header, so that what a change breaks is found by
/// the checks behind the checksum.
pub fn reseal(bytes: &mut [u8]) {
    let crc = checksum(bytes);
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Why `bytes` do not parse as an f32 image (`None` when they do).
pub fn parse_err(bytes: &[u8]) -> Option<ImageError> {
    ImageBuf::from_bytes(bytes).parse::<f32>().err()
}

/// `bytes` with `value` written at byte `at`, resealed.
pub fn patched(bytes: &[u8], at: usize, value: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + value.len()].copy_from_slice(value);
    reseal(&mut b);
    b
}
