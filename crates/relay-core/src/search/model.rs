//! The embedding model of semantic search: a static (Model2Vec-format) model loaded from a
//! folder, never from the network. A text's vector is the mean of its tokens' rows, normalised,
//! so embedding a package costs microseconds. The model's identity is a digest of its files:
//! vectors are stored with it, so a changed model is noticed and its vectors rebuilt.
//!
//! The folder holds `config.json`, `model.safetensors` (an `embeddings` matrix of F32, F16 or
//! I8, optionally with per-token `weights` and a token-to-row `mapping`, as vocabulary-quantised
//! models have) and `tokenizer.json` (read with the `tokenizers` crate).
//!
//! It may also hold `query/`, the transformer the table was fitted to: a query is then embedded
//! by it ([`QueryEncoder`]), loaded on the first query, so keyword searches and embedding
//! documents never pay for it. Without it, or with `[search] query_encoder = "static"`, a query
//! is embedded by the table as documents are; a `query/` that does not load leaves the table,
//! with a notice ([`Model::query_notice`]). The identity is the table's: stored vectors are
//! documents', and the query encoder makes none.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use safetensors::{Dtype, SafeTensors};
use sha2::{Digest, Sha256};

use crate::search::onnx_encoder::{self, OnnxEncoder};
use crate::search::passages;
use crate::search::query_encoder::QueryEncoder;
use relay_store::config::{QueryEncoder as QueryEncoderSetting, SearchConfig};

/// The files of a model folder, in the order the identity digests them.
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

/// The subfolder of a model folder that holds the transformer queries are embedded with.
pub const QUERY_DIR: &str = "query";

/// Most tokens of one text that count: Model2Vec's own limit. Longer texts are cut (their start
/// says what they are about).
const MAX_TOKENS: usize = 512;
/// Text beyond this many bytes is not even tokenized (well past `MAX_TOKENS` tokens).
const MAX_TEXT_BYTES: usize = 8 * 1024;

/// A loaded static embedding model.
pub struct Model {
    path: PathBuf,
    /// The digest of the files, made on first use from `identity_start` (the small files)
    /// and the table.
    identity: OnceLock<String>,
    identity_start: Sha256,
    tokenizer: tokenizers::Tokenizer,
    /// `model.safetensors`, mapped: loading neither copies nor converts the matrix.
    file: memmap2::Mmap,
    /// Where in `file` the `rows` × `dims` values of `dtype` lie, row-major, as stored: a row
    /// is converted when a token of it is met.
    table: std::ops::Range<usize>,
    dtype: Dtype,
    dims: usize,
    rows: usize,
    /// Per token id, its weight (vocabulary-quantised models).
    weights: Option<Vec<f32>>,
    /// Per token id, its row (vocabulary-quantised models).
    mapping: Option<Vec<usize>>,
    /// Token ids left out of the mean: the unknown token and the special ones.
    skipped: Vec<u32>,
    /// What the configuration asks to embed queries with (or what is wrong with it).
    query_setting: Result<QueryEncoderSetting, String>,
    /// What embeds queries, decided on the first query.
    query: OnceLock<QuerySide>,
    /// The ONNX transformer of `onnx/`, when it ships and loads: it then embeds documents and
    /// queries alike, and the vectors are its.
    documents: Option<std::sync::Arc<OnnxEncoder>>,
    /// Why `onnx/` ships but does not embed (it does not load, or the configuration says so).
    documents_notice: Option<String>,
    /// With the ONNX transformer, the same folder with documents embedded by the table
    /// ([`Model::table`]), loaded when first asked for.
    table_model: OnceLock<Option<Box<Model>>>,
}

/// What embeds a model's queries.
enum QuerySide {
    /// The transformer of `query/`.
    Transformer(std::sync::Arc<QueryEncoder>),
    /// The same teacher as run by ONNX Runtime for the documents of `onnx/`, already loaded:
    /// what the table's queries use while it ranks in the transformer's stead.
    Onnx(std::sync::Arc<OnnxEncoder>),
    /// The static table, and why when a transformer was asked for and is there but unusable.
    Static { notice: Option<String> },
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("path", &self.path)
            .field("dims", &self.dims)
            .finish()
    }
}

