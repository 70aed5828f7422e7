//! Every key's facts turned into bytes on two threads and handed on in key order: a listing
//! of a long history (`facts list --include-ended`) parses and writes each fact once, and
//! that work, not the reading, is what it costs. The keys are cut into batches; each worker
//! reads and renders a batch, and the caller's sink gets the batches in order (a batch past
//! [`SPILL`] bytes in pieces, once every batch before it is written).

use std::collections::BTreeMap;
use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use relay_wire::Fact;
use relay_wire::error::{Error, Result};

use super::{ChainReader, Indexed, tail_by_key, walk_keys};
use crate::Store;

/// What a worker makes of one key's facts (in chain order, as [`Store::each_key_facts`]
/// hands them): bytes written to its batch's writer.
pub type RenderKey<'a> = dyn Fn(&mut dyn Iterator<Item = Result<Fact>>, &mut dyn std::io::Write) -> Result<()>
    + Sync
    + 'a;

/// A key by subject and predicate, as the listing orders them.
type Name = (String, String);

/// How many batches may be rendered ahead of the one the sink waits for: what memory holds
/// beyond one batch per worker.
const AHEAD: usize = 4;

impl Store {
    /// [`Store::each_key_facts`] on two threads: `render` turns each key's facts into bytes,
    /// `batch_keys` keys to a batch, and `sink` gets each batch's bytes in key order, on the
    /// calling thread. `false` (and no call) when there is no usable index. An error from
    /// `render` or `sink` stops the walk and is returned.
    pub fn render_key_facts(
        &self,
        project_id: &str,
        subject: Option<&str>,
        predicate: Option<&str>,
        batch_keys: usize,
        render: &RenderKey<'_>,
        sink: &mut dyn FnMut(&[u8]) -> Result<()>,
    ) -> Result<bool> {
        let Some(Indexed { index, log, tail }) = self.indexed(project_id)? else {
            return Ok(false);
        };
        let io = |e| Error::io(format!("cannot read {}", log.display()), e);
        let chains = match index.chains() {
            Ok(chains) => chains,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(false),
            Err(e) => return Err(io(e)),
        };
        let file = File::open(&log).map_err(io)?;
        let keys: Vec<&[(u64, u64)]> = chains.chunk_by(|a, b| a.0 >> 32 == b.0 >> 32).collect();
        let batches: Vec<&[&[(u64, u64)]]> = keys.chunks(batch_keys.max(1)).collect();
        // The keys of the log's tail go to the batch whose indexed keys they sort among: from
        // the first name of that batch to the first of the next (the first batch from the
        // start, the last to the end).
        let mut reader = ChainReader {
            file: &file,
            buf: Vec::new(),
        };
        let mut starts = Vec::with_capacity(batches.len());
        for batch in &batches {
            starts.push(first_name(&mut reader, batch).map_err(io)?);
        }
        let mut touched = tail_by_key(&tail);
        let mut tails: Vec<Mutex<BTreeMap<Name, Vec<Fact>>>> = Vec::with_capacity(batches.len());
        for i in (0..batches.len()).rev() {
            // A batch without a readable key takes none of the tail: its range is empty.
            let mine = match starts.get(i).and_then(Option::as_ref) {
                Some(start) if i > 0 => touched.split_off(start),
                _ if i > 0 => BTreeMap::new(),
                _ => std::mem::take(&mut touched),
            };
            tails.push(Mutex::new(mine));
        }
        tails.reverse();
        if batches.is_empty() {
            tails.push(Mutex::new(touched));
        }
        let wanted =
            |s: &str, p: &str| subject.is_none_or(|x| x == s) && predicate.is_none_or(|x| x == p);
        let batch = |i: usize, out: &mut dyn std::io::Write| -> Result<()> {
            let mut reader = ChainReader {
                file: &file,
                buf: Vec::new(),
            };
            let mut touched =
                std::mem::take(&mut *tails[i].lock().unwrap_or_else(|e| e.into_inner()));
            let mut each = |facts: &mut dyn Iterator<Item = Result<Fact>>| render(facts, out);
            let keys = batches.get(i).copied().unwrap_or_default().iter().copied();
            walk_keys(&mut reader, &log, keys, &mut touched, &wanted, &mut each)
        };
        in_order(tails.len(), &batch, sink)?;
        Ok(true)
    }
}

/// The name of the first key of `batch` whose first fact reads.
fn first_name(
    reader: &mut ChainReader<'_>,
    batch: &[&[(u64, u64)]],
) -> std::io::Result<Option<Name>> {
    for key in batch {
        if let Some(f) = reader.fact(key[0])? {
            return Ok(Some((f.subject().to_string(), f.predicate().to_string())));
        }
    }
    Ok(None)
}

