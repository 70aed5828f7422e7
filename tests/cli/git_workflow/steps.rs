//! The steps of a randomized git workday and how they are drawn: relay writes (deposits, fact
//! asserts on shared keys, review transitions, retractions, lessons, sessions) and git commands
//! (code commits, branch switches, merges, the same merges in two orders, pulls by merge and
//! by rebase, pushes, cherry-picks, hard resets, stash and pop, an octopus merge), each in one
//! clone.
//!
//! Every step is made legal by construction, so git has no reason of its own to stop: code
//! files are new per step (never edited, so they cannot conflict), a transition is one the
//! package's status allows, a git command that needs a clean tree comes after the person
//! committed their own changes, and no change to a log is carried (cherry-pick, stash pop)
//! onto a branch without that log. What still stops git is then relay's doing.

use serde_json::Value;

use super::reads::{KEYS, packages};
use super::rng::Rng;
use super::world::{BRANCHES, World};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Deposit,
    Assert,
    Invalidate,
    Review,
    Retract,
    Lesson,
    SessionStart,
    SessionEnd,
    Code,
    Save,
    Switch,
    Merge,
    Pull,
    PullRebase,
    Push,
    CherryPick,
    Reset,
    Stash,
    Octopus,
    MergeOrder,
}

/// How often each kind is drawn, out of the sum.
const WEIGHTS: [(Kind, usize); 20] = [
    (Kind::Deposit, 12),
    (Kind::Assert, 10),
    (Kind::Invalidate, 2),
    (Kind::Review, 7),
    (Kind::Retract, 3),
    (Kind::Lesson, 4),
    (Kind::SessionStart, 3),
    (Kind::SessionEnd, 3),
    (Kind::Code, 12),
    (Kind::Save, 4),
    (Kind::Switch, 7),
    (Kind::Merge, 6),
    (Kind::Pull, 6),
    (Kind::PullRebase, 5),
    (Kind::Push, 6),
    (Kind::CherryPick, 4),
    (Kind::Reset, 3),
    (Kind::Stash, 3),
    (Kind::Octopus, 2),
    (Kind::MergeOrder, 3),
];

/// `n` kinds of step: each kind at least once when `n` allows, the rest drawn by weight, in a
/// shuffled order.
pub fn program(rng: &mut Rng, n: usize) -> Vec<Kind> {
    let total: usize = WEIGHTS.iter().map(|w| w.1).sum();
    let mut kinds: Vec<Kind> = Vec::with_capacity(n);
    if n >= WEIGHTS.len() {
        kinds.extend(WEIGHTS.iter().map(|w| w.0));
    }
    while kinds.len() < n {
        let mut r = rng.below(total);
        for (kind, weight) in WEIGHTS {
            if r < weight {
                kinds.push(kind);
                break;
            }
            r -= weight;
        }
    }
    rng.shuffle(&mut kinds);
    kinds
}

/// Runs one step in clone `c`. A step that hit a violation stops there (it is recorded).
pub fn run(w: &mut World, c: usize, kind: Kind) {
    let _ = match kind {
        Kind::Deposit => deposit(w, c, None, "deposit", 10).map(drop),
        Kind::Assert => assert(w, c, ""),
        Kind::Invalidate => invalidate(w, c),
        Kind::Review => review(w, c),
        Kind::Retract => retract(w, c),
        Kind::Lesson => lesson(w, c),
        Kind::SessionStart => session_start(w, c).map(drop),
        Kind::SessionEnd => session_end(w, c),
        Kind::Code => code(w, c, "code"),
        Kind::Save => save(w, c),
        Kind::Switch => switch(w, c),
        Kind::Merge => merge(w, c),
        Kind::Pull => pull(w, c, false),
        Kind::PullRebase => pull(w, c, true),
        Kind::Push => push(w, c),
        Kind::CherryPick => cherry_pick(w, c),
        Kind::Reset => reset(w, c),
        Kind::Stash => stash(w, c),
        Kind::Octopus => octopus(w, c),
        Kind::MergeOrder => merge_order(w, c),
    };
}

// Relay writes. Each leaves the store changed in the work tree, for a later commit.

