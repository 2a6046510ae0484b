//! CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`) — the tree image checksum.
//!
//! Table-driven with a 1 KiB table computed at compile time: one table lookup, one shift and one
//! xor per byte.

const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The CRC-32 of `bytes` (the same value as zlib's `crc32`).
pub fn crc32(bytes: &[u8]) -> u32 {
    !crc32_extend(!0, bytes)
}

/// Feeds more bytes to a running (pre-inverted) CRC register.
pub(crate) fn crc32_extend(mut crc: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        crc = TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn matches_the_standard_check_value() {
        // The check value of CRC-32/ISO-HDLC for the ASCII string "123456789".
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
