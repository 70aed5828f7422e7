//! Arguments more than one command takes, and their parsing: the listing filters
//! ([`FilterArgs`]) of `pull`, `search` and the MCP `pull` tool, how a search ranks
//! ([`ModeArgs`]), and how a Markdown briefing is asked for ([`MarkdownArgs`]).

use clap::Args;
use relay_core::request::number::parse_whole as whole;

use crate::cli::ui::Ui;
use crate::cli::{CliError, Ctx};
use relay_core::request::ListingFilter;
use relay_core::search::choice::{self as search, FellBack};
use relay_core::search::filter::Reveal;
use relay_core::search::fuse::Mode;
use relay_core::search::model::Model;
use relay_core::service::{Listing, Ranking};
use relay_store::Store;
use relay_wire::error::{Code, Error};
use relay_wire::{package, time};

/// How a Markdown view (`orient`, `orchestrate`; built by `ops::briefing::markdown`) is asked for, and
/// the budget it must fit.
#[derive(Debug, Args)]
pub struct MarkdownArgs {
    /// Markdown (the default)
    #[arg(long, conflicts_with = "json")]
    pub md: bool,
    /// Fit the briefing in N characters (Unicode scalar values), dropping the least important
    /// records first; a record is shown whole or not at all
    #[arg(long, value_name = "N", value_parser = whole::<usize>)]
    pub max_chars: Option<usize>,
    /// Fit the briefing in about N tokens, estimated as 4 characters each: the same as
    /// --max-chars 4×N
    #[arg(long, value_name = "N", conflicts_with = "max_chars", value_parser = whole::<usize>)]
    pub max_tokens: Option<usize>,
}

impl MarkdownArgs {
    /// The budget asked for on the command line, in characters.
    pub fn budget(&self) -> Option<usize> {
        self.max_chars.or(self
            .max_tokens
            .map(relay_core::ops::briefing::orient_fit::chars_for_tokens))
    }
}

/// The filters every listing takes.
#[derive(Debug, Args, Clone)]
pub struct FilterArgs {
    /// Only this package type (repeatable: any of them)
    #[arg(long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Only packages with this tag (repeatable: all of them)
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// Only packages created by this actor id (`created_by` on MCP and HTTP)
    #[arg(long = "created-by", visible_alias = "actor", value_name = "ID")]
    pub created_by: Option<String>,
    /// Only packages in this status
    #[arg(long, value_parser = package::STATUSES.to_vec())]
    pub status: Option<String>,
    /// Only packages created at or after TIME
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only packages created before TIME
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Cover every project, not just the selected one
    #[arg(long)]
    pub all_projects: bool,
    /// Show packages whose x-expires-at has passed (hidden otherwise)
    #[arg(long)]
    pub include_expired: bool,
    /// Show packages that `relay retract` has retracted (hidden otherwise)
    #[arg(long)]
    pub include_retracted: bool,
    /// Read the store as it stood at TIME: packages created by then, at the review version
    /// current then; retractions and expiry as of then
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

/// Which hidden records a read of facts shows anyway.
#[derive(Debug, Args, Clone, Default)]
pub struct RevealArgs {
    /// Show facts whose x-expires-at has passed (hidden otherwise)
    #[arg(long)]
    pub include_expired: bool,
    /// Show facts that `relay retract` has retracted (hidden otherwise)
    #[arg(long)]
    pub include_retracted: bool,
}

impl RevealArgs {
    pub fn reveal(&self) -> Reveal {
        Reveal {
            expired: self.include_expired,
            retracted: self.include_retracted,
        }
    }
}

/// When a new record stops being served: stored in it as `x-expires-at`, so it is hashed.
#[derive(Debug, Args, Clone, Default)]
pub struct ExpiryArgs {
    /// Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)
    #[arg(long, value_name = "TIME", conflicts_with = "ttl")]
    pub expires_at: Option<String>,
    /// Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w
    #[arg(long, value_name = "SPAN")]
    pub ttl: Option<String>,
}

impl ExpiryArgs {
    /// The `x-expires-at` text to store, if one was asked for.
    pub fn resolve(&self) -> Result<Option<String>, CliError> {
        relay_wire::expiry::requested(self.expires_at.as_deref(), self.ttl.as_deref(), time::now())
            .map_err(|m| Error::InvalidInput(m).into())
    }
}

impl FilterArgs {
    /// The filters as the core's request reads them.
    pub fn listing(&self) -> ListingFilter {
        ListingFilter {
            types: self.types.clone(),
            tags: self.tags.clone(),
            created_by: self.created_by.clone(),
            status: self.status.clone(),
            since: self.since.clone(),
            until: self.until.clone(),
            all_projects: self.all_projects,
            include_expired: self.include_expired,
            include_retracted: self.include_retracted,
            as_of: self.as_of.clone(),
        }
    }

