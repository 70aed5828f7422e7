//! export's facts and sessions: every id at its current version, in a fixed order (facts by
//! key and time, sessions by start). Parsing and checking each line is what costs, so a log is
//! read in two parts on two threads, and the chosen lines are read back and written out on two
//! threads as well. Memory holds a compact slot per line, never the records: a session that
//! lists a hundred packages is a few hundred bytes on disk and several KiB parsed.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

use serde_json::Value;

use super::{Kind, Sink};
use relay_store::records::{Versioned, slot_order};
use relay_store::{Store, WarningKind, ndjson};
use relay_wire::error::{Error, Result, SchemaError};
use relay_wire::tree::Members;
use relay_wire::{Fact, Session, time::Timestamp};

/// What the export needs to know of a versioned record. It reads every version from the
/// line's borrowing tree: only a version that ties with another on its end is parsed whole.
pub(in crate::ops) trait Exported: Versioned {
    const KIND: Kind;
    fn log(store: &Store, project: &str) -> std::path::PathBuf;
    /// The checks `Versioned::parse` makes, on the tree.
    fn validate(record: &Members) -> std::result::Result<(), SchemaError>;
    /// What the export keeps of a valid version.
    fn seen<'a>(record: &'a Members) -> Seen<'a>;
    /// Whether each group is a chain whose records end where the next begins (facts: see
    /// `store::fact_chain`), so a record is written with its effective end.
    const CHAINED: bool = false;
}

/// One version as the export orders it.
pub(in crate::ops) struct Seen<'a> {
    id: &'a str,
    /// When it ended, as [`Versioned::end`] tells it.
    end: Option<Timestamp>,
    /// The group the export sorts by first (a fact's subject and predicate).
    group: (&'a str, &'a str),
    /// The times it sorts by within a group, then by id.
    times: (Option<Timestamp>, Option<Timestamp>),
}

impl Exported for Fact {
    const KIND: Kind = Kind::Facts;
    const CHAINED: bool = true;
    fn log(store: &Store, project: &str) -> std::path::PathBuf {
        store.facts_log(project)
    }
    fn validate(record: &Members) -> std::result::Result<(), SchemaError> {
        relay_wire::fact::validate(record)
    }
    fn seen<'a>(record: &'a Members) -> Seen<'a> {
        Seen {
            id: record.str_member("fact_id").unwrap_or_default(),
            end: record.time_member("valid_to"),
            group: (
                record.str_member("subject").unwrap_or_default(),
                record.str_member("predicate").unwrap_or_default(),
            ),
            times: (
                Some(record.time_member("valid_from").unwrap_or_default()),
                Some(record.time_member("created_at").unwrap_or_default()),
            ),
        }
    }
}

impl Exported for Session {
    const KIND: Kind = Kind::Sessions;
    fn log(store: &Store, project: &str) -> std::path::PathBuf {
        store.sessions_log(project)
    }
    fn validate(record: &Members) -> std::result::Result<(), SchemaError> {
        relay_wire::session::validate(record)
    }
    fn seen<'a>(record: &'a Members) -> Seen<'a> {
        Seen {
            id: record.str_member("session_id").unwrap_or_default(),
            end: record.time_member("ended_at"),
            group: ("", ""),
            times: (record.time_member("started_at"), None),
        }
    }
}

/// Where a version of a record is, and what the export is ordered by.
struct Slot {
    offset: u64,
    /// The line's length, without its newline.
    len: u32,
    end: Option<Timestamp>,
    /// The group, by its number in [`Chosen::groups`].
    key: u32,
    times: (Option<Timestamp>, Option<Timestamp>),
    /// The fact id: `ids[id.0..id.0 + id.1]` of the part that read it.
    id: (u32, u32),
}

/// What one part of the log read: every valid version, compactly (a slot, and the id's bytes
/// in one buffer), and the keys. A table per id would cost several times the memory.
#[derive(Default)]
struct Chosen {
    slots: Vec<Slot>,
    ids: Vec<u8>,
    groups: GroupNumbers,
}

impl Chosen {
    fn id(&self, slot: &Slot) -> &[u8] {
        &self.ids[slot.id.0 as usize..(slot.id.0 + slot.id.1) as usize]
    }
}

/// Numbers the (subject, predicate) groups of a log in the order first seen, without an
/// allocation for a group it has seen before.
#[derive(Default)]
pub(in crate::ops) struct GroupNumbers {
    /// Each group, by its number.
    pub(in crate::ops) groups: Vec<(String, String)>,
    numbers: HashMap<String, u32>,
    /// The name of the group being looked up, built in place.
    name: String,
}

