//! Signed records: which key a process signs with (flag, environment, config, `--sign`), and
//! the verdict on every record version (`relay verify --signatures`, `relay pull`): good, bad,
//! revoked, not allowed, or unsigned, judged against `.relay/allowed_signers`, and which
//! verdicts fail: bad and revoked always; unsigned and not allowed with `[sign] require`, or
//! where the actor's earlier records are signed (a signature stripped, or a record re-signed
//! with a key outside `allowed_signers`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_store::records::Versioned;
use relay_store::retractions::Retraction;
use relay_store::signing::RecordVersion;
use relay_wire::allowed_signers::{Allowance, AllowedSigners};
use relay_wire::error::Result;
use relay_wire::signature::{self, RecordKind, Signature};
use relay_wire::{Fact, Package, Session, time};

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
}

/// The verdict on `version` from the signatures that cover it.
fn judge(allowed: &AllowedSigners, version: &RecordVersion, sigs: &[&Signature]) -> Checked {
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
    };
    for sig in sigs {
        let (verdict, reason) = match signature::check(sig) {
            Err(m) => (Verdict::Bad, Some(m)),
            Ok(_) if version.actor.as_deref().is_some_and(|a| a != sig.actor) => (
                Verdict::NotAllowed,
                Some(format!(
                    "signed as {}, but the record is by {}",
                    sig.actor,
                    version.actor.as_deref().unwrap_or_default()
                )),
            ),
            Ok(key) => match allowed.allows(&sig.actor, &key, version.at) {
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
        }
    }
    best
}

/// Whether two kinds name the same id space (a package and its transitions).
fn family(kind: RecordKind) -> RecordKind {
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
    allowed: &AllowedSigners,
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
        out.push(judge(allowed, v, sigs));
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
            }),
        }
    }
    for c in &mut out {
        c.fails = c.verdict.fails(false);
    }
    out
}