impl Model {
    /// Loads the model in `dir` as `[search]` configures it (none: the defaults). The query
    /// side is loaded on the first query.
    pub fn load_configured(dir: &Path, config: Option<&SearchConfig>) -> Result<Model, String> {
        let mut model = Model::load(dir)?;
        model.query_setting =
            config.map_or(Ok(QueryEncoderSetting::default()), |c| c.query_encoder());
        if OnnxEncoder::shipped(dir)
            && matches!(model.query_setting, Ok(QueryEncoderSetting::Transformer))
        {
            match onnx_encoder::load_shared(dir) {
                Ok(encoder) => model.documents = Some(encoder),
                Err(reason) => {
                    model.documents_notice = Some(format!(
                        "the ONNX transformer at {} does not load ({reason}); documents are embedded by the static table",
                        dir.join(onnx_encoder::DIR).display()
                    ))
                }
            }
        }
        Ok(model)
    }

    /// Loads the model in `dir`. The error says what is wrong with the folder, in words a user
    /// can act on.
    pub fn load(dir: &Path) -> Result<Model, String> {
        if !dir.is_dir() {
            return Err(format!("{} is not a folder", dir.display()));
        }
        // The identity digests the small files now and the table when first asked for: a
        // model whose documents the ONNX transformer embeds never reads the table whole.
        let mut digest = Sha256::new();
        let mut contents = Vec::new();
        let mut file = None;
        for name in FILES {
            let path = dir.join(name);
            let cannot = |e: std::io::Error| {
                format!(
                    "cannot read {} ({e}); a model folder holds {}",
                    path.display(),
                    FILES.join(", ")
                )
            };
            if name == FILES[1] {
                let f = std::fs::File::open(&path).map_err(cannot)?;
                // SAFETY: the map is only read; a model file changed while relay runs is as
                // unsupported as a library replaced under a running program.
                file = Some(unsafe { memmap2::Mmap::map(&f) }.map_err(cannot)?);
            } else {
                let bytes = std::fs::read(&path).map_err(cannot)?;
                digest.update(name.as_bytes());
                digest.update((bytes.len() as u64).to_le_bytes());
                digest.update(&bytes);
                contents.push(bytes);
            }
        }
        let file = file.ok_or("no model.safetensors")?;
        let config: serde_json::Value = serde_json::from_slice(&contents[0])
            .map_err(|e| format!("{}: not valid JSON ({e})", dir.join(FILES[0]).display()))?;
        if !config.is_object() {
            return Err(format!(
                "{}: not a JSON object",
                dir.join(FILES[0]).display()
            ));
        }
        let (table, dtype, rows, dims, weights, mapping) =
            read_tensors(&file).map_err(|e| format!("{}: {e}", dir.join(FILES[1]).display()))?;
        let mut tokenizer = tokenizers::Tokenizer::from_bytes(&contents[1])
            .map_err(|e| format!("{}: {e}", dir.join(FILES[2]).display()))?;
        // A sentence-transformers tokenizer pads and cuts to its model's window; the mean of a
        // static model must see exactly the text's tokens.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(None)
            .map_err(|e| format!("{}: {e}", dir.join(FILES[2]).display()))?;
        let vocab = tokenizer.get_vocab_size(true);
        let addressable = mapping.as_ref().map_or(rows, Vec::len);
        if vocab > addressable {
            return Err(format!(
                "the tokenizer knows {vocab} tokens but the model has rows for {addressable}: the files are from different models"
            ));
        }
        if let Some(m) = &mapping
            && m.iter().any(|&r| r >= rows)
        {
            return Err(format!(
                "{}: the token mapping points past the {rows} rows",
                dir.join(FILES[1]).display()
            ));
        }
        let mut skipped: Vec<u32> = tokenizer
            .get_added_tokens_decoder()
            .iter()
            .filter(|(_, t)| t.special)
            .map(|(&id, _)| id)
            .collect();
        skipped.extend(
            ["[UNK]", "<unk>"]
                .iter()
                .filter_map(|t| tokenizer.token_to_id(t)),
        );
        skipped.sort_unstable();
        skipped.dedup();
        Ok(Model {
            path: dir.to_path_buf(),
            identity: OnceLock::new(),
            identity_start: digest,
            tokenizer,
            file,
            table,
            dtype,
            dims,
            rows,
            weights,
            mapping,
            skipped,
            query_setting: Ok(QueryEncoderSetting::default()),
            query: OnceLock::new(),
            documents: None,
            documents_notice: None,
            table_model: OnceLock::new(),
        })
    }

