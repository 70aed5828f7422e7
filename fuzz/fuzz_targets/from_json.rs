//! What `relay deposit --from` does with its input: parse one object, then validate it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = relay::cli::cmd::deposit::parse_package_json(data, "fuzz") {
        if let Ok(p) = relay::wire::Package::from_map(map) {
            let _ = p.content_hash();
            let _ = relay::wire::secrets::scan_record(p.as_map());
        }
    }
});