/// Bytes a batch holds before it hands them on: a key's history can be megabytes, and a
/// batch must not hold it whole.
const SPILL: usize = 4 << 20;

/// What workers and the sink share: how many batches the sink has taken (workers wait on
/// it), and whether the walk stopped.
struct Turns {
    taken: Mutex<usize>,
    changed: Condvar,
    stop: AtomicBool,
}

impl Turns {
    /// Waits until `ready` holds of the number of batches taken; `false` if the walk stopped.
    fn wait_until(&self, ready: impl Fn(usize) -> bool) -> bool {
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        while !ready(*taken) && !self.stop.load(Ordering::Relaxed) {
            taken = self.changed.wait(taken).unwrap_or_else(|e| e.into_inner());
        }
        !self.stop.load(Ordering::Relaxed)
    }

    fn set(&self, change: impl FnOnce(&mut usize)) {
        change(&mut self.taken.lock().unwrap_or_else(|e| e.into_inner()));
        self.changed.notify_all();
    }

    /// Stops the walk: waiting workers wake and end.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.set(|_| {});
    }
}

/// Stops the walk when dropped: by the sink's side whenever it leaves (done, failed or
/// panicking), by a worker only when it panics, so that nothing waits on a thread that is gone.
struct StopOnDrop<'a> {
    turns: &'a Turns,
    always: bool,
}

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        if self.always || std::thread::panicking() {
            self.turns.stop();
        }
    }
}

/// A piece of a batch's bytes, and whether it is the batch's last.
type Piece = (usize, Result<Vec<u8>>, bool);

/// The pieces of a batch not written yet, and whether its last has come.
type Pieces = (Vec<Result<Vec<u8>>>, bool);

/// The writer a batch renders into: past [`SPILL`] bytes it waits for its batch's turn (every
/// batch before it taken) and hands its bytes to the sink at once.
struct BatchWriter<'a> {
    batch: usize,
    buf: Vec<u8>,
    turns: &'a Turns,
    send: &'a mpsc::Sender<Piece>,
}

