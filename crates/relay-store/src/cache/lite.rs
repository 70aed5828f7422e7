//! The parts of a stored package line that the package index and search read: the package's
//! id, status, type, time, author, significance and text fields. Everything else is skipped
//! by the parser without being built, which is what makes reading many candidate lines cheap.

use std::borrow::Cow;

use serde::Deserialize;

/// The parts of a package line that ranking and filtering read; everything else is skipped
/// by the parser without being built.
#[derive(Deserialize)]
pub struct LiteLine<'a> {
    #[serde(borrow)]
    pub package: LitePackage<'a>,
    #[serde(borrow, default)]
    pub hash: Option<Cow<'a, str>>,
    #[serde(default)]
    pub version: Option<u64>,
}

#[derive(Deserialize)]
pub struct LitePackage<'a> {
    #[serde(borrow)]
    pub package_id: Cow<'a, str>,
    #[serde(borrow, default)]
    pub status: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub package_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub created_at: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub created_by: Option<LiteActor<'a>>,
    #[serde(default)]
    pub significance: Option<f64>,
    #[serde(borrow, default)]
    pub title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub description: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub handoff_note: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub content_md: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub decisions_made: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default)]
    pub open_questions: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default)]
    pub tags: Option<Vec<Cow<'a, str>>>,
}

#[derive(Deserialize)]
pub struct LiteActor<'a> {
    #[serde(borrow, default)]
    pub id: Option<Cow<'a, str>>,
}

impl LitePackage<'_> {
    /// The strings of a searched field, without joining a list's members: what the index
    /// reads word by word (the words of a list run on from one member to the next, as in
    /// [`LitePackage::text`], whose newlines only separate words).
    pub fn parts(&self, field: &str) -> &[Cow<'_, str>] {
        match field {
            "title" => self.title.as_slice(),
            "decisions_made" => self.decisions_made.as_deref().unwrap_or_default(),
            "open_questions" => self.open_questions.as_deref().unwrap_or_default(),
            "handoff_note" => self.handoff_note.as_slice(),
            "tags" => self.tags.as_deref().unwrap_or_default(),
            "description" => self.description.as_slice(),
            "content_md" => self.content_md.as_slice(),
            _ => &[],
        }
    }

    /// A searched field's text; a list's items are joined by newlines.
    pub fn text(&self, field: &str) -> Cow<'_, str> {
        fn join(l: &Option<Vec<Cow<'_, str>>>) -> Cow<'static, str> {
            Cow::Owned(l.as_ref().map(|l| l.join("\n")).unwrap_or_default())
        }
        fn one<'s>(s: &'s Option<Cow<'_, str>>) -> Cow<'s, str> {
            Cow::Borrowed(s.as_deref().unwrap_or_default())
        }
        match field {
            "title" => one(&self.title),
            "decisions_made" => join(&self.decisions_made),
            "open_questions" => join(&self.open_questions),
            "handoff_note" => one(&self.handoff_note),
            "tags" => join(&self.tags),
            "description" => one(&self.description),
            "content_md" => one(&self.content_md),
            _ => Cow::Borrowed(""),
        }
    }
}