    /// A digest of the model's files: vectors made with another model are never compared with
    /// this one's. With the ONNX transformer, its own: the vectors are then its.
    pub fn identity(&self) -> &str {
        match &self.documents {
            Some(encoder) => encoder.identity(),
            None => self.identity.get_or_init(|| {
                let mut digest = self.identity_start.clone();
                digest.update(FILES[1].as_bytes());
                digest.update((self.file.len() as u64).to_le_bytes());
                digest.update(&self.file[..]);
                format!("sha256:{:x}", digest.finalize())
            }),
        }
    }

    pub fn dims(&self) -> usize {
        match &self.documents {
            Some(encoder) => encoder.dims(),
            None => self.dims,
        }
    }

    /// Whether documents are embedded by the ONNX transformer (else by the static table).
    pub fn documents_by_transformer(&self) -> bool {
        self.documents.is_some()
    }

    /// The model with documents embedded by the static table, queries as configured (the
    /// transformer of `query/`, fitted to the table): what ranks by meaning while the ONNX
    /// transformer's vectors are built. Itself when documents are the table's already, or
    /// when the folder's table does not load (the transformer is then the only space).
    pub fn table(&self) -> &Model {
        if self.documents.is_none() {
            return self;
        }
        let table = self.table_model.get_or_init(|| {
            let mut table = Model::load(&self.path).ok()?;
            table.query_setting = self.query_setting.clone();
            // Queries by the teacher the table was fitted to: the ONNX one, loaded already,
            // rather than loading `query/` too.
            if let Some(encoder) = self.documents.as_ref().filter(|e| e.dims() == table.dims) {
                let _ = table.query.set(QuerySide::Onnx(encoder.clone()));
            }
            Some(Box::new(table))
        });
        table.as_deref().unwrap_or(self)
    }

    /// The normalised vectors of `doc`'s passages ([`passages::split`]): by the ONNX
    /// transformer when it loaded, else each the mean of its tokens' rows.
    pub fn embed_document(&self, doc: &relay_store::index::Document) -> Vec<Vec<f32>> {
        self.embed_documents(std::slice::from_ref(doc))
            .pop()
            .unwrap_or_default()
    }