/// Decides which verdicts fail: bad and revoked always; with `required`, unsigned and
/// not_allowed too; and even without it, an unsigned or not_allowed version by an actor who
/// had signed an earlier version (at or before its time) with an allowed key: a signature
/// removed, or a record changed and signed again with a key outside `allowed_signers`. An
/// actor who never signed keeps its unsigned records (a store that starts signing keeps its
/// history), and a closing version (which names no actor) is judged by `required` alone.
pub fn settle(records: &mut [Checked], required: bool) {
    let mut first_good: HashMap<String, (time::Timestamp, RecordKind, String)> = HashMap::new();
    for c in records.iter().filter(|c| c.verdict == Verdict::Good) {
        if let (Some(actor), Some(at)) = (&c.named, c.at) {
            let earlier = first_good.get(actor).is_none_or(|(t, _, _)| at < *t);
            if earlier {
                first_good.insert(actor.clone(), (at, c.record, c.id.clone()));
            }
        }
    }
    for c in records.iter_mut() {
        c.fails = c.verdict.fails(required);
        if c.fails || !matches!(c.verdict, Verdict::Unsigned | Verdict::NotAllowed) {
            continue;
        }
        let (Some(actor), Some(at)) = (&c.named, c.at) else {
            continue;
        };
        let Some((since, kind, id)) = first_good.get(actor).filter(|(t, _, _)| *t <= at) else {
            continue;
        };
        let signed = format!(
            "{actor}'s records are signed with an allowed key since {} ({} {id})",
            time::format(*since),
            kind.as_str()
        );
        c.reason = Some(match c.verdict {
            Verdict::Unsigned => {
                format!("{signed}, but this one is unsigned: its signature may have been removed")
            }
            _ => format!(
                "{signed}, but this one is not: {}",
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

/// The verdict on every record version of every project.
pub fn verify(store: &Store) -> Result<Report> {
    let allowed = store.allowed_signers()?;
    let mut report = Report {
        records: Vec::new(),
        required: store.signatures_required(),
    };
    for project in crate::ops::projects::list(store)? {
        let located = located_versions(store, project.id())?;
        let numbered = store.signatures(project.id())?;
        let mut places: HashMap<(RecordKind, &str, &str), (PathBuf, u64)> = HashMap::new();
        for (v, place) in &located {
            places
                .entry((v.kind, v.id.as_str(), v.hash.as_str()))
                .or_insert_with(|| place.clone());
        }
        let signatures_file = store.signatures_log(project.id());
        for (line, s) in &numbered {
            places
                .entry((s.record, s.id.as_str(), s.hash.as_str()))
                .or_insert_with(|| (signatures_file.clone(), *line));
        }
        let versions: Vec<RecordVersion> = located.iter().map(|(v, _)| v.clone()).collect();
        let sigs: Vec<Signature> = numbered.iter().map(|(_, s)| s.clone()).collect();
        let mut judged = judge_all(&allowed, &versions, &sigs);
        for c in &mut judged {
            c.place = places
                .get(&(c.record, c.id.as_str(), c.hash.as_str()))
                .cloned();
        }
        report.records.extend(judged);
    }
    settle(&mut report.records, report.required);
    // Lines that are not signatures are verify's problems already, not warnings besides.
    let _ = store.diagnostics().take();
    Ok(report)
}

/// The verdict on each of `versions` of one package (as `pull` shows them), in their order.
pub fn package_verdicts(store: &Store, versions: &[StoredPackage]) -> Result<Vec<Checked>> {
    let Some(first) = versions.first() else {
        return Ok(Vec::new());
    };
    let (project, id) = (first.package.project_id(), first.package.id());
    let sigs: Vec<Signature> = (store.signatures_of(project, id)?.into_iter())
        .filter(|s| family(s.record) == RecordKind::Package)
        .collect();
    if sigs.is_empty() {
        return Ok(versions
            .iter()
            .map(|p| judge(&AllowedSigners::default(), &RecordVersion::package(p), &[]))
            .collect());
    }
    let allowed = store.allowed_signers()?;
    let records: Vec<RecordVersion> = versions.iter().map(RecordVersion::package).collect();
    let judged = judge_all(&allowed, &records, &sigs);
    Ok(records
        .iter()
        .map(|r| {
            judged
                .iter()
                .find(|c| c.record == r.kind && c.hash == r.hash)
                .cloned()
                .unwrap_or_else(|| judge(&allowed, r, &[]))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let allowed = AllowedSigners::parse(&format!(
            "jo {}\nann {}\n",
            jo.public_key().to_openssh().unwrap(),
            ann.public_key().to_openssh().unwrap()
        ))
        .unwrap();
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
        let revoking = AllowedSigners::parse(&format!(
            "jo {k}\n@revoked {k}\n",
            k = jo.public_key().to_openssh().unwrap()
        ))
        .unwrap();
        let v = version(RecordKind::Package, "pkg_a", H[0], Some("jo"));
        let out = judge_all(&revoking, std::slice::from_ref(&v), &[sign(&jo, &v, "jo")]);
        assert_eq!(out[0].verdict, Verdict::Revoked);
    }

    #[test]
    fn a_moved_signature_is_bad_even_when_the_record_is_signed() {
        let jo = PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap();
        let allowed =
            AllowedSigners::parse(&format!("jo {}\n", jo.public_key().to_openssh().unwrap()))
                .unwrap();
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

    /// Issue 36: once an actor signs, a later version of theirs that is unsigned or signed
    /// by a key not allowed fails without `require`; their earlier unsigned history, other
    /// actors' and closing versions do not.
    #[test]
    fn an_actor_who_signs_cannot_lose_a_signature_later_without_it_failing() {
        let (jo, mallory) = (
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
            PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap(),
        );
        let allowed =
            AllowedSigners::parse(&format!("jo {}\n", jo.public_key().to_openssh().unwrap()))
                .unwrap();
        let at = |kind, id: &str, hash: &str, actor: Option<&str>, day: u32| {
            let mut v = version(kind, id, hash, actor);
            v.at = time::parse(&format!("2026-06-{day:02}T00:00:00Z")).unwrap();
            v
        };
        let history = at(RecordKind::Package, "pkg_old", H[0], Some("jo"), 1);
        let first = at(RecordKind::Package, "pkg_first", H[1], Some("jo"), 2);
        let stripped = at(RecordKind::Fact, "fact_s", H[2], Some("jo"), 3);
        let resigned = at(RecordKind::Package, "pkg_r", H[0], Some("jo"), 4);
        let other = at(RecordKind::Package, "pkg_ann", H[1], Some("ann"), 5);
        let closing = at(RecordKind::Fact, "fact_c", H[2], None, 6);
        let sigs = [sign(&jo, &first, "jo"), sign(&mallory, &resigned, "jo")];
        let versions = [history, first, stripped, resigned, other, closing];
        let mut out = judge_all(&allowed, &versions, &sigs);
        settle(&mut out, false);
        let got: Vec<(&str, Verdict, bool)> = out
            .iter()
            .map(|c| (c.id.as_str(), c.verdict, c.fails))
            .collect();
        assert_eq!(
            got,
            [
                ("pkg_old", Verdict::Unsigned, false),
                ("pkg_first", Verdict::Good, false),
                ("fact_s", Verdict::Unsigned, true),
                ("pkg_r", Verdict::NotAllowed, true),
                ("pkg_ann", Verdict::Unsigned, false),
                ("fact_c", Verdict::Unsigned, false),
            ]
        );
        let why = out[2].reason.as_deref().unwrap();
        assert!(
            why.starts_with("jo's records are signed with an allowed key since 2026-06-02")
                && why.contains("(package pkg_first)")
                && why.ends_with("its signature may have been removed"),
            "{why}"
        );
        assert!(
            out[3]
                .reason
                .as_deref()
                .unwrap()
                .contains("not in allowed_signers")
        );
        settle(&mut out, true);
        let failing: Vec<&str> = (out.iter().filter(|c| c.fails))
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(failing, ["pkg_old", "fact_s", "pkg_r", "pkg_ann", "fact_c"]);
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
