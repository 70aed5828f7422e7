//! A project's packages by month. Package logs are named by the UTC month of their packages'
//! `created_at`, and a month has a second log while the clone's queue holds packages of it;
//! this is where those logs are grouped by month and a range of months is picked, so that no
//! reader above the store compares log file names.

use std::path::{Path, PathBuf};

use relay_wire::error::Result;
use relay_wire::time::{Timestamp, month_key};

use crate::Store;

/// One month of a project's packages: its logs, the tracked one first and then the clone's
/// queued one when there is one (a package id may be in both: flushed, and still queued after
/// a crash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageMonth {
    /// The month, `YYYY-MM`.
    pub month: String,
    /// Its logs, as [`Store::package_logs`] orders them.
    pub logs: Vec<PathBuf>,
}

/// The month a package log holds: its file name without `.ndjson`.
fn month_of(log: &Path) -> &str {
    log.file_stem().and_then(|n| n.to_str()).unwrap_or_default()
}

/// `logs` (as [`Store::package_logs`] lists them, months in order) cut into months: runs of
/// logs of the same month, in the order given.
fn by_month(logs: Vec<PathBuf>) -> Vec<PackageMonth> {
    let mut out: Vec<PackageMonth> = Vec::new();
    for log in logs {
        match out.last_mut() {
            Some(m) if m.month == month_of(&log) => m.logs.push(log),
            _ => out.push(PackageMonth {
                month: month_of(&log).to_string(),
                logs: vec![log],
            }),
        }
    }
    out
}

/// The months of `months` from the month of `since` to the month of `until` (either end open
/// when `None`), in their order.
fn in_range(
    months: Vec<PackageMonth>,
    since: Option<Timestamp>,
    until: Option<Timestamp>,
) -> Vec<PackageMonth> {
    let (first, last) = (since.map(month_key), until.map(month_key));
    months
        .into_iter()
        .filter(|m| {
            first
                .as_deref()
                .is_none_or(|first| m.month.as_str() >= first)
        })
        .filter(|m| last.as_deref().is_none_or(|last| m.month.as_str() <= last))
        .collect()
}

impl Store {
    /// The months of a project's packages created from `since`'s month to `until`'s (either
    /// end open when `None`), oldest first; each with its tracked log and the clone's queued
    /// one. A package's versions all live in the log of its `created_at` month, so a listing
    /// bounded in time reads only these.
    pub fn package_months(
        &self,
        project_id: &str,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
    ) -> Result<Vec<PackageMonth>> {
        Ok(in_range(
            by_month(self.package_logs(project_id)?),
            since,
            until,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logs(paths: &[&str]) -> Vec<PathBuf> {
        paths.iter().map(PathBuf::from).collect()
    }

    fn at(s: &str) -> Timestamp {
        relay_wire::time::parse(s).unwrap()
    }

    #[test]
    fn logs_of_one_month_go_together_in_their_order() {
        let logs = logs(&[
            "p/packages/2026-04.ndjson",
            "q/packages/2026-04.ndjson",
            "p/packages/2026-05.ndjson",
            "p/packages/2026-06.ndjson",
            "q/packages/2026-06.ndjson",
        ]);
        let months = by_month(logs.clone());
        let got: Vec<(&str, &[PathBuf])> = months
            .iter()
            .map(|m| (m.month.as_str(), m.logs.as_slice()))
            .collect();
        assert_eq!(
            got,
            [
                ("2026-04", &logs[0..2]),
                ("2026-05", &logs[2..3]),
                ("2026-06", &logs[3..5])
            ]
        );
        assert!(by_month(Vec::new()).is_empty());
    }

    #[test]
    fn a_range_keeps_the_months_of_its_ends() {
        let months = || {
            by_month(logs(&[
                "p/packages/2026-03.ndjson",
                "p/packages/2026-04.ndjson",
                "p/packages/2026-05.ndjson",
                "p/packages/2026-06.ndjson",
            ]))
        };
        let names = |ms: Vec<PackageMonth>| ms.into_iter().map(|m| m.month).collect::<Vec<_>>();
        assert_eq!(names(in_range(months(), None, None)).len(), 4);
        assert_eq!(
            names(in_range(
                months(),
                Some(at("2026-04-30T23:59:59Z")),
                Some(at("2026-05-01T00:00:00Z"))
            )),
            ["2026-04", "2026-05"]
        );
        assert_eq!(
            names(in_range(months(), Some(at("2026-06-02T00:00:00Z")), None)),
            ["2026-06"]
        );
        assert_eq!(
            names(in_range(months(), None, Some(at("2026-03-31T00:00:00Z")))),
            ["2026-03"]
        );
        assert!(in_range(months(), Some(at("2027-01-01T00:00:00Z")), None).is_empty());
    }

    #[test]
    fn a_store_lists_a_project_s_months_with_their_queued_logs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let mut store = Store::open(root).unwrap();
        let packages = store.layout.packages_dir("demo");
        std::fs::create_dir_all(&packages).unwrap();
        for m in ["2026-04", "2026-05"] {
            std::fs::write(packages.join(format!("{m}.ndjson")), "").unwrap();
        }
        let queued = store.layout.queued_path(&packages).unwrap();
        std::fs::create_dir_all(&queued).unwrap();
        std::fs::write(queued.join("2026-05.ndjson"), "").unwrap();
        store.set_queued(true);
        let months = store.package_months("demo", None, None).unwrap();
        assert_eq!(months.len(), 2);
        assert_eq!(
            months[1].logs,
            [
                packages.join("2026-05.ndjson"),
                queued.join("2026-05.ndjson")
            ]
        );
        let may = store
            .package_months("demo", Some(at("2026-05-01T00:00:00Z")), None)
            .unwrap();
        assert_eq!(may, months[1..]);
    }
}
