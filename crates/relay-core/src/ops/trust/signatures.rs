//! Signed records: which key a process signs with (flag, environment, config, `--sign`), and
//! the verdict on every record version (`relay verify --signatures`, every read of a package):
//! good, bad, revoked, not allowed, or unsigned, judged against `.relay/allowed_signers` as
//! [`super::signers`] reads it with its history, and which verdicts fail: bad and revoked
//! always; a key the file lists used outside what its line allows (another actor's, a time it
//! was not valid, a key added without a rotation record); and unsigned or not allowed ones of
//! an actor the file says must sign at the record's time, or every one with `[sign] require`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_store::records::Versioned;
use relay_store::retractions::Retraction;
use relay_store::signing::RecordVersion;
use relay_wire::allowed_signers::Allowance;
use relay_wire::error::Result;
use relay_wire::signature::{self, RecordKind, Signature};
use relay_wire::{Fact, Package, Session, time};

use super::signers::Signers;
pub use crate::resolve::signing_key::{DEFAULT_KEY, expand_home, key_path};

/// The verdict on one record version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A valid signature by a key allowed for the record's actor at the record's time.
    Good,
    /// A signature that does not verify, or the record changed after it was signed.
    Bad,
    /// A valid signature by a key `allowed_signers` revokes.
    Revoked,
    /// A valid signature by a key not allowed for that actor (or not listed at all).
    NotAllowed,
    Unsigned,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [
        Verdict::Good,
        Verdict::Bad,
        Verdict::Revoked,
        Verdict::NotAllowed,
        Verdict::Unsigned,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Good => "good",
            Verdict::Bad => "bad",
            Verdict::Revoked => "revoked",
            Verdict::NotAllowed => "not_allowed",
            Verdict::Unsigned => "unsigned",
        }
    }

    /// Of several signatures of one version, the lowest rank speaks for it: one that does
    /// not verify (someone changed a signature line) first, then the best of the others.
    fn rank(self) -> u8 {
        match self {
            Verdict::Bad => 0,
            Verdict::Good => 1,
            Verdict::NotAllowed => 2,
            Verdict::Revoked => 3,
            Verdict::Unsigned => 4,
        }
    }

    /// Whether this verdict fails `verify --signatures` (`required`: `[sign] require`).
    pub fn fails(self, required: bool) -> bool {
        match self {
            Verdict::Good => false,
            Verdict::Bad | Verdict::Revoked => true,
            Verdict::NotAllowed | Verdict::Unsigned => required,
        }
    }
}

/// The verdict on one record version, as `verify --signatures --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checked {
    pub record: RecordKind,
    pub id: String,
    pub hash: String,
    pub verdict: Verdict,
    /// Who signed (as the signature says), else who the record names.
    pub actor: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether this verdict fails the check (see [`settle`]).
    pub fails: bool,
    /// Who the record says made this version (`None` for a closing version, or a signature
    /// whose record version is not in the store).
    #[serde(skip)]
    pub named: Option<String>,
    /// When the version was made.
    #[serde(skip)]
    pub at: Option<time::Timestamp>,
    /// Where it is: the record's line, or the signature's when no version matches it.
    #[serde(skip)]
    pub place: Option<(PathBuf, u64)>,
    /// Whether `allowed_signers` lists the signing key at all: a known key used outside what
    /// its line allows, which no honest writer does.
    #[serde(skip)]
    pub listed: bool,
}

