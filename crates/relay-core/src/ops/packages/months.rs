//! A month of packages read through the catalogs of its logs, newest first. A month usually
//! has one log; it has two while the clone's queue holds packages of that month beside the
//! tracked log (`Store::package_months` lists them together). The listings that stop after the
//! newest few (`pull --latest`, orient's window) read a month as one: entries newest first
//! across its logs, and a package id in both logs (flushed, and still queued after a crash) met
//! once, at its current version.

use std::cmp::Reverse;
use std::path::PathBuf;

use relay_store::Store;
use relay_store::index::{Entry, MonthCatalog};
use relay_store::packages::{StoredPackage, version_order};
use relay_wire::error::Result;

/// The catalogs of one month's logs.
pub struct Month {
    pub catalogs: Vec<MonthCatalog>,
}

/// Where a package's entry is: the catalog (by its place in [`Month::catalogs`]) and the
/// entry's place in that catalog's `entries`.
pub type At = (usize, usize);

/// One package of a month: its entry in one catalog, or (rarely) in several.
pub struct Run {
    /// Its entry in the first log that holds it.
    pub first: At,
    /// The same package in the month's other logs.
    pub more: Vec<At>,
}

impl Month {
    pub fn load(store: &Store, logs: &[PathBuf]) -> Result<Month> {
        let catalogs = logs
            .iter()
            .map(|log| MonthCatalog::load(store, log))
            .collect::<Result<_>>()?;
        Ok(Month { catalogs })
    }

    /// [`Month::load`], with only the newest packages (at least `want`, see
    /// [`MonthCatalog::load_newest`]) where the month has one log: [`Month::runs`] then gives
    /// the first runs of the whole month, and [`Month::complete`] says whether there are more.
    pub fn load_newest(store: &Store, logs: &[PathBuf], want: usize) -> Result<Month> {
        match logs {
            [log] => Ok(Month {
                catalogs: vec![MonthCatalog::load_newest(store, log, want)?],
            }),
            _ => Month::load(store, logs),
        }
    }

    /// Whether [`Month::runs`] gives every package of the month.
    pub fn complete(&self) -> bool {
        self.catalogs.iter().all(|c| c.complete)
    }

    /// The catalog and the entry at `at`.
    pub fn entry(&self, (c, i): At) -> (&MonthCatalog, &Entry) {
        let catalog = &self.catalogs[c];
        (catalog, &catalog.entries[i])
    }

    /// The month's packages newest first (ties by id), each once.
    pub fn runs(&self) -> impl Iterator<Item = Run> + '_ {
        let mut at = vec![0usize; self.catalogs.len()];
        let single = self.catalogs.len() == 1;
        std::iter::from_fn(move || {
            if single {
                // The usual month: its one catalog's order, nothing to compare.
                let i = at[0];
                at[0] += 1;
                return (i < self.catalogs[0].entries.len()).then(|| Run {
                    first: (0, i),
                    more: Vec::new(),
                });
            }
            let key = |c: usize, at: &[usize]| {
                let catalog = &self.catalogs[c];
                let e = catalog.entries.get(at[c])?;
                Some((Reverse(e.created_micros), catalog.id(e)))
            };
            let best = (0..self.catalogs.len()).filter_map(|c| key(c, &at)).min()?;
            let mut run: Option<Run> = None;
            for c in 0..self.catalogs.len() {
                if key(c, &at) != Some(best) {
                    continue;
                }
                let entry = (c, at[c]);
                at[c] += 1;
                match &mut run {
                    None => {
                        run = Some(Run {
                            first: entry,
                            more: Vec::new(),
                        })
                    }
                    Some(r) => r.more.push(entry),
                }
            }
            run
        })
    }

    /// The package of `run` at its current version over every log that holds it.
    pub fn read(&self, store: &Store, run: &Run) -> Result<Option<StoredPackage>> {
        let mut best: Option<StoredPackage> = None;
        for &at in std::iter::once(&run.first).chain(&run.more) {
            let (catalog, entry) = self.entry(at);
            if let Some(p) = catalog.read(store, entry)?
                && best
                    .as_ref()
                    .is_none_or(|b| version_order(&p, b) == std::cmp::Ordering::Greater)
            {
                best = Some(p);
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_of_two_logs_reads_newest_first_and_each_package_once() {
        use serde_json::json;
        let (_dir, mut store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
        let deposit = |store: &Store, id: &str, at: &str| {
            let input = json!({"package_id": id, "title": id, "created_at": at});
            crate::ops::packages::deposit::deposit(
                store,
                input.as_object().unwrap().clone(),
                &crate::ops::packages::deposit::test_support::context("demo"),
            )
            .unwrap();
        };
        deposit(&store, "pkg_a", "2026-05-01T00:00:00Z");
        deposit(&store, "pkg_c", "2026-05-03T00:00:00Z");
        store.set_queued(true);
        deposit(&store, "pkg_b", "2026-05-02T00:00:00Z");
        deposit(&store, "pkg_d", "2026-05-04T00:00:00Z");
        store.set_queued(false);
        // pkg_d's line reached the tracked log too (a flush cut short before the queued
        // file was removed).
        let logs = store.package_logs("demo").unwrap();
        assert_eq!(logs.len(), 2);
        let queued = std::fs::read_to_string(&logs[1]).unwrap();
        let d_line = queued.lines().find(|l| l.contains("pkg_d")).unwrap();
        let _lock = store.lock_project("demo").unwrap();
        store
            .append(&logs[0], format!("{d_line}\n").as_bytes())
            .unwrap();
        let months = store.package_months("demo", None, None).unwrap();
        assert_eq!(months.len(), 1);
        assert_eq!(months[0].logs, logs);
        let month = Month::load(&store, &months[0].logs).unwrap();
        let mut seen = Vec::new();
        for run in month.runs() {
            let p = month.read(&store, &run).unwrap().unwrap();
            seen.push((p.package.id().to_string(), 1 + run.more.len()));
        }
        assert_eq!(
            seen,
            [
                ("pkg_d".to_string(), 2),
                ("pkg_c".to_string(), 1),
                ("pkg_b".to_string(), 1),
                ("pkg_a".to_string(), 1)
            ]
        );
    }
}