/// Deposits a package with `status` ("awaiting_review" or "draft"; drawn when None, mostly
/// complete); returns its id. `big` percent of them have a description over 4 KiB, so
/// logs grow past the 4 KiB a sample of their head or tail would cover.
fn deposit(w: &mut World, c: usize, status: Option<&str>, what: &str, big: u64) -> Option<String> {
    let ty = *w
        .rng
        .pick(&["standard", "decision", "handoff", "question"])
        .unwrap();
    let status = status.or_else(|| match w.rng.below(100) {
        0..60 => None,
        60..85 => Some("awaiting_review"),
        _ => Some("draft"),
    });
    let title = format!("{} {what}", w.label(c));
    // Lines of many lengths: two branches' lines swapped then sit at other offsets.
    let mut description = format!(
        "What {} did at step {} ({ty}).{}",
        w.clones[c].actor,
        w.step,
        " More.".repeat(w.rng.below(40))
    );
    let big = w.rng.chance(big);
    if big {
        description = description.repeat(4500 / description.len() + 1);
    }
    let mut args = vec![
        "deposit",
        "--title",
        &title,
        "--type",
        ty,
        "--description",
        &description,
        "--json",
    ];
    match status {
        Some("awaiting_review") => {
            args.extend(["--status", "awaiting_review", "--review", "human"])
        }
        Some(s) => args.extend(["--status", s]),
        None => {}
    }
    let size = if big { ", big" } else { "" };
    let status_name = status.unwrap_or("complete");
    w.note(&format!("deposit {title:?} ({ty}, {status_name}{size})"));
    let out = w.relay_ok(c, &args)?;
    w.clones[c].user_dirty = true;
    let v: Value = serde_json::from_str(out.trim()).ok()?;
    let id = v["package"]["package_id"].as_str().map(str::to_string)?;
    let at = format!("{title:?} in {} at #{}", w.name(c), w.step);
    w.ledger.deposits.insert(id.clone(), at);
    Some(id)
}

fn assert(w: &mut World, c: usize, what: &str) -> Option<()> {
    let (s, p) = *w.rng.pick(&KEYS).unwrap();
    let value = format!("{}{what}", w.label(c));
    w.note(&format!("facts assert {s} {p} {value}"));
    w.relay_ok(c, &["facts", "assert", s, p, &value])?;
    w.clones[c].user_dirty = true;
    Some(())
}

/// The current facts on the shared keys: (subject, predicate, value, fact id), sorted.
fn current_facts(w: &World, c: usize) -> Vec<(String, String, String, String)> {
    let out = w.relay(c, &["facts", "list", "--json"]);
    let mut facts: Vec<_> = (out.stdout.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("subject"), s("predicate"), s("value"), s("fact_id"))
        })
        .filter(|f| KEYS.contains(&(f.0.as_str(), f.1.as_str())))
        .collect();
    facts.sort();
    facts
}

fn invalidate(w: &mut World, c: usize) -> Option<()> {
    let facts = current_facts(w, c);
    let Some((s, p, _, _)) = w.rng.pick(&facts).cloned() else {
        w.note("no current fact to invalidate");
        return assert(w, c, "");
    };
    w.note(&format!("facts invalidate {s} {p}"));
    w.relay_ok(c, &["facts", "invalidate", &s, &p])?;
    w.clones[c].user_dirty = true;
    Some(())
}

fn visible_packages(w: &World, c: usize) -> Vec<(String, String, String)> {
    packages(&w.relay(c, &["pull", "--latest", "1000", "--json"]).stdout)
}

/// A transition the package's status allows: flag (submit for review), approve, or request
/// changes.
fn review(w: &mut World, c: usize) -> Option<()> {
    let open: Vec<_> = visible_packages(w, c)
        .into_iter()
        .filter(|p| ["draft", "awaiting_review", "revision_requested"].contains(&p.2.as_str()))
        .collect();
    let (title, id, status) = match w.rng.pick(&open).cloned() {
        Some(p) => p,
        None => {
            w.note("nothing under review here");
            let id = deposit(w, c, Some("awaiting_review"), "for review", 0)?;
            (
                format!("{} for review", w.label(c)),
                id,
                "awaiting_review".into(),
            )
        }
    };
    let note = format!("{} review", w.label(c));
    let args: Vec<&str> = match (status.as_str(), w.rng.below(2)) {
        ("awaiting_review", 0) => vec!["review", "request-changes", &id, "--note", &note],
        ("draft" | "revision_requested", 0) => vec!["review", "flag", &id, "--human"],
        _ => vec!["review", "approve", &id, "--note", &note],
    };
    w.note(&format!("review {} {title:?} ({status})", args[1]));
    w.relay_ok(c, &args)?;
    w.clones[c].user_dirty = true;
    Some(())
}

