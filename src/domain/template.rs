//! The follow-up email template an admin configures: fixed text sections
//! around the summary and next steps the box wrote.

use serde::{Deserialize, Serialize};

use super::fields::{FieldError, FieldErrors};
use super::text::has_control_chars;

pub const CLIENT_NAME: &str = "[client name]";
pub const USER_NAME: &str = "[user name]";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailTemplate {
    pub name: String,
    pub from_name: String,
    pub email_title: String,
    pub first_content_section: String,
    pub second_content_section: String,
    pub third_content_section: String,
}

impl Default for EmailTemplate {
    fn default() -> Self {
        Self {
            name: "default".into(),
            from_name: "Debrief Support".into(),
            email_title: format!("Meeting Summary - {CLIENT_NAME}"),
            first_content_section: format!(
                "Dear {CLIENT_NAME},\n\nThank you for taking the time to meet with {USER_NAME} today. \
                 Below you will find a short summary of our conversation and the next steps we agreed on."
            ),
            second_content_section: "If you have any questions, or would like to set up a follow-up meeting, \
                 simply reply to this email and we will find a time that suits you."
                .into(),
            third_content_section: format!(
                "Would you like meeting notes like these for your own conversations? \
                 Ask {USER_NAME} about creating a free Debrief account."
            ),
        }
    }
}

/// The template form; a field left out keeps its stored value.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TemplateInput {
    pub name: Option<String>,
    pub from_name: Option<String>,
    pub email_title: Option<String>,
    pub first_content_section: Option<String>,
    pub second_content_section: Option<String>,
    pub third_content_section: Option<String>,
}

