//! `relay deposit`: record a context package from flags, a JSON package (`--from`), or prompts.

use relay_core::request::shape_error;
use std::io::Read;

use clap::Args;
use serde_json::{Map, Value};

use crate::cli::args::ExpiryArgs;
use crate::cli::context::{ActorArgs, CliError, CmdResult, Ctx, SessionArg};
use crate::cli::render;
use crate::cli::ui::Ui;
use relay_core::ops::{self, packages::deposit::extend};
use relay_core::request::deposit::{DepositRequest, Form};
use relay_wire::error::Error;
use relay_wire::package;

/// Record a context package: what you did, decided, left open, and who should pick it up
///
/// Packages are immutable. relay fills in the id, time, project, protocol version and your
/// identity (with the git commit when run inside a work tree). Scripts and other tools can pass
/// a whole or partial wire package as JSON with --from; flags then override its fields (list
/// flags add to its lists). Re-depositing the same package_id with identical content is a
/// harmless no-op; different content is refused (duplicate_package_id).
///
/// Without --title and on a terminal, relay asks for the fields interactively.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  relay deposit --title \"Switched sessions to Redis\" --type decision \\
      --decision \"Redis over Postgres for sessions: 10x fewer writes\" \\
      --question \"Do we need persistence across restarts?\" \\
      --handoff \"Load test before Friday\" --next-actor agent --tag infra
  echo '{\"title\": \"Nightly eval\", \"package_type\": \"analysis\"}' | relay deposit --from -
  relay deposit --title \"Spec draft\" --deliverable docs/spec.md --content-md notes.md")]
pub struct DepositArgs {
    /// One-line summary (1–200 characters)
    #[arg(long)]
    pub title: Option<String>,
    /// Longer prose
    #[arg(long)]
    pub description: Option<String>,
    /// Package type: standard, milestone, decision, handoff, auto_deposit, analysis, question,
    /// orchestrator_report, or an x-* extension
    #[arg(long = "type", value_name = "TYPE")]
    pub package_type: Option<String>,
    /// Lifecycle status (default: complete)
    #[arg(long, value_parser = package::STATUSES.to_vec())]
    pub status: Option<String>,
    /// Who must review it (default: none)
    #[arg(long, value_name = "WHO", value_parser = package::REVIEW_TYPES.to_vec())]
    pub review: Option<String>,
    /// A label (repeatable)
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// A decision made (repeatable)
    #[arg(long = "decision", value_name = "TEXT")]
    pub decisions: Vec<String>,
    /// An open question (repeatable)
    #[arg(long = "question", value_name = "TEXT")]
    pub questions: Vec<String>,
    /// Guidance for whoever picks this up next
    #[arg(long, value_name = "TEXT")]
    pub handoff: Option<String>,
    /// Who should pick it up next
    #[arg(long, value_name = "WHO", value_parser = package::NEXT_ACTORS.to_vec())]
    pub next_actor: Option<String>,
    /// A file, folder or URL produced (repeatable); files get their sha256 and size recorded
    #[arg(long = "deliverable", value_name = "PATH")]
    pub deliverables: Vec<String>,
    /// The package this one corrects or extends
    #[arg(long = "parent", value_name = "PKG")]
    pub parent: Option<String>,
    /// 1 (noise) to 10 (critical); default 5
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(1..=10))]
    pub significance: Option<i64>,
    /// Subject area, e.g. retrieval
    #[arg(long)]
    pub topic: Option<String>,
    /// A narrower type hint than --type
    #[arg(long, value_name = "TYPE")]
    pub artifact_type: Option<String>,
    /// A Markdown body, read from FILE or - (stdin)
    #[arg(long, value_name = "FILE|-")]
    pub content_md: Option<String>,
    /// An x-* extension field (repeatable); VALUE is parsed as JSON when it parses, else a string
    #[arg(long = "ext", value_name = "KEY=VALUE")]
    pub ext: Vec<String>,
    /// Read a whole or partial wire package (JSON) from FILE or - (stdin)
    #[arg(long, value_name = "FILE|-")]
    pub from: Option<String>,
    /// Use this package_id instead of a new one (makes retries idempotent)
    #[arg(long, value_name = "PKG")]
    pub id: Option<String>,
    /// Take the package as the Agentic Protocol does (§8.1), as `relay serve` does: every
    /// required member given (package_id, project_id, relay_version, title, status,
    /// package_type, review_type, created_at, created_by), usually with --from; relay fills
    /// nothing in, and a package missing one is refused (invalid_schema)
    #[arg(long, conflicts_with = "auto")]
    pub strict: bool,
    /// For hooks: record the new commit, or else the uncommitted changes, or nothing if
    /// nothing is new. Never fails: problems go to stderr and the exit code is 0
    #[arg(long, conflicts_with_all = ["title", "from"])]
    pub auto: bool,
    /// With --auto, for git hooks: write into this clone's queue (.relay/local/pending/, which
    /// git never sees) instead of the tracked logs; reads see it at once, and the pre-commit
    /// hook (`relay hook flush --stage`) moves it into the store with the next commit. A local
    /// store, or one outside git, is written directly
    #[arg(long, requires = "auto")]
    pub queue: bool,
    #[command(flatten)]
    pub expiry: ExpiryArgs,
    #[command(flatten)]
    pub who: ActorArgs,
    #[command(flatten)]
    pub session: SessionArg,
}

