//! `relay snippet add FILE[:START-END]`: cutting a snippet out of a file in the work tree. The
//! file must lie inside the git work tree (or, outside git, under the working folder), hold
//! UTF-8 text, and have the lines asked for; its path is stored relative to that root, with its
//! git blob id when git knows the work tree.

use std::path::{Path, PathBuf};

use relay_wire::error::{Error, Result};
use relay_wire::memory::Snippet;

/// What to cut: a file and, optionally, its lines `start..=end` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnippetSpec {
    pub file: String,
    pub lines: Option<(u64, u64)>,
}

/// Splits `FILE[:START-END]`. A suffix that is not a range of numbers is part of the name.
pub fn parse_spec(text: &str) -> Result<SnippetSpec> {
    if let Some((file, range)) = text.rsplit_once(':')
        && let Some((a, b)) = range.split_once('-')
        && !a.is_empty()
        && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit())
    {
        let parse = |n: &str| {
            n.parse::<u64>()
                .map_err(|_| Error::InvalidInput(format!("`{range}` is not a range of lines")))
        };
        let (start, end) = (parse(a)?, parse(b)?);
        if start == 0 || end < start {
            return Err(Error::InvalidInput(format!(
                "lines {start}-{end} are not a range of lines (1-based, start ≤ end)"
            )));
        }
        return Ok(SnippetSpec {
            file: file.to_string(),
            lines: Some((start, end)),
        });
    }
    Ok(SnippetSpec {
        file: text.to_string(),
        lines: None,
    })
}

/// The language of a file, guessed from its extension for common ones.
pub fn guess_language(path: &str) -> Option<&'static str> {
    let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => "rust",
        "py" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" | "tsx" => "typescript",
        "go" => "go",
        "java" => "java",
        "kt" => "kotlin",
        "rb" => "ruby",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" => "cpp",
        "cs" => "csharp",
        "swift" => "swift",
        "php" => "php",
        "sh" | "bash" => "shell",
        "sql" => "sql",
        "md" => "markdown",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "json" => "json",
        "html" => "html",
        "css" => "css",
        _ => return None,
    })
}

/// The folder snippet paths are relative to: the git work tree's root, else `cwd`.
fn root_of(cwd: &Path) -> (PathBuf, bool) {
    match crate::ops::git::git(cwd, &["rev-parse", "--show-toplevel"]) {
        Some(top) => (PathBuf::from(top), true),
        None => (cwd.to_path_buf(), false),
    }
}

/// Reads the snippet `spec` names, relative to `cwd`, with its language and note.
pub fn read(
    cwd: &Path,
    spec: &SnippetSpec,
    language: Option<String>,
    note: Option<String>,
) -> Result<Snippet> {
    let (root, in_git) = root_of(cwd);
    let bad = |m: String| Error::InvalidInput(m);
    let file = cwd.join(&spec.file);
    let real = file
        .canonicalize()
        .map_err(|e| bad(format!("{}: {e}", spec.file)))?;
    let real_root = root
        .canonicalize()
        .map_err(|e| Error::io(format!("cannot resolve {}", root.display()), e))?;
    let Ok(relative) = real.strip_prefix(&real_root) else {
        return Err(bad(format!(
            "{} is outside {} ({}); a snippet must come from a file inside it",
            spec.file,
            if in_git {
                "the repository"
            } else {
                "the working folder"
            },
            real_root.display()
        )));
    };
    if !real.is_file() {
        return Err(bad(format!("{} is not a file", spec.file)));
    }
    let bytes = std::fs::read(&real).map_err(|e| bad(format!("{}: {e}", spec.file)))?;
    if bytes.contains(&0) {
        return Err(bad(format!("{} is a binary file, not text", spec.file)));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| bad(format!("{} is a binary file (not UTF-8 text)", spec.file)))?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let count = lines.len() as u64;
    if count == 0 {
        return Err(bad(format!("{} is empty", spec.file)));
    }
    let (start, end) = spec.lines.unwrap_or((1, count));
    if end > count {
        return Err(bad(format!(
            "{} has {count} line{}; lines {start}-{end} are beyond it",
            spec.file,
            if count == 1 { "" } else { "s" }
        )));
    }
    let path = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    let git_blob = in_git
        .then(|| crate::ops::git::git(cwd, &["hash-object", "--", &real.to_string_lossy()]))
        .flatten();
    Ok(Snippet {
        language: language.or_else(|| guess_language(&path).map(str::to_string)),
        text: lines[(start - 1) as usize..end as usize].concat(),
        path,
        start_line: start,
        end_line: end,
        git_blob,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_suffix_is_split_off_and_anything_else_stays_in_the_name() {
        let spec = parse_spec("src/main.rs:3-5").unwrap();
        assert_eq!(spec.file, "src/main.rs");
        assert_eq!(spec.lines, Some((3, 5)));
        assert_eq!(parse_spec("notes:draft").unwrap().lines, None);
        assert_eq!(parse_spec("a.rs").unwrap().file, "a.rs");
        assert!(parse_spec("a.rs:5-3").is_err());
        assert!(parse_spec("a.rs:0-3").is_err());
        assert_eq!(guess_language("x/Y.RS"), Some("rust"));
        assert_eq!(guess_language("Makefile"), None);
    }

    #[test]
    fn lines_are_cut_and_a_range_beyond_the_file_says_how_long_it_is() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "one\ntwo\nthree\n").unwrap();
        let spec = parse_spec("a.py:2-3").unwrap();
        let s = read(dir.path(), &spec, None, None).unwrap();
        assert_eq!(
            (s.text.as_str(), s.start_line, s.end_line),
            ("two\nthree\n", 2, 3)
        );
        assert_eq!(s.language.as_deref(), Some("python"));
        let e = read(dir.path(), &parse_spec("a.py:2-9").unwrap(), None, None).unwrap_err();
        assert!(e.to_string().contains("has 3 lines"), "{e}");
        std::fs::write(dir.path().join("b.bin"), b"a\0b").unwrap();
        let e = read(dir.path(), &parse_spec("b.bin").unwrap(), None, None).unwrap_err();
        assert!(e.to_string().contains("binary"), "{e}");
    }
}
