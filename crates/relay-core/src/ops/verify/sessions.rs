//! verify's check of callsigns after a merge. Each clone gives a callsign to one open session
//! of a project at a time, but two clones that each started a session with the same callsign
//! hold, once merged, two open sessions that share it. Every read tells them apart and a
//! command given the callsign refuses it, so this is a note (verify exits 0, as after any
//! ordinary merge) that names each session, so that one can be ended by its id.

use std::collections::BTreeMap;
use std::path::Path;

use super::lines::record_at;
use super::{Problem, Severity};
use crate::ops::sessions::{session_ref, shared_callsigns};
use relay_wire::Session;
use relay_wire::error::{Result, SessionRef};

/// An open session as verify's session check keeps it: its callsign, and where the line of
/// its current version is.
pub(super) struct OpenSession<'a> {
    pub callsign: &'a str,
    pub line: u64,
    pub offset: u64,
}

/// A note for each callsign that two or more open sessions of the log at `path` (`file`, as
/// problems name it) share, at the last of their lines. Only those sessions are read back
/// whole.
pub(super) fn shared_callsign_notes<'a>(
    file: &str,
    path: &Path,
    open: impl IntoIterator<Item = OpenSession<'a>>,
) -> Result<Vec<Problem>> {
    let mut by_callsign: BTreeMap<&str, Vec<(u64, u64)>> = BTreeMap::new();
    for s in open {
        by_callsign
            .entry(s.callsign)
            .or_default()
            .push((s.line, s.offset));
    }
    let mut notes = Vec::new();
    for (callsign, at) in by_callsign.into_iter().filter(|(_, at)| at.len() > 1) {
        let mut sessions: Vec<Session> = Vec::new();
        for &(_, offset) in &at {
            sessions.extend(record_at::<Session>(path, offset)?);
        }
        let shared = shared_callsigns(&sessions);
        let Some(oldest_first) = shared.get(callsign) else {
            continue;
        };
        let refs: Vec<SessionRef> = oldest_first.iter().map(|s| session_ref(s)).collect();
        notes.push(Problem {
            file: file.to_string(),
            line: at.iter().map(|&(line, _)| line).max().unwrap_or_default(),
            kind: "shared_callsign",
            message: format!(
                "{} open sessions share the callsign {callsign} (merged clones each started \
                 one): {}; a command given the callsign refuses it, so name each by its id \
                 (`relay session end {}`)",
                refs.len(),
                SessionRef::list(&refs),
                refs[0].id
            ),
            severity: Severity::Note,
        });
    }
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::test_support::store_with;
    use crate::ops::verify::verify;
    use serde_json::json;

    fn open_session(id: &str, actor: &str, callsign: &str, at: &str) -> String {
        json!({"session_id": id, "project_id": "demo", "actor_id": actor, "actor_type": "human",
            "callsign": callsign, "started_at": at, "ended_at": null, "packages_deposited": []})
        .to_string()
    }

    #[test]
    fn open_sessions_sharing_a_callsign_are_a_note_naming_each() {
        let (_dir, store) = store_with(&["demo"]);
        let (a, b) = (
            "sess_0000000000000000000000000000000a",
            "sess_0000000000000000000000000000000b",
        );
        let lines = [
            open_session(b, "bob", "twin-fox", "2026-01-01T10:00:00Z"),
            open_session("sess_c", "cy", "lone-owl", "2026-01-01T08:00:00Z"),
            open_session(a, "ana", "twin-fox", "2026-01-01T09:00:00Z"),
        ];
        let path = store.sessions_log("demo");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let (report, _) = verify(&store).unwrap();
        assert_eq!(report.errors(), 0, "{:?}", report.problems);
        let found: Vec<(&str, u64, &str, Severity)> = (report.problems.iter())
            .map(|p| (p.file.as_str(), p.line, p.kind, p.severity))
            .collect();
        assert_eq!(
            found,
            [(
                "projects/demo/sessions.ndjson",
                3,
                "shared_callsign",
                Severity::Note
            )]
        );
        assert_eq!(
            report.problems[0].message,
            format!(
                "2 open sessions share the callsign twin-fox (merged clones each started one): \
                 {a} (ana, human, started 2026-01-01T09:00:00Z) and {b} (bob, human, started \
                 2026-01-01T10:00:00Z); a command given the callsign refuses it, so name each \
                 by its id (`relay session end {a}`)"
            )
        );
        // Once one of them ends, nothing is left to report.
        let mut ended: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        ended["ended_at"] = json!("2026-01-01T11:00:00Z");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&format!("{ended}\n"));
        std::fs::write(&path, text).unwrap();
        assert_eq!(verify(&store).unwrap().0.problems, []);
    }
}