impl std::io::Write for BatchWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= SPILL {
            let stopped = || std::io::Error::other("the listing stopped");
            if !self.turns.wait_until(|taken| taken == self.batch) {
                return Err(stopped());
            }
            let piece = std::mem::take(&mut self.buf);
            self.send
                .send((self.batch, Ok(piece), false))
                .map_err(|_| stopped())?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `batch` for 0..count on two worker threads, at most [`AHEAD`] batches past the one
/// `sink` waits for, and hands `sink` their bytes in order. The first error stops the
/// workers and is returned.
fn in_order(
    count: usize,
    batch: &(dyn Fn(usize, &mut dyn std::io::Write) -> Result<()> + Sync),
    sink: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let turns = Turns {
        taken: Mutex::new(0),
        changed: Condvar::new(),
        stop: AtomicBool::new(false),
    };
    let (send, done) = mpsc::channel::<Piece>();
    std::thread::scope(|s| {
        for _ in 0..2 {
            let send = send.clone();
            let (next, turns) = (&next, &turns);
            s.spawn(move || {
                let _stop = StopOnDrop {
                    turns,
                    always: false,
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count || !turns.wait_until(|taken| i < taken + AHEAD) {
                        return;
                    }
                    let mut out = BatchWriter {
                        batch: i,
                        buf: Vec::new(),
                        turns,
                        send: &send,
                    };
                    let made = batch(i, &mut out);
                    // What a failed batch wrote before its error is written before it, as a
                    // listing on one thread would have.
                    let written = std::mem::take(&mut out.buf);
                    let pieces = match made {
                        Ok(()) => vec![(i, Ok(written), true)],
                        Err(e) => vec![(i, Ok(written), false), (i, Err(e), true)],
                    };
                    if pieces.into_iter().any(|piece| send.send(piece).is_err()) {
                        return;
                    }
                }
            });
        }
        drop(send);
        // Pieces of batches after the one being written, by batch, and whether each is whole.
        // (A failed batch's error waits its turn too: what came before it is written first.)
        let mut waiting: BTreeMap<usize, Pieces> = BTreeMap::new();
        let mut want = 0;
        let _stop = StopOnDrop {
            turns: &turns,
            always: true,
        };
        (|| -> Result<()> {
            while want < count {
                let Ok((i, piece, last)) = done.recv() else {
                    return Err(Error::io(
                        "cannot list the facts",
                        std::io::Error::other("a worker thread ended early"),
                    ));
                };
                let entry = waiting.entry(i).or_default();
                entry.0.push(piece);
                entry.1 |= last;
                while let Some(mut first) = waiting.first_entry().filter(|e| *e.key() == want) {
                    for piece in first.get_mut().0.drain(..) {
                        match piece? {
                            bytes if bytes.is_empty() => {}
                            bytes => sink(&bytes)?,
                        }
                    }
                    if !first.get().1 {
                        break;
                    }
                    first.remove();
                    want += 1;
                    turns.set(|taken| *taken = want);
                }
            }
            Ok(())
        })()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn batches_reach_the_sink_in_order_and_the_first_error_stops_the_walk() {
        let batch = |i: usize, out: &mut dyn Write| -> Result<()> {
            // Later batches finish first, so the order is the sink's work.
            std::thread::sleep(std::time::Duration::from_micros(
                ((50 - i) % 7) as u64 * 300,
            ));
            out.write_all(format!("{i},").as_bytes()).unwrap();
            Ok(())
        };
        let mut all = Vec::new();
        in_order(50, &batch, &mut |b| {
            all.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        let want: String = (0..50).map(|i| format!("{i},")).collect();
        assert_eq!(String::from_utf8(all).unwrap(), want);

        let failing = |i: usize, out: &mut dyn Write| -> Result<()> {
            match i {
                7 => Err(Error::InvalidInput("batch 7".into())),
                _ => out
                    .write_all(b"x")
                    .map_err(|e| Error::io("cannot write", e)),
            }
        };
        let mut sunk = 0;
        let err = in_order(1000, &failing, &mut |_| {
            sunk += 1;
            Ok(())
        })
        .unwrap_err();
        assert!(err.to_string().contains("batch 7"), "{err}");
        assert_eq!(sunk, 7, "the batches before the failed one, and no more");

        let mut calls = 0;
        let err = in_order(1000, &batch, &mut |_| {
            calls += 1;
            match calls {
                3 => Err(Error::InvalidInput("the pipe closed".into())),
                _ => Ok(()),
            }
        })
        .unwrap_err();
        assert!(err.to_string().contains("pipe"), "{err}");
        in_order(0, &batch, &mut |_| panic!("no batches")).unwrap();

        // A batch that fails after writing: what it wrote comes before its error.
        let partly = |i: usize, out: &mut dyn Write| -> Result<()> {
            out.write_all(format!("{i},").as_bytes()).unwrap();
            match i {
                3 => Err(Error::InvalidInput("batch 3".into())),
                _ => Ok(()),
            }
        };
        let mut all = Vec::new();
        let err = in_order(100, &partly, &mut |b| {
            all.extend_from_slice(b);
            Ok(())
        })
        .unwrap_err();
        assert!(err.to_string().contains("batch 3"), "{err}");
        assert_eq!(all, b"0,1,2,3,");
    }

    #[test]
    fn a_worker_that_panics_ends_the_walk_instead_of_leaving_it_waiting() {
        let (send, done) = mpsc::channel();
        std::thread::spawn(move || {
            let batch = |i: usize, out: &mut dyn Write| -> Result<()> {
                if i == 2 {
                    panic!("batch 2 panics");
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
                out.write_all(b"x")
                    .map_err(|e| Error::io("cannot write", e))
            };
            let ended = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                in_order(1000, &batch, &mut |_| Ok(()))
            }));
            let _ = send.send(ended.is_err());
        });
        let panicked = done
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the walk ended");
        assert!(panicked, "the worker's panic reaches the caller");
    }

    #[test]
    fn a_batch_longer_than_a_spill_is_handed_on_in_pieces_still_in_order() {
        // Batches 2 and 5 write three spills each, in lines naming their batch; the rest
        // a line.
        let long = 3 * SPILL / 1024;
        let batch = |i: usize, out: &mut dyn Write| -> Result<()> {
            let lines = if i == 2 || i == 5 { long } else { 1 };
            for n in 0..lines {
                writeln!(out, "{i:02} {n:05} {}", "x".repeat(1000)).unwrap();
            }
            Ok(())
        };
        let (mut all, mut pieces) = (Vec::new(), 0);
        in_order(9, &batch, &mut |b| {
            assert!(b.len() <= SPILL + 1100, "a piece of {} bytes", b.len());
            pieces += 1;
            all.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        let text = String::from_utf8(all).unwrap();
        let order: Vec<(usize, usize)> = (text.lines())
            .map(|l| (l[..2].parse().unwrap(), l[3..8].parse().unwrap()))
            .collect();
        let mut want = Vec::new();
        for i in 0..9 {
            let lines = if i == 2 || i == 5 { long } else { 1 };
            want.extend((0..lines).map(|n| (i, n)));
        }
        assert_eq!(order, want);
        assert!(
            pieces >= 9 + 4,
            "the long batches came in pieces ({pieces})"
        );
    }
}