/// The verdict on `version` from the signatures that cover it.
pub(crate) fn judge(signers: &Signers, version: &RecordVersion, sigs: &[&Signature]) -> Checked {
    let mut best = Checked {
        record: version.kind,
        id: version.id.clone(),
        hash: version.hash.clone(),
        verdict: Verdict::Unsigned,
        actor: version.signing_actor(None),
        key: None,
        reason: None,
        fails: false,
        named: version.actor.clone(),
        at: Some(version.at),
        place: None,
        listed: false,
    };
    for sig in sigs {
        let checked = signature::check(sig);
        let listed = checked.as_ref().is_ok_and(|key| signers.lists(key));
        let (verdict, reason) = match checked {
            Err(m) => (Verdict::Bad, Some(m)),
            Ok(_) if version.actor.as_deref().is_some_and(|a| a != sig.actor) => (
                Verdict::NotAllowed,
                Some(format!(
                    "signed as {}, but the record is by {}",
                    sig.actor,
                    version.actor.as_deref().unwrap_or_default()
                )),
            ),
            Ok(key) => match signers.allows(&sig.actor, &key, version.at) {
                Allowance::Allowed => (Verdict::Good, None),
                Allowance::Revoked => (
                    Verdict::Revoked,
                    Some(format!("key {} is revoked in allowed_signers", sig.key)),
                ),
                Allowance::NotAllowed(r) => (Verdict::NotAllowed, Some(r)),
            },
        };
        if verdict.rank() < best.verdict.rank() {
            best.verdict = verdict;
            best.actor = sig.actor.clone();
            best.key = Some(sig.key.clone());
            best.reason = reason;
            best.listed = listed;
        }
    }
    best
}

/// Whether two kinds name the same id space (a package and its transitions).
pub(crate) fn family(kind: RecordKind) -> RecordKind {
    match kind {
        RecordKind::Transition => RecordKind::Package,
        k => k,
    }
}

