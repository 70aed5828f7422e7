//! Semantic and hybrid search with a real embedding model: floors on the three labelled sets of
//! the retrieval benchmark (`retrieval_bench.rs`: the keyword set, the 112 paraphrases and the
//! 224 held-out paraphrases), the
//! two examples of the book's "Search by meaning" (docs/guide/semantic-search.md), and the JSON
//! envelope.
//!
//! The model is the one `scripts/fetch-model.sh` makes from a PyPI package (`.ci/run` runs it):
//! `RELAY_TEST_MODEL`, else `target/models/minilm-l6-fitted` in the repository. Without it these
//! tests say so on stderr (past the test harness's capture) and pass without checking anything.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::harness::Env;
use crate::retrieval_bench::SETS;
use crate::search_quality::{labelled, labelled_store, measure_with};

/// The test model's folder, or `None` after saying loudly why these tests check nothing.
pub fn test_model() -> Option<PathBuf> {
    let path = std::env::var_os("RELAY_TEST_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/models/minilm-l6-fitted")
        });
    if path.join("model.safetensors").is_file() {
        return Some(path);
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: no embedding model at {}: run `bash scripts/fetch-model.sh` (as .ci/run does) or set RELAY_TEST_MODEL",
        path.display()
    );
    None
}

/// `relay index --model MODEL`: every vector built before the searches that measure them.
pub fn index_with(env: &Env, model: &str) {
    env.ok(&["index", "--model", model]);
}

/// The floors of recall@3 (percent) per set and mode: the retrieval benchmark's figures
/// (docs/BENCHMARKS.md, "Retrieval quality") rounded down by a few points, so that what the model
/// and the fusion reach does not slide back. The issue's targets are higher on the paraphrases
/// (hybrid >= 70% on the 112, >= 85% on the held-out set); the benchmark says how far they are.
const FLOORS: [(&str, &str, f64); 6] = [
    ("keyword set", "semantic", 88.0),
    ("keyword set", "hybrid", 95.0),
    ("paraphrases", "semantic", FLOOR_PARAPHRASES),
    ("paraphrases", "hybrid", FLOOR_PARAPHRASES),
    ("held-out", "semantic", FLOOR_HELD_OUT),
    ("held-out", "hybrid", FLOOR_HELD_OUT),
];
const FLOOR_PARAPHRASES: f64 = 68.0;
const FLOOR_HELD_OUT: f64 = 44.0;

