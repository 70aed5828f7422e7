//! `relay init` and `relay projects`.

use crate::harness::{Env, json_snapshot, read, snapshot};

#[test]
fn init_creates_the_layout_and_is_harmless_twice() {
    let env = Env::empty();
    let out = env.ok(&["init"]);
    // "Initialized relay store in .relay with project `work`", and what to run next.
    snapshot!("init", out);
    let store = env.store();
    let attributes = read(&store.join(".gitattributes"));
    let lines: Vec<&str> = attributes.lines().skip(1).collect();
    assert_eq!(
        lines,
        ["*.ndjson merge=union", "allowed_signers merge=union"]
    );
    let ignore = read(&store.join(".gitignore"));
    assert!(ignore.lines().any(|l| l == "cache/") && ignore.lines().any(|l| l == "local/"));
    assert!(read(&store.join("config.toml")).contains("default_project = \"work\""));
    let projects = read(&store.join("projects.ndjson"));
    assert_eq!(projects.lines().count(), 1);
    let p: serde_json::Value = serde_json::from_str(projects.lines().next().unwrap()).unwrap();
    assert_eq!(p["project_id"], "work");
    assert_eq!(p["name"], "work");

    std::fs::write(
        store.join("config.toml"),
        "default_project = \"work\"\n# mine\n",
    )
    .unwrap();
    let again = env.ok(&["init"]);
    // "already exist; nothing changed"
    snapshot!("init_again", again);
    assert_eq!(
        read(&store.join("config.toml")),
        "default_project = \"work\"\n# mine\n",
        "config is never overwritten"
    );
    assert_eq!(read(&store.join("projects.ndjson")), projects);
}

#[test]
fn init_json_and_a_named_project() {
    let env = Env::empty();
    let v = env.ok_json(&["init", "--project", "proj_dev_relay", "--name", "Relay dev"]);
    json_snapshot!("init_json", &v);
    assert_eq!(v["created"], true);
    assert_eq!(v["project_created"], true);
    assert_eq!(v["project"]["project_id"], "proj_dev_relay");
    assert_eq!(v["project"]["name"], "Relay dev");
    let v = env.ok_json(&["init", "--project", "second"]);
    assert_eq!(
        (v["created"].clone(), v["project_created"].clone()),
        (false.into(), true.into())
    );
}

#[test]
fn store_is_found_from_subfolders_and_overridable() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("a/b")).unwrap();
    env.deposit("top", &[]);
    let mut c = env.command(&["pull", "--json"]);
    c.current_dir(env.path("a/b"));
    let out = c.output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);

    let other = Env::empty();
    let r = other.run(&["pull", "--json"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.error()["error"], "store_not_found");
    snapshot!("store_not_found_json", r.transcript());
    snapshot!("store_not_found", other.run(&["pull"]).transcript());
    let r = other.run_env(
        &["pull", "--json"],
        &[("RELAY_DIR", env.store().to_str().unwrap())],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json_lines().len(), 1);
    let r = other.run(&["pull", "--json", "--store", env.dir.to_str().unwrap()]);
    assert_eq!(
        r.json_lines().len(),
        1,
        "a folder holding .relay/ works too"
    );
}

#[test]
fn projects_lifecycle() {
    let env = Env::new();
    let created = env.ok_json(&["projects", "create", "web", "--name", "Website"]);
    assert_eq!(created["project_id"], "web");
    assert_eq!(created["name"], "Website");
    let r = env.run(&["projects", "create", "web", "--json"]);
    assert_eq!(r.code, 3);
    assert_eq!(r.error()["error"], "project_exists");
    snapshot!("project_exists_json", r.transcript());
    snapshot!(
        "project_exists",
        env.run(&["projects", "create", "web"]).transcript()
    );

    let renamed = env.ok_json(&["projects", "rename", "web", "Web site"]);
    assert_eq!(renamed["name"], "Web site");
    let archived = env.ok_json(&["projects", "archive", "web"]);
    assert!(archived["archived_at"].is_string());
    let r = env.run(&["deposit", "--project", "web", "--title", "x", "--json"]);
    assert_eq!(r.code, 3);
    assert_eq!(r.error()["error"], "project_archived");
    // Says how to go on: `relay projects unarchive web`.
    snapshot!("project_archived_json", r.transcript());
    snapshot!("projects_list_archived", env.ok(&["projects", "list"]));

    let listed = env.run(&["projects", "list", "--json"]).json_lines();
    json_snapshot!("projects_list_json", &listed);
    let ids: Vec<_> = listed
        .iter()
        .map(|p| p["project_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["demo", "web"]);
    assert_eq!(listed[1]["name"], "Web site");

    let un = env.ok_json(&["projects", "unarchive", "web"]);
    assert!(un["archived_at"].is_null());
    env.deposit("now allowed", &["--project", "web"]);
    let info = env.ok_json(&["projects", "info", "web"]);
    assert_eq!(info["counts"]["packages"], 1);
    let r = env.run(&["projects", "info", "nope", "--json"]);
    assert_eq!(
        (r.code, r.error()["error"].as_str()),
        (1, Some("project_not_found"))
    );
    // Every change is a new line; nothing is rewritten.
    assert_eq!(
        read(&env.store().join("projects.ndjson")).lines().count(),
        5
    );
}

#[test]
fn hostile_project_ids_stay_inside_the_store() {
    let env = Env::new();
    let long = "p".repeat(300);
    for id in [
        "../../escape",
        "/etc",
        "..",
        "a/b\\c",
        "tab\there",
        long.as_str(),
    ] {
        env.ok(&["projects", "create", id]);
        let pkg = env.deposit("inside", &["--project", id]);
        let v = env.ok_json(&["pull", &pkg, "--project", id])["package"].clone();
        assert_eq!(v["project_id"], id);
    }
    let outside: Vec<_> = std::fs::read_dir(env.dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        outside.len(),
        2,
        "only work/ and home/ beside the store: {outside:?}"
    );
    assert!(!std::path::Path::new("/etc/packages").exists());
    // One folder per project that holds data (demo holds none yet).
    let in_projects = std::fs::read_dir(env.store().join("projects"))
        .unwrap()
        .count();
    assert_eq!(in_projects, 6);
}
