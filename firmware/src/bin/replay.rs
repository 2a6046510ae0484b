//! The fixture replay (see the library's `replay` module): exits with status 0 when every frame
//! of every scene matched the host.
#![no_std]
#![no_main]

use bdtree_firmware::{replay, report, rt};

#[no_mangle]
fn firmware_main() -> ! {
    let ok = replay::run();
    report!("BDTREE result {}", if ok { "ok" } else { "FAILED" });
    rt::exit(ok)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    report!("BDTREE panic: {}", info);
    rt::exit(false)
}
