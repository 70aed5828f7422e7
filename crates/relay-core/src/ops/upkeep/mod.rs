//! Looking after a store as a whole: creating it (`relay init`), summarising it (`relay
//! status`) and purging what reads already hide (`relay purge`).

pub mod init;
pub mod purge;
pub mod status;
