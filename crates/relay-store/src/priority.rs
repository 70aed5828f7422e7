//! The CPU priority of work that can wait: the index rebuilds a long-lived process runs
//! behind its reads, and the threads `relay serve` answers reads on, which yield the CPU to
//! a writer holding its project's lock. One value for both, so that neither outranks the other.

/// How much lower such work runs, as a nice increment: at +5 a thread weighs about a third
/// of one at 0 when both want a core.
pub const LOWER_BY: i32 = 5;

/// Lowers the calling thread's priority by [`LOWER_BY`]. Linux only, where each thread has a
/// priority of its own; elsewhere nice would lower the whole process, writers included.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: nice takes a plain integer and changes only the calling thread's priority.
    unsafe {
        libc::nice(LOWER_BY);
    }
}
