//! Limits on what relay accepts, so that hostile or broken input gets a clear error instead
//! of an unbounded store: the size of a package and of an input line, nesting depth, and the
//! number of elements of an array. All configurable in `config.toml`.

use super::tree::{Node, Object, View};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub package_bytes: u64,
    pub line_bytes: u64,
    pub depth: u64,
    pub array_len: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            package_bytes: 1 << 20,
            line_bytes: 2 << 20,
            depth: 32,
            array_len: 10_000,
        }
    }
}

fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
    } else if bytes >= 1 << 10 {
        format!("{:.1} KiB", bytes as f64 / (1 << 10) as f64)
    } else {
        format!("{bytes} bytes")
    }
}

impl Limits {
    /// Checks an input's size before it is parsed.
    pub fn check_input(&self, what: &str, len: usize) -> Result<(), String> {
        if len as u64 > self.line_bytes {
            return Err(format!(
                "{what} is {}, over the limit of {} (max_line_bytes in config.toml)",
                human(len as u64),
                human(self.line_bytes)
            ));
        }
        Ok(())
    }

    /// Checks a record: its compact size, nesting and arrays. `what` names it in the error.
    pub fn check_record<O: Object + serde::Serialize>(
        &self,
        what: &str,
        record: &O,
    ) -> Result<(), String> {
        self.check_parsed_record(what, record, usize::MAX)
    }

    /// [`Limits::check_record`] for a record parsed from `text_len` bytes of JSON. Its compact
    /// form is at most eight times as long (only a number can grow, as `1e5` becomes
    /// `100000.0`), so its size is counted only when that bound is over the limit.
    pub fn check_parsed_record<O: Object + serde::Serialize>(
        &self,
        what: &str,
        record: &O,
        text_len: usize,
    ) -> Result<(), String> {
        let size = if (text_len as u64).saturating_mul(8) <= self.package_bytes {
            0
        } else {
            let mut counter = ByteCount(0);
            match serde_json::to_writer(&mut counter, record) {
                Ok(()) => counter.0,
                Err(_) => u64::MAX,
            }
        };
        if size > self.package_bytes {
            return Err(format!(
                "{what} is {}, over the limit of {} (max_package_bytes in config.toml)",
                human(size),
                human(self.package_bytes)
            ));
        }
        let mut worst = (0u64, 0u64);
        for (_, v) in record.members() {
            shape(v, 1, &mut worst);
        }
        if worst.0 > self.depth {
            return Err(format!(
                "{what} nests {} levels deep, over the limit of {} (max_depth)",
                worst.0, self.depth
            ));
        }
        if worst.1 > self.array_len {
            return Err(format!(
                "{what} has an array of {} elements, over the limit of {} (max_array_len)",
                worst.1, self.array_len
            ));
        }
        Ok(())
    }
}

/// The deepest nesting and the longest array under `v`.
fn shape<N: Node>(v: &N, depth: u64, worst: &mut (u64, u64)) {
    worst.0 = worst.0.max(depth);
    match v.view() {
        View::Array(a) => {
            worst.1 = worst.1.max(a.len() as u64);
            a.iter().for_each(|x| shape(x, depth + 1, worst));
        }
        View::Object(m) => m.members().for_each(|(_, x)| shape(x, depth + 1, worst)),
        _ => {}
    }
}

/// Counts the bytes written to it: a record's serialized size without building it.
struct ByteCount(u64);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limits_name_what_is_over() {
        let l = Limits {
            package_bytes: 100,
            line_bytes: 50,
            depth: 3,
            array_len: 4,
        };
        assert!(
            l.check_input("--from", 60)
                .unwrap_err()
                .contains("max_line_bytes")
        );
        let big = json!({"t": "x".repeat(200)});
        assert!(
            l.check_record("the package", big.as_object().unwrap())
                .unwrap_err()
                .contains("max_package_bytes")
        );
        let text = big.to_string();
        assert!(
            l.check_parsed_record("it", big.as_object().unwrap(), text.len())
                .is_err()
        );
        let small = json!({"n": 1e5});
        assert!(
            l.check_parsed_record("it", small.as_object().unwrap(), 3)
                .is_ok()
        );
        let deep = json!({"a": [[[[1]]]]});
        assert!(
            l.check_record("it", deep.as_object().unwrap())
                .unwrap_err()
                .contains("5 levels deep")
        );
        let long = json!({"a": [1, 2, 3, 4, 5]});
        assert!(
            l.check_record("it", long.as_object().unwrap())
                .unwrap_err()
                .contains("array of 5")
        );
        assert!(
            l.check_record("it", json!({"a": [[1, 2]]}).as_object().unwrap())
                .is_ok()
        );
    }
}
