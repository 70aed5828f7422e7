// The reader of `secret_kinds.tsv`, beside it: `include!`d by the tests that read the file
// (relay-wire's unit tests, tests/cli/secrets.rs), so they read it alike.

/// The kinds of credential of `tests/data/secret_kinds.tsv`: (kind, rule, sample), the sample
/// joined where the file cuts it with `|`, `\n` a line break.
fn kinds() -> Vec<(&'static str, &'static str, String)> {
    include_str!("secret_kinds.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            let mut col = || cols.next().expect("three columns");
            let (kind, rule, sample) = (col(), col(), col());
            (kind, rule, sample.replace('|', "").replace("\\n", "\n"))
        })
        .collect()
}
