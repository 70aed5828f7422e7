//! Logs as sets of lines. A log is append-only and every record is one line, so two copies of
//! a log that hold the same lines hold the same records, whatever their order: the identity of
//! a line is its bytes. What the queue's flush, the journal's check and relay's merge driver
//! need of that: a file's whole lines, and the union of two sides of a merge, each line once.

use std::collections::HashSet;

/// The whole lines of `bytes` (without their `\n`), blank lines left out; a last line with no
/// `\n` (a write cut off) is not one of them.
pub fn whole_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..end],
        None => &bytes[..0],
    };
    whole
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
}

/// The bytes after the last `\n` of `bytes`: a line a write cut off, or nothing.
pub fn torn_tail(bytes: &[u8]) -> &[u8] {
    match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[end + 1..],
        None => bytes,
    }
}

/// The set of whole lines of `bytes`.
pub fn line_set(bytes: &[u8]) -> HashSet<&[u8]> {
    whole_lines(bytes).collect()
}

/// The merge of two sides of a log, by line identity: every line of `ours` in its order, then
/// every line of `theirs` that `ours` lacks, in its order, each line once. Nothing either side
/// holds is dropped: a log only grows, and a line missing from one side is one that side has
/// not seen yet (a rebase replays a commit over a base holding lines of a merge it flattens),
/// so the base is not consulted. The result does not depend on where each side put its lines,
/// so clones that merged and clones that rebased the same commits hold the same set. A cut-off
/// last line of either side (never a record that was acknowledged) is left out. Unlike git's
/// union, a line one side deleted (`relay purge`, `verify --fix`) comes back from a side that
/// still holds it.
pub fn union(_base: &[u8], ours: &[u8], theirs: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ours.len() + theirs.len());
    let mut written: HashSet<&[u8]> = HashSet::new();
    for line in whole_lines(ours).chain(whole_lines(theirs)) {
        if written.insert(line) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    out
}

/// The lines of `new` that `have` lacks, each once, in their order, as bytes ready to append.
pub fn missing_from(have: &HashSet<&[u8]>, new: &[u8]) -> Vec<u8> {
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut out = Vec::new();
    for line in whole_lines(new) {
        if !have.contains(line) && seen.insert(line) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_leave_out_blanks_and_a_cut_off_end() {
        let lines: Vec<&[u8]> = whole_lines(b"{\"a\":1}\n\n{\"b\":2}\n{\"c\"").collect();
        assert_eq!(lines, [&b"{\"a\":1}"[..], b"{\"b\":2}"]);
        assert_eq!(whole_lines(b"").count(), 0);
        assert_eq!(whole_lines(b"{\"c\"").count(), 0);
        assert_eq!(torn_tail(b"{\"a\":1}\n{\"c\""), b"{\"c\"");
        assert_eq!(torn_tail(b"{\"a\":1}\n"), b"");
    }

    #[test]
    fn the_union_keeps_each_line_of_both_sides_once_whatever_their_order() {
        let base = b"{\"a\":1}\n";
        let ours = b"{\"a\":1}\n{\"x\":1}\n{\"b\":1}\n{\"x\":1}\n";
        let theirs = b"{\"a\":1}\n{\"c\":1}\n{\"b\":1}\n";
        assert_eq!(
            union(base, ours, theirs),
            b"{\"a\":1}\n{\"x\":1}\n{\"b\":1}\n{\"c\":1}\n"
        );
        // The same lines, put in the other order by a rebase: the same set.
        let other = union(base, theirs, ours);
        let mut a: Vec<&[u8]> = whole_lines(&other).collect();
        let merged = union(base, ours, theirs);
        let mut b: Vec<&[u8]> = whole_lines(&merged).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn no_line_of_either_side_is_dropped_and_a_torn_end_is_left_out() {
        // The base holds a line ours lacks (a rebase replaying a commit whose parent was a
        // merge it flattens): it stays, as theirs holds it.
        let base = b"{\"a\":1}\n{\"b\":1}\n";
        let ours = b"{\"a\":1}\n{\"o\":1}\n{\"cut";
        let theirs = b"{\"a\":1}\n{\"b\":1}\n{\"t\":1}\n";
        assert_eq!(
            union(base, ours, theirs),
            b"{\"a\":1}\n{\"o\":1}\n{\"b\":1}\n{\"t\":1}\n"
        );
    }

    #[test]
    fn missing_lines_are_those_not_held_each_once() {
        let held = b"{\"a\":1}\n{\"b\":1}\n";
        let have = line_set(held);
        assert_eq!(
            missing_from(&have, b"{\"b\":1}\n{\"c\":1}\n{\"c\":1}\n{\"d\""),
            b"{\"c\":1}\n"
        );
    }
}
