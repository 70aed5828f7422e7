//! The transformer that embeds documents as well as queries, when the model folder ships one
//! for ONNX Runtime (`onnx/`): a package's passages are then read in context by the same
//! sentence transformer that reads the query, rather than averaged from the static table.
//! candle runs the same BERT at about 7 passages of 64 tokens a second on 2 cores; ONNX
//! Runtime runs its int8 form (made offline from the same weights by
//! `scripts/model/to_onnx.py`) at about 200, which is what makes it affordable for documents.
//!
//! The folder holds `model.onnx` (inputs `input_ids` and `attention_mask`, output `embedding`:
//! the mean of the last hidden states over the real tokens), `tokenizer.json`, and ONNX
//! Runtime's shared library as the `onnxruntime` wheel ships it (`libonnxruntime.so*`). The
//! library is loaded at run time, once per process:
//! relay builds and runs without it, with the static table.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::Tensor;
use sha2::{Digest, Sha256};

/// The subfolder of a model folder that holds the ONNX transformer.
pub const DIR: &str = "onnx";
/// Its files (besides the runtime's library), in the order the identity digests them.
pub const FILES: [&str; 2] = ["model.onnx", "tokenizer.json"];

/// Most tokens a passage holds, [CLS] and [SEP] aside. Measured on LoCoMo with the int8
/// model (a numpy driver, docs/BENCHMARKS.md): passages of 64 tokens found nearly as many
/// evidence sessions as passages of 128 (recall@5 76.2% against 77.0%, @10 88.1% against
/// 89.4%), at more than twice the passages a second.
pub const PASSAGE_TOKENS: usize = 64;
/// Most tokens of a record embedded whole, as one passage.
pub const WHOLE_TOKENS: usize = 128;
/// Text beyond this many bytes is not even tokenized (a query; passages are short).
const MAX_TEXT_BYTES: usize = 4 * 1024;
/// How many passages go through the transformer together.
const BATCH: usize = 32;

/// A loaded ONNX sentence transformer.
pub struct OnnxEncoder {
    session: Mutex<Session>,
    tokenizer: tokenizers::Tokenizer,
    identity: String,
    dims: usize,
}

impl std::fmt::Debug for OnnxEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxEncoder")
            .field("identity", &self.identity)
            .field("dims", &self.dims)
            .finish()
    }
}

/// The runtime's environment: loaded once per process, from the first library that loads (a
/// failure is not kept: another model folder may hold a library that loads).
static RUNTIME: OnceLock<ort::environment::Environment> = OnceLock::new();
/// Held while the runtime is being loaded.
static LOADING: Mutex<()> = Mutex::new(());

/// ONNX Runtime's shared library in `dir` (`fetch-model.sh` copies it there from the wheel).
fn library(dir: &Path) -> Result<PathBuf, String> {
    let found = std::fs::read_dir(dir)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| {
                (n.starts_with("libonnxruntime.so") || n == "libonnxruntime.dylib")
                    || n == "onnxruntime.dll"
            })
        })
        .min();
    found.ok_or_else(|| {
        format!(
            "no ONNX Runtime library in {} (libonnxruntime.so*: copy it from the onnxruntime \
             wheel's onnxruntime/capi/, as scripts/fetch-model.sh does)",
            dir.display()
        )
    })
}

fn runtime(dir: &Path) -> Result<&'static ort::environment::Environment, String> {
    let _loading = LOADING.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(env) = RUNTIME.get() {
        return Ok(env);
    }
    let lib = library(dir)?;
    let quiet: ort::logging::LoggerFunction = Arc::new(|_, _, _, _, _| {});
    let env = ort::init_from(&lib)
        .map_err(|e| format!("cannot load ONNX Runtime from {} ({e})", lib.display()))?
        .with_name("relay")
        .with_logger(quiet)
        .build()
        .map_err(|e| format!("cannot start ONNX Runtime from {} ({e})", lib.display()))?;
    Ok(RUNTIME.get_or_init(|| env))
}

impl OnnxEncoder {
    /// Whether `model_dir` ships an ONNX transformer (it may still fail to load).
    pub fn shipped(model_dir: &Path) -> bool {
        model_dir.join(DIR).join(FILES[0]).is_file()
    }