fn read_source(ctx: &Ctx, source: &str, flag: &str) -> Result<Vec<u8>, CliError> {
    if source == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Error::io(format!("cannot read {flag} from stdin"), e))?;
        Ok(buf)
    } else {
        let path = ctx.cwd.join(source);
        std::fs::read(&path).map_err(|e| match e.kind() {
            // A path the user typed that is not there is bad input, not a failure of relay.
            std::io::ErrorKind::NotFound | std::io::ErrorKind::IsADirectory => {
                Error::InvalidInput(format!("{flag} {source}: {e}")).into()
            }
            _ => Error::io(format!("cannot read {flag} {}", path.display()), e).into(),
        })
    }
}

/// Parses `--from` input as one JSON object, reporting where malformed JSON broke.
pub fn parse_package_json(bytes: &[u8], source: &str) -> Result<Map<String, Value>, Error> {
    match relay_wire::strict::from_slice(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Error::InvalidInput(format!(
            "{source} must hold one JSON object (a package), not {}",
            relay_wire::validate::kind(&other)
        ))),
        Err(e) => Err(Error::malformed_json(source.to_string(), &e)),
    }
}

fn set(map: &mut Map<String, Value>, key: &str, value: Option<String>) {
    if let Some(v) = value {
        map.insert(key.to_string(), Value::String(v));
    }
}