/// The verdicts on `versions` (duplicates count once), given the project's signatures. A
/// signature naming a record that exists but matching none of its versions means the record
/// was changed after it was signed (or the signature was moved): an unsigned version of that
/// record is then `bad`, or, when there is none, the signature itself is reported `bad`.
pub fn judge_all(
    signers: &Signers,
    versions: &[RecordVersion],
    signatures: &[Signature],
) -> Vec<Checked> {
    let mut by_version: HashMap<(RecordKind, &str, &str), Vec<&Signature>> = HashMap::new();
    for s in signatures {
        by_version
            .entry((s.record, s.id.as_str(), s.hash.as_str()))
            .or_default()
            .push(s);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for v in versions {
        if !seen.insert((v.kind, v.id.as_str(), v.hash.as_str())) {
            continue;
        }
        let sigs = by_version
            .get(&(v.kind, v.id.as_str(), v.hash.as_str()))
            .map_or(&[][..], Vec::as_slice);
        out.push(judge(signers, v, sigs));
    }
    let ids: HashSet<(RecordKind, &str)> = versions
        .iter()
        .map(|v| (family(v.kind), v.id.as_str()))
        .collect();
    let mut orphans: Vec<&Signature> = signatures
        .iter()
        .filter(|s| !seen.contains(&(s.record, s.id.as_str(), s.hash.as_str())))
        .filter(|s| ids.contains(&(family(s.record), s.id.as_str())))
        .collect();
    orphans.dedup();
    for s in orphans {
        let why = format!(
            "a signature of {} {} covers {}, which matches no version of it: the record was \
             changed after it was signed, or the signature was moved",
            s.record.as_str(),
            s.id,
            s.hash
        );
        let unsigned = out.iter_mut().find(|c| {
            c.verdict == Verdict::Unsigned && family(c.record) == family(s.record) && c.id == s.id
        });
        match unsigned {
            Some(c) => {
                c.verdict = Verdict::Bad;
                c.key = Some(s.key.clone());
                c.reason = Some(why);
            }
            None => out.push(Checked {
                record: s.record,
                id: s.id.clone(),
                hash: s.hash.clone(),
                verdict: Verdict::Bad,
                actor: s.actor.clone(),
                key: Some(s.key.clone()),
                reason: Some(why),
                fails: true,
                named: None,
                at: None,
                place: None,
                listed: false,
            }),
        }
    }
    for c in &mut out {
        c.fails = c.verdict.fails(false);
    }
    out
}

/// Decides which verdicts fail: bad and revoked always; a not_allowed one by a key that
/// `allowed_signers` lists (used as another actor, out of its time, or added without a
/// rotation record); with `required`, every unsigned and not_allowed one; and, without it,
/// those of an actor `allowed_signers` says must sign at the version's time. An actor the
/// file names no key for keeps its unsigned records, and so does a signer's history before
/// their line's start; a closing version (which names no actor) is judged by `required`.
pub fn settle(records: &mut [Checked], signers: &Signers, required: bool) {
    for c in records.iter_mut() {
        c.fails = c.verdict.fails(required);
        if c.fails || !matches!(c.verdict, Verdict::Unsigned | Verdict::NotAllowed) {
            continue;
        }
        if c.verdict == Verdict::NotAllowed && c.listed {
            c.fails = true;
            continue;
        }
        let (Some(actor), Some(at)) = (&c.named, c.at) else {
            continue;
        };
        let Some(must) = signers.must_sign(actor, at) else {
            continue;
        };
        c.reason = Some(match c.verdict {
            Verdict::Unsigned => {
                format!("{must}, but this one is unsigned: its signature may have been removed")
            }
            _ => format!(
                "{must}, but this one is not signed with it: {}",
                c.reason.as_deref().unwrap_or("its key is not allowed")
            ),
        });
        c.fails = true;
    }
}

/// Every version of every record of a project, in log order: package lines (those failing
/// their hash too, by what they hold now), then fact lines, session lines and retraction
/// lines.
pub fn record_versions(store: &Store, project: &str) -> Result<Vec<RecordVersion>> {
    Ok(located_versions(store, project)?
        .into_iter()
        .map(|(v, _)| v)
        .collect())
}

/// [`record_versions`], each with its file and line.
fn located_versions(store: &Store, project: &str) -> Result<Vec<(RecordVersion, (PathBuf, u64))>> {
    let mut out = Vec::new();
    let diagnostics = relay_store::Diagnostics::default();
    for log in store.package_logs(project)? {
        relay_store::ndjson::read_objects(&log, &diagnostics, |line, mut env| {
            if let Some(raw) = env.remove("package")
                && let Ok(package) = Package::from_value(raw)
            {
                let p = StoredPackage {
                    hash: package.content_hash(),
                    version: env.get("version").and_then(Value::as_u64).unwrap_or(1),
                    transition: env.remove("transition"),
                    package,
                    location: relay_store::packages::Location {
                        path: log.clone(),
                        line,
                    },
                };
                out.push((RecordVersion::package(&p), (log.clone(), line)));
            }
            Ok(())
        })?;
    }
    let (facts, sessions) = (store.facts_log(project), store.sessions_log(project));
    each_version::<Fact>(&facts, &diagnostics, RecordVersion::fact, &mut out)?;
    each_version::<Session>(&sessions, &diagnostics, RecordVersion::session, &mut out)?;
    let retractions = store.retractions_log(project);
    relay_store::ndjson::read_objects(&retractions, &diagnostics, |line, mut map| {
        if let Some(Value::Object(raw)) = map.remove("retraction")
            && let Ok(r) = Retraction::parse(raw)
        {
            out.push((r.version(), (retractions.clone(), line)));
        }
        Ok(())
    })?;
    Ok(out)
}

/// Every valid line of a versioned log, as a record version.
fn each_version<T: Versioned>(
    path: &Path,
    diagnostics: &relay_store::Diagnostics,
    version: fn(&T) -> RecordVersion,
    out: &mut Vec<(RecordVersion, (PathBuf, u64))>,
) -> Result<()> {
    relay_store::ndjson::read_objects(path, diagnostics, |line, map| {
        if let Ok(r) = T::parse(map) {
            out.push((version(&r), (path.to_path_buf(), line)));
        }
        Ok(())
    })
}

/// The verdicts of `verify --signatures`.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub records: Vec<Checked>,
    /// `[sign] require = true`.
    pub required: bool,
}

impl Report {
    pub fn count(&self, verdict: Verdict) -> usize {
        self.records.iter().filter(|c| c.verdict == verdict).count()
    }

    /// How many verdicts fail the check.
    pub fn failures(&self) -> usize {
        self.records.iter().filter(|c| c.fails).count()
    }

