//! The signature verdict every read of a package answers with (`relay pull`, `GET
//! /v1/packages/ID`, MCP's `pull`, the console's page), so that no door judges a signature
//! itself: the verdict on the version shown (or on another version of it that fails), whether
//! verify fails on it and why, and, for a retracted package read anyway, whether the
//! retraction holds: signed as its actor must sign, by someone who may retract the package.

use serde::Serialize;

use super::authority;
use super::signatures::{self, Checked, Verdict, family};
use super::signers::Signers;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_store::retractions::Retraction;
use relay_store::signing::RecordVersion;
use relay_wire::error::{Error, Result};
use relay_wire::signature::{RecordKind, Signature};

/// The signature verdict of a package (or one of its versions), as reads answer it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Seal {
    /// `good`, `bad`, `revoked`, `not_allowed`, `unsigned`, or `unchecked` when
    /// `allowed_signers` does not parse.
    pub verdict: &'static str,
    /// Who signed, as the signature says (when signed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The signing key's fingerprint (when signed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Why it is not good, when that is worth saying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether `relay verify` fails on it.
    pub fails: bool,
    /// The package's retraction, when it is retracted and read anyway.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retraction: Option<RetractionSeal>,
}

/// Whether a retraction holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetractionSeal {
    /// Who retracted it.
    pub by: String,
    /// The verdict on the retraction line's signature.
    pub verdict: &'static str,
    /// Whether `by` may retract the package (its author, a reviewer of it, or one of the
    /// store's `[review] reviewers`).
    pub allowed: bool,
    pub fails: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl RetractionSeal {
    /// `that retraction does not hold: …` when it does not.
    pub fn doubt(&self) -> Option<String> {
        self.fails.then(|| {
            format!(
                "that retraction does not hold: {}",
                self.reason.as_deref().unwrap_or(self.verdict)
            )
        })
    }
}

impl Seal {
    fn of(c: &Checked) -> Seal {
        let signed = c.key.is_some();
        Seal {
            verdict: c.verdict.as_str(),
            actor: signed.then(|| c.actor.clone()),
            key: c.key.clone(),
            reason: c.reason.clone(),
            fails: c.fails,
            retraction: None,
        }
    }

    /// When the signatures cannot be judged: `allowed_signers` does not parse.
    fn unchecked(e: &Error) -> Seal {
        Seal {
            verdict: "unchecked",
            actor: None,
            key: None,
            reason: Some(format!("signatures not checked: {e}")),
            fails: true,
            retraction: None,
        }
    }

    /// Whether this is the verdict of a good signature.
    pub fn is_good(&self) -> bool {
        self.verdict == Verdict::Good.as_str()
    }

    /// `signed by ACTOR (KEY)`, `signature: VERDICT (REASON)` with ` — verify fails` when it
    /// does, or `None` for an unsigned package nobody must sign; then the retraction's line.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let key = self.key.as_deref().unwrap_or_default();
        if self.is_good() && !self.fails {
            out.push(format!(
                "signed by {} ({key})",
                self.actor.as_deref().unwrap_or_default()
            ));
        } else if self.key.is_some() || self.fails {
            let why = self.reason.as_deref().unwrap_or(key);
            let fails = if self.fails {
                "; verify fails on it"
            } else {
                ""
            };
            out.push(format!("signature: {} ({why}){fails}", self.verdict));
        }
        if let Some(r) = &self.retraction
            && let Some(doubt) = r.doubt()
        {
            out.push(format!("retracted by {}, but {doubt}", r.by));
        }
        out
    }
}

/// The seals of one package's versions, and whether its retraction holds.
#[derive(Debug, Clone, Default)]
pub struct Seals {
    /// One per version, in their order.
    pub versions: Vec<Seal>,
    /// The package's retraction, if it is retracted.
    pub retraction: Option<RetractionSeal>,
}

/// The seal of each of `versions` of one package (oldest first, as `pull --history` shows
/// them), in their order; `retraction` is the package's, if it is retracted.
pub fn versions(
    store: &Store,
    versions: &[StoredPackage],
    retraction: Option<&Retraction>,
) -> Result<Seals> {
    let Some(first) = versions.first() else {
        return Ok(Seals::default());
    };
    let (project, id) = (first.package.project_id(), first.package.id());
    let all = store.signatures_of(project, id)?;
    // Git's history is asked when there is a signature to judge or a file that may have been
    // emptied; an unsigned package of a store that never signed costs no git process.
    let probe = !all.is_empty() || store.allowed_signers_file().exists();
    let signers = match Signers::for_read(store, probe) {
        Ok(s) => s,
        Err(e @ Error::Integrity(_)) => {
            return Ok(Seals {
                versions: versions.iter().map(|_| Seal::unchecked(&e)).collect(),
                retraction: None,
            });
        }
        Err(e) => return Err(e),
    };
    let required = store.signatures_required();
    let (package_sigs, retraction_sigs): (Vec<Signature>, Vec<Signature>) = all
        .into_iter()
        .partition(|s| family(s.record) == RecordKind::Package);
    let records: Vec<RecordVersion> = versions.iter().map(RecordVersion::package).collect();
    let mut judged = signatures::judge_all(&signers, &records, &package_sigs);
    signatures::settle(&mut judged, &signers, required);
    // Who may retract matters only where records are signed: elsewhere anyone can write any
    // name in a retraction, as in any record.
    let signs = store.allowed_signers_file().exists() || signers.removed.is_some();
    let retraction = retraction.map(|r| {
        let authors = authority::authors_of(versions);
        let reviewers = store.config().review.reviewers.as_deref().unwrap_or(&[]);
        let who = Who {
            authors: &authors,
            reviewers,
            judged: signs,
        };
        retraction_seal(&signers, r, &retraction_sigs, &who, required)
    });
    let mut out: Vec<Seal> = records
        .iter()
        .map(|r| {
            let c = (judged.iter())
                .find(|c| c.record == r.kind && c.hash == r.hash)
                .cloned()
                .unwrap_or_else(|| signatures::judge(&signers, r, &[]));
            Seal::of(&c)
        })
        .collect();
    // A signature that matches no version (the record changed after it was signed) is
    // judged on its own: it fails every version.
    if let Some(orphan) = judged.iter().find(|c| c.named.is_none() && c.fails) {
        for s in out.iter_mut().filter(|s| !s.fails) {
            *s = Seal::of(orphan);
        }
    }
    // Without the file it rests on, no verdict holds.
    if let Some(r) = &signers.removed {
        let gone = if r.deleted { "is gone" } else { "holds no key" };
        for s in &mut out {
            let verdict = s.reason.as_deref().unwrap_or(s.verdict);
            s.reason = Some(format!(
                "allowed_signers {gone}, so this is judged against commit {}, which held {}: \
                 {verdict}",
                r.last.short(),
                relay_wire::text::count(r.keys, "key")
            ));
            s.fails = true;
        }
    }
    Ok(Seals {
        versions: out,
        retraction,
    })
}