fn retract(w: &mut World, c: usize) -> Option<()> {
    let reason = format!("{} retract", w.label(c));
    if w.rng.chance(30) {
        let facts = current_facts(w, c);
        if let Some((s, p, v, id)) = w.rng.pick(&facts).cloned() {
            w.note(&format!("retract fact {s} {p} = {v}"));
            w.relay_ok(c, &["retract", &id, "--reason", &reason])?;
            w.clones[c].user_dirty = true;
            return Some(());
        }
    }
    let shown = visible_packages(w, c);
    let (title, id) = match w.rng.pick(&shown) {
        Some((t, id, _)) => (t.clone(), id.clone()),
        None => {
            let id = deposit(w, c, None, "to retract", 0)?;
            (format!("{} to retract", w.label(c)), id)
        }
    };
    w.note(&format!("retract package {title:?}"));
    w.relay_ok(c, &["retract", &id, "--reason", &reason])?;
    w.clones[c].user_dirty = true;
    Some(())
}

fn lesson(w: &mut World, c: usize) -> Option<()> {
    let severity = *w.rng.pick(&["info", "warning", "critical"]).unwrap();
    let title = format!("{} lesson", w.label(c));
    let content = format!("Learned at step {} by {}.", w.step, w.clones[c].actor);
    w.note(&format!("lesson add {title:?} ({severity})"));
    w.relay_ok(
        c,
        &[
            "lesson",
            "add",
            &title,
            "--content",
            &content,
            "--severity",
            severity,
        ],
    )?;
    w.clones[c].user_dirty = true;
    Some(())
}

/// Starts a session (it becomes the clone's current one); returns its id.
fn session_start(w: &mut World, c: usize) -> Option<String> {
    w.note("session start");
    let out = w.relay_ok(c, &["session", "start", "--json"])?;
    w.clones[c].user_dirty = true;
    let v: Value = serde_json::from_str(out.trim()).ok()?;
    let id = v["session_id"].as_str()?.to_string();
    let label = format!("{} session", w.label(c));
    w.sessions.insert(id.clone(), label);
    Some(id)
}

/// Ends an open session this clone's store holds (any clone's), by id.
fn session_end(w: &mut World, c: usize) -> Option<()> {
    let out = w.relay(c, &["session", "list", "--json"]);
    let mut open: Vec<(String, String)> = (out.stdout.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|s| s["ended_at"].is_null())
        .filter_map(|s| {
            let id = s["session_id"].as_str()?.to_string();
            Some((w.sessions.get(&id)?.clone(), id))
        })
        .collect();
    open.sort();
    let (label, id) = match w.rng.pick(&open).cloned() {
        Some(s) => s,
        None => {
            w.note("no open session here");
            let id = session_start(w, c)?;
            (w.sessions[&id].clone(), id)
        }
    };
    w.note(&format!("session end {label:?} by id"));
    w.relay_ok(c, &["session", "end", &id])?;
    w.clones[c].user_dirty = true;
    Some(())
}

// Git steps.

