//! What a session is handed: orient (§8.3) and orchestrate (§8.4), and their briefings as
//! Markdown within a character budget.

pub mod budget;
pub mod markdown;
pub mod orchestrate;
pub mod orient;
pub mod orient_fit;
#[cfg(test)]
mod props;