    /// Loads the transformer of `model_dir/onnx/`. The error says what is wrong, in words a
    /// user can act on.
    pub fn load(model_dir: &Path) -> Result<OnnxEncoder, String> {
        let dir = model_dir.join(DIR);
        let [model_file, tokenizer_file] = FILES.map(|name| dir.join(name));
        let mut digest = Sha256::new();
        for path in [&model_file, &tokenizer_file] {
            let cannot = |e: std::io::Error| {
                format!(
                    "cannot read {} ({e}); an onnx/ folder holds {} and ONNX Runtime's library",
                    path.display(),
                    FILES.join(", ")
                )
            };
            let file = std::fs::File::open(path).map_err(cannot)?;
            // SAFETY: only read while digested; a model file changed while relay runs is as
            // unsupported as a library replaced under a running program.
            let bytes = unsafe { memmap2::Mmap::map(&file) }.map_err(cannot)?;
            digest.update((bytes.len() as u64).to_le_bytes());
            digest.update(&bytes[..]);
        }
        // The passage size is part of what a vector means.
        digest.update(PASSAGE_TOKENS.to_le_bytes());
        digest.update(WHOLE_TOKENS.to_le_bytes());
        let identity = format!("onnx-sha256:{:x}", digest.finalize());
        let mut tokenizer = tokenizers::Tokenizer::from_file(&tokenizer_file)
            .map_err(|e| format!("{}: {e}", tokenizer_file.display()))?;
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(None)
            .map_err(|e| format!("{}: {e}", tokenizer_file.display()))?;
        let env = runtime(&dir)?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        // fetch-model.sh ships the graph optimised already (scripts/model/to_onnx.py): the
        // basic level's cheap passes are all a one-shot search then pays for at start.
        let level = GraphOptimizationLevel::Level1;
        let session = Session::builder(env)
            .and_then(|b| b.with_intra_threads(threads).map_err(Into::into))
            .and_then(|b| b.with_optimization_level(level).map_err(Into::into))
            .and_then(|mut b| b.commit_from_file(&model_file))
            .map_err(|e| {
                format!(
                    "{}: not a model ONNX Runtime runs ({e})",
                    model_file.display()
                )
            })?;
        let mut encoder = OnnxEncoder {
            session: Mutex::new(session),
            tokenizer,
            identity,
            dims: 0,
        };
        let probe = encoder
            .embed_batch(&["relay"])?
            .pop()
            .flatten()
            .ok_or_else(|| format!("{}: gives no vector", model_file.display()))?;
        encoder.dims = probe.len();
        Ok(encoder)
    }

    pub fn identity(&self) -> &str {
        &self.identity
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    /// How many tokens `text` is to this transformer, special tokens aside.
    pub fn tokens(&self, text: &str) -> usize {
        self.tokenizer
            .encode_fast(text, false)
            .map_or(text.split_whitespace().count(), |e| e.len())
    }

    /// The normalised vector of a query; `None` for a text of no token.
    pub fn embed(&self, text: &str) -> Result<Option<Vec<f32>>, String> {
        Ok(self.embed_batch(&[text])?.pop().flatten())
    }

    /// The normalised vectors of `texts`, in their order (`None` for a text of no token), in
    /// batches of texts of about one length. A text is cut at the transformer's window.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Option<Vec<f32>>>, String> {
        let (cls, sep) = (self.special("[CLS]", 101), self.special("[SEP]", 102));
        let mut encoded: Vec<(usize, Vec<i64>)> = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let mut end = text.len().min(MAX_TEXT_BYTES);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let encoding = self
                .tokenizer
                .encode_fast(&text[..end], false)
                .map_err(|e| format!("cannot tokenize a passage ({e})"))?;
            let ids = encoding.get_ids();
            if ids.is_empty() {
                continue;
            }
            let window = &ids[..ids.len().min(WINDOW - 2)];
            let mut seq = Vec::with_capacity(window.len() + 2);
            seq.push(i64::from(cls));
            seq.extend(window.iter().map(|&t| i64::from(t)));
            seq.push(i64::from(sep));
            encoded.push((i, seq));
        }
        encoded.sort_by_key(|(_, ids)| std::cmp::Reverse(ids.len()));
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for batch in encoded.chunks(BATCH) {
            for ((i, _), vector) in batch.iter().zip(self.run(batch)?) {
                let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
                if norm.is_normal() {
                    out[*i] = Some(vector.iter().map(|v| v / norm).collect());
                }
            }
        }
        Ok(out)
    }

    fn special(&self, token: &str, default: u32) -> u32 {
        self.tokenizer.token_to_id(token).unwrap_or(default)
    }

    /// One batch through the transformer, padded to its longest sequence.
    fn run(&self, batch: &[(usize, Vec<i64>)]) -> Result<Vec<Vec<f32>>, String> {
        let width = batch.iter().map(|(_, ids)| ids.len()).max().unwrap_or(0);
        let (mut ids, mut mask) = (Vec::new(), Vec::new());
        for (_, seq) in batch {
            ids.extend(
                seq.iter()
                    .copied()
                    .chain(std::iter::repeat_n(0, width - seq.len())),
            );
            mask.extend((0..width).map(|j| i64::from(j < seq.len())));
        }
        let shape = [batch.len(), width];
        let failed = |e: ort::Error| format!("the ONNX transformer failed ({e})");
        let ids = Tensor::from_array((shape, ids)).map_err(failed)?;
        let mask = Tensor::from_array((shape, mask)).map_err(failed)?;
        let mut session = self.session.lock().unwrap_or_else(|p| p.into_inner());
        let outputs = session
            .run(ort::inputs!["input_ids" => ids, "attention_mask" => mask])
            .map_err(failed)?;
        let (shape, values) = outputs["embedding"]
            .try_extract_tensor::<f32>()
            .map_err(failed)?;
        let dims = shape.get(1).copied().unwrap_or(0).max(0) as usize;
        if dims == 0 || values.len() != dims * batch.len() {
            return Err(format!(
                "the ONNX transformer gave {} values for {} passages",
                values.len(),
                batch.len()
            ));
        }
        Ok(values.chunks(dims).map(<[f32]>::to_vec).collect())
    }
}

