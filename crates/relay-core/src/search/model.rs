//! The embedding model of semantic search: a static (Model2Vec-format) model loaded from a
//! folder, never from the network. A text's vector is the mean of its tokens' rows, normalised,
//! so embedding a package costs microseconds. The model's identity is a digest of its files:
//! vectors are stored with it, so a changed model is noticed and its vectors rebuilt.
//!
//! The folder holds `config.json`, `model.safetensors` (an `embeddings` matrix of F32, F16 or
//! I8, optionally with per-token `weights` and a token-to-row `mapping`, as vocabulary-quantised
//! models have) and `tokenizer.json` (read with the `tokenizers` crate).

use std::path::{Path, PathBuf};

use safetensors::{Dtype, SafeTensors};
use sha2::{Digest, Sha256};

/// The files of a model folder, in the order the identity digests them.
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

/// Most tokens of one text that count: Model2Vec's own limit. Longer texts are cut (their start
/// says what they are about).
const MAX_TOKENS: usize = 512;
/// Text beyond this many bytes is not even tokenized (well past `MAX_TOKENS` tokens).
const MAX_TEXT_BYTES: usize = 8 * 1024;

/// A loaded static embedding model.
pub struct Model {
    path: PathBuf,
    identity: String,
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
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("path", &self.path)
            .field("identity", &self.identity)
            .field("dims", &self.dims)
            .finish()
    }
}

impl Model {
    /// Loads the model in `dir`. The error says what is wrong with the folder, in words a user
    /// can act on.
    pub fn load(dir: &Path) -> Result<Model, String> {
        if !dir.is_dir() {
            return Err(format!("{} is not a folder", dir.display()));
        }
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
            let bytes: &[u8] = if name == FILES[1] {
                let f = std::fs::File::open(&path).map_err(cannot)?;
                // SAFETY: the map is only read; a model file changed while relay runs is as
                // unsupported as a library replaced under a running program.
                file = Some(unsafe { memmap2::Mmap::map(&f) }.map_err(cannot)?);
                file.as_deref().unwrap_or_default()
            } else {
                contents.push(std::fs::read(&path).map_err(cannot)?);
                contents.last().map(Vec::as_slice).unwrap_or_default()
            };
            digest.update(name.as_bytes());
            digest.update((bytes.len() as u64).to_le_bytes());
            digest.update(bytes);
        }
        let identity = format!("sha256:{:x}", digest.finalize());
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
            identity,
            tokenizer,
            file,
            table,
            dtype,
            dims,
            rows,
            weights,
            mapping,
            skipped,
        })
    }

    /// A digest of the model's files: vectors made with another model are never compared with
    /// this one's.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    pub fn path(&self) -> &Path {
        &self.path
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

impl relay_store::cache::vectors::Embedder for Model {
    fn identity(&self) -> &str {
        Model::identity(self)
    }
    fn dims(&self) -> usize {
        Model::dims(self)
    }
    fn embed(&self, text: &str) -> Option<Vec<f32>> {
        Model::embed(self, text)
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
        let bytes = safetensors::serialize([("embeddings", view)], &None).unwrap();
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
            safetensors::serialize([("embeddings", view)], &None).unwrap()
        };
        std::fs::write(m.join("model.safetensors"), rows_only).unwrap();
        let e = Model::load(&m).unwrap_err();
        assert!(e.contains("different models"), "{e}");
    }
}
