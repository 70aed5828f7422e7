//! relay's merge driver: how git merges the store's logs in a clone where `relay hook install
//! --git` ran. The committed `.relay/.gitattributes` names git's built-in `union` driver, which
//! every clone has; union keeps both sides of a conflicting hunk, so a line both sides hold at
//! different places is kept twice, and merged and rebased clones end up holding different
//! lines. The install points this clone's store logs at relay's driver instead (a block in
//! git's `info/attributes`, which outranks every `.gitattributes`, and `merge.relay.*` in the
//! clone's config): `relay hook merge-driver` writes the union by line identity, each line
//! once, dropping nothing either side holds (`relay_store::lines::union`). A clone without
//! it still merges with `union`.

use std::path::{Path, PathBuf};

use relay_wire::error::{Error, Result};

use crate::ops::git::git;

/// The driver's name in `merge=` and in git's config (`merge.relay.driver`).
pub const NAME: &str = "relay";

/// Opens relay's block in git's `info/attributes`.
const BEGIN: &str = "# relay's merge driver for the store's logs (relay hook install --git)";
/// Closes it.
const END: &str = "# end of relay's merge driver";

/// The attribute lines for the store at `store_rel` (relative to the work tree's top): its
/// logs. (`allowed_signers` keeps git's union: a key one side removed must stay removed.)
pub fn attribute_lines(store_rel: &str) -> [String; 1] {
    [format!("{store_rel}/**/*.ndjson merge={NAME}")]
}

/// The command git runs: `%O %A %B` are the base, ours (where the result goes) and theirs,
/// `%P` the path merged (a file outside the store gets git's own union).
pub fn driver_command(relay: &str) -> String {
    format!("{relay} hook merge-driver %O %A %B %P")
}

/// The store's folder as git names it: the store's, else `.relay` (no store found yet).
pub fn store_rel(store: Option<&relay_store::Store>) -> String {
    (store.and_then(|s| s.journal_place().map(|p| p.store_rel.clone())))
        .unwrap_or_else(|| relay_store::format::STORE_DIR.to_string())
}

/// What `relay hook merge-driver` does: writes into `ours` the merge of a store log by line
/// identity, or, for another file (`path` outside `store_rel`'s logs), git's own union.
pub fn merge(
    base: &Path,
    ours: &Path,
    theirs: &Path,
    path: Option<&str>,
    store_rel: &str,
) -> Result<()> {
    if path.is_some_and(|p| !merges_by_line(p, store_rel)) {
        let status = std::process::Command::new("git")
            .args(["merge-file", "--union", "-q"])
            .args([ours, base, theirs])
            .stdin(std::process::Stdio::null())
            .status()
            .map_err(|e| Error::io("cannot run git merge-file", e))?;
        return match status.success() {
            true => Ok(()),
            false => Err(Error::Integrity(format!(
                "git merge-file --union failed on {}",
                path.unwrap_or_default()
            ))),
        };
    }
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| Error::io(format!("cannot read {}", p.display()), e))
    };
    let merged = relay_store::lines::union(&read(base)?, &read(ours)?, &read(theirs)?);
    std::fs::write(ours, merged)
        .map_err(|e| Error::io(format!("cannot write {}", ours.display()), e))
}

/// Whether `path` (relative to the work tree's top, as git names it) is a log of the store
/// at `store_rel`: what relay's driver merges by line identity.
pub fn merges_by_line(path: &str, store_rel: &str) -> bool {
    path.strip_prefix(store_rel)
        .is_some_and(|rest| rest.starts_with('/') && path.ends_with(".ndjson"))
}

/// Git's `info/attributes` of the repository at `cwd` (shared by its worktrees).
fn info_attributes(cwd: &Path) -> Result<PathBuf> {
    let path = git(cwd, &["rev-parse", "--git-path", "info/attributes"]).ok_or_else(|| {
        Error::InvalidInput("not inside a git repository: run this in the repository".into())
    })?;
    Ok(cwd.join(path))
}

