//! The conformance descriptor of §11.5: the protocol version, the level and the capabilities
//! (§10.2) this build implements. Every transport (`relay conformance`, the MCP tool
//! `conformance`) serves this one value.

use serde::Serialize;

/// What §11.5 publishes at `/v1/conformance`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Descriptor {
    pub protocol_version: &'static str,
    pub conformance_level: &'static str,
    pub capabilities: Capabilities,
    pub implementation: Implementation,
}

/// The optional capabilities of §10.2, and relay's own extension flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// Relevant pull by semantic and keyword search fused.
    pub hybrid_search: bool,
    /// Relevant pull by semantic (embedding) search.
    pub semantic_search: bool,
    /// Subscribing to changes.
    pub realtime: bool,
    /// Deliverables stored as blobs apart from the package metadata.
    pub blob_storage: bool,
    /// Relevant pull by keyword search: stemmed words and phrases ranked with BM25.
    #[serde(rename = "x-keyword_search")]
    pub keyword_search: bool,
    /// Records may carry `x-expires-at`; reads hide them once it has passed.
    #[serde(rename = "x-expiry")]
    pub expiry: bool,
    /// `relay retract` hides a package or fact from reads, kept in its history.
    #[serde(rename = "x-retraction")]
    pub retraction: bool,
    /// Records signed with OpenSSH Ed25519 keys (SSHSIG over content hashes, beside the
    /// records), checked against an allowed-signers file: `relay verify --signatures`.
    #[serde(rename = "x-signed_records")]
    pub signed_records: bool,
}

impl Capabilities {
    /// Each flag with its name in the descriptor, in the descriptor's order.
    pub fn flags(&self) -> [(&'static str, bool); 8] {
        [
            ("hybrid_search", self.hybrid_search),
            ("semantic_search", self.semantic_search),
            ("realtime", self.realtime),
            ("blob_storage", self.blob_storage),
            ("x-keyword_search", self.keyword_search),
            ("x-expiry", self.expiry),
            ("x-retraction", self.retraction),
            ("x-signed_records", self.signed_records),
        ]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Implementation {
    pub name: &'static str,
    pub version: &'static str,
}

/// What relay actually does: L3 (deposit, pull, facts, review). Relevant pull is keyword
/// search ranked with BM25, and semantic and hybrid search when `semantic` (an embedding model
/// is configured and loads); there is no subscription to changes and no blob store (a
/// deliverable is a path, URL or hash recorded in the package).
pub fn descriptor(semantic: bool) -> Descriptor {
    Descriptor {
        protocol_version: relay_wire::PROTOCOL_VERSION,
        conformance_level: "L3",
        capabilities: Capabilities {
            hybrid_search: semantic,
            semantic_search: semantic,
            realtime: true,
            blob_storage: false,
            keyword_search: true,
            expiry: true,
            retraction: true,
            signed_records: true,
        },
        implementation: Implementation {
            name: "relay",
            version: env!("CARGO_PKG_VERSION"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_descriptor_has_the_shape_of_11_5_and_says_relevant_pull_is_keyword_search() {
        let d = descriptor(false);
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(
            v.to_string(),
            format!(
                r#"{{"protocol_version":"0.1","conformance_level":"L3","capabilities":{{"hybrid_search":false,"semantic_search":false,"realtime":true,"blob_storage":false,"x-keyword_search":true,"x-expiry":true,"x-retraction":true,"x-signed_records":true}},"implementation":{{"name":"relay","version":"{}"}}}}"#,
                env!("CARGO_PKG_VERSION")
            )
        );
        let named: Vec<&str> = d.capabilities.flags().iter().map(|(n, _)| *n).collect();
        let keys: Vec<String> = v["capabilities"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(named, keys, "flags() names every capability, in order");
    }
}