    fn embed_documents(&self, docs: &[relay_store::index::Document]) -> Vec<Vec<Vec<f32>>> {
        let table_tokens = |text: &str| {
            self.tokenizer
                .encode_fast(text, false)
                .map_or(0, |e| e.len())
        };
        let encoder_tokens = |text: &str| self.documents.as_ref().map_or(0, |e| e.tokens(text));
        let tokens: &dyn Fn(&str) -> usize = match self.documents {
            Some(_) => &encoder_tokens,
            None => &table_tokens,
        };
        let split: Vec<Vec<String>> = docs
            .iter()
            .map(|d| {
                let (budget, whole) = (onnx_encoder::PASSAGE_TOKENS, onnx_encoder::WHOLE_TOKENS);
                passages::split(d, budget, whole, tokens)
            })
            .collect();
        let all: Vec<&str> = split.iter().flatten().map(String::as_str).collect();
        let vectors = match &self.documents {
            // A batch the runtime fails on (it should not) leaves those packages without
            // vectors.
            Some(encoder) => encoder
                .embed_batch(&all)
                .unwrap_or_else(|_| vec![None; all.len()]),
            None => all.iter().map(|p| self.embed(p)).collect(),
        };
        let mut vectors = vectors.into_iter();
        split
            .iter()
            .map(|passages| (&mut vectors).take(passages.len()).flatten().collect())
            .collect()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The normalised vector of a query: by the transformer of `query/` when there is one,
    /// the configuration allows it and it loads (loaded on the first call), else as
    /// [`Model::embed`] embeds a document. `None` when it holds no token to embed.
    pub fn embed_query(&self, text: &str) -> Option<Vec<f32>> {
        if let Some(encoder) = &self.documents {
            return encoder.embed(text).ok().flatten();
        }
        match self.query_side() {
            QuerySide::Transformer(encoder) => match encoder.embed(text) {
                Ok(vector) => vector,
                // A text the transformer cannot take (its tokenizer fails) still has words.
                Err(_) => self.embed(text),
            },
            QuerySide::Onnx(encoder) => match encoder.embed(text) {
                Ok(vector) => vector,
                Err(_) => self.embed(text),
            },
            QuerySide::Static { .. } => self.embed(text),
        }
    }

    /// Why queries are embedded by the static table although the model folder holds a
    /// transformer for them (it does not load, its vectors do not fit the table, or the
    /// configuration is wrong); `None` when all is as configured. Loads the query side if no
    /// query has yet, so a long-lived process can pay for it, and say so, when it starts.
    pub fn query_notice(&self) -> Option<String> {
        if self.documents.is_some() {
            return None;
        }
        if let Some(notice) = &self.documents_notice {
            return Some(notice.clone());
        }
        match self.query_side() {
            QuerySide::Static { notice } => notice.clone(),
            QuerySide::Transformer(_) | QuerySide::Onnx(_) => None,
        }
    }

    /// Whether queries are embedded by the transformer (loading it if no query has yet).
    pub fn queries_by_transformer(&self) -> bool {
        self.documents.is_some()
            || matches!(
                self.query_side(),
                QuerySide::Transformer(_) | QuerySide::Onnx(_)
            )
    }

    fn query_side(&self) -> &QuerySide {
        self.query
            .get_or_init(|| query_side(&self.path.join(QUERY_DIR), &self.query_setting, self.dims))
    }

    /// The normalised vector of `text`; `None` when it holds no token the model knows (an
    /// empty text, or only unknown characters).
    pub fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let mut end = text.len().min(MAX_TEXT_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let encoding = self.tokenizer.encode_fast(&text[..end], false).ok()?;
        let mut sum = vec![0f32; self.dims];
        let mut count = 0usize;
        for &id in encoding.get_ids() {
            if count == MAX_TOKENS {
                break;
            }
            if self.skipped.binary_search(&id).is_ok() {
                continue;
            }
            let token = id as usize;
            let row = match &self.mapping {
                Some(m) => m.get(token).copied(),
                None => Some(token),
            };
            let Some(row) = row.filter(|&r| r < self.rows) else {
                continue;
            };
            let weight = self
                .weights
                .as_ref()
                .and_then(|w| w.get(token).copied())
                .unwrap_or(1.0);
            if !self.add_row(row, weight, &mut sum) {
                continue;
            }
            count += 1;
        }
        let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
        if count == 0 || !norm.is_normal() {
            return None;
        }
        sum.iter_mut().for_each(|v| *v /= norm);
        Some(sum)
    }
}

impl Model {
    /// Adds `weight` × row `row` to `sum`; false (and nothing added) for a row holding a value
    /// that is not a finite number.
    fn add_row(&self, row: usize, weight: f32, sum: &mut [f32]) -> bool {
        let width = dtype_bytes(self.dtype);
        let start = row * self.dims * width;
        let table = &self.file[self.table.clone()];
        let Some(bytes) = table.get(start..start + self.dims * width) else {
            return false;
        };
        let mut values = [0f32; 64];
        for (chunk, out) in bytes.chunks(64 * width).zip(sum.chunks_mut(64)) {
            let n = chunk.len() / width;
            for (i, v) in values[..n].iter_mut().enumerate() {
                *v = value(self.dtype, &chunk[i * width..(i + 1) * width]);
            }
            if values[..n].iter().any(|v| !v.is_finite()) {
                return false;
            }
            for (s, v) in out.iter_mut().zip(&values[..n]) {
                *s += v * weight;
            }
        }
        true
    }
}

/// What embeds the queries of a model whose table has `dims` columns, its transformer being
/// in `dir` if anywhere.
fn query_side(dir: &Path, setting: &Result<QueryEncoderSetting, String>, dims: usize) -> QuerySide {
    let fallback = "queries are embedded by the static table";
    let encoder = match setting {
        Ok(QueryEncoderSetting::Static) => return QuerySide::Static { notice: None },
        Err(reason) => {
            return QuerySide::Static {
                notice: Some(format!("{reason}; {fallback}")),
            };
        }
        Ok(QueryEncoderSetting::Transformer) if !dir.exists() => {
            return QuerySide::Static { notice: None };
        }
        Ok(QueryEncoderSetting::Transformer) => QueryEncoder::load_shared(dir),
    };
    let notice = match encoder {
        Ok(encoder) if encoder.dims() == dims => return QuerySide::Transformer(encoder),
        Ok(encoder) => format!(
            "the query transformer at {} makes vectors of {} dimensions and the model's table of {dims}, so they cannot meet; {fallback}",
            dir.display(),
            encoder.dims()
        ),
        Err(reason) => format!(
            "the query transformer at {} does not load ({reason}); {fallback}",
            dir.display()
        ),
    };
    QuerySide::Static {
        notice: Some(notice),
    }
}

fn dtype_bytes(dtype: Dtype) -> usize {
    match dtype {
        Dtype::F64 => 8,
        Dtype::F32 => 4,
        Dtype::F16 | Dtype::BF16 => 2,
        _ => 1,
    }
}

/// One stored value as f32.
fn value(dtype: Dtype, b: &[u8]) -> f32 {
    match dtype {
        Dtype::F32 => f32::from_le_bytes(b.try_into().unwrap_or_default()),
        Dtype::F16 => half::f16::from_le_bytes(b.try_into().unwrap_or_default()).to_f32(),
        Dtype::BF16 => half::bf16::from_le_bytes(b.try_into().unwrap_or_default()).to_f32(),
        Dtype::F64 => f64::from_le_bytes(b.try_into().unwrap_or_default()) as f32,
        _ => f32::from(b[0] as i8),
    }
}

type Tensors = (
    std::ops::Range<usize>,
    Dtype,
    usize,
    usize,
    Option<Vec<f32>>,
    Option<Vec<usize>>,
);

/// The embedding matrix (where its bytes lie in `bytes`, its type, rows and columns) and the optional per-token weights
/// and row mapping of a Model2Vec `model.safetensors`.
fn read_tensors(bytes: &[u8]) -> Result<Tensors, String> {
    let tensors =
        SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file ({e})"))?;
    let names = ["embeddings", "embedding.weight", "0"];
    let matrix = names
        .iter()
        .find_map(|n| tensors.tensor(n).ok())
        .ok_or("no embeddings tensor (named `embeddings`)")?;
    let [rows, dims]: [usize; 2] = matrix
        .shape()
        .try_into()
        .map_err(|_| "the embeddings tensor is not a matrix")?;
    if rows == 0 || dims == 0 {
        return Err("the embeddings matrix is empty".into());
    }
    let dtype = matrix.dtype();
    if !matches!(
        dtype,
        Dtype::F32 | Dtype::F16 | Dtype::BF16 | Dtype::F64 | Dtype::I8
    ) {
        return Err(format!("unsupported embeddings type {dtype:?}"));
    }
    let data = matrix.data();
    let start = data.as_ptr() as usize - bytes.as_ptr() as usize;
    let table = start..start + data.len();
    let weights = match tensors.tensor("weights") {
        Ok(t) => Some(floats(t.dtype(), t.data())?),
        Err(_) => None,
    };
    let mapping = match tensors.tensor("mapping") {
        Ok(t) => Some(match t.dtype() {
            Dtype::I64 => t
                .data()
                .chunks_exact(8)
                .map(|b| i64::from_le_bytes(b.try_into().unwrap_or_default()).max(0) as usize)
                .collect(),
            Dtype::I32 => t
                .data()
                .chunks_exact(4)
                .map(|b| i32::from_le_bytes(b.try_into().unwrap_or_default()).max(0) as usize)
                .collect(),
            other => return Err(format!("unsupported mapping type {other:?}")),
        }),
        Err(_) => None,
    };
    Ok((table, dtype, rows, dims, weights, mapping))
}

fn floats(dtype: Dtype, data: &[u8]) -> Result<Vec<f32>, String> {
    Ok(match dtype {
        Dtype::F32 => data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap_or_default()))
            .collect(),
        Dtype::F16 => data
            .chunks_exact(2)
            .map(|b| half::f16::from_le_bytes(b.try_into().unwrap_or_default()).to_f32())
            .collect(),
        Dtype::F64 => data
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap_or_default()) as f32)
            .collect(),
        Dtype::I8 => data.iter().map(|&b| f32::from(b as i8)).collect(),
        other => return Err(format!("unsupported tensor type {other:?}")),
    })
}

