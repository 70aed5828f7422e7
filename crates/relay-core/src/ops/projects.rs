//! Project management: create, rename, archive and unarchive (soft, via `archived_at`). Each
//! change appends a whole new project record under the `projects` lock.

use serde_json::{Map, Value, json};

use relay_store::Store;
use relay_wire::error::{Error, Result};
use relay_wire::{Project, time};

const PROJECTS_LOCK: &str = "projects";

/// A project and how much it holds.
#[derive(Debug, Clone)]
pub struct ProjectInfo {
    pub project: Project,
    pub packages: usize,
}

/// Every project: those with a record, and any that holds data but whose record is missing
/// or unreadable (with a warning), so that one damaged line never hides a project's data.
pub fn list(store: &Store) -> Result<Vec<Project>> {
    let mut all = store.projects()?;
    for id in store.project_ids_on_disk()? {
        if let std::collections::btree_map::Entry::Vacant(slot) = all.entry(id) {
            let p = orphan(store, slot.key())?;
            slot.insert(p);
        }
    }
    Ok(all.into_values().collect())
}

/// A stand-in record for a project folder whose record is missing, reported as a warning.
fn orphan(store: &Store, id: &str) -> Result<Project> {
    store.diagnostics().warn(
        &store.projects_log(),
        0,
        relay_store::WarningKind::InvalidRecord,
        format!(
            "project `{id}` holds data but has no valid record in this file; it is used as it is"
        ),
    );
    Ok(Project::from_value(json!({
        "project_id": id, "name": id,
        "created_at": "1970-01-01T00:00:00Z", "updated_at": "1970-01-01T00:00:00Z",
    }))?)
}

pub fn get(store: &Store, id: &str) -> Result<Project> {
    match store.project(id)? {
        Some(p) => Ok(p),
        None if store.has_project_folder(id) => orphan(store, id),
        None => Err(Error::ProjectNotFound(id.to_string())),
    }
}

pub fn info(store: &Store, id: &str) -> Result<ProjectInfo> {
    let project = get(store, id)?;
    let packages = store.current_packages(id)?.len();
    Ok(ProjectInfo { project, packages })
}

fn new_record(
    id: &str,
    name: &str,
    description: Option<&str>,
    now: time::Timestamp,
) -> Result<Project> {
    let ts = time::format(now);
    let mut v = json!({"project_id": id, "name": name, "created_at": ts, "updated_at": ts});
    if let Some(d) = description {
        v["description"] = Value::String(d.to_string());
    }
    Ok(Project::from_value(v)?)
}

/// Creates a project; fails with `project_exists` when the id is taken. Its id, name and
/// description are scanned for credentials (and NUL) as every stored text is: the id is a
/// name, refused rather than redacted.
pub fn create(
    store: &Store,
    id: &str,
    name: Option<&str>,
    description: Option<&str>,
) -> Result<Project> {
    crate::ops::trust::secrets::guard_name(store, "project_id", id)?;
    let texts = crate::ops::trust::secrets::guard_fields(
        store,
        &[
            ("name", name.unwrap_or(id)),
            ("description", description.unwrap_or_default()),
        ],
    )?;
    let description = description.map(|_| texts[1].as_str());
    let record = new_record(id, &texts[0], description, time::now())?;
    let _lock = store.lock(PROJECTS_LOCK)?;
    if store.project(id)?.is_some() {
        return Err(Error::ProjectExists(id.to_string()));
    }
    store.append_project(&record)?;
    Ok(record)
}

/// Creates the project unless it exists; returns it and whether it was created.
pub fn ensure(store: &Store, id: &str, name: Option<&str>) -> Result<(Project, bool)> {
    match create(store, id, name, None) {
        Ok(p) => Ok((p, true)),
        Err(Error::ProjectExists(_)) => Ok((get(store, id)?, false)),
        Err(e) => Err(e),
    }
}

/// Appends a changed copy of the current record. `updated_at` always moves forward, so the new
/// record wins even against a clock that went backwards.
fn update(
    store: &Store,
    id: &str,
    change: impl FnOnce(&mut Map<String, Value>, &str),
) -> Result<Project> {
    let _lock = store.lock(PROJECTS_LOCK)?;
    let current = get(store, id)?;
    let previous = current.updated_at();
    let now = time::now();
    let now = if now > previous {
        now
    } else {
        previous + chrono::TimeDelta::microseconds(1)
    };
    let stamp = time::format(now);
    let mut map = current.into_map();
    change(&mut map, &stamp);
    map.insert("updated_at".into(), Value::String(stamp));
    let record = Project::from_map(map)?;
    store.append_project(&record)?;
    Ok(record)
}

pub fn rename(store: &Store, id: &str, name: &str) -> Result<Project> {
    let name = crate::ops::trust::secrets::guard_fields(store, &[("name", name)])?.remove(0);
    update(store, id, |m, _| {
        m.insert("name".into(), Value::String(name));
    })
}

/// Archives (`archived_at` = now) or unarchives (`archived_at` = null) a project. Doing what is
/// already done changes nothing.
pub fn set_archived(store: &Store, id: &str, archived: bool) -> Result<Project> {
    let current = get(store, id)?;
    if current.is_archived() == archived {
        return Ok(current);
    }
    update(store, id, |m, stamp| {
        let v = if archived {
            Value::String(stamp.to_string())
        } else {
            Value::Null
        };
        m.insert("archived_at".into(), v);
    })
}