/// `text` without relay's block.
fn without_block(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        match line {
            BEGIN => inside = true,
            END if inside => inside = false,
            _ if inside => {}
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn set_config(cwd: &Path, key: &str, value: &str) -> Result<()> {
    let out = std::process::Command::new("git")
        .args(["config", "--local", key, value])
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Error::io("cannot run git", e))?;
    match out.status.success() {
        true => Ok(()),
        false => Err(Error::Integrity(format!(
            "git config {key} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))),
    }
}

/// Configures relay's driver for the store at `store_rel` in the repository at `cwd`; what
/// changed, in words.
pub fn install(cwd: &Path, store_rel: &str, relay: &str) -> Result<Vec<String>> {
    let attributes = info_attributes(cwd)?;
    let before = std::fs::read_to_string(&attributes).unwrap_or_default();
    let mut text = without_block(&before);
    text.push_str(BEGIN);
    text.push('\n');
    for line in attribute_lines(store_rel) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(END);
    text.push('\n');
    let command = driver_command(relay);
    let configured = git(cwd, &["config", "--local", "--get", "merge.relay.driver"]);
    if text == before && configured.as_deref() == Some(command.as_str()) {
        return Ok(vec!["merge driver: already installed".into()]);
    }
    set_config(
        cwd,
        "merge.relay.name",
        "relay: both sides' log lines, each once",
    )?;
    set_config(cwd, "merge.relay.driver", &command)?;
    relay_store::ndjson::write_atomic(&attributes, text.as_bytes())?;
    Ok(vec![format!(
        "merge driver: installed (git merges {store_rel}/**/*.ndjson by line, each line once; \
         set in {} and this clone's git config)",
        attributes.display()
    )])
}

/// Takes relay's driver out of the repository at `cwd`; what changed, in words.
pub fn uninstall(cwd: &Path) -> Result<Vec<String>> {
    let attributes = info_attributes(cwd)?;
    let before = std::fs::read_to_string(&attributes).unwrap_or_default();
    let text = without_block(&before);
    let configured = git(cwd, &["config", "--local", "--get", "merge.relay.driver"]).is_some();
    if text == before && !configured {
        return Ok(Vec::new());
    }
    if text != before {
        relay_store::ndjson::write_atomic(&attributes, text.as_bytes())?;
    }
    if configured {
        let _ = git(
            cwd,
            &["config", "--local", "--remove-section", "merge.relay"],
        );
    }
    Ok(vec![
        "merge driver: removed (the store's .gitattributes union driver applies again)".into(),
    ])
}

/// The driver this clone's git config defines for `merge=relay`, if any.
pub fn configured(cwd: &Path) -> Option<String> {
    git(cwd, &["config", "--get", "merge.relay.driver"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_replaced_not_repeated_and_leaves_the_rest() {
        let mine = "*.png binary\n";
        let with = format!("{mine}{BEGIN}\n.relay/**/*.ndjson merge=relay\n{END}\nlast\n");
        assert_eq!(without_block(&with), format!("{mine}last\n"));
        assert_eq!(without_block(mine), mine);
        assert_eq!(
            attribute_lines(".relay"),
            [".relay/**/*.ndjson merge=relay".to_string()]
        );
        assert_eq!(
            driver_command("'/x/relay'"),
            "'/x/relay' hook merge-driver %O %A %B %P"
        );
        assert!(merges_by_line(
            ".relay/projects/a/packages/2026-01.ndjson",
            ".relay"
        ));
        assert!(merges_by_line("sub/.relay/projects.ndjson", "sub/.relay"));
        assert!(!merges_by_line("CHANGELOG.md", ".relay"));
        assert!(!merges_by_line(".relay/allowed_signers", ".relay"));
        assert!(!merges_by_line(".relayx/a.ndjson", ".relay"));
    }
}
