//! Query parameters several route modules read the same way: the session a write records,
//! and the search mode a read asks for.

use relay_core::search::choice::{self as search, Available};
use relay_core::search::fuse::Mode;
use relay_core::search::model::Model;
use relay_wire::error::Result;
use serde::Deserialize;

/// `?session=`: the session (id or callsign) a write records.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteParams {
    pub session: Option<String>,
}

/// The search mode a relevant pull or a focus asks for (`search=`), chosen as every door
/// chooses it (`relay_core::search::choice`) with the model the server loaded at start.
pub fn search_mode(asked: Option<&str>, model: Option<&Model>) -> Result<Mode> {
    Ok(search::choose(asked, || Available::from(model))?.mode)
}