/// Writes a new code file (and now and then deletes an old one), then commits everything:
/// `git add -A` and `git commit`, so the hooks fire.
fn code(w: &mut World, c: usize, what: &str) -> Option<()> {
    let rel = format!("code/{}-{}.txt", w.label(c), what.replace(' ', "-"));
    let path = w.clones[c].dir.join(&rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = format!("{what} at step {}: {:x}\n", w.step, w.rng.next());
    std::fs::write(&path, text).unwrap();
    let mut note = format!("write {rel}");
    if w.rng.chance(20) {
        let listed = w.git(c, &["ls-files", "code"]).stdout;
        let old: Vec<&str> = listed.lines().collect();
        if let Some(gone) = w.rng.pick(&old) {
            std::fs::remove_file(w.clones[c].dir.join(gone)).unwrap();
            note.push_str(&format!(", delete {gone}"));
        }
    }
    w.note(&format!("{note}, commit all"));
    w.commit_all(c, what).map(drop)
}

fn save(w: &mut World, c: usize) -> Option<()> {
    w.note("commit all (git add -A)");
    if !w.commit_all(c, "save")? {
        w.note("nothing to commit");
    }
    Some(())
}

fn other_branches(w: &World, c: usize) -> (String, Vec<String>) {
    let current = w.branch(c);
    let others = (w.branches(c).into_iter())
        .filter(|b| *b != current)
        .collect();
    (current, others)
}

/// Checks out `branch`, first creating it at `start` where it does not exist yet.
fn checkout(w: &mut World, c: usize, branch: &str, start: &str) -> Option<()> {
    if w.branches(c).iter().any(|b| b == branch) {
        w.git_op(c, &["checkout", "-q", branch], false)?;
    } else {
        w.git_op(c, &["checkout", "-q", "-b", branch, start], false)?;
    }
    Some(())
}

fn switch(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let current = w.branch(c);
    let targets: Vec<&str> = BRANCHES.into_iter().filter(|b| *b != current).collect();
    let target = *w.rng.pick(&targets).unwrap();
    w.note(&format!("git checkout {target}"));
    checkout(w, c, target, "HEAD")
}

fn merge(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let (_, others) = other_branches(w, c);
    let Some(other) = w.rng.pick(&others).cloned() else {
        w.note("no other branch to merge");
        return switch(w, c);
    };
    let message = format!("{} merge {other}", w.label(c));
    let mut args = vec!["merge", "-q", "--no-edit", "-m", &message];
    if w.rng.chance(50) {
        args.push("--no-ff");
    }
    args.push(&other);
    w.note(&format!("git {}", args.join(" ")));
    w.git_op(c, &args, false).map(drop)
}

fn pull(w: &mut World, c: usize, rebase: bool) -> Option<()> {
    w.commit_user_work(c)?;
    let args: &[&str] = if rebase {
        &["pull", "-q", "--rebase", "origin", "main"]
    } else {
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"]
    };
    w.note(&format!("git {}", args.join(" ")));
    w.git_op(c, args, false).map(drop)
}

/// Pushes the branch to origin's main, pulling first when that would not fast-forward.
fn push(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    w.git_ok(c, &["fetch", "-q", "origin"])?;
    if !w.is_ancestor(c, "origin/main", "HEAD") {
        pull(w, c, false)?;
    }
    w.note("git push origin HEAD:main");
    w.git_op(c, &["push", "-q", "origin", "HEAD:main"], false)
        .map(drop)
}

fn has_file(w: &World, c: usize, rev: &str, path: &str) -> bool {
    w.git(c, &["cat-file", "-e", &format!("{rev}:{path}")]).ok()
}

/// Picks a commit of another branch that this one has no equivalent of.
fn cherry_pick(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let (_, others) = other_branches(w, c);
    let mut candidates: Vec<(String, String, String)> = Vec::new();
    for b in &others {
        let range = format!("HEAD...{b}");
        let out = w.git(
            c,
            &[
                "log",
                "--no-merges",
                "--cherry-pick",
                "--right-only",
                "--format=%H %s",
                &range,
            ],
        );
        for line in out.stdout.lines() {
            let (sha, subject) = line.split_once(' ').unwrap_or((line, ""));
            if !candidates.iter().any(|x| x.2 == sha) {
                candidates.push((subject.to_string(), b.clone(), sha.to_string()));
            }
        }
    }
    candidates.sort();
    // Not a commit that appends to a log this branch does not have: git cannot apply a change
    // to a missing file (modify/delete), whatever relay does.
    candidates.retain(|(_, _, sha)| {
        let changes = w.git(
            c,
            &["diff-tree", "-r", "--no-commit-id", "--name-status", sha],
        );
        (changes.stdout.lines())
            .filter_map(|l| l.strip_prefix("M\t"))
            .filter(|path| path.starts_with(".relay/"))
            .all(|path| has_file(w, c, "HEAD", path))
    });
    let Some((subject, branch, sha)) = w.rng.pick(&candidates).cloned() else {
        w.note("nothing to cherry-pick");
        return Some(());
    };
    w.note(&format!("git cherry-pick {subject:?} from {branch}"));
    w.git_op(c, &["cherry-pick", "--keep-redundant-commits", &sha], true)
        .map(drop)
}

/// `git reset --hard` to one of the last three commits of the branch (first parents).
fn reset(w: &mut World, c: usize) -> Option<()> {
    let count: usize = (w
        .git(c, &["rev-list", "--count", "--first-parent", "HEAD"])
        .stdout)
        .trim()
        .parse()
        .unwrap_or(1);
    if count <= 1 {
        w.note("nothing to reset to");
        return Some(());
    }
    let back = 1 + w.rng.below((count - 1).min(3));
    let target = format!("HEAD~{back}");
    w.note(&format!("git reset --hard {target}"));
    // What the reset takes out of the work tree the person threw away.
    let before = w.work_tree_ids(c);
    w.git_op(c, &["reset", "-q", "--hard", &target], false)?;
    let after = w.work_tree_ids(c);
    w.ledger.excused.extend(before.difference(&after).cloned());
    // Files created since the last commit (a first retraction's log, say) are left alone by
    // `reset --hard`: still the person's to commit.
    w.clones[c].user_dirty = !w.status(c).trim().is_empty();
    Some(())
}

/// New work (a deposit and a code file), `git stash -u`, maybe a pull or a checkout, then
/// `git stash pop`: the work comes back.
fn stash(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let stashed = deposit(w, c, None, "stashed", 10)?;
    let rel = format!("code/{}-stashed.txt", w.label(c));
    let path = w.clones[c].dir.join(&rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("stashed at step {}\n", w.step)).unwrap();
    // What git could not bring back over another branch whatever relay does: a log created
    // since the last commit (a pull or checkout may bring the same file), or appended to where
    // the other branch has no such log (modify/delete).
    let changed = w.store_status(c);
    let new_logs = changed.lines().any(|l| l.starts_with("??"));
    let appended: Vec<String> = (changed.lines())
        .filter(|l| !l.starts_with("??"))
        .filter_map(|l| l.get(3..).map(str::to_string))
        .collect();
    let message = format!("{} stash", w.label(c));
    w.note(&format!("write {rel}; git stash -u"));
    w.git_op(c, &["stash", "push", "-q", "-u", "-m", &message], true)?;
    w.clones[c].user_dirty = false;
    match w.rng.below(4) {
        _ if new_logs => w.note("the stash holds a new log: nothing in between"),
        0 | 1 => {
            w.note("git pull origin main");
            let _ = w.git_op(
                c,
                &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
                false,
            );
        }
        2 => {
            let (_, mut others) = other_branches(w, c);
            others.retain(|b| appended.iter().all(|path| has_file(w, c, b, path)));
            if let Some(b) = w.rng.pick(&others).cloned() {
                w.note(&format!("git checkout {b}"));
                let _ = w.git_op(c, &["checkout", "-q", &b], false);
            }
        }
        _ => {}
    }
    w.note("git stash pop");
    let popped = w.git_ok(c, &["stash", "pop", "-q"]);
    w.clones[c].user_dirty = true;
    if popped.is_none() {
        w.ledger.excused.insert(stashed);
        let out = w.git(c, &["stash", "clear"]);
        w.note(&format!("recover: git stash clear (exit {})", out.code));
    }
    Some(())
}

/// Gives two other branches a commit each (relay writes and code), commits on this one too,
/// then `git merge B C`. When git stops on conflicts in `.relay/` alone, `relay resolve` and
/// `git commit --no-edit` must conclude it.
fn octopus(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let current = w.branch(c);
    let mut others: Vec<&str> = BRANCHES.into_iter().filter(|b| *b != current).collect();
    w.rng.shuffle(&mut others);
    let (b1, b2) = (others[0], others[1]);
    w.note(&format!("octopus of {b1} and {b2} into {current}"));
    let base = w.rev(c, "HEAD");
    for b in [b1, b2] {
        checkout(w, c, b, &base)?;
        deposit(w, c, None, &format!("on {b}"), 10)?;
        assert(w, c, b)?;
        code(w, c, &format!("code on {b}"))?;
    }
    w.git_op(c, &["checkout", "-q", &current], false)?;
    deposit(w, c, None, &format!("on {current}"), 10)?;
    code(w, c, &format!("code on {current}"))?;
    let message = format!("{} octopus", w.label(c));
    let before = w.store_status(c);
    let out = w.git(c, &["merge", "-q", "--no-edit", "-m", &message, b1, b2]);
    if out.ok() {
        w.note("git merged it");
        w.check_store(c, &before, "git merge B C", false);
        return Some(());
    }
    let unmerged = w.git(c, &["diff", "--name-only", "--diff-filter=U"]).stdout;
    if unmerged.trim().is_empty() && !w.rev(c, "MERGE_HEAD").is_empty() {
        // (an in-progress merge with nothing unmerged: git stopped for another reason)
        let detail = format!(
            "git merge B C stopped with nothing unmerged: {}",
            out.stderr
        );
        w.violate(c, "octopus-stopped", detail);
        w.recover(c);
        return None;
    }
    if unmerged.trim().is_empty() {
        // git refused the octopus outright (the current branch changed a log too), leaving
        // nothing behind: `relay merge B C` makes it with the union driver.
        w.note("git refused the octopus outright; relay merge B C");
        w.relay_ok(c, &["merge", b1, b2])?;
        return check_octopus(w, c, b1, b2);
    }
    let outside: Vec<&str> = (unmerged.lines())
        .filter(|p| !p.starts_with(".relay/"))
        .collect();
    if !outside.is_empty() {
        let detail = format!("conflicts outside .relay/ (a generator bug): {outside:?}");
        w.violate(c, "octopus-conflict-outside-store", detail);
        w.recover(c);
        return None;
    }
    w.note(&format!(
        "git stopped (exit {}; {} relay files in conflict); relay resolve; git commit --no-edit",
        out.code,
        unmerged.lines().count()
    ));
    if w.relay_ok(c, &["resolve"]).is_none() {
        w.recover(c);
        return None;
    }
    w.git_op(c, &["commit", "-q", "--no-edit"], true)?;
    check_octopus(w, c, b1, b2)
}

/// HEAD must be the octopus merge of `b1` and `b2`: three parents, both branches in it.
fn check_octopus(w: &mut World, c: usize, b1: &str, b2: &str) -> Option<()> {
    let parents = w
        .git(c, &["rev-list", "--parents", "-n", "1", "HEAD"])
        .stdout;
    let merged = parents.split_whitespace().count() == 4
        && w.is_ancestor(c, b1, "HEAD")
        && w.is_ancestor(c, b2, "HEAD");
    if !merged {
        let detail = format!(
            "after the octopus, HEAD is not the merge of {b1} and {b2} with three parents: {parents}"
        );
        w.violate(c, "octopus-not-concluded", detail);
    }
    Some(())
}

/// Merges in a different order (issue 35, story 1): commits a big package on this branch (X),
/// gives three other branches a commit each (relay writes, a code file; reads on each): P and
/// Q from there, T (its package big) afresh from the first commit; merges P, Q, T into X, then
/// starts a fifth branch Y afresh where X was (`git checkout -B`), merges Q, P, T into it:
/// X and Y hold the same lines in a different order. Reads on X, then checks out Y (where the
/// step's reads run).
fn merge_order(w: &mut World, c: usize) -> Option<()> {
    w.commit_user_work(c)?;
    let x = w.branch(c);
    let mut others: Vec<&str> = BRANCHES.into_iter().filter(|b| *b != x).collect();
    w.rng.shuffle(&mut others);
    // T and Y start afresh (`checkout -B`): never main, which is shared.
    others.sort_by_key(|b| *b != "main");
    let (p, q, t, y) = (others[0], others[1], others[2], others[3]);
    w.note(&format!(
        "merge {p}, {q}, {t} into {x}; {q}, {p}, {t} into {y}"
    ));
    // Over 4 KiB before the merged lines, and over 4 KiB after them: what a sample of the
    // head and the tail of a log cannot tell apart.
    deposit(w, c, None, "base", 100)?;
    code(w, c, "base")?;
    let base = w.rev(c, "HEAD");
    let first = w.git(c, &["rev-list", "--max-parents=0", "HEAD"]).stdout;
    let first = first.lines().next().unwrap_or_default().to_string();
    for (b, big) in [(p, 10), (q, 10), (t, 100)] {
        if b == t {
            // A branch long behind: it starts afresh from the first commit.
            w.excuse_branch_reset(c, t, &first);
            w.git_op(c, &["checkout", "-q", "-B", t, &first], false)?;
        } else {
            checkout(w, c, b, &base)?;
        }
        deposit(w, c, None, &format!("on {b}"), big)?;
        assert(w, c, b)?;
        code(w, c, &format!("code on {b}"))?;
        // A read on each branch. T's logs do not begin with X's, so the indexes follow T
        // whole, and X's read below indexes X whole.
        w.check_cache(c);
    }
    w.git_op(c, &["checkout", "-q", &x], false)?;
    for b in [p, q, t] {
        let message = format!("{} merge {b} into {x}", w.label(c));
        w.git_op(c, &["merge", "-q", "--no-edit", "-m", &message, b], false)?;
    }
    w.excuse_branch_reset(c, y, &base);
    w.git_op(c, &["checkout", "-q", "-B", y, &base], false)?;
    for b in [q, p, t] {
        let message = format!("{} merge {b} into {y}", w.label(c));
        w.git_op(c, &["merge", "-q", "--no-edit", "-m", &message, b], false)?;
    }
    w.git_op(c, &["checkout", "-q", &x], false)?;
    w.check_cache(c);
    w.note(&format!("read on {x}, git checkout {y}"));
    w.git_op(c, &["checkout", "-q", y], false).map(drop)
}
