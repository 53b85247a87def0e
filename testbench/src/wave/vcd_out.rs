//! What the scenarios' VCD writers share: rust-hdl's VCD with its timescale turned into nanoseconds
//! ([`NsTimescale`]) and a value as VCD bits (`bits_of`).

use std::io::Write;

/// A writer that passes everything through but turns a first line `$timescale 1 ps $end` (rust-hdl's fixed
/// VCD timescale) into `$timescale 1 ns $end`.
pub(crate) struct NsTimescale<W: Write> {
    inner: W,
    head: Option<Vec<u8>>,
}

impl<W: Write> NsTimescale<W> {
    pub(crate) fn new(inner: W) -> Self {
        NsTimescale {
            inner,
            head: Some(Vec::new()),
        }
    }
}

impl<W: Write> Write for NsTimescale<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Some(head) = self.head.as_mut() else {
            return self.inner.write(buf);
        };
        head.extend_from_slice(buf);
        if let Some(nl) = head.iter().position(|&b| b == b'\n') {
            let head = self.head.take().expect("present");
            let (line, rest) = head.split_at(nl + 1);
            if line.trim_ascii() == b"$timescale 1 ps $end" {
                self.inner.write_all(b"$timescale 1 ns $end\n")?;
            } else {
                self.inner.write_all(line)?;
            }
            self.inner.write_all(rest)?;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(head) = self.head.take() {
            self.inner.write_all(&head)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for NsTimescale<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// `x` as `w` VCD bits, most significant first.
pub(crate) fn bits_of(x: u128, w: usize) -> Vec<vcd::Value> {
    (0..w)
        .rev()
        .map(|b| {
            if (x >> b) & 1 == 1 {
                vcd::Value::V1
            } else {
                vcd::Value::V0
            }
        })
        .collect()
}
