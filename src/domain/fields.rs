use serde::Serialize;

/// One field's problem, as the client shows it under the field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

/// Collects the first problem of each field.
#[derive(Debug, Default)]
pub struct FieldErrors(Vec<FieldError>);

impl FieldErrors {
    /// Records `message` for `field` unless the field already has one.
    pub fn add(&mut self, field: &str, message: &str) {
        if !self.0.iter().any(|e| e.field == field) {
            self.0.push(FieldError { field: field.to_owned(), message: message.to_owned() });
        }
    }

    /// Records `message` when `failed`.
    pub fn check(&mut self, failed: bool, field: &str, message: &str) {
        if failed {
            self.add(field, message);
        }
    }

    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|e| e.field == field)
    }

    /// `Ok(value)` when nothing was recorded.
    pub fn finish<T>(self, value: impl FnOnce() -> T) -> Result<T, Vec<FieldError>> {
        if self.0.is_empty() { Ok(value()) } else { Err(self.0) }
    }
}
