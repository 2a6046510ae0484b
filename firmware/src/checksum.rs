//! The float checksum the replay compares with the host: an order-independent sum (wrapping)
//! of one mixed word per computed value — a node's world sphere, a triangle's deformed world
//! vertices — keyed by where it belongs, so that host and target agree when every computed bit
//! does, whatever order the traversals visit things in. Shared with `xtask` (which computes the
//! host's side) by `#[path]`; u32 arithmetic only, cheap on a Cortex-M0.

/// The word of one computed value: `key` says whose it is (body and node or triangle), `bits`
/// are its floats' bit patterns.
pub fn mix(key: u32, bits: &[u32]) -> u32 {
    let mut h = key.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
    for &b in bits {
        h = (h ^ b).wrapping_mul(0x0100_0193);
        h ^= h >> 15;
    }
    h
}

/// Key of a node's sphere of body `body`.
pub fn sphere_key(body: u32, node: u32) -> u32 {
    (body << 24) ^ node
}

/// Key of a triangle's deformed vertices of body `body`.
pub fn triangle_key(body: u32, triangle: u32) -> u32 {
    (body << 24) ^ triangle ^ 0x0080_0000
}