impl relay_store::index::Embedder for Model {
    fn identity(&self) -> &str {
        Model::identity(self)
    }
    fn dims(&self) -> usize {
        Model::dims(self)
    }
    fn embed_documents(&self, docs: &[relay_store::index::Document]) -> Vec<Vec<Vec<f32>>> {
        Model::embed_documents(self, docs)
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::path::Path;

    /// Writes a tiny model folder to `dir`: a WordPiece tokenizer over `words` (id 0 is
    /// `[UNK]`), and one row per token, `rows[i]` for word `i` (row 0 for `[UNK]` is zeros).
    pub fn write_model(dir: &Path, words: &[&str], rows: &[Vec<f32>]) {
        std::fs::create_dir_all(dir).unwrap();
        let mut vocab = serde_json::Map::new();
        vocab.insert("[UNK]".into(), 0.into());
        for (i, w) in words.iter().enumerate() {
            vocab.insert((*w).into(), (i + 1).into());
        }
        let tokenizer = serde_json::json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false,
                "rstrip": false, "normalized": false, "special": true}],
            "normalizer": {"type": "BertNormalizer", "clean_text": true,
                "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": null, "decoder": null,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                "max_input_chars_per_word": 100, "vocab": vocab}
        });
        std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).unwrap();
        let dims = rows[0].len();
        let mut data: Vec<u8> = vec![0; dims * 4];
        for r in rows {
            data.extend(r.iter().flat_map(|v| v.to_le_bytes()));
        }
        let view = safetensors::tensor::TensorView::new(
            safetensors::Dtype::F32,
            vec![rows.len() + 1, dims],
            &data,
        )
        .unwrap();
        let bytes = safetensors::serialize([("embeddings", view)], None).unwrap();
        std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
        std::fs::write(dir.join("config.json"), r#"{"normalize": true}"#).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::write_model;
    use super::*;

    fn model(dir: &Path) -> Model {
        let rows = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0]];
        write_model(dir, &["bill", "invoice", "day"], &rows);
        Model::load(dir).unwrap()
    }

    #[test]
    fn a_text_is_the_normalised_mean_of_its_known_tokens() {
        let dir = tempfile::tempdir().unwrap();
        let m = model(dir.path());
        assert_eq!(m.dims(), 2);
        assert_eq!(
            m.embed("Bill"),
            Some(vec![1.0, 0.0]),
            "lowercased by the tokenizer"
        );
        let v = m.embed("bill invoice zzz").unwrap();
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!(
            (v[0] - half).abs() < 1e-6 && (v[1] - half).abs() < 1e-6,
            "{v:?}"
        );
        assert_eq!(m.embed("zzz qqq"), None, "only unknown tokens");
        assert_eq!(m.embed(""), None);
        assert!(m.identity().starts_with("sha256:"));
    }

    #[test]
    fn the_identity_follows_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let a = model(dir.path()).identity().to_string();
        assert_eq!(model(dir.path()).identity(), a, "same files, same identity");
        write_model(dir.path(), &["bill"], &[vec![0.5, 0.5]]);
        assert_ne!(Model::load(dir.path()).unwrap().identity(), a);
    }

    fn search_config(settings: &str) -> SearchConfig {
        relay_store::config::Config::parse(&format!("[search]\n{settings}"))
            .unwrap()
            .search
    }

    /// A model folder with a tiny BERT of `hidden` dimensions in `query/`.
    fn with_transformer(dir: &Path, hidden: usize) -> std::path::PathBuf {
        model(dir);
        let query = dir.join(QUERY_DIR);
        let tokenizer = dir.join("tokenizer.json");
        crate::search::query_encoder::test_support::write_bert(&query, &tokenizer, 4, hidden);
        query
    }

    #[test]
    fn without_a_transformer_queries_are_embedded_as_documents() {
        let dir = tempfile::tempdir().unwrap();
        let m = model(dir.path());
        assert_eq!(m.embed_query("bill invoice"), m.embed("bill invoice"));
        assert_eq!(m.embed_query("zzz"), None);
        assert_eq!(m.query_notice(), None, "no query/ is no news");
        assert!(!m.queries_by_transformer());
    }

    #[test]
    fn a_transformer_of_the_tables_width_embeds_queries_unless_configured_off() {
        let dir = tempfile::tempdir().unwrap();
        with_transformer(dir.path(), 2);
        let m = Model::load(dir.path()).unwrap();
        let v = m.embed_query("bill invoice").unwrap();
        assert!(m.queries_by_transformer(), "{:?}", m.query_notice());
        assert_eq!(m.query_notice(), None);
        assert_eq!(v.len(), 2);
        assert!((v.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
        assert_ne!(
            Some(v),
            m.embed("bill invoice"),
            "the transformer's, not the table's"
        );
        assert_eq!(
            m.embed("bill"),
            Some(vec![1.0, 0.0]),
            "documents stay static"
        );
        let identity = model(dir.path()).identity().to_string();
        assert_eq!(m.identity(), identity, "the identity is the table's");

        let off = search_config("query_encoder = \"static\"");
        let m = Model::load_configured(dir.path(), Some(&off)).unwrap();
        assert_eq!(m.embed_query("bill invoice"), m.embed("bill invoice"));
        assert_eq!(m.query_notice(), None, "as configured");
    }

    #[test]
    fn the_table_stands_in_for_the_transformer_with_the_same_teacher_for_queries() {
        let Some(dir) = crate::search::onnx_encoder::tests::real_model() else {
            return;
        };
        let model = Model::load_configured(&dir, None).unwrap();
        assert!(model.documents_by_transformer());
        let table = model.table();
        assert!(!table.documents_by_transformer());
        assert_ne!(table.identity(), model.identity(), "vectors of their own");
        assert!(
            std::ptr::eq(table.table(), table),
            "the table's table is itself"
        );
        // The table's queries are the teacher's, as ONNX runs it: no query/ is loaded.
        assert!(table.queries_by_transformer());
        assert!(
            table
                .query
                .get()
                .is_some_and(|q| matches!(q, QuerySide::Onnx(_)))
        );
        let q = "bills show the wrong day";
        let (a, b) = (table.embed_query(q).unwrap(), model.embed_query(q).unwrap());
        let same: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!(same > 0.999, "{same}");
    }

    #[test]
    fn an_onnx_folder_that_does_not_load_leaves_the_table_with_a_notice() {
        let dir = tempfile::tempdir().unwrap();
        let table = model(dir.path()).identity().to_string();
        let onnx = dir.path().join(onnx_encoder::DIR);
        std::fs::create_dir_all(&onnx).unwrap();
        std::fs::write(onnx.join("model.onnx"), b"not a graph").unwrap();
        std::fs::copy(
            dir.path().join("tokenizer.json"),
            onnx.join("tokenizer.json"),
        )
        .unwrap();
        let m = Model::load_configured(dir.path(), None).unwrap();
        assert!(!m.documents_by_transformer());
        assert_eq!(m.identity(), table, "the vectors stay the table's");
        let notice = m.query_notice().unwrap();
        assert!(
            notice.contains("ONNX transformer") && notice.contains("static table"),
            "{notice}"
        );
        assert_eq!(
            m.embed_document(&relay_store::index::Document {
                title: "bill".into(),
                ..Default::default()
            }),
            vec![vec![1.0, 0.0]]
        );
        // Configured off, it is not even tried.
        let off = search_config("query_encoder = \"static\"");
        let m = Model::load_configured(dir.path(), Some(&off)).unwrap();
        assert_eq!(m.query_notice(), None);
    }

    #[test]
    fn an_unusable_transformer_leaves_the_table_with_a_notice() {
        let dir = tempfile::tempdir().unwrap();
        let query = with_transformer(dir.path(), 4);
        let m = Model::load(dir.path()).unwrap();
        assert_eq!(m.embed_query("bill"), Some(vec![1.0, 0.0]));
        let notice = m.query_notice().unwrap();
        assert!(
            notice.contains("4 dimensions") && notice.contains("table of 2"),
            "{notice}"
        );
        std::fs::write(query.join("model.safetensors"), b"garbage").unwrap();
        let m = Model::load(dir.path()).unwrap();
        assert_eq!(m.embed_query("bill"), Some(vec![1.0, 0.0]));
        let notice = m.query_notice().unwrap();
        assert!(
            notice.contains("does not load") && notice.contains("static table"),
            "{notice}"
        );
        let typo = search_config("query_encoder = \"onnx\"");
        let m = Model::load_configured(dir.path(), Some(&typo)).unwrap();
        assert_eq!(m.embed_query("bill"), Some(vec![1.0, 0.0]));
        assert!(m.query_notice().unwrap().contains("\"onnx\" is not one of"));
    }

    #[test]
    fn broken_folders_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Model::load(&dir.path().join("nope")).unwrap_err();
        assert!(missing.contains("is not a folder"), "{missing}");
        let m = dir.path().join("m");
        model(&m);
        std::fs::write(m.join("model.safetensors"), b"garbage").unwrap();
        let e = Model::load(&m).unwrap_err();
        assert!(
            e.contains("model.safetensors") && e.contains("not a safetensors file"),
            "{e}"
        );
        model(&m);
        std::fs::remove_file(m.join("tokenizer.json")).unwrap();
        let e = Model::load(&m).unwrap_err();
        assert!(e.contains("tokenizer.json"), "{e}");
        // A tokenizer with more tokens than the matrix has rows: files of two models.
        write_model(
            &m,
            &["a", "b", "c", "d"],
            &[vec![1.0], vec![1.0], vec![1.0], vec![1.0]],
        );
        let rows_only = {
            let data: Vec<u8> = [0f32, 1.0].iter().flat_map(|v| v.to_le_bytes()).collect();
            let view = safetensors::tensor::TensorView::new(Dtype::F32, vec![2, 1], &data).unwrap();
            safetensors::serialize([("embeddings", view)], None).unwrap()
        };
        std::fs::write(m.join("model.safetensors"), rows_only).unwrap();
        let e = Model::load(&m).unwrap_err();
        assert!(e.contains("different models"), "{e}");
    }
}
