//! Whether to believe who acts: the actor and its identity, signing keys and signatures, the
//! server's bearer tokens, and the secret checks every write passes. These are the low-level
//! checks the operations call; attributing a write to its writer, which calls the operations
//! (deposit, assert, review), is [`super::attribution`], above them.

pub mod authority;
pub mod identity;
pub mod keys;
pub mod seal;
pub mod secrets;
pub mod signatures;
pub mod signers;
pub mod tokens;
