//! Query parameters several route modules read the same way: the session a write records,
//! the search mode a read asks for, and the days a briefing looks back.

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

/// The longest window a digest looks back, as the CLI allows.
const MAX_WINDOW_DAYS: u32 = 36_500;

/// The days a briefing looks back, given as the parameter `name` (14 when not given).
pub(crate) fn window(name: &str, days: Option<u32>) -> Result<u32> {
    match days.unwrap_or(14) {
        d if d <= MAX_WINDOW_DAYS => Ok(d),
        d => Err(Error::InvalidInput(format!(
            "{name} {d} is over {MAX_WINDOW_DAYS}"
        ))),
    }
}
