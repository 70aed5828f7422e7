//! Context packages (§5, §8.1, §8.2, §8.5): depositing them, reading them back (by id, by
//! month, as of a time), their review and retraction, and the files their deliverables name.

pub mod deposit;
pub mod git_ignored;
pub mod months;
pub mod pull;
pub mod retract;
pub mod review;
pub mod snapshot;
pub mod snippet_source;
pub mod stale;
pub mod work_tree;
