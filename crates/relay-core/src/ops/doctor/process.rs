//! Running a hook or a server the doctor tries: with its input on stdin, its output collected,
//! and a time limit past which it is killed, so a hung hook is a finding rather than a hung
//! doctor.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a hook may run before the doctor gives up on it: longer than the agents' own
/// backstop ([`crate::ops::agents::hooks::HOOK_TIMEOUT_SECS`]).
pub const HOOK_LIMIT: Duration =
    Duration::from_secs(crate::ops::agents::hooks::HOOK_TIMEOUT_SECS + 5);

/// What a finished command did.
#[derive(Debug)]
pub struct Ran {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn succeeded(&self) -> bool {
        self.status == Some(0)
    }

    /// The first line of stderr, for a finding (empty when it said nothing).
    pub fn said(&self) -> String {
        self.stderr
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut text);
        }
        String::from_utf8_lossy(&text).into_owned()
    })
}

/// Runs `command` with `input` on its stdin; `Err` when it cannot start or outlives `limit`
/// (it is then killed).
pub fn run(mut command: Command, input: &[u8], limit: Duration) -> Result<Ran, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start it ({e})"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A command may exit before reading everything; a closed pipe is no finding.
        let _ = stdin.write_all(input);
    }
    let (out, err) = (reader(child.stdout.take()), reader(child.stderr.take()));
    let status = wait(&mut child, limit)?;
    Ok(Ran {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Waits for `child` up to `limit`; kills it past that.
pub fn wait(child: &mut Child, limit: Duration) -> Result<Option<i32>, String> {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status.code()),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("it did not finish within {} s", limit.as_secs()));
            }
            Err(e) => return Err(format!("cannot wait for it ({e})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_collected_and_a_hung_command_is_killed() {
        let mut c = Command::new("sh");
        c.args(["-c", "cat; echo oops >&2; exit 3"]);
        let ran = run(c, b"hello", HOOK_LIMIT).unwrap();
        assert_eq!((ran.status, ran.stdout.as_str()), (Some(3), "hello"));
        assert_eq!(ran.said(), "oops");
        let mut c = Command::new("sleep");
        c.arg("5");
        let e = run(c, b"", Duration::from_millis(100)).unwrap_err();
        assert!(e.contains("did not finish"), "{e}");
    }
}
