//! `--asr auto|vosk|whisper`: which engine transcribes, from what is installed.

use super::{EngineError, Transcriber};
use crate::models::{Kind, ModelsDir, install_hint};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AsrChoice {
    /// Whatever is installed; with both, Whisper on x86_64 with 4 or more
    /// cores (it is more accurate), Vosk otherwise (it is faster).
    Auto,
    Vosk,
    Whisper,
}

/// `--asr-precision f32|int8`: how Whisper's decoder holds its weights.
/// int8 is the default: on the 60-second clip of the speech benchmark its
/// decoder took 470 ms a window against 760 in f32 (the whole run 1.8 s
/// against 2.4 s), and it wrote the same words on every LibriVox clip. The
/// encoder stays f32 either way (see `whisper::int8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AsrPrecision {
    /// 32-bit floats throughout.
    F32,
    /// The decoder's projections in 8-bit integers, a scale per 32 weights.
    #[default]
    Int8,
}

/// An engine that can be loaded, and from where.
pub enum Plan {
    Whisper { model: std::path::PathBuf },
    Vosk { library: std::sync::Arc<super::vosk::VoskLib>, model: std::path::PathBuf },
}

fn whisper_missing() -> EngineError {
    EngineError::Missing(format!("No Whisper model is installed: run `{}`.", install_hint(Kind::Whisper)))
}

/// Decides without loading anything (cheap enough for `debrief doctor`).
pub fn plan(choice: AsrChoice, models: &ModelsDir) -> Result<Plan, EngineError> {
    let whisper = models.whisper_model().map(|model| Plan::Whisper { model });
    let vosk = || -> Result<Plan, EngineError> {
        let library = super::vosk::find_library(models)?;
        let model = models.vosk_model().ok_or_else(|| super::vosk::model_missing(models))?;
        Ok(Plan::Vosk { library, model })
    };
    match choice {
        AsrChoice::Whisper => whisper.ok_or_else(whisper_missing),
        AsrChoice::Vosk => vosk(),
        AsrChoice::Auto => match (whisper, vosk()) {
            (Some(whisper), Ok(vosk)) => {
                Ok(if prefers_whisper(std::env::consts::ARCH, cores()) { whisper } else { vosk })
            }
            (Some(whisper), Err(_)) => Ok(whisper),
            (None, Ok(vosk)) => Ok(vosk),
            (None, Err(_)) => Err(EngineError::Missing(
                "No speech-to-text model is installed: run `debrief models install --recommended`, which picks \
                 Whisper or Vosk for this machine (on a box without internet: `debrief models import PATH`)."
                    .to_owned(),
            )),
        },
    }
}

/// Loads the engine `choice` picks; Whisper at `precision`.
pub fn load(
    choice: AsrChoice,
    precision: AsrPrecision,
    models: &ModelsDir,
) -> Result<Box<dyn Transcriber>, EngineError> {
    Ok(match plan(choice, models)? {
        Plan::Whisper { model } => Box::new(super::whisper::Whisper::load(&model, precision)?),
        Plan::Vosk { library, model } => Box::new(super::vosk::Vosk::new(library, &model)?),
    })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Whisper's decoder needs cores to keep up; a Pi or a dual-core box is
/// better served by Vosk.
fn prefers_whisper(arch: &str, cores: usize) -> bool {
    arch == "x86_64" && cores >= 4
}

#[cfg(test)]
mod tests {
    use super::prefers_whisper;

    #[test]
    fn auto_takes_vosk_on_a_raspberry_pi_whatever_its_cores_and_on_a_laptop_with_fewer_than_four() {
        for cores in [1, 4, 8] {
            assert!(!prefers_whisper("aarch64", cores), "a Pi with {cores} cores");
        }
        assert!(!prefers_whisper("x86_64", 2));
        assert!(!prefers_whisper("x86_64", 3));
        assert!(prefers_whisper("x86_64", 4));
    }
}
