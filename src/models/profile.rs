//! The two kinds of machine `debrief models install --recommended` knows,
//! and which one this is.

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

impl Profile {
    /// This machine's: a Raspberry Pi by its device tree, else by its cores.
    pub fn of_this_machine() -> Self {
        let model = std::fs::read_to_string("/proc/device-tree/model").unwrap_or_default();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::guess(&model, cores)
    }

    fn guess(device_model: &str, cores: usize) -> Self {
        if device_model.contains("Raspberry Pi") || cores < LAPTOP_CORES { Profile::Pi } else { Profile::Laptop }
    }
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

    #[test]
    fn a_raspberry_pi_or_a_box_with_few_cores_is_a_pi_and_a_larger_box_a_laptop() {
        assert_eq!(Profile::guess("Raspberry Pi 5 Model B Rev 1.0\0", 4), Profile::Pi);
        assert_eq!(Profile::guess("", 2), Profile::Pi);
        assert_eq!(Profile::guess("", 3), Profile::Pi);
        assert_eq!(Profile::guess("", 4), Profile::Laptop);
        assert_eq!(Profile::guess("", 16), Profile::Laptop);
    }
}
