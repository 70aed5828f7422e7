//! What `relay import -` does before writing: read each line as a record and validate it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        let Ok((_, record, _)) = relay::ops::import::parse_record(line, &"fuzz") else {
            continue;
        };
        let _ = relay::wire::Package::from_map(record.clone());
        let _ = relay::wire::Fact::from_map(record.clone());
        let _ = relay::wire::Session::from_map(record.clone());
        let _ = relay::wire::Project::from_map(record);
    }
});
