//! Whisper through candle: our own log-mel front end, an encoder and an
//! incremental decoder over the model's weights, greedy decoding with
//! timestamps, and Whisper's 30-second windows with seeking. A model folder
//! holds `config.json`, `tokenizer.json` and `model.safetensors` (Hugging
//! Face names); `ct2` makes one from a CTranslate2 (faster-whisper) model.

mod bias;
mod config;
mod ct2;
mod decode;
mod decoder;
mod encoder;
mod fft;
mod int8;
mod kernels;
mod layers;
mod mel;
mod model;
mod q8;
mod rules;
mod segments;
mod text;
mod vad;

use std::path::Path;
use std::time::Instant;

use candle_core::{Device, Tensor};

use self::bias::Bias;
use self::config::Config;
pub use self::ct2::{ConvertError, convert};
use self::decode::{Context, Decoded, greedy, repetitive};
use self::mel::{HOP, LogMel};
use self::model::Model;
use self::rules::Rules;
use self::text::Vocabulary;
use super::names::{names, respell};
use super::{AsrPrecision, EngineError, Progress, Segment, Transcriber, Transcript};

/// Most tokens of a hint: names and companies, not a script.
const HINT_TOKENS: usize = 96;
/// A window decoded after a hint that says fewer words a second than this
/// (people say two to three), over at least this many seconds, is checked
/// against the same window decoded without it.
const SKIM_WORDS_PER_SECOND: f32 = 1.6;
const SKIM_MIN_SECONDS: f32 = 4.0;
/// Whisper's rule for a window of silence: the model thinks so, and what it
/// wrote instead is improbable.
const NO_SPEECH_PROB: f32 = 0.6;
const LOGPROB_FLOOR: f32 = -1.0;
/// One timestamp step is 20 ms: two mel frames.
const FRAMES_PER_STEP: usize = 2;
const MS_PER_FRAME: u64 = 10;

pub struct Whisper {
    model: Model,
    vocabulary: Vocabulary,
    rules: Rules,
    mel: LogMel,
    /// Mel frames a window holds (3000: 30 s).
    window_frames: usize,
    /// The hint's tokens, read before every window (see [`Transcriber::expect`]).
    context: Vec<u32>,
    /// The hint's names: decoding leans towards them, and their near misses
    /// in what it wrote are spelled as the hint spells them.
    bias: Bias,
    names: Vec<String>,
}

/// The int8 kernel the decoder runs on this processor, and the wider ones
/// passed over because they gave other sums than the portable code (see `q8`).
pub fn int8_kernel() -> (&'static str, Vec<&'static str>) {
    (q8::Kernel::best().name(), q8::Kernel::refused().into_iter().map(q8::Kernel::name).collect())
}

impl Whisper {
    /// Loads the model in `model_dir` (see the module docs for its files),
    /// its decoder at `precision`.
    pub fn load(model_dir: &Path, precision: AsrPrecision) -> Result<Self, EngineError> {
        let [config_path, tokenizer_path, weights_path] =
            ["config.json", "tokenizer.json", "model.safetensors"].map(|f| model_dir.join(f));
        for path in [&config_path, &tokenizer_path, &weights_path] {
            if !path.is_file() {
                return Err(EngineError::Missing(format!("Whisper model incomplete: {} is missing", path.display())));
            }
        }
        let config = Config::read(&config_path)?;
        let vocabulary = Vocabulary::load(&tokenizer_path, &config)
            .map_err(|reason| EngineError::BadModel(format!("{}: {reason}", tokenizer_path.display())))?;
        let model = Model::load(&weights_path, &config, precision)?;
        Ok(Self {
            model,
            rules: Rules::new(&vocabulary, &config.suppress_tokens, &config.begin_suppress_tokens),
            vocabulary,
            mel: LogMel::new(config.num_mel_bins),
            window_frames: config.max_source_positions * FRAMES_PER_STEP,
            context: Vec::new(),
            bias: Bias::default(),
            names: Vec::new(),
        })
    }