/// Builds the partial package from `--from` and the flags, through the core's request.
fn build_input(ctx: &Ctx, args: &mut DepositArgs) -> Result<Map<String, Value>, CliError> {
    if args.from.as_deref() == Some("-") && args.content_md.as_deref() == Some("-") {
        return Err(CliError::Usage(
            "--from - and --content-md - cannot both read stdin; give one a file".into(),
        ));
    }
    let map = match &args.from {
        Some(src) => {
            let name = if src == "-" {
                "--from (stdin)".to_string()
            } else {
                format!("--from {src}")
            };
            let bytes = read_source(ctx, src, "--from")?;
            ctx.store()?
                .config()
                .limits()
                .check_input(&name, bytes.len())
                .map_err(Error::InvalidInput)?;
            parse_package_json(&bytes, &name)?
        }
        None => Map::new(),
    };
    let content_md = match args.content_md.take() {
        Some(src) => {
            let bytes = read_source(ctx, &src, "--content-md")?;
            let text = String::from_utf8(bytes).map_err(|_| {
                Error::InvalidInput(format!("--content-md {src} is not UTF-8 text"))
            })?;
            Some(text)
        }
        None => None,
    };
    let request = DepositRequest {
        title: args.title.take(),
        description: args.description.take(),
        package_type: args.package_type.take(),
        status: args.status.take(),
        review_type: args.review.take(),
        tags: std::mem::take(&mut args.tags),
        decisions_made: std::mem::take(&mut args.decisions),
        open_questions: std::mem::take(&mut args.questions),
        handoff_note: args.handoff.take(),
        estimated_next_actor: args.next_actor.take(),
        deliverables: std::mem::take(&mut args.deliverables),
        parent_package_id: args.parent.take(),
        significance: args.significance,
        topic: args.topic.take(),
        artifact_type: args.artifact_type.take(),
        content_md,
        package_id: args.id.take(),
        package: Some(map),
        strict: args.strict,
    };
    request.validate()?;
    let mut deliverables = Vec::new();
    for (path, d) in path_deliverables(ctx, request.deliverables.clone())? {
        if !d.exists {
            ctx.ui.note(&format!(
                "note: deliverable `{path}` does not exist here; recorded without hash or size"
            ));
        }
        deliverables.push(d.value);
    }
    let mut map = request.into_input(deliverables)?;
    if let Some(at) = args.expiry.resolve()? {
        map.insert(relay_wire::expiry::EXPIRES_AT.into(), Value::String(at));
    }
    for kv in std::mem::take(&mut args.ext) {
        let (key, raw) = kv
            .split_once('=')
            .ok_or_else(|| shape_error("--ext", format!("takes KEY=VALUE (got `{kv}`)")))?;
        if !key.starts_with("x-") || key.len() < 3 {
            let why = format!(
                "keys must be extension fields starting with `x-` (got `{key}`); core fields have their own flags"
            );
            return Err(shape_error("--ext", why).into());
        }
        let value =
            ext_value(raw).map_err(|e| Error::malformed_json(format!("--ext {key}"), &e))?;
        map.insert(key.to_string(), value);
    }
    Ok(map)
}

/// Deliverables for paths (relative to the working folder) or URLs, each with its path.
fn path_deliverables(
    ctx: &Ctx,
    paths: Vec<String>,
) -> Result<Vec<(String, ops::packages::deposit::PathDeliverable)>, CliError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    Ok(ops::packages::deposit::deliverables_for_paths(
        ctx.store()?,
        &ctx.cwd,
        paths,
        false,
    )?)
}

/// An `--ext` value: JSON when it parses, else the text. A number keeps the digits typed (`1.10`,
/// a 25-digit id); one whose JSON text would differ from what was typed (`1E5`) stays text, so
/// nothing typed is lost. JSON that repeats a key or holds a NUL is an error, as in `--from`.
fn ext_value(raw: &str) -> Result<Value, serde_json::Error> {
    Ok(match relay_wire::strict::from_str(raw) {
        Ok(Value::Number(n)) if n.to_string() != raw.trim() => Value::String(raw.to_string()),
        Ok(v) => v,
        Err(e) if serde_json::from_str::<serde::de::IgnoredAny>(raw).is_ok() => return Err(e),
        Err(_) => Value::String(raw.to_string()),
    })
}

