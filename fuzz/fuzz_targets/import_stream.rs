//! What `relay import -` does before writing: parse the stream and validate every record.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(records) = relay::ops::backup::parse_stream(data, "fuzz") else {
        return;
    };
    for r in records {
        let _ = relay::wire::Package::from_map(r.record.clone());
        let _ = relay::wire::Fact::from_map(r.record.clone());
        let _ = relay::wire::Session::from_map(r.record.clone());
        let _ = relay::wire::Project::from_map(r.record);
    }
});
