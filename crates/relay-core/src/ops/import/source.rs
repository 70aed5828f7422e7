//! Where an import reads from: a stream spooled to a file, a backup folder (checked against
//! its manifest), or another store's logs.

use std::io::{Read, Write};

use serde_json::Value;
use std::path::{Path, PathBuf};

use relay_store::Store;
use relay_wire::error::{Error, Result};

/// One file of a source, with the SHA-256 its manifest promises (if any).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub label: String,
    pub expected: Option<String>,
}

/// What an import reads: files in order, and a folder of temporary files to remove after.
#[derive(Debug, Default)]
pub struct Source {
    pub files: Vec<SourceFile>,
    /// A backup folder's `signatures.ndjson`, carried into the store for the records that
    /// match (see `ops::export::signatures`).
    pub signatures: Option<SourceFile>,
    /// Kept for its `Drop`: the spooled files go when the source does.
    _spool: Option<Spool>,
}

/// A temporary folder under `cache/`, removed when dropped.
#[derive(Debug)]
pub(super) struct Spool(pub(super) PathBuf);

impl Spool {
    pub(super) fn new(store: &Store, what: &str) -> Result<Spool> {
        let dir = store.indexes().scratch_dir(what);
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        Ok(Spool(dir))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Source {
    /// A stream from `reader` (stdin), spooled to a file so that it can be read in chunks.
    pub fn spooled(store: &Store, mut reader: impl Read, label: &str) -> Result<Source> {
        let spool = Spool::new(store, "import")?;
        let path = spool.0.join("stream.ndjson");
        let mut f = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        std::io::copy(&mut reader, &mut f)
            .map_err(|e| Error::io(format!("cannot read {label}"), e))?;
        Ok(Source {
            files: vec![SourceFile {
                path,
                label: label.to_string(),
                expected: None,
            }],
            _spool: Some(spool),
            signatures: None,
        })
    }

    /// Another store's records, exported to a spooled stream first (a line whose hash does not
    /// match is an error).
    pub fn from_store(store: &Store, root: &Path) -> Result<Source> {
        let other = Store::open(root.to_path_buf())?;
        let projects: Vec<String> = crate::ops::projects::list(&other)?
            .iter()
            .map(|p| p.id().to_string())
            .collect();
        let spool = Spool::new(store, "import")?;
        let path = spool.0.join("store.ndjson");
        let file = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        crate::ops::export::each_record(&other, &projects, &mut |_, lines, _| {
            out.write_all(lines)
                .map_err(|e| Error::io("cannot write the spooled records", e))
        })?;
        out.flush()
            .map_err(|e| Error::io("cannot write the spooled records", e))?;
        if let Some(w) = (other.diagnostics().take().into_iter())
            .find(|w| w.kind == relay_store::WarningKind::HashMismatch)
        {
            return Err(Error::Integrity(format!(
                "{}:{}: {}",
                w.path.display(),
                w.line,
                w.message
            )));
        }
        // Its signatures, all of them: the import keeps those of the records it ends up holding.
        let mut lines = Vec::new();
        for p in &projects {
            for (_, s) in other.signatures(p)? {
                lines.extend(relay_store::ndjson::to_line(
                    &relay_wire::signature::SignatureLine { signature: s },
                )?);
            }
        }
        let signatures = (!lines.is_empty())
            .then(|| -> Result<SourceFile> {
                let sig_path = spool.0.join(crate::ops::export::signatures::FILE);
                std::fs::write(&sig_path, &lines)
                    .map_err(|e| Error::io(format!("cannot write {}", sig_path.display()), e))?;
                Ok(SourceFile {
                    path: sig_path,
                    label: format!("the signatures of {}", root.display()),
                    expected: None,
                })
            })
            .transpose()?;
        Ok(Source {
            files: vec![SourceFile {
                path,
                label: root.display().to_string(),
                expected: None,
            }],
            _spool: Some(spool),
            signatures,
        })
    }

    /// What `path` holds: a backup folder (its files checked against the manifest as they
    /// are read), another store's `.relay/` folder, a folder of record files without a
    /// manifest (`force`), or an NDJSON stream file.
    pub fn open(store: &Store, path: &Path, force: bool) -> Result<Source> {
        let io = |e| Error::io(format!("cannot read {}", path.display()), e);
        let single = |p: &Path| SourceFile {
            path: p.to_path_buf(),
            label: p.display().to_string(),
            expected: None,
        };
        if !path.is_dir() {
            std::fs::metadata(path).map_err(io)?;
            return Ok(Source {
                files: vec![single(path)],
                _spool: None,
                signatures: None,
            });
        }
        let manifest_path = path.join(crate::ops::export::MANIFEST);
        if manifest_path.is_file() {
            let manifest: Value = serde_json::from_slice(
                &std::fs::read(&manifest_path).map_err(io)?,
            )
            .map_err(|e| {
                Error::InvalidInput(format!(
                    "{} is not valid JSON: {e}",
                    manifest_path.display()
                ))
            })?;
            let listed = manifest
                .get("files")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let mut files = Vec::new();
            for k in crate::ops::export::KINDS {
                let name = format!("{k}.ndjson");
                let file = path.join(&name);
                if !file.is_file() {
                    if listed.contains_key(&name) {
                        return Err(Error::Integrity(format!(
                            "{} is listed in the manifest but missing; the backup is damaged",
                            file.display()
                        )));
                    }
                    continue;
                }
                files.push(SourceFile {
                    expected: listed
                        .get(&name)
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    ..single(&file)
                });
            }
            let signatures = signatures_file(path, &listed)?;
            return Ok(Source {
                files,
                _spool: None,
                signatures,
            });
        }
        if path.join("projects").is_dir() && path.join("projects.ndjson").is_file() {
            return Source::from_store(store, path);
        }
        let files: Vec<SourceFile> = (crate::ops::export::KINDS.iter())
            .map(|k| path.join(format!("{k}.ndjson")))
            .filter(|f| f.is_file())
            .map(|f| single(&f))
            .collect();
        if files.is_empty() {
            return Err(Error::InvalidInput(format!(
                "{} is neither a backup folder, a relay store, nor an NDJSON file",
                path.display()
            )));
        }
        if !force {
            return Err(Error::InvalidInput(format!(
                "{} has no {}: it is a partial backup (the manifest is written last); pass --force to import it anyway",
                path.display(),
                crate::ops::export::MANIFEST
            )));
        }
        Ok(Source {
            files,
            _spool: None,
            signatures: signatures_file(path, &Default::default())?,
        })
    }

    /// The total size of the files, for progress.
    pub fn bytes(&self) -> u64 {
        (self.files.iter())
            .filter_map(|f| std::fs::metadata(&f.path).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// A backup folder's signatures file, with the hash its manifest lists (if any).
fn signatures_file(
    dir: &Path,
    listed: &serde_json::Map<String, Value>,
) -> Result<Option<SourceFile>> {
    let name = crate::ops::export::signatures::FILE;
    let path = dir.join(name);
    if !path.is_file() {
        if listed.contains_key(name) {
            return Err(Error::Integrity(format!(
                "{} is listed in the manifest but missing; the backup is damaged",
                path.display()
            )));
        }
        return Ok(None);
    }
    Ok(Some(SourceFile {
        label: path.display().to_string(),
        expected: listed.get(name).and_then(Value::as_str).map(str::to_string),
        path,
    }))
}
