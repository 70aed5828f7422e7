//! A summary of the whole store for `relay status`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use relay_store::{Store, Warning};
use relay_wire::error::{Error, Result};
use relay_wire::{Project, Status, time};

/// One project in the summary.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectSummary {
    pub project_id: String,
    pub name: String,
    pub archived: bool,
    pub packages: usize,
}

/// Counts of a kind of record: how many there are, and how many are live (current/active).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Counts {
    pub total: usize,
    pub live: usize,
}

/// What the store hides from reads, and how: retracted records (counted) and records past
/// their `x-expires-at` (not counted: that would read every line).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Retention {
    pub retracted_packages: usize,
    pub retracted_facts: usize,
    /// How expiry and retraction work here, for a reader of `status --json`.
    pub policy: &'static str,
}

/// What `relay status` reports.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StoreStatus {
    pub projects: Vec<ProjectSummary>,
    pub packages: usize,
    pub packages_by_type: BTreeMap<String, usize>,
    pub packages_by_status: BTreeMap<String, usize>,
    pub awaiting_review: usize,
    /// `live` = current facts.
    pub facts: Counts,
    /// `live` = active sessions.
    pub sessions: Counts,
    /// `created_at` of the newest package.
    pub last_deposit: Option<String>,
    pub size_bytes: u64,
    pub retention: Retention,
    pub signing: SigningStatus,
    /// A local store (`relay init --local`): git never sees it.
    pub local: bool,
    /// How the store stands in git (files not committed, the branch against its upstream as
    /// of the last fetch); `None` for a local store or outside a git work tree.
    pub git: Option<crate::ops::git::StoreSync>,
    /// What relay's hooks queued under `local/pending/`, and how it enters the store.
    pub queue: crate::ops::agents::queue::QueueStatus,
}

/// Whether this clone signs what it writes, and what verify holds signatures to.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SigningStatus {
    /// The signing key's fingerprint; `None` when writes are not signed.
    pub key: Option<String>,
    /// The key's path, when one is configured.
    pub key_path: Option<String>,
    /// Why the configured key cannot sign, if it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_error: Option<String>,
    /// `[sign] require = true`.
    pub require: bool,
    /// Entries of `allowed_signers` (revocations not counted).
    pub allowed_signers: usize,
    pub revoked_keys: usize,
    /// Why `allowed_signers` cannot be read, if it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_signers_error: Option<String>,
}

/// The signing state, never failing: a key or `allowed_signers` that cannot be used is said.
pub fn signing(store: &Store) -> SigningStatus {
    let mut s = SigningStatus {
        key_path: store.signing_key_path().map(|p| p.display().to_string()),
        require: store.signatures_required(),
        ..Default::default()
    };
    match store.signer() {
        Ok(signer) => s.key = signer.map(|k| k.fingerprint.clone()),
        Err(e) => s.key_error = Some(e.to_string()),
    }
    match store.allowed_signers() {
        Ok(a) => {
            s.allowed_signers = a.entries.len();
            s.revoked_keys = a.revoked.len();
        }
        Err(e) => s.allowed_signers_error = Some(e.to_string()),
    }
    s
}

/// The retention policy `status` states.
pub const RETENTION_POLICY: &str = "reads hide retracted records and records past their \
    x-expires-at; `relay purge --expired --retracted` removes their lines";

/// Counts everything in the store (every project, archived ones included).
pub fn status(store: &Store) -> Result<StoreStatus> {
    let mut s = StoreStatus::default();
    let mut newest: Option<(time::Timestamp, String)> = None;
    let projects: Vec<Project> = crate::ops::projects::list(store)?;
    for project in &projects {
        let mut count = 0;
        let mut tally = |ptype: &str, status: &str, n: usize| {
            count += n;
            *s.packages_by_type.entry(ptype.to_string()).or_default() += n;
            *s.packages_by_status.entry(status.to_string()).or_default() += n;
            if status == Status::AwaitingReview.as_str() {
                s.awaiting_review += n;
            }
        };
        let mut note_time = |at: time::Timestamp, text: &str| {
            if newest.as_ref().is_none_or(|(t, _)| at > *t) {
                newest = Some((at, text.to_string()));
            }
        };
        let mut fact_counts = None;
        if store.config().search_index() {
            // Counted from each month's summary (a small file per month, kept while its log
            // is unchanged); the months that changed are counted from their catalogs, their
            // indexes brought up to date first (months in parallel).
            let logs = store.package_logs(project.id())?;
            let mut months = Vec::with_capacity(logs.len());
            let mut changed = Vec::new();
            for log in &logs {
                match store.saved_month_summary(log)? {
                    Some(m) => months.push(m),
                    None => changed.push(log),
                }
            }
            if changed.len() == 1 {
                // A deposit since the last status: one month to count again.
                store.warm_catalogs(project.id())?;
            } else if !changed.is_empty() {
                // A cold cache (a fresh clone): the fact index is built on a thread of its own
                // while the months' indexes take both cores, not after them.
                let (warmed, counted) = std::thread::scope(|s| {
                    let counting = s.spawn(|| store.fact_counts(project.id()));
                    let warmed = store.warm_catalogs(project.id());
                    (warmed, counting.join())
                });
                warmed?;
                fact_counts =
                    Some(counted.map_err(|_| {
                        Error::Integrity("the fact index's thread failed".into())
                    })??);
            }
            for log in changed {
                months.push(store.count_month(log)?);
            }
            for month in &months {
                for (ptype, statuses) in &month.counts {
                    for (status, n) in statuses {
                        tally(ptype, status, *n as usize);
                    }
                }
                if let Some(text) = &month.newest
                    && let Ok(at) = time::parse(text)
                {
                    note_time(at, text);
                }
            }
        } else {
            for p in store.current_packages(project.id())?.values() {
                let pkg = &p.package;
                tally(pkg.package_type(), pkg.status().as_str(), 1);
                note_time(pkg.created_at(), pkg.created_at_str());
            }
        }
        s.packages += count;
        let fact_counts = match fact_counts {
            Some(counts) => counts,
            None => store.fact_counts(project.id())?,
        };
        let (facts_total, facts_live) = match fact_counts {
            Some((total, live)) => (total as usize, live as usize),
            None => {
                let facts = store.facts(project.id())?;
                (facts.len(), crate::ops::facts::current_count(&facts))
            }
        };
        s.facts.total += facts_total;
        s.facts.live += facts_live;
        // Counted from compact slots: parsed, ten thousand sessions take tens of MB.
        let sessions_log = store.sessions_log(project.id());
        let (total, open) = store.log_counts(&sessions_log, "sessions", || {
            let (total, open) =
                crate::ops::export::count_open::<relay_wire::Session>(store, project.id())?;
            Ok((total as u64, open as u64))
        })?;
        let (total, open) = (total as usize, open as usize);
        s.sessions.total += total;
        s.sessions.live += open;
        let (packages, facts) = store.retractions(project.id())?.counts();
        s.retention.retracted_packages += packages;
        s.retention.retracted_facts += facts;
        s.projects.push(ProjectSummary {
            project_id: project.id().to_string(),
            name: project.name().to_string(),
            archived: project.is_archived(),
            packages: count,
        });
    }
    s.last_deposit = newest.map(|(_, text)| text);
    s.retention.policy = RETENTION_POLICY;
    s.size_bytes = store.size_on_disk();
    s.signing = signing(store);
    s.local = store.config().local();
    s.git = store
        .root()
        .parent()
        .and_then(|holder| crate::ops::git::store_sync(holder, store.root()));
    s.queue = crate::ops::agents::queue::status(store)?;
    Ok(s)
}

