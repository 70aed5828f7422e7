//! `projects.ndjson`: one project record per line, a new line for every change (see
//! [`records`](super::records) for how the current record is chosen).

use std::collections::BTreeMap;

use super::{Store, log};
use relay_wire::Project;
use relay_wire::error::Result;

impl Store {
    /// Every project's current record, by id.
    pub fn projects(&self) -> Result<BTreeMap<String, Project>> {
        self.read_current(&self.layout.projects_file())
    }

    /// The project ids that have a folder under `projects/` (and a decodable name).
    pub fn project_ids_on_disk(&self) -> Result<Vec<String>> {
        let dir = self.layout.projects_dir();
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(relay_wire::Error::io(
                    format!("cannot list {}", dir.display()),
                    e,
                ));
            }
        };
        Ok(entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(super::layout::decode_project_dir)
            })
            .collect())
    }

    /// Every project id the store knows, in byte order: those with a record and those with a
    /// folder (a folder whose name a digest shortened is known by its record only).
    pub fn all_project_ids(&self) -> Result<Vec<String>> {
        let mut ids: std::collections::BTreeSet<String> = self.projects()?.into_keys().collect();
        ids.extend(self.project_ids_on_disk()?);
        Ok(ids.into_iter().collect())
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
    use crate::records::Versioned;
    use relay_wire::Project;
    use serde_json::json;
    use std::cmp::Ordering;

    fn project(name: &str, updated: &str) -> Project {
        Project::from_value(json!({"project_id": "p", "name": name, "created_at": "2026-01-01T00:00:00Z", "updated_at": updated}))
            .unwrap()
    }

    #[test]
    fn newest_update_wins_and_ties_are_order_independent() {
        let a = project("a", "2026-01-02T00:00:00Z");
        let b = project("b", "2026-01-03T00:00:00Z");
        assert_eq!(b.version_order(&a), Ordering::Greater);
        assert_eq!(a.version_order(&b), Ordering::Less);
        let c = project("c", "2026-01-03T00:00:00Z");
        assert_eq!(b.version_order(&c), c.version_order(&b).reverse());
        assert_ne!(b.version_order(&c), Ordering::Equal);
    }
}
