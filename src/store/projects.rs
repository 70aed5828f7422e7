//! `projects.ndjson`: one project record per line, a new line for every change. The current
//! record of a project is chosen by a rule that ignores line order, so merged clones agree.

use std::collections::BTreeMap;

use super::{Store, WarningKind, log};
use crate::error::Result;
use crate::wire::{Project, canonical};

/// Whether `candidate` should replace `current` as the project's current record: the greater
/// `updated_at` wins; on a tie, the greater canonical JSON (an arbitrary but fixed order).
fn supersedes(candidate: &Project, current: &Project) -> bool {
    match candidate.updated_at().cmp(&current.updated_at()) {
        std::cmp::Ordering::Equal => {
            canonical::to_canonical_string(&candidate.to_value())
                > canonical::to_canonical_string(&current.to_value())
        }
        order => order.is_gt(),
    }
}

impl Store {
    /// Every project's current record, by id.
    pub fn projects(&self) -> Result<BTreeMap<String, Project>> {
        let path = self.layout.projects_file();
        let mut out: BTreeMap<String, Project> = BTreeMap::new();
        log::read_objects(&path, &self.diagnostics, |line, map| {
            match Project::from_map(map) {
                Ok(p) => match out.get(p.id()) {
                    Some(cur) if !supersedes(&p, cur) => {}
                    _ => {
                        out.insert(p.id().to_string(), p);
                    }
                },
                Err(e) => self.diagnostics.warn(
                    &path,
                    line,
                    WarningKind::InvalidRecord,
                    format!("not a valid project: {e}; skipped"),
                ),
            }
            Ok(())
        })?;
        Ok(out)
    }

    pub fn project(&self, id: &str) -> Result<Option<Project>> {
        Ok(self.projects()?.remove(id))
    }

    /// Appends a project record. Hold the `projects` lock.
    pub fn append_project(&self, project: &Project) -> Result<()> {
        self.append(&self.layout.projects_file(), &log::to_line(project)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn project(name: &str, updated: &str) -> Project {
        Project::from_value(json!({"project_id": "p", "name": name, "created_at": "2026-01-01T00:00:00Z", "updated_at": updated}))
            .unwrap()
    }

    #[test]
    fn newest_update_wins_and_ties_are_order_independent() {
        let a = project("a", "2026-01-02T00:00:00Z");
        let b = project("b", "2026-01-03T00:00:00Z");
        assert!(supersedes(&b, &a) && !supersedes(&a, &b));
        let c = project("c", "2026-01-03T00:00:00Z");
        assert_ne!(supersedes(&b, &c), supersedes(&c, &b));
    }
}
