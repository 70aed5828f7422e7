//! Who is looking, for a keyword search: drafts are shown to their creator only, and working
//! out the viewer may start git (`git config user.email`), so a search asks only when a draft
//! reaches its results. A `git` on the PATH that notes each start counts the processes.

use serde_json::json;

use crate::harness::Env;

#[test]
fn a_search_starts_git_only_when_a_draft_reaches_its_results() {
    let env = Env::new();
    // A git that notes its arguments, then answers as git would for a user with an email.
    let bin = env.path("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = env.path("git-starts.log");
    let git = bin.join("git");
    std::fs::write(
        &git,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\n\
             if [ \"$1 $2\" = 'config user.email' ]; then echo jo@example.com; exit 0; fi\n\
             exit 1\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Three packages of jo's that lead on "leak", and a draft of ana's below them that alone
    // holds "pool".
    for title in [
        "Leak leak leak",
        "Leak leak in the cache",
        "Leak in the worker",
    ] {
        env.deposit_from(&json!({"title": title, "created_by": {"id": "jo", "type": "human"}}));
    }
    env.deposit_from(
        &json!({"title": "A long note on a leak somewhere in the pool of workers",
        "status": "draft", "created_by": {"id": "ana", "type": "human"}}),
    );
    let starts = || std::fs::read_to_string(&log).unwrap_or_default();
    let search = |query: &str| {
        let mut c = env.command(&["search", query, "--limit", "2", "--json"]);
        c.env("PATH", &path);
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let titles: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|r| r["package"]["title"].as_str().unwrap().to_string())
            .collect();
        titles
    };
    // The draft matches but ranks below the two results: nobody is asked who is looking.
    assert_eq!(search("leak"), ["Leak leak leak", "Leak leak in the cache"]);
    assert_eq!(starts(), "", "no git started");
    // The draft leads: git is asked once, and the viewer (jo) does not see ana's draft.
    assert_eq!(search("pool"), Vec::<String>::new());
    assert_eq!(starts(), "config user.email\n");
    // Asked as ana (RELAY_ACTOR), the draft is hers: shown, and git is not started.
    let mut c = env.command(&["search", "pool", "--json"]);
    c.env("PATH", &path).env("RELAY_ACTOR", "ana");
    let out = c.output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert_eq!(starts(), "config user.email\n", "no second start");
}
