//! The transformer's vectors built without keeping a search waiting, with the real model
//! (`scripts/fetch-model.sh` makes its `onnx/`): a store too big to embed during a search
//! answers at once with the model's static table and starts `relay index --background`;
//! `relay index` waits for that build with progress; `relay doctor` says how far it is; and
//! a text is never embedded twice, so a rebuild of the vector files embeds nothing. Without
//! the model these tests say so and check nothing.

use std::path::Path;

use serde_json::Value;

use crate::harness::Env;
use crate::search_semantic::test_model;

/// The model, when it ships the ONNX transformer (else says why the test checks nothing).
fn transformer_model() -> Option<String> {
    let model = test_model()?;
    if !model.join("onnx/model.onnx").is_file() {
        eprintln!(
            "SKIPPED: {} has no onnx/: run `bash scripts/fetch-model.sh` (as .ci/run does)",
            model.display()
        );
        return None;
    }
    Some(model.to_string_lossy().into_owned())
}

/// A store of `n` packages of about a kilobyte each, with `model` configured.
fn store_of(n: usize, model: &str) -> Env {
    let env = Env::new();
    let config = env.path(".relay/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!("\n[search]\nmodel = {model:?}\n"));
    std::fs::write(&config, text).unwrap();
    let topics = [
        "invoice dates",
        "connection pool",
        "dark mode",
        "rate limiter",
    ];
    std::thread::scope(|s| {
        for part in 0..4 {
            let env = &env;
            s.spawn(move || {
                for i in (part..n).step_by(4) {
                    let topic = topics[i % topics.len()];
                    let description = format!("Notes on the {topic}, day {i}. ").repeat(30);
                    env.ok(&[
                        "deposit",
                        "--title",
                        &format!("Work on the {topic} ({i})"),
                        "--description",
                        &description,
                    ]);
                }
            });
        }
    });
    env
}

fn model_finding(env: &Env) -> String {
    let run = env.run(&["doctor", "--json"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "embedding model")
        .map(|c| format!("{}: {}", c["status"], c["detail"]))
        .unwrap()
}

/// The segments of the transformer's text cache (every `*.texts` folder's files).
fn text_segments(env: &Env) -> usize {
    let vectors = env.path(".relay/cache/vectors-v3");
    std::fs::read_dir(&vectors)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "texts"))
        .map(|p| std::fs::read_dir(p).unwrap().count())
        .sum()
}

fn remove_vector_files(vectors: &Path) {
    for entry in std::fs::read_dir(vectors).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && path.extension().is_none() {
            std::fs::remove_dir_all(path).unwrap();
        }
    }
}

#[test]
fn a_big_store_answers_at_once_while_the_transformer_builds_in_the_background() {
    let Some(model) = transformer_model() else {
        return;
    };
    let env = store_of(80, &model);
    let log_bytes = std::fs::metadata(env.package_lines_file()).unwrap().len();
    assert!(
        log_bytes > 64 * 1024,
        "bigger than a search embeds: {log_bytes}"
    );
    let first = env.run(&["search", "bills", "show", "the", "wrong", "day"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first
            .stderr
            .contains("relay started building them in the background")
            && first.stderr.contains("ranks with the model's static table"),
        "{}",
        first.stderr
    );
    assert!(
        first.stdout.starts_with("1. Work on the "),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("\n2. Work on the "),
        "{}",
        first.stdout
    );
    // `relay index` waits for the build under way (or makes it), and says what it did.
    let index = env.ok_json(&["index"]);
    assert_eq!(index["documents"], "transformer", "{index}");
    assert_eq!(
        (index["projects"].as_u64(), index["months"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(model_finding(&env).contains("its vectors cover the one month"));
    let later = env.run(&["search", "bills", "show", "the", "wrong", "day", "--json"]);
    assert_eq!(later.code, 0, "{}", later.stderr);
    assert!(!later.stderr.contains("static table"), "{}", later.stderr);
    assert!(
        later.json_lines()[0]["package"]["title"]
            .as_str()
            .unwrap()
            .contains("invoice dates")
    );
    // A rebuild (the vector files gone, as after `rm -rf`) embeds no text again: the search
    // does not fall back, and the text cache gains no segment.
    let segments = text_segments(&env);
    assert!(segments > 0);
    remove_vector_files(&env.path(".relay/cache/vectors-v3"));
    let rebuilt = env.run(&["search", "bills", "show", "the", "wrong", "day", "--json"]);
    assert_eq!(rebuilt.code, 0, "{}", rebuilt.stderr);
    assert!(
        !rebuilt.stderr.contains("static table"),
        "{}",
        rebuilt.stderr
    );
    assert_eq!(rebuilt.json_lines(), later.json_lines());
    assert_eq!(text_segments(&env), segments, "nothing embedded again");
}

#[test]
fn doctor_says_when_the_transformer_vectors_wait_and_index_builds_them() {
    let Some(model) = transformer_model() else {
        return;
    };
    let env = store_of(80, &model);
    let finding = model_finding(&env);
    assert!(
        finding.starts_with("\"warn\"")
            && finding
                .contains("searches by meaning rank with its static table until they are built"),
        "{finding}"
    );
    let human = env.run(&["index"]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(
        human
            .stdout
            .starts_with("indexed 1 project, 1 month of packages\nvectors by ")
            && human.stdout.contains("(transformer): up to date"),
        "{}",
        human.stdout
    );
    assert!(model_finding(&env).starts_with("\"ok\""));
    // Keyword search never waits for vectors, nor starts a build.
    let keyword = env.run(&["search", "invoice", "--mode", "keyword"]);
    assert_eq!(keyword.code, 0);
    assert_eq!(keyword.stderr, "");
}

#[test]
fn a_served_relay_builds_the_transformer_vectors_on_a_thread_while_the_table_answers() {
    let Some(model) = transformer_model() else {
        return;
    };
    let env = store_of(80, &model);
    let server = crate::serve::Served::start(&env, &["--model", &model]);
    let url = server.at("/v1/projects/demo/packages?mode=relevant&query=bills%20show%20the%20wrong%20day&search=hybrid");
    // The first answer loads the query's transformer and makes the table's vectors: seconds
    // on a loaded machine, where the server's read threads yield to the tests' writers.
    let (status, body) = crate::serve::curl(&env, &["--max-time", "120", &url]);
    assert_eq!(status, 200, "{body}");
    assert!(!body["packages"].as_array().unwrap().is_empty(), "{body}");
    // The server's own thread builds the vectors: no `relay index` is run here.
    let start = std::time::Instant::now();
    while !model_finding(&env).contains("its vectors cover the one month") {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(180),
            "never built: {}",
            model_finding(&env)
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let (status, body) = crate::serve::curl(&env, &[&url]);
    assert_eq!(status, 200, "{body}");
    let first = &body["packages"][0];
    assert!(
        first["title"].as_str().unwrap().contains("invoice dates"),
        "{body}"
    );
}