impl TemplateInput {
    /// `current` with the given fields replaced, if the result is valid.
    pub fn apply(&self, current: &EmailTemplate) -> Result<EmailTemplate, Vec<FieldError>> {
        let pick =
            |given: &Option<String>, stored: &String| given.as_deref().map_or(stored.clone(), |v| v.trim().to_owned());
        let t = EmailTemplate {
            name: pick(&self.name, &current.name),
            from_name: pick(&self.from_name, &current.from_name),
            email_title: pick(&self.email_title, &current.email_title),
            first_content_section: pick(&self.first_content_section, &current.first_content_section),
            second_content_section: pick(&self.second_content_section, &current.second_content_section),
            third_content_section: pick(&self.third_content_section, &current.third_content_section),
        };
        let count = |s: &str| s.chars().count();
        let mut e = FieldErrors::default();
        e.check(t.name.is_empty(), "name", "Template name is required");
        e.check(count(&t.name) > 100, "name", "Template name must be less than 100 characters");
        e.check(t.from_name.is_empty(), "fromName", "From name is required");
        e.check(count(&t.from_name) > 100, "fromName", "From name must be less than 100 characters");
        // Both reach mail headers.
        e.check(has_control_chars(&t.from_name), "fromName", "From name contains characters that are not allowed");
        e.check(t.email_title.is_empty(), "emailTitle", "Email title is required");
        e.check(count(&t.email_title) > 200, "emailTitle", "Email title must be less than 200 characters");
        e.check(
            has_control_chars(&t.email_title),
            "emailTitle",
            "Email title contains characters that are not allowed",
        );
        e.check(t.first_content_section.is_empty(), "firstContentSection", "First content section is required");
        e.check(t.second_content_section.is_empty(), "secondContentSection", "Second content section is required");
        e.check(t.third_content_section.is_empty(), "thirdContentSection", "Third content section is required");
        e.finish(|| t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_products_and_carry_both_placeholders() {
        let t = EmailTemplate::default();
        assert_eq!(
            (t.name.as_str(), t.from_name.as_str(), t.email_title.as_str()),
            ("default", "Debrief Support", "Meeting Summary - [client name]")
        );
        assert!(t.first_content_section.contains(USER_NAME));
        assert!(TemplateInput::default().apply(&t).is_ok());
    }

    #[test]
    fn each_rule_gives_its_message() {
        let t = EmailTemplate::default();
        let empty = TemplateInput {
            name: Some(" ".into()),
            from_name: Some(String::new()),
            email_title: Some(String::new()),
            first_content_section: Some(String::new()),
            second_content_section: Some(String::new()),
            third_content_section: Some(String::new()),
        };
        let messages: Vec<String> = empty.apply(&t).unwrap_err().into_iter().map(|e| e.message).collect();
        assert_eq!(
            messages,
            [
                "Template name is required",
                "From name is required",
                "Email title is required",
                "First content section is required",
                "Second content section is required",
                "Third content section is required",
            ]
        );
        let long = TemplateInput {
            email_title: Some("t".repeat(201)),
            from_name: Some("Evil\r\nBcc: x@y.z".into()),
            ..Default::default()
        };
        let messages: Vec<String> = long.apply(&t).unwrap_err().into_iter().map(|e| e.message).collect();
        assert_eq!(
            messages,
            ["From name contains characters that are not allowed", "Email title must be less than 200 characters"]
        );
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A form value: missing, blank, long, multi-line, with control
    /// characters or placeholders.
    fn value() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(prop_oneof![
            ".{0,30}",
            "[ \t]{0,2}[a-z]{0,5}[ \t\r\n]{0,2}",
            "(.|\n){0,300}",
            "[a-z\\x00-\\x1f\\x7f\\u{85}]{0,8}",
            "(\\[client name\\]|\\[user name\\]| ){0,3}",
        ])
    }

    /// The fields the rules refuse `t` for, in the form's order.
    fn refused(t: &EmailTemplate) -> Vec<&'static str> {
        let count = |s: &str| s.chars().count();
        let mut fields = Vec::new();
        if t.name.is_empty() || count(&t.name) > 100 {
            fields.push("name");
        }
        if t.from_name.is_empty() || count(&t.from_name) > 100 || has_control_chars(&t.from_name) {
            fields.push("fromName");
        }
        if t.email_title.is_empty() || count(&t.email_title) > 200 || has_control_chars(&t.email_title) {
            fields.push("emailTitle");
        }
        for (section, field) in [
            (&t.first_content_section, "firstContentSection"),
            (&t.second_content_section, "secondContentSection"),
            (&t.third_content_section, "thirdContentSection"),
        ] {
            if section.is_empty() {
                fields.push(field);
            }
        }
        fields
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn a_template_is_saved_only_when_every_field_keeps_to_its_rules(
            name in value(), from_name in value(), email_title in value(),
            first in value(), second in value(), third in value(),
        ) {
            let input = TemplateInput {
                name, from_name, email_title,
                first_content_section: first, second_content_section: second, third_content_section: third,
            };
            let current = EmailTemplate::default();
            let trimmed = |given: &Option<String>, stored: &str| given.as_deref().map_or(stored.to_owned(), |v| v.trim().to_owned());
            let expected = EmailTemplate {
                name: trimmed(&input.name, &current.name),
                from_name: trimmed(&input.from_name, &current.from_name),
                email_title: trimmed(&input.email_title, &current.email_title),
                first_content_section: trimmed(&input.first_content_section, &current.first_content_section),
                second_content_section: trimmed(&input.second_content_section, &current.second_content_section),
                third_content_section: trimmed(&input.third_content_section, &current.third_content_section),
            };
            match input.apply(&current) {
                Ok(saved) => {
                    prop_assert!(refused(&saved).is_empty());
                    // Nothing that ends up in a mail header may break a line.
                    prop_assert!(!saved.email_title.contains(['\r', '\n']) && !saved.from_name.contains(['\r', '\n']));
                    prop_assert_eq!(saved, expected);
                }
                Err(errors) => {
                    let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
                    prop_assert_eq!(fields, refused(&expected));
                }
            }
        }
    }
}
