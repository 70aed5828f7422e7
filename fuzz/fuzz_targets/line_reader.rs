//! The log reader must never panic, and must hand on only JSON objects.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let diag = relay::store::Diagnostics::default();
    let mut seen = 0u64;
    let _ = relay::store::ndjson::read_objects_from(
        data,
        std::path::Path::new("fuzz.ndjson"),
        &diag,
        None,
        &mut |line, _| {
            assert!(line > seen);
            seen = line;
            Ok(())
        },
    );
});