impl GroupNumbers {
    pub(in crate::ops) fn number(&mut self, subject: &str, predicate: &str) -> u32 {
        use std::fmt::Write;
        // Length-prefixed, so that no two groups share a name.
        self.name.clear();
        let _ = write!(self.name, "{}:{subject}{predicate}", subject.len());
        if let Some(&k) = self.numbers.get(self.name.as_str()) {
            return k;
        }
        let k = self.groups.len() as u32;
        self.groups
            .push((subject.to_string(), predicate.to_string()));
        self.numbers.insert(self.name.clone(), k);
        k
    }
}

fn record_at<T: Exported>(file: &File, offset: u64) -> std::io::Result<Option<T>> {
    Ok(
        match serde_json::from_slice::<Value>(&ndjson::line_at(file, offset)?) {
            Ok(Value::Object(m)) => T::parse(m).ok(),
            _ => None,
        },
    )
}

/// Whether the version at `new` comes after the one at `current` in the log's version order:
/// their ends decide, and only a tie needs both read back and compared in full.
fn supersedes<T: Exported>(file: &File, new: &Slot, current: &Slot) -> std::io::Result<bool> {
    let order = slot_order::<T, _>(new.end, current.end, || {
        Ok::<_, std::io::Error>((
            record_at(file, new.offset)?,
            record_at(file, current.offset)?,
        ))
    })?;
    Ok(order == std::cmp::Ordering::Greater)
}

/// The versions of one part of the log.
fn choose<T: Exported>(store: &Store, path: &Path, part: (u64, u64, u64)) -> Result<Chosen> {
    let mut chosen = Chosen::default();
    ndjson::read_trees_between(path, store.diagnostics(), part, |line, at, len, record| {
        if let Err(e) = T::validate(record) {
            store.diagnostics().warn(
                path,
                line,
                WarningKind::InvalidRecord,
                format!("not a valid {}: {e}; skipped", T::WHAT),
            );
            return Ok(());
        }
        let r = T::seen(record);
        let id = (chosen.ids.len() as u32, r.id.len() as u32);
        chosen.ids.extend(r.id.as_bytes());
        let (subject, predicate) = r.group;
        let slot = Slot {
            offset: at,
            len: u32::try_from(len).unwrap_or(u32::MAX),
            end: r.end,
            key: chosen.groups.number(subject, predicate),
            times: r.times,
            id,
        };
        chosen.slots.push(slot);
        Ok(())
    })?;
    Ok(chosen)
}

/// Appends the versions of a later part to `into`, keys renumbered and ids moved over.
fn merge(into: &mut Chosen, other: Chosen) {
    let renumber: Vec<u32> = (other.groups.groups.iter())
        .map(|(s, p)| into.groups.number(s, p))
        .collect();
    let shift = into.ids.len() as u32;
    into.ids.extend(&other.ids);
    into.slots.reserve_exact(other.slots.len());
    for mut slot in other.slots {
        slot.key = renumber[slot.key as usize];
        slot.id.0 += shift;
        into.slots.push(slot);
    }
}

/// Keeps one slot per id: its current version's.
fn current_versions<T: Exported>(chosen: &mut Chosen, file: &File) -> std::io::Result<()> {
    let ids = std::mem::take(&mut chosen.ids);
    let id = |s: &Slot| &ids[s.id.0 as usize..(s.id.0 + s.id.1) as usize];
    chosen.slots.sort_unstable_by(|a, b| id(a).cmp(id(b)));
    let mut kept: Vec<Slot> = Vec::with_capacity(chosen.slots.len());
    for slot in std::mem::take(&mut chosen.slots) {
        match kept.last() {
            Some(last) if id(last) == id(&slot) => {
                if supersedes::<T>(file, &slot, last)? {
                    *kept.last_mut().expect("a last slot") = slot;
                }
            }
            _ => kept.push(slot),
        }
    }
    kept.shrink_to_fit();
    chosen.slots = kept;
    chosen.ids = ids;
    Ok(())
}

/// One record as the export writes it: the line at its slot, or a line made anew.
struct Out<'a> {
    slot: &'a Slot,
    /// The record with its effective end, where that differs from what its line stores.
    line: Option<Vec<u8>>,
}

/// The lines at `slots`' offsets, read back and written out as they are stored: each was read
/// as a valid record when its slot was made, and a log's lines never change once written. Each
/// is read straight into the output, no more bytes than it holds.
fn render(file: &File, slots: &[Out]) -> std::io::Result<(Vec<u8>, usize)> {
    use std::os::unix::fs::FileExt;
    let (mut out, mut n) = (Vec::with_capacity(slots.len() * 400), 0);
    for Out { slot, line } in slots {
        if let Some(line) = line {
            out.extend(line);
            n += 1;
            continue;
        }
        let start = out.len();
        out.resize(start + slot.len as usize, 0);
        file.read_exact_at(&mut out[start..], slot.offset)?;
        // Blanks around the object (JSON allows them) stay behind.
        let line = &out[start..];
        let lead = line.len() - line.trim_ascii_start().len();
        let kept = line.trim_ascii().len();
        out.copy_within(start + lead..start + lead + kept, start);
        out.truncate(start + kept);
        if out.get(start) == Some(&b'{') {
            out.push(b'\n');
            n += 1;
        } else {
            out.truncate(start);
        }
    }
    Ok((out, n))
}