    /// `3 good, 1 bad, 0 revoked, 0 not allowed, 2 unsigned`.
    pub fn summary(&self) -> String {
        Verdict::ALL
            .iter()
            .map(|v| format!("{} {}", self.count(*v), v.as_str().replace('_', " ")))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every record version and signature of one project, as verify reads them.
pub struct ProjectRecords {
    pub project: String,
    /// Each version with its file and line, in log order.
    pub versions: Vec<(RecordVersion, (PathBuf, u64))>,
    /// Each signature with its line in `signatures.ndjson`.
    pub signatures: Vec<(u64, Signature)>,
}

/// The verdict on every record version of every project, against the store's signers.
pub fn verify(store: &Store) -> Result<Report> {
    verify_with(store, &Signers::load(store, true)?, |_| Ok(()))
}

/// The verdict on every record version of every project, against `signers`; `also` sees
/// each project's records once they are read (verify's other checks of them).
pub fn verify_with(
    store: &Store,
    signers: &Signers,
    mut also: impl FnMut(&ProjectRecords) -> Result<()>,
) -> Result<Report> {
    let mut report = Report {
        records: Vec::new(),
        required: store.signatures_required(),
    };
    for project in crate::ops::projects::list(store)? {
        let records = ProjectRecords {
            project: project.id().to_string(),
            versions: located_versions(store, project.id())?,
            signatures: store.signatures(project.id())?,
        };
        let (located, numbered) = (&records.versions, &records.signatures);
        let mut places: HashMap<(RecordKind, &str, &str), (PathBuf, u64)> = HashMap::new();
        for (v, place) in located {
            places
                .entry((v.kind, v.id.as_str(), v.hash.as_str()))
                .or_insert_with(|| place.clone());
        }
        let signatures_file = store.signatures_log(project.id());
        for (line, s) in numbered {
            places
                .entry((s.record, s.id.as_str(), s.hash.as_str()))
                .or_insert_with(|| (signatures_file.clone(), *line));
        }
        let versions: Vec<RecordVersion> = located.iter().map(|(v, _)| v.clone()).collect();
        let sigs: Vec<Signature> = numbered.iter().map(|(_, s)| s.clone()).collect();
        let mut judged = judge_all(signers, &versions, &sigs);
        for c in &mut judged {
            c.place = places
                .get(&(c.record, c.id.as_str(), c.hash.as_str()))
                .cloned();
        }
        report.records.extend(judged);
        also(&records)?;
    }
    settle(&mut report.records, signers, report.required);
    // Lines that are not signatures are verify's problems already, not warnings besides.
    let _ = store.diagnostics().take();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::trust::signers::from_text;
    use crate::resolve::Environment;
    use relay_wire::time;
    use ssh_key::rand_core::OsRng;
    use ssh_key::{Algorithm, PrivateKey};

    fn version(kind: RecordKind, id: &str, hash: &str, actor: Option<&str>) -> RecordVersion {
        RecordVersion {
            kind,
            id: id.into(),
            hash: hash.into(),
            actor: actor.map(str::to_string),
            owner: actor.map(str::to_string),
            at: time::parse("2026-06-01T00:00:00Z").unwrap(),
        }
    }

    fn sign(key: &PrivateKey, v: &RecordVersion, actor: &str) -> Signature {
        Signature {
            record: v.kind,
            id: v.id.clone(),
            hash: v.hash.clone(),
            actor: actor.into(),
            key: signature::fingerprint(key.public_key()),
            sshsig: signature::sign(key, &v.hash).unwrap(),
        }
    }

    const H: [&str; 3] = [
        "sha256:1111111111111111111111111111111111111111111111111111111111111111",
        "sha256:2222222222222222222222222222222222222222222222222222222222222222",
        "sha256:3333333333333333333333333333333333333333333333333333333333333333",
    ];

    #[test]
    fn every_verdict_from_one_set_of_lines() {
        let (jo, ann) = (
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
        );
        let allowed = from_text(&format!(
            "jo {}\nann {}\n",
            jo.public_key().to_openssh().unwrap(),
            ann.public_key().to_openssh().unwrap()
        ));
        let good = version(RecordKind::Package, "pkg_a", H[0], Some("jo"));
        let by_ann = version(RecordKind::Fact, "fact_b", H[1], Some("jo"));
        let unsigned = version(RecordKind::Session, "sess_c", H[2], Some("jo"));
        let tampered = version(RecordKind::Fact, "fact_d", H[2], Some("jo"));
        let mut old = tampered.clone();
        old.hash = H[0].into();
        let sigs = vec![
            sign(&jo, &good, "jo"),
            sign(&ann, &by_ann, "ann"),
            sign(&jo, &old, "jo"),
        ];
        let out = judge_all(
            &allowed,
            &[good.clone(), by_ann, unsigned, tampered, good],
            &sigs,
        );
        let verdicts: Vec<(&str, Verdict)> =
            out.iter().map(|c| (c.id.as_str(), c.verdict)).collect();
        assert_eq!(
            verdicts,
            [
                ("pkg_a", Verdict::Good),
                ("fact_b", Verdict::NotAllowed),
                ("sess_c", Verdict::Unsigned),
                ("fact_d", Verdict::Bad),
            ]
        );
        assert!(out[1].reason.as_deref().unwrap().contains("signed as ann"));
        assert!(
            out[3]
                .reason
                .as_deref()
                .unwrap()
                .contains("changed after it was signed")
        );
        // Revoked.
        let revoking = from_text(&format!(
            "jo {k}\n@revoked {k}\n",
            k = jo.public_key().to_openssh().unwrap()
        ));
        let v = version(RecordKind::Package, "pkg_a", H[0], Some("jo"));
        let out = judge_all(&revoking, std::slice::from_ref(&v), &[sign(&jo, &v, "jo")]);
        assert_eq!(out[0].verdict, Verdict::Revoked);
    }

    #[test]
    fn a_moved_signature_is_bad_even_when_the_record_is_signed() {
        let jo = PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap();
        let allowed = from_text(&format!("jo {}\n", jo.public_key().to_openssh().unwrap()));
        let a = version(RecordKind::Fact, "fact_a", H[0], Some("jo"));
        let b = version(RecordKind::Fact, "fact_b", H[1], Some("jo"));
        let mut moved = sign(&jo, &a, "jo");
        moved.id = "fact_b".into();
        let sigs = [sign(&jo, &a, "jo"), sign(&jo, &b, "jo"), moved];
        let out = judge_all(&allowed, &[a, b], &sigs);
        let verdicts: Vec<Verdict> = out.iter().map(|c| c.verdict).collect();
        assert_eq!(verdicts, [Verdict::Good, Verdict::Good, Verdict::Bad]);
        assert_eq!((out[2].id.as_str(), out[2].hash.as_str()), ("fact_b", H[0]));
    }

    /// Issue 58: whether an actor must sign comes from allowed_signers, not from the log:
    /// from their line's start (here its commit), every version of theirs unsigned or
    /// signed by a key not allowed fails, the first one too; before it, and for an actor
    /// with no key, unsigned is fine; a listed key used as someone else fails whoever it
    /// signs for; a closing version is judged by `require` alone.
    #[test]
    fn who_must_sign_comes_from_allowed_signers_and_its_history() {
        let (jo, mallory, ann) = (
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
        );
        let text = format!(
            "jo {}\nann {}\n",
            jo.public_key().to_openssh().unwrap(),
            ann.public_key().to_openssh().unwrap()
        );
        // jo's line committed on the 2nd; ann's not committed yet.
        let signers = Signers::dated(&text, &[Some("2026-06-02T00:00:00Z"), None]);
        let at = |kind, id: &str, hash: &str, actor: Option<&str>, day: u32| {
            let mut v = version(kind, id, hash, actor);
            v.at = time::parse(&format!("2026-06-{day:02}T00:00:00Z")).unwrap();
            v
        };
        let history = at(RecordKind::Package, "pkg_old", H[0], Some("jo"), 1);
        let first = at(RecordKind::Package, "pkg_first", H[1], Some("jo"), 2);
        let stripped = at(RecordKind::Fact, "fact_s", H[2], Some("jo"), 3);
        let resigned = at(RecordKind::Package, "pkg_r", H[0], Some("jo"), 4);
        let by_ann = at(RecordKind::Package, "pkg_ann", H[1], Some("ann"), 5);
        let as_kim = at(RecordKind::Package, "pkg_kim", H[2], Some("kim"), 5);
        let closing = at(RecordKind::Fact, "fact_c", H[2], None, 6);
        let sigs = [sign(&mallory, &resigned, "jo"), sign(&jo, &as_kim, "kim")];
        let versions = [history, first, stripped, resigned, by_ann, as_kim, closing];
        let mut out = judge_all(&signers, &versions, &sigs);
        settle(&mut out, &signers, false);
        let got: Vec<(&str, Verdict, bool)> = out
            .iter()
            .map(|c| (c.id.as_str(), c.verdict, c.fails))
            .collect();
        assert_eq!(
            got,
            [
                ("pkg_old", Verdict::Unsigned, false),
                ("pkg_first", Verdict::Unsigned, true),
                ("fact_s", Verdict::Unsigned, true),
                ("pkg_r", Verdict::NotAllowed, true),
                ("pkg_ann", Verdict::Unsigned, false),
                ("pkg_kim", Verdict::NotAllowed, true),
                ("fact_c", Verdict::Unsigned, false),
            ]
        );
        let why = out[1].reason.as_deref().unwrap();
        assert!(
            why.starts_with("jo must sign: allowed_signers line 1 holds jo's key SHA256:")
                && why.contains("since commit 0123456 (2026-06-02T00:00:00")
                && why.ends_with("its signature may have been removed"),
            "{why}"
        );
        assert!(
            (out[3].reason.as_deref().unwrap()).contains("not in allowed_signers"),
            "{:?}",
            out[3].reason
        );
        assert!(out[5].reason.as_deref().unwrap().contains("not for kim"));
        settle(&mut out, &signers, true);
        let failing: Vec<&str> = (out.iter().filter(|c| c.fails))
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(
            failing,
            [
                "pkg_old",
                "pkg_first",
                "fact_s",
                "pkg_r",
                "pkg_ann",
                "pkg_kim",
                "fact_c"
            ]
        );
        // valid-after starts a line whatever git says, and a line without one in a store git
        // has no history of asks for every record.
        let text = format!(
            "jo valid-after=\"20260603\" {}\n",
            jo.public_key().to_openssh().unwrap()
        );
        let dated = Signers::dated(&text, &[Some("2026-06-01T00:00:00Z")]);
        let day = |d: u32| time::parse(&format!("2026-06-{d:02}T00:00:00Z")).unwrap();
        assert!(dated.must_sign("jo", day(2)).is_none());
        assert!(
            dated
                .must_sign("jo", day(3))
                .unwrap()
                .contains("valid after")
        );
        let always = from_text(&format!("jo {}\n", jo.public_key().to_openssh().unwrap()));
        assert!(
            always
                .must_sign("jo", day(1))
                .unwrap()
                .contains("every record")
        );
        assert!(always.must_sign("ann", day(1)).is_none());
        // A revoked key, or one past its valid-before, asks nothing more.
        let k = jo.public_key().to_openssh().unwrap();
        let revoked = from_text(&format!("jo {k}\n@revoked {k}\n"));
        assert!(revoked.must_sign("jo", day(1)).is_none());
        let ended = from_text(&format!("jo valid-before=\"20260602\" {k}\n"));
        assert!(ended.must_sign("jo", day(1)).is_some() && ended.must_sign("jo", day(2)).is_none());
    }

    #[test]
    fn keys_resolve_flag_then_config_then_sign() {
        let env = Environment::from_pairs([(crate::resolve::environment::HOME, "/home/jo")]);
        assert_eq!(expand_home("/k", &env), PathBuf::from("/k"));
        assert_eq!(expand_home("~x", &env), PathBuf::from("~x"));
        assert_eq!(
            expand_home("~/.ssh/k", &env),
            PathBuf::from("/home/jo/.ssh/k")
        );
        assert_eq!(
            expand_home("~/.ssh/k", &Environment::default()),
            PathBuf::from("~/.ssh/k")
        );
        assert!(Verdict::Unsigned.fails(true) && !Verdict::Unsigned.fails(false));
        assert!(Verdict::Bad.fails(false) && Verdict::Revoked.fails(false));
    }
}
