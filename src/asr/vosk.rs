//! Vosk through its C API, with libvosk loaded at run time.
