//! The protocol's wire types, their validation, canonical JSON and hashing, ids and time.
//! Pure: nothing here touches files.
//! It also holds the one table of error codes ([`Code`]) every transport answers with, and the
//! [`Error`] the lower layers return.

pub mod error;
pub use error::{Code, Error, ErrorKind, Result};

/// Declares a wire record: a JSON object kept exactly as it arrived, valid by construction.
macro_rules! wire_record {
    ($(#[$doc:meta])* $name:ident, $validate:path) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(serde_json::Map<String, serde_json::Value>);

        impl $name {
            /// Validates a JSON value and wraps it.
            pub fn from_value(value: serde_json::Value) -> Result<Self, crate::error::SchemaError> {
                let map = $crate::validate::into_object(value, stringify!($name))?;
                Self::from_map(map)
            }

            pub fn from_map(
                map: serde_json::Map<String, serde_json::Value>,
            ) -> Result<Self, crate::error::SchemaError> {
                $validate(&map)?;
                Ok($name(map))
            }

            pub fn as_map(&self) -> &serde_json::Map<String, serde_json::Value> {
                &self.0
            }

            pub fn into_map(self) -> serde_json::Map<String, serde_json::Value> {
                self.0
            }

            pub fn to_value(&self) -> serde_json::Value {
                serde_json::Value::Object(self.0.clone())
            }

            /// A string member, or `None` when absent, `null` or not a string.
            pub fn str_field(&self, name: &str) -> Option<&str> {
                self.0.get(name).and_then(serde_json::Value::as_str)
            }

            /// A string-list member; absent means empty.
            pub fn list(&self, name: &str) -> Vec<&str> {
                match self.0.get(name) {
                    Some(serde_json::Value::Array(items)) => {
                        items.iter().filter_map(serde_json::Value::as_str).collect()
                    }
                    _ => Vec::new(),
                }
            }
        }
    };
}

pub mod allowed_signers;
pub mod amp;
pub mod canonical;
pub mod expiry;
pub mod fact;
pub mod ids;
pub mod key_rotation;
pub mod limits;
pub mod memory;
pub mod package;
pub mod project;
#[cfg(test)]
pub(crate) mod props;
pub mod secrets;
pub mod session;
pub mod signature;
#[cfg(any(test, feature = "proptest"))]
pub mod strategies;
pub mod strict;
pub mod text;
pub mod time;
pub mod tree;
pub mod validate;

pub use fact::Fact;
pub use package::{Package, Status};
pub use project::Project;
pub use session::Session;

/// The protocol version relay implements and writes into every package.
pub const PROTOCOL_VERSION: &str = "0.1";

/// Actor kinds (§4, §6.2).
pub const ACTOR_TYPES: &[&str] = &["human", "agent", "script"];
