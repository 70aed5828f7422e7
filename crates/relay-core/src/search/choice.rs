//! How a search is ranked, chosen one way for every door: the mode asked for (keyword,
//! semantic, hybrid) against the embedding model there is. By default hybrid when a model
//! loads, else keyword; semantic or hybrid asked for without a model is
//! `search_not_supported`. The model is loaded only if the mode may need it.

use std::path::PathBuf;

use crate::request::search::parse_mode;
use crate::search::fuse::Mode;
use crate::search::model::Model;
use crate::search::semantic::ModelState;
use relay_wire::error::{Error, Result};

/// The embedding model a door has: loaded, none configured, or configured and broken.
#[derive(Debug)]
pub enum Available<M> {
    Loaded(M),
    None,
    Broken { path: PathBuf, reason: String },
}

impl From<ModelState> for Available<Model> {
    fn from(state: ModelState) -> Self {
        match state {
            ModelState::Loaded(m) => Available::Loaded(*m),
            ModelState::None => Available::None,
            ModelState::Broken { path, reason } => Available::Broken { path, reason },
        }
    }
}

impl<M> From<Option<M>> for Available<M> {
    fn from(model: Option<M>) -> Self {
        model.map_or(Available::None, Available::Loaded)
    }
}

/// Why a search given no mode fell back to keyword search.
#[derive(Debug, PartialEq, Eq)]
pub enum FellBack {
    /// No model is configured.
    NoModel,
    /// The configured model does not load.
    Broken { path: PathBuf, reason: String },
}

/// The mode a search runs in, with its model, and why it fell back to keyword if it did.
#[derive(Debug)]
pub struct Chosen<M> {
    pub mode: Mode,
    pub model: Option<M>,
    pub fell_back: Option<FellBack>,
}

impl Chosen<Model> {
    /// Why the search's query will be embedded by the model's static table although the
    /// model ships a transformer for it ([`Model::query_notice`]); `None` for keyword search.
    /// The query side loads here rather than at the query: the search embeds one next.
    pub fn query_notice(&self) -> Option<String> {
        let searching = self.mode != Mode::Keyword;
        self.model.as_ref().filter(|_| searching)?.query_notice()
    }
}

/// Chooses the mode to search in: keyword needs no model (`load` is not called); an explicit
/// semantic or hybrid needs one that loads; no mode asked for is hybrid with a model, else
/// keyword, saying why.
pub fn choose<M>(asked: Option<&str>, load: impl FnOnce() -> Available<M>) -> Result<Chosen<M>> {
    let asked = parse_mode(asked)?;
    if asked == Some(Mode::Keyword) {
        return Ok(keyword(None));
    }
    match (asked, load()) {
        (Some(mode), Available::Loaded(m)) => Ok(Chosen {
            mode,
            model: Some(m),
            fell_back: None,
        }),
        (None, Available::Loaded(m)) => Ok(Chosen {
            mode: Mode::Hybrid,
            model: Some(m),
            fell_back: None,
        }),
        (Some(mode), Available::None) => Err(Error::SearchNotSupported(format!(
            "{} search needs an embedding model, and none is configured: pass --model PATH (to relay search, pull, serve or mcp), set RELAY_MODEL, or set `[search] model = \"PATH\"` in .relay/config.toml (see `relay search --help`)",
            mode.as_str()
        ))),
        (Some(mode), Available::Broken { path, reason }) => {
            Err(Error::SearchNotSupported(format!(
                "{} search needs an embedding model, and the one at {} does not load: {reason}",
                mode.as_str(),
                path.display()
            )))
        }
        (None, Available::None) => Ok(keyword(Some(FellBack::NoModel))),
        (None, Available::Broken { path, reason }) => {
            Ok(keyword(Some(FellBack::Broken { path, reason })))
        }
    }
}

fn keyword<M>(fell_back: Option<FellBack>) -> Chosen<M> {
    Chosen {
        mode: Mode::Keyword,
        model: None,
        fell_back,
    }
}

/// [`choose`] with the model a door was given (`--model`, RELAY_MODEL), else the store's
/// `[search] model`, loaded only if the mode may need it.
pub fn choose_in(
    store: &relay_store::Store,
    asked: Option<&str>,
    given: Option<PathBuf>,
) -> Result<Chosen<Model>> {
    let choice = crate::search::semantic::ModelChoice { given };
    choose(asked, || {
        crate::search::semantic::load_model(Some(store), &choice).into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> Available<()> {
        panic!("keyword search loads no model")
    }

    #[test]
    fn keyword_loads_nothing_and_the_default_follows_the_model() {
        assert_eq!(choose(Some("keyword"), never).unwrap().mode, Mode::Keyword);
        let with = choose(None, || Available::Loaded(())).unwrap();
        assert_eq!((with.mode, with.fell_back), (Mode::Hybrid, None));
        let without = choose::<()>(None, || Available::None).unwrap();
        assert_eq!(
            (without.mode, without.fell_back),
            (Mode::Keyword, Some(FellBack::NoModel))
        );
    }

    #[test]
    fn a_mode_that_needs_a_model_is_refused_without_one() {
        let e = choose::<()>(Some("semantic"), || Available::None).unwrap_err();
        assert_eq!(e.code(), "search_not_supported");
        let e = choose::<()>(Some("fuzzy"), never).unwrap_err();
        assert_eq!(e.code(), "invalid_input");
    }
}