/// The status as `--json` prints it (and every transport returns it): the summary, the store's
/// folder and the integrity warnings its readers reported.
pub fn to_json(store: &Store, s: &StoreStatus, warnings: &[Warning]) -> Result<Value> {
    let w: Vec<_> = warnings
        .iter()
        .map(|w| json!({"warning": w.kind.as_str(), "file": w.path.display().to_string(), "line": w.line, "message": w.message}))
        .collect();
    let mut v = serde_json::to_value(s).map_err(|e| Error::Integrity(e.to_string()))?;
    v["store"] = json!(store.root().display().to_string());
    v["warnings"] = json!(w);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::{deposit, test_support};
    use relay_store::index::Check;

    fn package(
        title: &str,
        created_at: &str,
        package_type: &str,
    ) -> serde_json::Map<String, Value> {
        json!({"title": title, "created_at": created_at, "package_type": package_type})
            .as_object()
            .unwrap()
            .clone()
    }

    #[test]
    fn counts_come_from_month_summaries_that_follow_every_change_of_their_logs() {
        let (_dir, store) = test_support::store_with(&["demo"]);
        let ctx = test_support::context("demo");
        deposit(
            &store,
            package("a", "2026-01-05T00:00:00Z", "standard"),
            &ctx,
        )
        .unwrap();
        deposit(
            &store,
            package("b", "2026-01-06T00:00:00Z", "handoff"),
            &ctx,
        )
        .unwrap();
        let mut review = package("c", "2026-02-01T00:00:00Z", "standard");
        review.insert("status".into(), json!("awaiting_review"));
        let c = deposit(&store, review, &ctx).unwrap();
        let first = status(&store).unwrap();
        assert_eq!(first.packages, 3);
        assert_eq!(first.packages_by_type["standard"], 2);
        assert_eq!(first.awaiting_review, 1);
        assert_eq!(first.last_deposit.as_deref(), Some("2026-02-01T00:00:00Z"));
        let logs = store.package_logs("demo").unwrap();
        for log in &logs {
            assert!(
                store.saved_month_summary(log).unwrap().is_some(),
                "{log:?} is summarised"
            );
            assert_eq!(store.check_month_summary(log).unwrap(), Check::Sound);
        }
        // A review appends a version: the month is counted again.
        test_support::approve(&store, c.package.id());
        let reviewed = status(&store).unwrap();
        assert_eq!(reviewed.packages, 3);
        assert_eq!(reviewed.awaiting_review, 0);
        assert_eq!(reviewed.packages_by_status["complete"], 3);
        // A log rewritten in place (a checkout of another version) is counted again, and a
        // summary whose counts were tampered with is stale to verify.
        let january = &logs[0];
        let text = std::fs::read_to_string(january).unwrap();
        let one_line: String = text.lines().next().unwrap().to_string() + "\n";
        std::fs::write(january, &one_line).unwrap();
        assert_eq!(status(&store).unwrap().packages, 2);
        let cache = store.indexes().dir().to_path_buf();
        let file = std::fs::read_dir(cache.join("summary-v1/demo"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_stem()
                    .is_some_and(|s| january.file_stem() == Some(s))
            })
            .unwrap();
        let tampered = std::fs::read_to_string(&file)
            .unwrap()
            .replace(":1}", ":7}");
        std::fs::write(&file, tampered).unwrap();
        assert!(matches!(
            store.check_month_summary(january).unwrap(),
            Check::Stale(_)
        ));
    }
}
