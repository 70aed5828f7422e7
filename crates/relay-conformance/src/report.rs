//! What a run tells those who read it: the `--json` report, a stable documented shape
//! (docs/guide/conformance.md), its closing line, and the exit codes by level of the
//! `relay-conformance` binary: 0 when the level the server declares passed.

use serde_json::{Value, json};

use super::{Level, Report};

/// The exit codes of the `relay-conformance` binary (docs/guide/conformance.md).
pub mod exit {
    /// The level the server declares (L3 when it declares none) passed.
    pub const CLAIMED_LEVEL_PASSED: i32 = 0;
    /// The arguments were wrong.
    pub const USAGE: i32 = 2;
    /// The suite could not run: no answer, the token refused, no project to write into.
    pub const CANNOT_RUN: i32 = 3;
    /// No level passed: an L0 scenario failed.
    pub const NO_LEVEL: i32 = 10;
    /// Below the level declared, the highest passed is L0 (11), L1 (12) or L2 (13).
    pub const REACHED_L0: i32 = 11;
    pub const REACHED_L1: i32 = 12;
    pub const REACHED_L2: i32 = 13;
}

impl Report {
    /// The level the server declares, when it is one of §11's; else L3 (the suite's claim
    /// for a server that declares none).
    pub fn claimed_level(&self) -> Level {
        (Level::ALL.into_iter())
            .find(|l| self.declared_level.as_deref() == Some(l.as_str()))
            .unwrap_or(Level::L3)
    }

    /// Whether the level the server claims passed.
    pub fn claim_holds(&self) -> bool {
        self.summary.level_passed >= Some(self.claimed_level())
    }

    /// The exit code of [`exit`] for this run.
    pub fn exit_code(&self) -> i32 {
        if self.claim_holds() {
            return exit::CLAIMED_LEVEL_PASSED;
        }
        match self.summary.level_passed {
            None => exit::NO_LEVEL,
            Some(Level::L0) => exit::REACHED_L0,
            Some(Level::L1) => exit::REACHED_L1,
            Some(_) => exit::REACHED_L2,
        }
    }

    /// The `--json` report, a stable shape (docs/guide/conformance.md): `format`, the levels
    /// (`level_passed`, `declared_level`, `claim_holds`), the counts, every scenario's
    /// outcome in order (`scenario`, `level`, `result`, `reason`, `section`), and `notes`.
    pub fn to_json(&self) -> Value {
        let s = &self.summary;
        json!({
            "format": REPORT_FORMAT,
            "level_passed": s.level_passed,
            "declared_level": self.declared_level,
            "claim_holds": self.claim_holds(),
            "passed": s.passed,
            "failed": s.failed,
            "skipped": s.skipped,
            "scenarios": self.outcomes,
            "notes": self.notes,
        })
    }

    /// The closing line: `Level passed: L1 (the server declares L3); 20 passed, …`.
    pub fn summary_line(&self) -> String {
        let s = &self.summary;
        let level = s.level_passed.map_or("none", |l| l.as_str());
        let declared = match &self.declared_level {
            Some(d) => format!(" (the server declares {d})"),
            None => String::new(),
        };
        format!(
            "Level passed: {level}{declared}; {} passed, {} failed, {} skipped",
            s.passed, s.failed, s.skipped
        )
    }
}

/// The `format` member of the `--json` report: its shape's name and version.
pub const REPORT_FORMAT: &str = "relay-conformance/1";