/// Asks for the fields a person would give, on a terminal.
fn prompt(map: &mut Map<String, Value>) -> Result<(), CliError> {
    use dialoguer::{Input, Select};
    let failed = |e: dialoguer::Error| CliError::Usage(format!("prompt failed: {e}"));
    let title: String = Input::new()
        .with_prompt("Title (what did you do?)")
        .validate_with(|t: &String| {
            let n = t.chars().count();
            if (1..=package::TITLE_MAX_CHARS).contains(&n) {
                Ok(())
            } else {
                Err("1–200 characters")
            }
        })
        .interact_text()
        .map_err(failed)?;
    map.insert("title".into(), Value::String(title));
    if !map.contains_key("package_type") {
        let i = Select::new()
            .with_prompt("Type")
            .items(package::PACKAGE_TYPES)
            .default(0)
            .interact()
            .map_err(failed)?;
        map.insert(
            "package_type".into(),
            Value::String(package::PACKAGE_TYPES[i].into()),
        );
    }
    let optional = |label: &str| -> Result<String, CliError> {
        Input::<String>::new()
            .with_prompt(label)
            .allow_empty(true)
            .interact_text()
            .map_err(failed)
    };
    if !map.contains_key("description") {
        set(
            map,
            "description",
            Some(optional("Description (optional)")?).filter(|s| !s.is_empty()),
        );
    }
    for (key, label) in [
        ("decisions_made", "Decision"),
        ("open_questions", "Open question"),
    ] {
        let mut items = Vec::new();
        loop {
            let s = optional(&format!("{label} (empty to finish)"))?;
            if s.is_empty() {
                break;
            }
            items.push(Value::String(s));
        }
        extend(map, key, items)?;
    }
    if !map.contains_key("handoff_note") {
        set(
            map,
            "handoff_note",
            Some(optional("Handoff note (optional)")?).filter(|s| !s.is_empty()),
        );
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: DepositArgs) -> CmdResult {
    if !args.auto {
        return deposit(ctx, args);
    }
    // A hook must never block or fail the commit (or the agent): report and carry on.
    match auto(ctx, args) {
        Err(CliError::Output(e)) => Err(CliError::Output(e)),
        Err(e) => {
            let (code, message, _) = e.describe();
            let message = format!("deposit --auto skipped: {message}");
            ctx.ui.tolerated_error(code, &message);
            Ok(())
        }
        ok => ok,
    }
}

fn auto(ctx: &mut Ctx, mut args: DepositArgs) -> CmdResult {
    if args.queue {
        ctx.queue_writes()?;
    }
    let store = ctx.store()?;
    // Package ids are unique in the whole store: one deposited into any project is taken.
    let deposited =
        |id: &str| -> relay_wire::Result<bool> { Ok(!store.package_everywhere(id)?.is_empty()) };
    let found = match ops::agents::auto::build(&ctx.cwd, &deposited)? {
        ops::agents::auto::Found::Package(found) => found,
        ops::agents::auto::Found::Nothing(why) => {
            ctx.ui.note(&why);
            return Ok(());
        }
    };
    if args.who.actor.is_none() {
        args.who.actor = found.author;
    }
    let mut input = found.package;
    input.extend(build_input(ctx, &mut args)?);
    finish(ctx, args, input)
}

fn deposit(ctx: &mut Ctx, mut args: DepositArgs) -> CmdResult {
    let input = build_input(ctx, &mut args)?;
    finish(ctx, args, input)
}

fn finish(ctx: &mut Ctx, args: DepositArgs, mut input: Map<String, Value>) -> CmdResult {
    let store = ctx.store()?;
    let project_id = ctx.target_project(&input)?;
    if input.get("title").is_none_or(Value::is_null) {
        if args.from.as_deref() != Some("-") && !args.strict && Ui::can_prompt() {
            // Fail before asking anything if the deposit cannot land.
            if ops::projects::get(store, &project_id)?.is_archived() {
                return Err(Error::ProjectArchived(project_id).into());
            }
            prompt(&mut input)?;
        } else {
            return Err(relay_core::request::deposit::missing_title().into());
        }
    }
    let form = Form::of(args.strict);
    let claim = args.who.claim(&args.session);
    let selected = ctx.global.project.clone();
    let default = || Ok(project_id.clone());
    let done = ctx
        .relay()?
        .deposit_package(&claim, selected.as_deref(), default, input, form)?;
    render::deposited(&mut ctx.ui, &done)
}
