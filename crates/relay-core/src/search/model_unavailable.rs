//! The embedding model in a build without search by meaning (`--no-default-features`, no
//! `semantic` feature): the same interface as the static model, but nothing loads, so every
//! caller takes the path it takes when no model is configured, and one that asks for a model
//! is told how to get a build that has it.

use std::convert::Infallible;
use std::path::Path;

use relay_store::config::SearchConfig;

/// The files of a model folder, in the order the identity digests them.
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

/// The subfolder of a model folder that holds the transformer queries are embedded with.
pub const QUERY_DIR: &str = "query";

/// A model that cannot exist in this build.
#[derive(Debug)]
pub struct Model {
    never: Infallible,
}

impl Model {
    /// Always an error: this build has no embedding model.
    pub fn load_configured(dir: &Path, _config: Option<&SearchConfig>) -> Result<Model, String> {
        Model::load(dir)
    }

    /// Always an error: this build has no embedding model.
    pub fn load(dir: &Path) -> Result<Model, String> {
        Err(format!(
            "cannot load {}: this relay was built without search by meaning; install it with \
             the default features (`cargo install --locked --path .`) to use a model",
            dir.display()
        ))
    }

    pub fn identity(&self) -> &str {
        match self.never {}
    }

    pub fn documents_by_transformer(&self) -> bool {
        match self.never {}
    }

    pub fn table(&self) -> &Model {
        match self.never {}
    }

    pub fn dims(&self) -> usize {
        match self.never {}
    }

    pub fn path(&self) -> &Path {
        match self.never {}
    }

    pub fn embed(&self, _text: &str) -> Option<Vec<f32>> {
        match self.never {}
    }

    pub fn embed_query(&self, _text: &str) -> Option<Vec<f32>> {
        match self.never {}
    }

    pub fn query_notice(&self) -> Option<String> {
        match self.never {}
    }

    pub fn queries_by_transformer(&self) -> bool {
        match self.never {}
    }
}

impl relay_store::index::Embedder for Model {
    fn identity(&self) -> &str {
        match self.never {}
    }
    fn dims(&self) -> usize {
        match self.never {}
    }
    fn embed_documents(&self, _docs: &[relay_store::index::Document]) -> Vec<Vec<Vec<f32>>> {
        match self.never {}
    }
}
