//! The fixture replay (see the library's `replay` module): exits with status 0 when every frame
//! of every scene matched the host.
#![no_std]
#![no_main]

bdtree_firmware::replay_main!(bdtree_firmware::replay::run);
