//! What the speech-to-text engines and the summarisers share: how they
//! report progress and how they fail, so the jobs treat them alike.

/// Told how far an engine has come, in percent (0–100, never going back).
pub type Progress<'a> = &'a mut dyn FnMut(u8);

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine or its model is not installed; the text says which and how
    /// to install it.
    #[error("{0}")]
    Missing(String),
    /// The model is there but cannot be used (damaged or the wrong kind).
    #[error("{0}")]
    BadModel(String),
    /// The engine failed while working.
    #[error("{0}")]
    Engine(String),
}