/// The seal a read of `shown` answers with, from the seals of every version: the shown
/// version's, unless another version fails (then that one's, saying which), with the
/// package's retraction.
pub fn of_read(
    versions: &[StoredPackage],
    seals: &[Seal],
    retraction: Option<&RetractionSeal>,
    shown: &StoredPackage,
) -> Seal {
    let mut seal = of_versions(versions, seals, shown);
    seal.retraction = retraction.cloned();
    seal
}

fn of_versions(versions: &[StoredPackage], seals: &[Seal], shown: &StoredPackage) -> Seal {
    let at = (versions.iter()).position(|v| v.version == shown.version && v.hash == shown.hash);
    let own = at.and_then(|i| seals.get(i)).cloned();
    match own {
        Some(s) if s.fails => s,
        own => {
            let failing = (versions.iter().zip(seals)).find(|(_, s)| s.fails);
            match (failing, own) {
                (Some((v, s)), _) => {
                    let mut s = s.clone();
                    s.reason = Some(format!(
                        "version {}: {}",
                        v.version,
                        s.reason.as_deref().unwrap_or(s.verdict)
                    ));
                    s
                }
                (None, Some(s)) => s,
                (None, None) => seals.last().cloned().unwrap_or(Seal {
                    verdict: Verdict::Unsigned.as_str(),
                    actor: None,
                    key: None,
                    reason: None,
                    fails: false,
                    retraction: None,
                }),
            }
        }
    }
}

/// Who may retract a package: its authors and reviewers, the store's reviewers; `judged`:
/// whether the store signs, so that the names in a retraction mean something.
struct Who<'a> {
    authors: &'a [String],
    reviewers: &'a [String],
    judged: bool,
}

/// Whether a retraction holds: its signature's verdict as verify settles it, and whether its
/// actor may retract the package.
fn retraction_seal(
    signers: &Signers,
    r: &Retraction,
    sigs: &[Signature],
    who: &Who,
    required: bool,
) -> RetractionSeal {
    let version = r.version();
    let mut judged = signatures::judge_all(signers, std::slice::from_ref(&version), sigs);
    signatures::settle(&mut judged, signers, required);
    let c = judged
        .into_iter()
        .find(|c| c.fails)
        .unwrap_or_else(|| signatures::judge(signers, &version, &[]));
    let allowed = !who.judged || authority::may_retract(r.actor(), who.authors, who.reviewers);
    let reason = match allowed {
        false => Some(authority::why_not(r.actor(), "package", &r.id)),
        true => c.reason.clone(),
    };
    RetractionSeal {
        by: r.actor().to_string(),
        verdict: c.verdict.as_str(),
        allowed,
        fails: c.fails || !allowed,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seal(verdict: &'static str, key: Option<&str>, fails: bool) -> Seal {
        Seal {
            verdict,
            actor: key.map(|_| "jo".to_string()),
            key: key.map(str::to_string),
            reason: (verdict != "good").then(|| "why".to_string()),
            fails,
            retraction: None,
        }
    }

    #[test]
    fn a_read_says_who_signed_what_fails_and_nothing_for_an_unsigned_package_nobody_signs() {
        assert_eq!(
            seal("good", Some("SHA256:k"), false).lines(),
            ["signed by jo (SHA256:k)"]
        );
        assert_eq!(
            seal("unsigned", None, true).lines(),
            ["signature: unsigned (why); verify fails on it"]
        );
        assert_eq!(
            seal("not_allowed", Some("SHA256:k"), false).lines(),
            ["signature: not_allowed (why)"]
        );
        assert!(seal("unsigned", None, false).lines().is_empty());
        let mut retracted = seal("unsigned", None, false);
        retracted.retraction = Some(RetractionSeal {
            by: "eve".into(),
            verdict: "unsigned",
            allowed: false,
            fails: true,
            reason: Some("eve may not".into()),
        });
        assert_eq!(
            retracted.lines(),
            ["retracted by eve, but that retraction does not hold: eve may not"]
        );
        let json = serde_json::to_value(seal("good", Some("SHA256:k"), false)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"verdict": "good", "actor": "jo", "key": "SHA256:k", "fails": false})
        );
    }
}
