//! The library's version: the header's macros and `bdtree_version()`, to check one against the
//! other at start-up.

/// The library's version (this header's): major, minor, patch, as `bdtree-c`'s crate version.
pub const BDTREE_VERSION_MAJOR: u32 = 0;

/// Minor version (see `BDTREE_VERSION_MAJOR`).
pub const BDTREE_VERSION_MINOR: u32 = 1;

/// Patch version (see `BDTREE_VERSION_MAJOR`).
pub const BDTREE_VERSION_PATCH: u32 = 0;

/// The header's version as one number, `MAJOR · 1,000,000 + MINOR · 1,000 + PATCH`: what
/// `bdtree_version()` returns when the library linked is the one this header was made with.
/// Check `bdtree_version() == BDTREE_VERSION` once at start-up: the object sizes, constants
/// and statuses of this header are those of one version of the library.
pub const BDTREE_VERSION: u32 =
    BDTREE_VERSION_MAJOR * 1_000_000 + BDTREE_VERSION_MINOR * 1_000 + BDTREE_VERSION_PATCH;

/// The library's version, `MAJOR · 1,000,000 + MINOR · 1,000 + PATCH` (0.1.0 is 1000). Check
/// it against the header's at start-up — `if (bdtree_version() != BDTREE_VERSION)` refuse to
/// run —: the object sizes, constants and statuses of a header are those of one version of the
/// library, and a library of another version may lay its objects out differently.
#[no_mangle]
pub extern "C" fn bdtree_version() -> u32 {
    BDTREE_VERSION
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header's version macros are the crate's version.
    #[test]
    fn the_version_macros_are_the_crate_version() {
        let version =
            std::format!("{BDTREE_VERSION_MAJOR}.{BDTREE_VERSION_MINOR}.{BDTREE_VERSION_PATCH}");
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
        assert_eq!(bdtree_version(), BDTREE_VERSION);
    }
}
