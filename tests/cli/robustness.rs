//! Bad input and crashes: corrupt and torn lines, concurrent writers.

#[allow(unused_imports)]
use crate::harness::Env;
