//! Whisper through candle.
