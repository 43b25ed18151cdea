//! Accounts: what a user is, and the forms that create and change one.

use serde::{Deserialize, Serialize};

use super::fields::{FieldError, FieldErrors};
use super::ids::{BlobId, UserId};
use super::text::{has_control_chars, is_email, is_web_url, normalise_email};

/// Longest name, company or position.
pub const TEXT_MAX: usize = 100;
pub const PASSWORD_MIN: usize = 8;
/// Bounds the work a single login can ask of argon2.
pub const PASSWORD_MAX: usize = 128;

/// A user as stored. Never sent to a browser: see [`User`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UserRecord {
    pub id: UserId,
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub company: String,
    pub position: String,
    pub linkedin_url: Option<String>,
    /// The blob holding the profile picture.
    pub avatar: Option<BlobId>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Set for an account made under sign-up by domain until its owner opens
    /// the link mailed to the address: it sends no follow-up meanwhile.
    /// Absent (false) in records from before, which were never asked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub email_unconfirmed: bool,
    /// An address the owner asked to move to, waiting for its link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_email: Option<String>,
}

/// A user as the browser sees it: no password hash, ever.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub company: String,
    pub position: String,
    pub linkedin_url: Option<String>,
    pub profile_image_url: Option<String>,
    pub created_at: String,
    /// False until the address is confirmed, where the sign-up policy asks
    /// for it: no follow-up is sent and no Reply-To is shown meanwhile.
    pub email_confirmed: bool,
    /// A new address waiting for its confirmation link, if any.
    pub pending_email: Option<String>,
}

impl From<&UserRecord> for User {
    fn from(r: &UserRecord) -> Self {
        Self {
            id: r.id,
            email: r.email.clone(),
            first_name: r.first_name.clone(),
            last_name: r.last_name.clone(),
            company: r.company.clone(),
            position: r.position.clone(),
            linkedin_url: r.linkedin_url.clone(),
            // The version in the URL lets the browser cache a picture for good.
            profile_image_url: r.avatar.map(|blob| format!("/api/profile/picture?v={blob}")),
            created_at: iso_time(r.created_at),
            email_confirmed: !r.email_unconfirmed,
            pending_email: r.pending_email.clone(),
        }
    }
}

