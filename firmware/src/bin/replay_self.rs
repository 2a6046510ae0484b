//! The fold scene's replay with every body's self pairs, culled from the images' own
//! self-collision data (see the library's `replay::run_self`): exits with status 0 when every
//! frame matched the host bit for bit.
#![no_std]
#![no_main]

use bdtree_firmware::{replay, report, rt};

#[no_mangle]
fn firmware_main() -> ! {
    let ok = replay::run_self();
    report!("BDTREE result {}", if ok { "ok" } else { "FAILED" });
    rt::exit(ok)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    report!("BDTREE panic: {}", info);
    rt::exit(false)
}