#[test]
fn hybrid_and_semantic_search_meet_their_floors_on_every_labelled_set() {
    let Some(model) = test_model() else { return };
    let model = model.to_string_lossy().into_owned();
    let env = labelled_store();
    // As a benchmark would: the transformer's vectors built first (else a search ranks with
    // the static table while they are built in the background).
    index_with(&env, &model);
    let mut failed = Vec::new();
    for (set, json) in SETS {
        let queries = labelled(json);
        let mut semantic_hits = (0, 0);
        for mode in ["semantic", "hybrid"] {
            let args = ["--mode", mode, "--model", model.as_str()];
            let scores = measure_with(&env, &queries, &args);
            scores.print(&format!("{set}, {mode}"));
            let floor = FLOORS
                .iter()
                .find(|f| f.0 == set && f.1 == mode)
                .map(|f| f.2)
                .unwrap();
            // Hybrid never finds less than its vector side, at 5 and at 10 (keyword search
            // finds none of the paraphrases, and all of the keyword set at both).
            if mode == "semantic" {
                semantic_hits = (scores.hit5, scores.hit10);
            } else if scores.hit5 < semantic_hits.0 || scores.hit10 < semantic_hits.1 {
                failed.push(format!(
                    "hybrid found less than semantic on the {set}: top 5 {} < {} or top 10 {} < {}",
                    scores.hit5, semantic_hits.0, scores.hit10, semantic_hits.1
                ));
            }
            if scores.hit3_pct() < floor {
                failed.push(format!(
                    "{mode} recall@3 on the {set}: {:.1}% (floor {floor}%)",
                    scores.hit3_pct()
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_readme_paraphrases_find_their_packages_first() {
    let Some(model) = test_model() else { return };
    let env = Env::new();
    let config = env.path(".relay/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[search]\nmodel = {:?}\n",
        model.to_string_lossy()
    ));
    std::fs::write(&config, text).unwrap();
    for title in [
        "Connection pool leaking under load: pgbouncer max_client_conn reached",
        "Timezone bug in invoice dates",
        "Dark mode toggle in the settings page",
        "Flaky CI test in the payment webhook handler",
        "Memory leak in the image resize worker",
        "Rate limiter returns 500 instead of 429",
    ] {
        env.deposit(title, &[]);
    }
    for (query, expect) in [
        (
            "database connections exhausted when traffic spikes",
            "Connection pool leaking under load: pgbouncer max_client_conn reached",
        ),
        ("bills show the wrong day", "Timezone bug in invoice dates"),
    ] {
        let run = env.run(&["search", query, "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let results = run.json_lines();
        assert_eq!(
            results[0]["package"]["title"], expect,
            "{query:?}: {results:?}"
        );
        assert_eq!(
            results[0]["mode"], "hybrid",
            "a configured model makes hybrid the default"
        );
        assert!(results[0]["ranks"]["semantic"].is_u64());
        assert!(results[0]["similarity"].is_f64());
    }
}

/// Writes a tiny but real model folder (WordPiece over a few words, a 2-dimensional table).
fn tiny_model(dir: &std::path::Path, rows: &[[f32; 2]]) {
    std::fs::create_dir_all(dir).unwrap();
    let words = ["bill", "invoice", "day", "leak", "memory"];
    let mut vocab = serde_json::Map::new();
    vocab.insert("[UNK]".into(), 0.into());
    for (i, w) in words.iter().enumerate() {
        vocab.insert((*w).into(), (i + 1).into());
    }
    let tokenizer = serde_json::json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
        "normalizer": {"type": "BertNormalizer", "clean_text": true,
            "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"}, "post_processor": null, "decoder": null,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100, "vocab": vocab}
    });
    std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).unwrap();
    // safetensors by hand: an 8-byte header length, the JSON header, the F32 data.
    let n = words.len() + 1;
    let mut data: Vec<u8> = vec![0; 8];
    for i in 0..words.len() {
        data.extend(rows[i % rows.len()].iter().flat_map(|v| v.to_le_bytes()));
    }
    let header = format!(
        r#"{{"embeddings":{{"dtype":"F32","shape":[{n},2],"data_offsets":[0,{}]}}}}"#,
        data.len()
    );
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend(header.as_bytes());
    bytes.extend(&data);
    std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
    std::fs::write(dir.join("config.json"), r#"{"normalize": true}"#).unwrap();
}

#[test]
fn without_a_model_search_is_keyword_search_and_says_once_how_to_get_more() {
    let env = Env::new();
    env.deposit("Memory leak in the image cache", &[]);
    let first = env.run(&["search", "memory", "leak"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stdout.contains("Memory leak in the image cache"));
    assert!(
        first.stderr.contains("searching by keyword only")
            && first.stderr.contains("[search] model"),
        "{}",
        first.stderr
    );
    let second = env.run(&["search", "memory", "leak"]);
    assert_eq!(second.stderr, "", "said once");
    let json = env.run(&["search", "memory", "--json"]);
    assert_eq!(
        json.json_lines()[0].as_object().unwrap().len(),
        4,
        "the envelope as before"
    );
    // Asking for semantic or hybrid search without a model is an error that says what to do.
    for mode in ["semantic", "hybrid"] {
        let r = env.run(&["search", "memory", "--mode", mode, "--json"]);
        assert_eq!(r.code, 4, "{}", r.stderr);
        assert_eq!(r.error()["error"], "search_not_supported");
        assert!(
            r.error()["message"]
                .as_str()
                .unwrap()
                .contains("--model PATH")
        );
    }
    let c = env.ok_json(&["conformance"]);
    assert_eq!(c["capabilities"]["semantic_search"], false);
    assert_eq!(c["capabilities"]["hybrid_search"], false);
}

/// A model whose `query/` does not load still searches by meaning, its queries embedded by the
/// table, and says why once; `query_encoder = "static"` never looks at `query/`.
#[test]
fn a_broken_query_transformer_falls_back_to_the_table_and_says_so() {
    let env = Env::new();
    env.deposit("Memory leak in the image cache", &[]);
    let model = env.path("model");
    tiny_model(
        &model,
        &[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]],
    );
    std::fs::create_dir_all(model.join("query")).unwrap();
    std::fs::write(model.join("query/config.json"), b"{}").unwrap();
    let m = model.to_string_lossy().into_owned();
    let r = env.run(&[
        "search", "memory", "--model", &m, "--mode", "semantic", "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json_lines()[0]["package"]["title"],
        "Memory leak in the image cache"
    );
    assert_eq!(
        r.stderr.matches("the query transformer at").count(),
        1,
        "said once: {}",
        r.stderr
    );
    assert!(r.stderr.contains("does not load"), "{}", r.stderr);
    let config = env.path(".relay/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[search]\nquery_encoder = \"static\"\n");
    std::fs::write(&config, text).unwrap();
    let r = env.run(&[
        "search", "memory", "--model", &m, "--mode", "semantic", "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("query transformer"), "{}", r.stderr);
}

#[test]
fn a_broken_model_falls_back_to_keyword_search_with_a_warning() {
    let env = Env::new();
    env.deposit("Memory leak in the image cache", &[]);
    let model = env.path("model");
    tiny_model(&model, &[[1.0, 0.0]]);
    std::fs::write(model.join("model.safetensors"), b"not tensors").unwrap();
    let m = model.to_string_lossy().into_owned();
    let r = env.run(&["search", "memory", "--model", &m]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Memory leak"),
        "keyword results: {}",
        r.stdout
    );
    assert!(
        r.stderr.contains("does not load") && r.stderr.contains("not a safetensors file"),
        "{}",
        r.stderr
    );
    let r = env.run(&["search", "memory", "--model", &m, "--mode", "semantic"]);
    assert_eq!(r.code, 4, "an explicit mode needs the model: {}", r.stderr);
    let missing = env.run(&[
        "search",
        "memory",
        "--model",
        "no/such/folder",
        "--mode",
        "hybrid",
    ]);
    assert!(
        missing.stderr.contains("is not a folder"),
        "{}",
        missing.stderr
    );
    let c = env.ok_json(&["conformance", "--model", &m]);
    assert_eq!(c["capabilities"]["semantic_search"], false);
}

#[test]
fn vectors_follow_the_model_and_the_cache_changes_no_answer() {
    let env = Env::new();
    let bills = env.deposit("Bill invoice day", &[]);
    let leak = env.deposit("Memory leak", &[]);
    let model = env.path("model");
    // bill, invoice, day point one way; leak, memory the other.
    tiny_model(
        &model,
        &[[1.0, 0.0], [1.0, 0.1], [0.9, 0.0], [0.0, 1.0], [0.1, 1.0]],
    );
    let m = model.to_string_lossy().into_owned();
    let ids = |args: &[&str]| -> Vec<String> {
        let mut all = vec![
            "search",
            "--json",
            "--mode",
            "semantic",
            "--model",
            m.as_str(),
        ];
        all.extend(args);
        let r = env.run(&all);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json_lines()
            .iter()
            .map(|l| l["package"]["package_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&["invoice"]), [bills.clone(), leak.clone()]);
    let vectors = env.path(".relay/cache/vectors-v3");
    assert!(vectors.is_dir(), "the vectors are kept under cache/");
    // Deleting cache/ changes no answer; nor does keeping no cache at all.
    std::fs::remove_dir_all(env.path(".relay/cache")).unwrap();
    assert_eq!(ids(&["invoice"]), [bills.clone(), leak.clone()]);
    let config = env.path(".relay/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("search_index = true", "search_index = false"),
    )
    .unwrap();
    assert_eq!(ids(&["leak"]), [leak.clone(), bills.clone()]);
    std::fs::write(&config, &text).unwrap();
    // A changed model: its vectors are made again, never mixed with the old ones.
    tiny_model(
        &model,
        &[[0.0, 1.0], [0.1, 1.0], [0.0, 0.9], [1.0, 0.0], [1.0, 0.1]],
    );
    assert_eq!(ids(&["invoice"]), [bills.clone(), leak.clone()]);
    assert_eq!(ids(&["memory"]), [leak.clone(), bills.clone()]);
    // A vector file cut short is made again. Each model has its folder.
    let model_dirs: Vec<PathBuf> = std::fs::read_dir(&vectors)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none())
        .collect();
    assert_eq!(model_dirs.len(), 2, "a folder per model: {model_dirs:?}");
    for dir in model_dirs {
        for file in std::fs::read_dir(dir.join("demo")).unwrap() {
            let file = file.unwrap().path();
            let len = std::fs::metadata(&file).unwrap().len();
            std::fs::OpenOptions::new()
                .write(true)
                .open(&file)
                .unwrap()
                .set_len(len - 5)
                .unwrap();
        }
    }
    assert_eq!(ids(&["memory"]), [leak.clone(), bills.clone()]);
    // A query of stopwords only finds nothing, without an error.
    assert!(ids(&["the", "and", "of"]).is_empty());
    let c = env.ok_json(&["conformance", "--model", &m]);
    assert_eq!(c["capabilities"]["semantic_search"], true);
    assert_eq!(c["capabilities"]["hybrid_search"], true);
}

/// A query with no word the model knows has no vector: semantic search finds nothing, and
/// hybrid search (the default with a model) is the keyword list, not nothing. Found by the
/// conformance suite's `pull_relevant`.
#[test]
fn a_query_the_model_cannot_embed_is_keyword_search_in_hybrid_mode() {
    let env = Env::new();
    let id = env.deposit("Ship the qwzx build to staging", &[]);
    env.deposit("Memory leak", &[]);
    let model = env.path("model");
    tiny_model(&model, &[[1.0, 0.0], [0.0, 1.0]]);
    let m = model.to_string_lossy().into_owned();
    let found = |mode: &str| -> Vec<String> {
        let r = env.run(&["search", "qwzx", "--json", "--mode", mode, "--model", &m]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json_lines()
            .iter()
            .map(|l| l["package"]["package_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(found("keyword"), found("hybrid"));
    assert_eq!(found("hybrid"), [id]);
    assert!(found("semantic").is_empty());
}

#[test]
fn mcp_searches_with_the_model_relay_model_names_as_every_command_does() {
    let env = Env::new();
    env.deposit("Memory leak in the image cache", &[]);
    let model = env.path("model");
    tiny_model(&model, &[[1.0, 0.0], [0.0, 1.0]]);
    let pull = json!({"mode": "relevant", "query": "memory leak", "search": "semantic"});
    let calls = [
        crate::mcp::call(1, "pull", pull),
        crate::mcp::call(2, "conformance", json!({})),
    ];
    let mut with_model = env.command(&["mcp"]);
    with_model.env("RELAY_MODEL", &model);
    let replies = crate::mcp::serve_with(with_model, &calls);
    let found = crate::mcp::ok(&replies[0]);
    assert_eq!(found["packages"].as_array().unwrap().len(), 1, "{found}");
    let cli = env.ok_json(&["conformance"]);
    let mut cli_with_model = env.command(&["conformance", "--json"]);
    cli_with_model.env("RELAY_MODEL", &model);
    let cli_with_model: Value =
        serde_json::from_slice(&cli_with_model.output().unwrap().stdout).unwrap();
    assert_eq!(crate::mcp::ok(&replies[1]), cli_with_model);
    let without = crate::mcp::serve(&env, &calls[..1]);
    assert_eq!(
        crate::mcp::tool_error(&without[0]).0,
        "search_not_supported"
    );
    assert_ne!(cli, cli_with_model);
}
