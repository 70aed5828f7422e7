//! The Project (§5.2): the scope of packages, facts and sessions, and the unit of archival.

use super::time::{self, Timestamp};
use super::tree::Object;
use super::validate::{Check, Fields};

wire_record! {
    /// A validated Project record.
    Project, validate
}

impl Project {
    pub fn id(&self) -> &str {
        self.str_field("project_id").unwrap_or_default()
    }

    pub fn name(&self) -> &str {
        self.str_field("name").unwrap_or_default()
    }

    /// When the project was created (§5.2 requires it).
    pub fn created_at(&self) -> Timestamp {
        self.str_field("created_at")
            .and_then(|s| time::parse(s).ok())
            .unwrap_or_default()
    }

    pub fn updated_at(&self) -> Timestamp {
        self.str_field("updated_at")
            .and_then(|s| time::parse(s).ok())
            .unwrap_or_default()
    }

    pub fn archived_at(&self) -> Option<&str> {
        self.str_field("archived_at")
    }

    pub fn is_archived(&self) -> bool {
        self.archived_at().is_some()
    }
}

/// Checks a project record.
pub fn validate<O: Object>(map: &O) -> Check<()> {
    let f = Fields::root(map);
    f.id("project_id")?;
    f.id("name")?;
    f.required_timestamp("created_at")?;
    f.required_timestamp("updated_at")?;
    f.optional_timestamp("archived_at")?;
    f.optional_str("description")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn validates_projects() {
        let v = json!({"project_id": "../x", "name": "X", "created_at": "2026-04-10T12:00:00Z",
                       "updated_at": "2026-04-10T12:00:00Z", "archived_at": null, "description": ""});
        let p = Project::from_value(v).unwrap();
        assert_eq!(p.id(), "../x");
        assert!(!p.is_archived());
        let e = Project::from_value(json!({"project_id": "x"})).unwrap_err();
        assert_eq!(e.field, "name");
    }
}
