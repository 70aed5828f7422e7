//! Query parameters several route modules read the same way: the session a write records,
//! and the search mode a read asks for.

use relay_core::search::fuse::Mode;
use relay_core::search::model::Model;
use relay_wire::error::{Error, Result};
use serde::Deserialize;

/// `?session=`: the session (id or callsign) a write records.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteParams {
    pub session: Option<String>,
}

/// The search mode a relevant pull or a focus asks for (`search=`): by default hybrid when a
/// model is loaded, else keyword; semantic or hybrid without one is `search_not_supported`.
pub fn search_mode(asked: Option<&str>, model: Option<&Model>) -> Result<Mode> {
    let mode = match asked {
        None => {
            return Ok(if model.is_some() {
                Mode::Hybrid
            } else {
                Mode::Keyword
            });
        }
        Some(m) => Mode::parse(m).ok_or_else(|| {
            Error::InvalidInput(format!(
                "search `{m}` is not one of keyword, semantic, hybrid"
            ))
        })?,
    };
    if mode.needs_model() && model.is_none() {
        return Err(Error::SearchNotSupported(format!(
            "{} search needs an embedding model, and this server has none: start it with \
             --model PATH (or RELAY_MODEL, or `[search] model` in .relay/config.toml)",
            mode.as_str()
        )));
    }
    Ok(mode)
}