    /// The projects covered and the filter, with drafts shown to their creator only.
    /// The listing `operation` covers (the selected project, or every one), checked by the
    /// service.
    pub fn resolve(self, ctx: &Ctx, operation: &str) -> Result<Listing, CliError> {
        let projects = ctx.projects(self.all_projects)?;
        Ok(ctx.relay()?.listing(operation, projects, &self.listing())?)
    }
}

/// How a search ranks: its mode and the embedding model semantic and hybrid search use.
#[derive(Debug, Args, Clone, Default)]
pub struct ModeArgs {
    /// keyword (BM25 over the words), semantic (similarity of meaning, with an embedding
    /// model) or hybrid (both lists fused by rank). Default: hybrid when a model is
    /// configured, else keyword (`search` on MCP and HTTP)
    #[arg(long, visible_alias = "search", value_parser = Mode::NAMES)]
    pub mode: Option<String>,
    /// The embedding model's folder (a Model2Vec static model: config.json,
    /// model.safetensors, tokenizer.json; with query/, the transformer that embeds queries,
    /// as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml
    #[arg(long, value_name = "PATH", env = "RELAY_MODEL")]
    pub model: Option<std::path::PathBuf>,
}

/// What `relay search` says, once per clone, when no model is configured.
const SEMANTIC_HINT: &str = "relay: searching by keyword only. For search by meaning, point relay at an embedding model: `[search] model = \"PATH\"` in .relay/config.toml, RELAY_MODEL or --model (see `relay search --help`)";

impl ModeArgs {
    /// The mode to search in, with its model loaded. An explicit semantic or hybrid mode
    /// without a usable model is an error; the default falls back to keyword search, with a
    /// warning when a configured model does not load.
    pub fn resolve(&self, ctx: &Ctx) -> Result<(Mode, Option<Model>), CliError> {
        Ok(self.choose(&ctx.ui, ctx.store()?)?)
    }

    /// How a search ranks, for the service ([`ModeArgs::resolve`] on `store`).
    pub fn ranking(&self, ui: &Ui, store: &Store) -> relay_wire::error::Result<Ranking> {
        let (mode, model) = self.choose(ui, store)?;
        Ok((mode, model.map(std::sync::Arc::new)))
    }

    /// The mode and its model, telling `ui` which was chosen and why.
    fn choose(&self, ui: &Ui, store: &Store) -> relay_wire::error::Result<(Mode, Option<Model>)> {
        let chosen = search::choose_in(store, self.mode.as_deref(), self.model.clone())?;
        if let Some(notice) = chosen.query_notice() {
            report_query_notice(ui, &notice);
        }
        if let Some(fell_back) = chosen.fell_back {
            report_fallback(ui, store, fell_back);
        }
        Ok((chosen.mode, chosen.model))
    }
}

/// Says why queries are embedded by the model's static table although its folder holds a
/// transformer for them ([`Model::query_notice`]): a tolerated error, once per process however
/// many searches meet it.
pub fn report_query_notice(ui: &Ui, notice: &str) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        ui.tolerated_error(Code::SearchNotSupported.as_str(), notice);
    }
}

/// Says why a search given no mode fell back to keyword search: a model that does not load is
/// a tolerated error; no model at all, a hint shown once per clone.
pub fn report_fallback(ui: &Ui, store: &Store, fell_back: FellBack) {
    match fell_back {
        FellBack::Broken { path, reason } => ui.tolerated_error(
            Code::SearchNotSupported.as_str(),
            &format!(
                "the embedding model at {} does not load ({reason}); searching by keyword only",
                path.display()
            ),
        ),
        FellBack::NoModel => {
            let marker = store.local_path("semantic-search-hint");
            if !ui.quiet && !ui.json && !marker.exists() {
                ui.note(SEMANTIC_HINT);
                let _ = relay_store::ndjson::write_atomic(&marker, b"shown\n");
            }
        }
    }
}