/// The current version of every id of the log at `path` (`None` when there is no log), and
/// the open log.
fn current<T: Exported>(store: &Store, path: &Path) -> Result<Option<(Chosen, File)>> {
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let parts = ndjson::split_at_lines(path, 2)?;
    if parts.is_empty() {
        return Ok(None);
    }
    let file = File::open(path).map_err(io)?;
    let results: Vec<Result<Chosen>> = std::thread::scope(|s| {
        let handles: Vec<_> = (parts.iter())
            .map(|&part| s.spawn(move || choose::<T>(store, path, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Integrity("a reading thread failed".into())))
            })
            .collect()
    });
    let mut parts = results.into_iter();
    let mut chosen = parts.next().transpose()?.unwrap_or_default();
    for other in parts {
        merge(&mut chosen, other?);
    }
    current_versions::<T>(&mut chosen, &file).map_err(io)?;
    Ok(Some((chosen, file)))
}

/// How many ids a project's log of `T` holds, and how many of them are open (a fact not
/// closed, a session not ended), without keeping the records: what `status` counts.
pub(in crate::ops) fn count_open<T: Exported>(
    store: &Store,
    project: &str,
) -> Result<(usize, usize)> {
    Ok(match current::<T>(store, &T::log(store, project))? {
        Some((chosen, _)) => (
            chosen.slots.len(),
            chosen.slots.iter().filter(|s| s.end.is_none()).count(),
        ),
        None => (0, 0),
    })
}

/// One project's records of type `T` at their current versions, in the export's order.
pub(in crate::ops) fn each<T: Exported>(
    store: &Store,
    project: &str,
    sink: &mut Sink<'_>,
) -> Result<()> {
    let path = T::log(store, project);
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let Some((chosen, file)) = current::<T>(store, &path)? else {
        return Ok(());
    };
    // Groups in order by name, then each record by its times and id.
    let groups = &chosen.groups.groups;
    let mut key_order: Vec<u32> = (0..groups.len() as u32).collect();
    key_order.sort_by(|&a, &b| groups[a as usize].cmp(&groups[b as usize]));
    let mut rank = vec![0u32; key_order.len()];
    for (r, &k) in key_order.iter().enumerate() {
        rank[k as usize] = r as u32;
    }
    let mut slots: Vec<&Slot> = chosen.slots.iter().collect();
    slots.sort_unstable_by(|a, b| {
        (rank[a.key as usize], a.times, chosen.id(a)).cmp(&(
            rank[b.key as usize],
            b.times,
            chosen.id(b),
        ))
    });
    let mut outs: Vec<Out> = slots.iter().map(|&slot| Out { slot, line: None }).collect();
    if T::CHAINED {
        effective_ends(&file, &mut outs, io)?;
    }
    super::render_in_rounds(
        &outs,
        4096,
        |part| render(&file, part).map_err(io),
        &mut |out, n| sink(T::KIND, &out, n),
    )
}

/// Makes anew the line of every fact, in export order, whose effective end (`fact_chain`)
/// differs from the one its line stores: the version that closes it where the next fact of its
/// key begins, as `verify --fix` would append it.
fn effective_ends(
    file: &File,
    outs: &mut [Out],
    io: impl Fn(std::io::Error) -> Error,
) -> Result<()> {
    use relay_store::fact_chain::{ChainEnd, chain_ends, closing_text, with_valid_to};
    let mut at = 0;
    while at < outs.len() {
        let key = outs[at].slot.key;
        let len = outs[at..].iter().take_while(|o| o.slot.key == key).count();
        let chain = &mut outs[at..at + len];
        let ends = chain_ends(
            chain,
            |o| o.slot.times.0.unwrap_or_default(),
            |o| o.slot.end,
        );
        for (i, end) in ends.into_iter().enumerate() {
            if end != ChainEnd::AtNext {
                continue;
            }
            let (Some(fact), Some(next)) = (
                record_at::<Fact>(file, chain[i].slot.offset).map_err(&io)?,
                record_at::<Fact>(file, chain[i + 1].slot.offset).map_err(&io)?,
            ) else {
                continue;
            };
            let closed = with_valid_to(&fact, closing_text(&fact, &next))?;
            chain[i].line = Some(ndjson::to_line(&closed)?);
        }
        at += len;
    }
    Ok(())
}
