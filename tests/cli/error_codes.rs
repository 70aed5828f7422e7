//! The book's exit-code table (docs/guide/exit-codes.md) names every error code once, with the
//! HTTP status that `relay::Code::http_status` gives it.

use std::collections::BTreeMap;

use relay::Code;

/// (error code, HTTP status) for every code in the book's "Exit codes" table.
fn readme_statuses() -> Vec<(String, u16)> {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/guide/exit-codes.md"
    ))
    .expect("docs/guide/exit-codes.md");
    let section = readme
        .split("\n## Exit codes\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("an Exit codes section");
    let mut out = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let ["", _, _, codes, status, ""] = cells[..] else {
            panic!("a row of four cells: {row}");
        };
        if codes.is_empty() || codes == "error codes" {
            continue;
        }
        // "409; `project_archived` 403, `invalid_transition` 400": a status for the row, then
        // the codes that have another.
        let (default, exceptions) = status.split_once(';').unwrap_or((status, ""));
        let parse = |s: &str| -> u16 {
            s.trim_matches([' ', ','])
                .parse()
                .unwrap_or_else(|_| panic!("{row}"))
        };
        let pieces: Vec<&str> = exceptions.split('`').collect();
        let other: BTreeMap<&str, u16> = pieces
            .iter()
            .skip(1)
            .step_by(2)
            .zip(pieces.iter().skip(2).step_by(2))
            .map(|(code, n)| (*code, parse(n)))
            .collect();
        let named: Vec<&str> = codes.split('`').skip(1).step_by(2).collect();
        assert!(
            other.keys().all(|c| named.contains(c)),
            "an exception for a code not in its row: {row}"
        );
        for code in named {
            let status = other.get(code).copied().unwrap_or_else(|| parse(default));
            out.push((code.to_string(), status));
        }
    }
    out
}

#[test]
fn the_readme_gives_every_error_code_its_http_status() {
    let mut documented = readme_statuses();
    documented.sort();
    let mut table: Vec<(String, u16)> = Code::ALL
        .iter()
        .map(|c| (c.as_str().to_string(), c.http_status()))
        .collect();
    table.sort();
    assert_eq!(documented, table);
}