    /// Encodes and decodes the window of `window_frames` frames from `first`.
    ///
    /// Threads: the encoder's large matrix products run on candle's pool,
    /// one thread per physical core unless `RAYON_NUM_THREADS` says
    /// otherwise. The decoder runs on this thread alone whatever the
    /// setting: every product of a step has a single row, which gemm
    /// computes as a matrix-vector product without threads. Measured on this
    /// shared 2-core machine (another build always held one core), 1 and 2
    /// threads took the same time, 2.6–3.1 against 2.7–3.3 s for three
    /// encoder windows; the CPU time with 2 threads was 5.9–6.2 s against
    /// 5.2–5.7 s with 1, so little work is lost to threading, and with a
    /// free core the encoder gains.
    fn decode_window(&mut self, samples: &[f32], first: usize) -> candle_core::Result<Decoded> {
        let frames = self.window_frames;
        let started = Instant::now();
        let mel = self.mel.window(samples, first, frames);
        let mel_time = started.elapsed();
        let mel = Tensor::from_vec(mel, (1, self.mel.bins(), frames), &Device::Cpu)?;
        let encoder = &self.model.encoder;
        let audio = Device::Cpu.with_context(|| encoder.forward(&mel))?;
        let encoded = started.elapsed();
        let (decoder, vocabulary, rules) = (&self.model.decoder, &self.vocabulary, &self.rules);
        let hinted = Context { tokens: &self.context, bias: &self.bias };
        let mut decoded = Device::Cpu.with_context(|| greedy(decoder, &audio, vocabulary, rules, hinted))?;
        let heard = frames.min(samples.len() / HOP - first);
        let echoed = |decoded: &Decoded| vocabulary.text(&decoded.tokens).is_ok_and(|text| repetitive(&text));
        if !self.context.is_empty() && (self.skimmed(&decoded, heard) || echoed(&decoded)) {
            // After a hint, tiny models sometimes stop a sentence or two into
            // a window, start late, or say a name of the hint over and over
            // with words around it that vary, so no loop is cut: the same
            // window without the hint is decoded too, and kept when it says
            // clearly more, or when only the hinted one repeats itself. Names
            // matter, but not more than what was said. The lean towards the
            // names stays: it does not make the model skip.
            let plain = Context { tokens: &[], bias: &self.bias };
            let plain = Device::Cpu.with_context(|| greedy(decoder, &audio, vocabulary, rules, plain))?;
            let more = self.words(&plain) > self.words(&decoded) * 5 / 4;
            if more || (echoed(&decoded) && !echoed(&plain)) {
                decoded = plain;
            }
        }
        tracing::debug!(
            at_s = first / 100,
            mel_ms = mel_time.as_millis() as u64,
            encoder_ms = (encoded - mel_time).as_millis() as u64,
            decoder_ms = (started.elapsed() - encoded).as_millis() as u64,
            tokens = decoded.tokens.len(),
            "whisper window"
        );
        Ok(decoded)
    }

    /// Fewer than [`SKIM_WORDS_PER_SECOND`] words a second over the window's
    /// `frames` of audio: fewer than people say, so speech may be missing.
    fn skimmed(&self, decoded: &Decoded, frames: usize) -> bool {
        let seconds = (frames as u64 * MS_PER_FRAME) as f32 / 1000.0;
        seconds >= SKIM_MIN_SECONDS && (self.words(decoded) as f32) < SKIM_WORDS_PER_SECOND * seconds
    }

    fn words(&self, decoded: &Decoded) -> usize {
        self.vocabulary.text(&decoded.tokens).map_or(0, |text| text.split_whitespace().count())
    }

    /// Adds the segments of the window of `frames` frames from `seek` to
    /// `segments`, in absolute time; returns how many frames to move on.
    fn place(
        &self,
        decoded: &Decoded,
        seek: usize,
        frames: usize,
        total_samples: usize,
        segments: &mut Vec<Segment>,
    ) -> Result<usize, EngineError> {
        let steps = (frames / FRAMES_PER_STEP) as u32;
        let ts_begin = self.vocabulary.timestamp_begin;
        let split = segments::split(&decoded.tokens, ts_begin, steps, decoded.looped);
        // The last window's timestamps can run past the end of the recording.
        let end_ms = total_samples as u64 * 1000 / super::SAMPLE_RATE as u64;
        let at = |step: u32| {
            let frame = (seek + step as usize * FRAMES_PER_STEP) as u64;
            (frame * MS_PER_FRAME).min(end_ms)
        };
        for piece in split.pieces {
            let text = respell(&self.vocabulary.text(&piece.tokens)?, &self.names);
            if !text.is_empty() {
                let (start_ms, end_ms) = (at(piece.start), at(piece.end));
                segments.push(Segment { start_ms, end_ms, text, words: Vec::new() });
            }
        }
        Ok(split.advance.map_or(frames, |steps| (steps as usize * FRAMES_PER_STEP).min(frames)))
    }
}

impl Transcriber for Whisper {
    fn transcribe(&mut self, samples: &[f32], progress: Progress<'_>) -> Result<Transcript, EngineError> {
        let total_frames = samples.len() / HOP;
        let gate = vad::Gate::new(samples);
        let mut segments = Vec::new();
        let mut seek = 0;
        while seek < total_frames {
            let frames = self.window_frames.min(total_frames - seek);
            let mut advance = frames;
            if gate.has_speech(seek * HOP..(seek + frames) * HOP) {
                let decoded = self
                    .decode_window(samples, seek)
                    .map_err(|e| EngineError::Engine(format!("Whisper failed: {e}")))?;
                let silent = decoded.no_speech_prob > NO_SPEECH_PROB && decoded.avg_logprob < LOGPROB_FLOOR;
                if !silent {
                    advance = self.place(&decoded, seek, frames, samples.len(), &mut segments)?;
                }
            }
            seek += advance;
            progress((seek.min(total_frames) * 100 / total_frames) as u8);
        }
        progress(100);
        Ok(Transcript::from_segments(segments))
    }

    fn expect(&mut self, hint: &str) {
        self.context = self.vocabulary.context(hint, HINT_TOKENS);
        self.bias = Bias::new(hint, |text| self.vocabulary.tokens(text));
        self.names = names(hint);
    }
}
