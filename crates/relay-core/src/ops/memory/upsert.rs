//! AMP's `store` under an id already stored: the record's new content becomes the next version
//! of that package, as a review transition's new status does (the transition's action is
//! [`UPDATE_ACTION`]), so reads give the newest and the history keeps every earlier one. The
//! same content again writes nothing. Only a memory record is replaced this way, in its own
//! project; its id, project, creation time, creator, status and review type stay.

use serde_json::{Map, Value, json};

use crate::ops::attribution::{self, Claim};
use relay_store::Store;
use relay_store::packages::{StoredPackage, version_order};
use relay_wire::error::{Error, Result};
use relay_wire::memory::{Kind, UPDATE_ACTION};
use relay_wire::{Package, package, time};

/// The members a new version keeps from the current one: what identifies and dates the
/// record, and its review state.
const KEPT: [&str; 8] = [
    "package_id",
    "project_id",
    "relay_version",
    "created_at",
    "created_by",
    "status",
    "review_type",
    "package_type",
];

/// The stored record `id` names, when there is one; a package of another type under that id is
/// `duplicate_package_id`, and a deleted record cannot be stored again under its id.
pub fn existing(store: &Store, id: &str) -> Result<Option<StoredPackage>> {
    let current = match crate::ops::packages::pull::exact(store.view(), id) {
        Ok(p) => p,
        Err(Error::PackageNotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    if Kind::of_type(current.package.package_type()).is_none() {
        return Err(Error::DuplicatePackageId(id.to_string()));
    }
    if crate::ops::packages::pull::retraction_of(store, id)?.is_some() {
        return Err(Error::InvalidInput(format!(
            "record `{id}` was deleted: store it under a new id (or none)"
        )));
    }
    Ok(Some(current))
}

/// Writes `input` (a memory package input of the same type) as the next version of `id` in
/// `project`; `Ok(None)` when its content is the current version's and nothing was written.
pub fn update(
    store: &Store,
    cwd: &std::path::Path,
    id: &str,
    project: &str,
    mut input: Map<String, Value>,
    claim: &Claim,
) -> Result<Option<StoredPackage>> {
    let (actor, session_id) = attribution::writer(store, cwd, project, claim)?;
    crate::ops::packages::deposit::check_members_and_limits(store, &input)?;
    crate::ops::trust::secrets::guard(store, &mut input)?;
    let _lock = store.lock_project(project)?;
    if crate::ops::projects::get(store, project)?.is_archived() {
        return Err(Error::ProjectArchived(project.to_string()));
    }
    // Read under the lock: another writer may have written a version meanwhile.
    let versions = store.package_versions(project, id)?;
    let Some(current) = versions.iter().max_by(|a, b| version_order(a, b)) else {
        return Err(Error::PackageNotFound(id.to_string()));
    };
    if input.get("package_type") != current.package.as_map().get("package_type") {
        return Err(Error::InvalidInput(format!(
            "record `{id}` is a {}: a record keeps its type when stored again",
            current.package.package_type()
        )));
    }
    // The required fields first, as a deposit orders them; the kept ones are the current
    // version's, every other member the new content's.
    let mut map = Map::new();
    for key in package::REQUIRED_FIELDS.iter().chain(KEPT.iter()) {
        let value = match KEPT.contains(key) {
            true => current.package.as_map().get(*key).cloned(),
            false => input.remove(*key),
        };
        if let Some(v) = value {
            map.insert((*key).to_string(), v);
        }
    }
    for (k, v) in input {
        map.entry(k).or_insert(v);
    }
    let package = Package::from_map(map)?;
    let hash = package.content_hash();
    if hash == current.hash {
        return Ok(None);
    }
    let status = current.package.status().as_str();
    let mut by = json!({"id": actor.id, "type": actor.actor_type});
    if let Some(s) = session_id {
        by["session_id"] = json!(s);
    }
    let next = StoredPackage {
        hash,
        package,
        version: versions.iter().map(|v| v.version).max().unwrap_or(1) + 1,
        transition: Some(json!({
            "action": UPDATE_ACTION, "from": status, "to": status, "by": by,
            "at": time::format(time::now()),
            "note": "stored again through the Agent Memory Protocol",
        })),
        location: current.location.clone(),
    };
    crate::ops::packages::review::append_version(store, project, &next)?;
    Ok(Some(next))
}
