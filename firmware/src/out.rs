//! Lines to the host over semihosting: `report!` formats into a buffer and writes it whole.

/// A line buffer implementing `core::fmt::Write`; a line longer than the buffer is cut.
pub struct Line {
    buf: [u8; 256],
    len: usize,
}

impl Line {
    /// An empty line.
    pub const fn new() -> Self {
        Self {
            buf: [0; 256],
            len: 0,
        }
    }

    /// Writes the line and a newline to the host.
    pub fn flush(&mut self) {
        let _ = core::fmt::Write::write_str(self, "\n");
        crate::rt::write(self.buf.get(..self.len).unwrap_or(&[]));
        self.len = 0;
    }
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

/// Prints a formatted line to the host.
#[macro_export]
macro_rules! report {
    ($($arg:tt)*) => {{
        let mut line = $crate::out::Line::new();
        let _ = core::fmt::Write::write_fmt(&mut line, format_args!($($arg)*));
        line.flush();
    }};
}
