//! The two kinds of machine `debrief models install --recommended` knows,
//! which one this is, and whether it has the memory for an instruct LLM:
//! speech is chosen by cores (Vosk keeps up on a few), the LLM by memory.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// A Raspberry Pi or any box with fewer than 4 cores: Vosk, which keeps
    /// up with speech there.
    Pi,
    /// Anything larger: Whisper, slower but more accurate.
    Laptop,
}

/// Fewer cores than this make a box a `pi`.
const LAPTOP_CORES: usize = 4;
/// Memory from which the instruct LLM (about 2 GB at its peak, quantised)
/// runs beside the server, the speech model and the page cache.
pub const LLM_MEMORY_MB: u64 = 4 * 1024;

/// What `--recommended` and `--summariser auto` decide by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    pub cores: usize,
    /// Total memory, from /proc/meminfo (0 where it cannot be read).
    pub memory_mb: u64,
    pub raspberry_pi: bool,
}

impl Machine {
    pub fn this() -> Self {
        let model = std::fs::read_to_string("/proc/device-tree/model").unwrap_or_default();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        Self {
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            memory_mb: total_memory_mb(&meminfo),
            raspberry_pi: model.contains("Raspberry Pi"),
        }
    }

    /// Speech: a Raspberry Pi by its device tree, else by its cores.
    pub fn profile(&self) -> Profile {
        if self.raspberry_pi || self.cores < LAPTOP_CORES { Profile::Pi } else { Profile::Laptop }
    }

    /// Whether the instruct LLM suits this machine: by memory alone (a
    /// 2-core laptop with 16 GB, a Pi 5 with 8 GB: yes; a 2 GB Pi: no).
    pub fn runs_llm(&self) -> bool {
        self.memory_mb >= LLM_MEMORY_MB
    }

    /// The facts and what they decide, for `--recommended` to print.
    pub fn reasons(&self) -> String {
        let kind = if self.raspberry_pi { "a Raspberry Pi" } else { "not a Raspberry Pi" };
        let speech = match self.profile() {
            Profile::Pi => "Vosk for speech",
            Profile::Laptop => "Whisper for speech",
        };
        let memory = format!("{:.1} GB", self.memory_mb as f64 / 1024.0);
        let llm = if self.runs_llm() {
            format!("{memory} of memory (at least {} GB): the instruct LLM for summaries", LLM_MEMORY_MB / 1024)
        } else {
            format!("{memory} of memory (under {} GB): summaries without an LLM", LLM_MEMORY_MB / 1024)
        };
        format!("{} cores, {kind}: {speech}; {llm}", self.cores)
    }
}

fn total_memory_mb(meminfo: &str) -> u64 {
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Profile::Pi => "pi",
            Profile::Laptop => "laptop",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(cores: usize, memory_gb: u64, raspberry_pi: bool) -> Machine {
        Machine { cores, memory_mb: memory_gb * 1024, raspberry_pi }
    }

    #[test]
    fn a_raspberry_pi_or_a_box_with_few_cores_is_a_pi_and_a_larger_box_a_laptop() {
        assert_eq!(machine(4, 8, true).profile(), Profile::Pi);
        assert_eq!(machine(2, 16, false).profile(), Profile::Pi);
        assert_eq!(machine(3, 16, false).profile(), Profile::Pi);
        assert_eq!(machine(4, 16, false).profile(), Profile::Laptop);
        assert_eq!(machine(16, 64, false).profile(), Profile::Laptop);
    }

    #[test]
    fn the_llm_goes_where_memory_allows_whatever_the_cores() {
        assert!(machine(2, 16, false).runs_llm(), "a 2-core laptop with 16 GB");
        assert!(machine(4, 8, true).runs_llm(), "a Pi 5 with 8 GB");
        assert!(!machine(4, 2, true).runs_llm(), "a 2 GB Pi");
        assert!(machine(2, 16, false).reasons().contains("16.0 GB of memory (at least 4 GB): the instruct LLM"));
        assert!(machine(4, 2, true).reasons().contains("summaries without an LLM"));
    }

    #[test]
    fn total_memory_is_read_from_meminfo() {
        assert_eq!(total_memory_mb("MemTotal:       16318480 kB\nMemFree: 1 kB\n"), 15936);
        assert_eq!(total_memory_mb(""), 0);
    }
}