/// Unix milliseconds as an RFC 3339 UTC timestamp with milliseconds, the
/// form of JavaScript's `toISOString`, so such strings also sort by time.
pub fn iso_time(millis: i64) -> String {
    const FORMAT: &[time::format_description::BorrowedFormatItem<'static>] =
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    at.format(FORMAT).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_always_carry_milliseconds() {
        assert_eq!(super::iso_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::iso_time(1_764_112_345_678), "2025-11-25T23:12:25.678Z");
    }
}

fn text(value: &Option<String>) -> String {
    value.as_deref().unwrap_or_default().trim().to_owned()
}

fn raw(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

fn optional_url(value: String) -> Option<String> {
    (!value.is_empty()).then_some(value)
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SignupInput {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub confirm_password: Option<String>,
    pub company: Option<String>,
    pub position: Option<String>,
    pub linkedin_url: Option<String>,
    /// The token of an invitation link, where sign-up is by invitation.
    pub invitation: Option<String>,
}

/// A valid signup, made by [`SignupInput::parse`] only; the password is
/// still in clear: the caller hashes it.
#[derive(Debug)]
pub struct NewUser {
    first_name: String,
    last_name: String,
    email: String,
    password: String,
    company: String,
    position: String,
    linkedin_url: Option<String>,
}

impl NewUser {
    /// The normalised email.
    pub fn email(&self) -> &str {
        &self.email
    }

    pub fn password(&self) -> &str {
        &self.password
    }
}

impl UserRecord {
    /// The account of a signup, with its password's hash; the password
    /// itself is dropped here.
    pub fn new(id: UserId, signup: NewUser, password_hash: String, created_at: i64) -> Self {
        let NewUser { first_name, last_name, email, password: _, company, position, linkedin_url } = signup;
        Self {
            id,
            email,
            password_hash,
            first_name,
            last_name,
            company,
            position,
            linkedin_url,
            avatar: None,
            created_at,
            email_unconfirmed: false,
            pending_email: None,
        }
    }
}

/// A required single-line text of at most [`TEXT_MAX`] characters.
fn required(errors: &mut FieldErrors, field: &str, value: &str, label: &str, missing: &str) {
    errors.check(value.is_empty(), field, missing);
    errors.check(value.chars().count() > TEXT_MAX, field, &format!("{label} must be less than {TEXT_MAX} characters"));
    errors.check(has_control_chars(value), field, &format!("{label} contains characters that are not allowed"));
}

fn new_password(errors: &mut FieldErrors, password: &str, confirm: &str) {
    let length = password.chars().count();
    errors.check(length < PASSWORD_MIN, "password", "Password must be at least 8 characters");
    errors.check(length > PASSWORD_MAX, "password", "Password must be at most 128 characters");
    errors.check(confirm.is_empty(), "confirmPassword", "Please confirm your password");
    errors.check(confirm != password, "confirmPassword", "Passwords do not match");
}

impl SignupInput {
    pub fn parse(&self) -> Result<NewUser, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let (first_name, last_name, company, position) =
            (text(&self.first_name), text(&self.last_name), text(&self.company), text(&self.position));
        let (email, password, confirm, linkedin) =
            (text(&self.email), raw(&self.password), raw(&self.confirm_password), text(&self.linkedin_url));
        required(&mut e, "firstName", &first_name, "First name", "First name is required");
        required(&mut e, "lastName", &last_name, "Last name", "Last name is required");
        e.check(email.is_empty(), "email", "Email is required");
        e.check(!is_email(&email), "email", "Invalid email address");
        new_password(&mut e, &password, &confirm);
        required(&mut e, "company", &company, "Company name", "Company is required");
        required(&mut e, "position", &position, "Position", "Position is required");
        e.check(!linkedin.is_empty() && !is_web_url(&linkedin), "linkedinUrl", "Invalid LinkedIn URL");
        e.finish(|| NewUser {
            first_name,
            last_name,
            email: normalise_email(&email),
            password,
            company,
            position,
            linkedin_url: optional_url(linkedin),
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LoginInput {
    pub email: Option<String>,
    pub password: Option<String>,
}

/// A sign-in worth checking, made by [`LoginInput::parse`] only.
#[derive(Debug)]
pub struct Credentials {
    email: String,
    password: String,
}

impl Credentials {
    /// The normalised email.
    pub fn email(&self) -> &str {
        &self.email
    }

    pub fn into_password(self) -> String {
        self.password
    }
}

impl LoginInput {
    pub fn parse(&self) -> Result<Credentials, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let (email, password) = (text(&self.email), raw(&self.password));
        e.check(!is_email(&email), "email", "Invalid email address");
        e.check(password.is_empty(), "password", "Password is required");
        // Longer than any password we accept: refuse before hashing it.
        e.check(password.chars().count() > PASSWORD_MAX, "password", "Password must be at most 128 characters");
        e.finish(|| Credentials { email: normalise_email(&email), password })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileInput {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub company: Option<String>,
    pub position: Option<String>,
    pub linkedin_url: Option<String>,
}

/// A valid profile, made by [`ProfileInput::parse`] only.
#[derive(Debug, Clone)]
pub struct ProfileUpdate {
    first_name: String,
    last_name: String,
    email: String,
    company: String,
    position: String,
    linkedin_url: Option<String>,
}

impl ProfileUpdate {
    /// The normalised email.
    pub fn email(&self) -> &str {
        &self.email
    }

    /// The same update with the address left at `current`, and the address
    /// asked for: a change of address that waits for its confirmation link.
    pub fn deferring_email(mut self, current: &str) -> (Self, String) {
        let asked = std::mem::replace(&mut self.email, current.to_owned());
        (self, asked)
    }

    /// Writes the profile into the user's record.
    pub fn apply_to(self, user: &mut UserRecord) {
        user.first_name = self.first_name;
        user.last_name = self.last_name;
        user.email = self.email;
        user.company = self.company;
        user.position = self.position;
        user.linkedin_url = self.linkedin_url;
    }
}

/// A profile text: at least two characters, at most [`TEXT_MAX`].
fn at_least_two(errors: &mut FieldErrors, field: &str, value: &str, label: &str) {
    errors.check(value.chars().count() < 2, field, &format!("{label} must be at least 2 characters"));
    errors.check(value.chars().count() > TEXT_MAX, field, &format!("{label} must be less than {TEXT_MAX} characters"));
    errors.check(has_control_chars(value), field, &format!("{label} contains characters that are not allowed"));
}

impl ProfileInput {
    pub fn parse(&self) -> Result<ProfileUpdate, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let (first_name, last_name, company, position) =
            (text(&self.first_name), text(&self.last_name), text(&self.company), text(&self.position));
        let (email, linkedin) = (text(&self.email), text(&self.linkedin_url));
        at_least_two(&mut e, "firstName", &first_name, "First name");
        at_least_two(&mut e, "lastName", &last_name, "Last name");
        e.check(!is_email(&email), "email", "Please enter a valid email");
        at_least_two(&mut e, "company", &company, "Company name");
        at_least_two(&mut e, "position", &position, "Position");
        e.check(!linkedin.is_empty() && !is_web_url(&linkedin), "linkedinUrl", "Please enter a valid LinkedIn URL");
        e.finish(|| ProfileUpdate {
            first_name,
            last_name,
            email: normalise_email(&email),
            company,
            position,
            linkedin_url: optional_url(linkedin),
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResetRequestInput {
    pub email: Option<String>,
}

impl ResetRequestInput {
    /// The normalised email to send a reset link to.
    pub fn parse(&self) -> Result<String, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let email = text(&self.email);
        e.check(!is_email(&email), "email", "Please enter a valid email address");
        e.finish(|| normalise_email(&email))
    }
}

/// Setting a new password: from a reset link, or from the profile with the
/// current one.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NewPasswordInput {
    pub token: Option<String>,
    pub current_password: Option<String>,
    pub password: Option<String>,
    pub confirm_password: Option<String>,
}

impl NewPasswordInput {
    /// The new password, once it meets the rules.
    pub fn parse(&self) -> Result<String, Vec<FieldError>> {
        let mut e = FieldErrors::default();
        let (password, confirm) = (raw(&self.password), raw(&self.confirm_password));
        new_password(&mut e, &password, &confirm);
        e.finish(|| password)
    }
}
