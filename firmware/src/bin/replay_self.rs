//! The fold scene's replay with every body's self pairs, culled from the images' own
//! self-collision data (see the library's `replay::run_self`): exits with status 0 when every
//! frame matched the host bit for bit.
#![no_std]
#![no_main]

bdtree_firmware::replay_main!(bdtree_firmware::replay::run_self);