/// A folder as loaded: the model file's size and modification time.
type Loaded = (PathBuf, Option<(u64, std::time::SystemTime)>);

/// The transformers this process has loaded (or failed to), one per model folder: a
/// long-lived process that loads its model for each request (`relay mcp`) loads the runtime
/// and the session once, and again only when the model file changes.
static LOADED: Mutex<Vec<(Loaded, Outcome)>> = Mutex::new(Vec::new());

/// What loading a folder gave.
type Outcome = Result<Arc<OnnxEncoder>, String>;

/// [`OnnxEncoder::load`], once per process while `model_dir`'s ONNX file stays as it is.
pub fn load_shared(model_dir: &Path) -> Result<Arc<OnnxEncoder>, String> {
    let file = model_dir.join(DIR).join(FILES[0]);
    let meta = std::fs::metadata(&file)
        .ok()
        .and_then(|m| Some((m.len(), m.modified().ok()?)));
    let key = (model_dir.to_path_buf(), meta);
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, outcome)) = loaded.iter().find(|(k, _)| *k == key) {
        return outcome.clone();
    }
    let outcome = OnnxEncoder::load(model_dir).map(Arc::new);
    loaded.retain(|(k, _)| k.0 != key.0);
    loaded.push((key, outcome.clone()));
    outcome
}

/// Most tokens the transformer reads at once, [CLS] and [SEP] included (all-MiniLM-L6-v2's
/// `max_seq_length`): a longer query is cut.
const WINDOW: usize = 256;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The model folder `scripts/fetch-model.sh` makes, when it has its onnx/ (as `.ci/run`
    /// makes it); RELAY_TEST_MODEL names another.
    pub(crate) fn real_model() -> Option<PathBuf> {
        let dir = std::env::var_os("RELAY_TEST_MODEL").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/minilm-l6-fitted"),
            PathBuf::from,
        );
        if OnnxEncoder::shipped(&dir) {
            return Some(dir);
        }
        eprintln!(
            "skipped: no {}/onnx/model.onnx; run `bash scripts/fetch-model.sh` (it makes the \
             ONNX transformer with scripts/model/to_onnx.py) to run this test",
            dir.display()
        );
        None
    }

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn the_onnx_transformer_agrees_with_the_reference_in_meaning() {
        let Some(dir) = real_model() else { return };
        let encoder = OnnxEncoder::load(&dir).unwrap();
        assert_eq!(encoder.dims(), 384);
        let texts = [
            "How do I rotate the signing key of a store?",
            "Replacing the key that signs packages",
            "Caroline went to the support group on Tuesday.",
            "",
        ];
        let v = encoder.embed_batch(&texts).unwrap();
        assert_eq!(v[3], None);
        let v: Vec<Vec<f32>> = v.into_iter().flatten().collect();
        assert!((cosine(&v[0], &v[0]) - 1.0).abs() < 1e-4, "unit length");
        assert!(
            cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]) + 0.2,
            "a paraphrase is nearer than another topic"
        );
        // A batch gives what one at a time gives.
        let alone = encoder.embed(texts[2]).unwrap().unwrap();
        let same = cosine(&alone, &v[2]);
        assert!(same > 0.99, "{same}");
        assert_eq!(encoder.tokens("signing keys"), 2);
    }

    /// Passages a second through the ONNX transformer, in batches: 64 words a
    /// passage.
    #[test]
    #[ignore = "a measurement: cargo test -p relay-core --release onnx_passage_throughput -- --ignored --nocapture"]
    fn onnx_passage_throughput() {
        let Some(dir) = real_model() else { return };
        let encoder = OnnxEncoder::load(&dir).unwrap();
        let words = 64;
        let vocab = [
            "when", "did", "caroline", "go", "to", "the", "support", "group", "painting", "friends",
        ];
        let texts: Vec<String> = (0..256)
            .map(|p| {
                (0..words)
                    .map(|w| vocab[(w * 7 + p) % vocab.len()])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let t = std::time::Instant::now();
        encoder.embed_batch(&refs).unwrap();
        let seconds = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        encoder
            .embed("When did Caroline go to the support group?")
            .unwrap();
        eprintln!(
            "{words} words: {:.0} passages/s; a query {:.1} ms",
            256.0 / seconds,
            t.elapsed().as_secs_f64() * 1000.0
        );
    }

    #[test]
    fn a_folder_without_its_files_says_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(DIR)).unwrap();
        let e = OnnxEncoder::load(dir.path()).unwrap_err();
        assert!(e.contains("model.onnx"), "{e}");
        assert!(!OnnxEncoder::shipped(dir.path()));
    }
}
