//! Who acts and whether to believe them: the actor, attribution of writes, signing keys and
//! signatures, the server's bearer tokens, and the secret checks every write passes.

pub mod attribution;
pub mod identity;
pub mod keys;
pub mod secrets;
pub mod signatures;
pub mod tokens;
