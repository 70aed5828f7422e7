//! verify's check of the derived indexes under `cache/` (DESIGN invariant 9): each index
//! that still holds for its log by its coverage must say what a fresh build of the bytes it
//! covers says, or reads would answer from it wrongly. An index whose log changed is only out
//! of date (the next read rebuilds it) and is not a problem. `--fix` rebuilds the stale ones.
//! The vector files are checked by their coverage on every read; their content would need
//! the embedding model to make again, so they are not compared here.

use std::path::{Path, PathBuf};

use super::Checker;
use relay_store::Store;
use relay_store::index::Check;
use relay_wire::error::{Error, Result};

/// One stale index: the log it covers, and which index.
#[derive(Debug, Clone)]
pub(super) enum Stale {
    Packages(PathBuf),
    Types(PathBuf),
    Summary(PathBuf),
    Facts(String),
}

fn io(log: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::io(format!("cannot check the indexes of {}", log.display()), e)
}

/// The stale indexes of the store, with what is wrong with each, a project's logs in order
/// and then its fact index.
pub(super) fn stale(store: &Store) -> Result<Vec<(Stale, PathBuf, String)>> {
    let mut out = Vec::new();
    if !store.config().search_index() {
        return Ok(out);
    }
    let projects: Vec<String> = (crate::ops::projects::list(store)?.iter())
        .map(|p| p.id().to_string())
        .collect();
    // Each index is compared with one built afresh from its log's bytes, most of verify's
    // time at scale: the fact indexes (one long job per project, so first) and the package
    // logs are shared out over a few threads.
    let mut jobs: Vec<Job> = (0..projects.len()).map(Job::Facts).collect();
    for (i, id) in projects.iter().enumerate() {
        let logs = store.package_logs(id)?;
        jobs.extend(logs.into_iter().map(|log| Job::Log(i, log)));
    }
    let found = super::in_parallel(&jobs, |job| match job {
        Job::Log(_, log) => stale_of_log(store, log),
        Job::Facts(i) => stale_facts(store, &projects[*i]),
    })?;
    // Reported in the order of before: each project's logs, then its fact index.
    let mut by_project: Vec<((usize, bool), Vec<_>)> = (jobs.iter())
        .map(|job| match job {
            Job::Log(i, _) => (*i, false),
            Job::Facts(i) => (*i, true),
        })
        .zip(found)
        .collect();
    by_project.sort_by_key(|(place, _)| *place);
    out.extend(by_project.into_iter().flat_map(|(_, found)| found));
    Ok(out)
}

/// One check of [`stale`], by project number.
enum Job {
    Facts(usize),
    Log(usize, PathBuf),
}

/// The fact index of a project, if stale.
fn stale_facts(store: &Store, id: &str) -> Result<Vec<(Stale, PathBuf, String)>> {
    Ok(match store.check_fact_index(id)? {
        Check::Stale(why) => vec![(
            Stale::Facts(id.to_string()),
            store.facts_log(id),
            format!("fact index: {why}"),
        )],
        _ => Vec::new(),
    })
}

/// The stale indexes of one package log.
fn stale_of_log(store: &Store, log: &Path) -> Result<Vec<(Stale, PathBuf, String)>> {
    let indexes = store.indexes();
    let mut out = Vec::new();
    if let Check::Stale(why) = indexes.check_packages(log).map_err(io(log))? {
        out.push((
            Stale::Packages(log.to_path_buf()),
            log.to_path_buf(),
            format!("search index: {why}"),
        ));
    }
    if let Check::Stale(why) = indexes.check_types(log).map_err(io(log))? {
        out.push((
            Stale::Types(log.to_path_buf()),
            log.to_path_buf(),
            format!("types index: {why}"),
        ));
    }
    if let Check::Stale(why) = store.check_month_summary(log)? {
        out.push((
            Stale::Summary(log.to_path_buf()),
            log.to_path_buf(),
            format!("status summary: {why}"),
        ));
    }
    Ok(out)
}

impl Checker<'_> {
    /// Reports every stale index as an error: reads would answer from it.
    pub(super) fn indexes(&mut self) -> Result<()> {
        for (_, log, why) in stale(self.store)? {
            self.problem(
                &log,
                0,
                "stale_index",
                format!(
                    "a stale index in cache/ claims to cover this log but does not match it \
                     ({why}); reads would answer from it: `relay verify --fix` rebuilds it"
                ),
            );
        }
        Ok(())
    }
}

/// Rebuilds the stale indexes; what it did, a line each.
pub(super) fn rebuild(store: &Store) -> Result<Vec<String>> {
    let indexes = store.indexes();
    let mut done = Vec::new();
    for (which, log, _) in stale(store)? {
        match &which {
            Stale::Packages(log) => indexes.rebuild_packages(log).map_err(io(log))?,
            Stale::Types(log) => indexes.remove_types(log).map_err(io(log))?,
            Stale::Summary(log) => store.indexes().remove_summary(log).map_err(io(log))?,
            Stale::Facts(project) => store.rebuild_fact_index(project)?,
        }
        let rel = log.strip_prefix(store.root()).unwrap_or(&log);
        done.push(format!("rebuilt the stale index of {}", rel.display()));
    }
    Ok(done)
}
