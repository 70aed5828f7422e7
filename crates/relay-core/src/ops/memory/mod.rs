//! Agent memory over the store: reading lessons and checkpoints back ([`reads`]) and the Agent
//! Memory Protocol's operations ([`amp`]). The memory types themselves (lessons, checkpoints,
//! snippets and their member checks) are pure and live in [`relay_wire::memory`].

pub mod amp;
pub mod reads;
pub mod upsert;
