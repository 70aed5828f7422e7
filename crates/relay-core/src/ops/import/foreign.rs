//! Backups from other conformant implementations (§10.3: a backup MUST be restorable into any
//! of them). The spec shapes packages, facts and sessions, which relay reads as they are; of a
//! project it names only the id and `archived_at`, so a project record another implementation
//! exports may lack the members relay keeps beside them. Those are filled here, never refused.

use serde_json::{Map, Value};

use relay_wire::time;

/// Fills what a project record lacks of relay's own members: `name` is the id, `created_at`
/// is `updated_at` (or the time of the import when neither is given), and `updated_at` is
/// `created_at`. A member that is there, even of the wrong type, is left for validation.
pub(super) fn fill_project(map: &mut Map<String, Value>) {
    let absent = |map: &Map<String, Value>, name: &str| map.get(name).is_none_or(Value::is_null);
    if absent(map, "name")
        && let Some(id) = map.get("project_id").cloned()
    {
        map.insert("name".into(), id);
    }
    if absent(map, "created_at") {
        let since = match map.get("updated_at") {
            Some(Value::String(t)) => t.clone(),
            _ => time::format(time::now()),
        };
        map.insert("created_at".into(), Value::String(since));
    }
    if absent(map, "updated_at")
        && let Some(created) = map.get("created_at").cloned()
    {
        map.insert("updated_at".into(), created);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relay_wire::Project;
    use serde_json::json;

    fn filled(record: Value) -> Value {
        let Value::Object(mut map) = record else {
            panic!("an object")
        };
        fill_project(&mut map);
        Value::Object(map)
    }

    #[test]
    fn a_project_gets_the_members_relay_keeps_and_keeps_its_own() {
        let p = filled(
            json!({"project_id": "proj_a", "created_at": "2026-04-01T09:00:00Z",
                              "archived_at": null, "x-owner": "ops"}),
        );
        assert_eq!(
            p,
            json!({"project_id": "proj_a", "created_at": "2026-04-01T09:00:00Z",
                   "archived_at": null, "x-owner": "ops", "name": "proj_a",
                   "updated_at": "2026-04-01T09:00:00Z"})
        );
        assert!(Project::from_value(p).is_ok());
        let p = filled(
            json!({"project_id": "proj_b", "name": "B", "updated_at": "2026-04-02T00:00:00Z"}),
        );
        assert_eq!(p["created_at"], json!("2026-04-02T00:00:00Z"));
        assert!(Project::from_value(p).is_ok());
        // The time of the import when the record says nothing of time.
        let p = filled(json!({"project_id": "proj_c"}));
        assert_eq!(p["created_at"], p["updated_at"]);
        assert!(Project::from_value(p).is_ok());
    }

    #[test]
    fn what_is_there_is_left_as_it_is() {
        let given = json!({"project_id": "p", "name": "N", "created_at": "2026-04-01T09:00:00Z",
                           "updated_at": "2026-04-03T09:00:00Z"});
        assert_eq!(filled(given.clone()), given);
        // A wrong type is for validation to refuse, with its message.
        let bad = filled(json!({"project_id": "p", "name": 7}));
        assert_eq!(bad["name"], json!(7));
        assert_eq!(Project::from_value(bad).unwrap_err().field, "name");
    }
}
