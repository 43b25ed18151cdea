//! The follow-up email template, as the dashboard and the CLI change it.

use super::{OpError, OpResult};
use crate::domain::template::{EmailTemplate, TemplateInput};
use crate::store::AdminView;

/// Merges the given fields into the stored template, after validation.
/// The template keeps its name: there is one, `default`.
pub fn apply(admin: &AdminView<'_>, mut input: TemplateInput) -> OpResult<EmailTemplate> {
    input.name = None;
    admin.change_template(|current| input.apply(current).map_err(OpError::Invalid))
}

/// Sets one field by its form name (`fromName`, `emailTitle`, …).
pub fn set_field(admin: &AdminView<'_>, field: &str, value: &str) -> OpResult<EmailTemplate> {
    let value = Some(value.to_owned());
    let input = match field {
        "fromName" | "from-name" => TemplateInput { from_name: value, ..Default::default() },
        "emailTitle" | "email-title" => TemplateInput { email_title: value, ..Default::default() },
        "firstContentSection" | "first-content-section" => {
            TemplateInput { first_content_section: value, ..Default::default() }
        }
        "secondContentSection" | "second-content-section" => {
            TemplateInput { second_content_section: value, ..Default::default() }
        }
        "thirdContentSection" | "third-content-section" => {
            TemplateInput { third_content_section: value, ..Default::default() }
        }
        other => {
            return Err(OpError::Failed(format!(
                "unknown field '{other}'; use fromName, emailTitle, firstContentSection, secondContentSection or thirdContentSection"
            )));
        }
    };
    apply(admin, input)
}

/// Replaces the whole template (from `debrief template edit`).
pub fn put(admin: &AdminView<'_>, template: &EmailTemplate) -> OpResult<EmailTemplate> {
    apply(
        admin,
        TemplateInput {
            name: None,
            from_name: Some(template.from_name.clone()),
            email_title: Some(template.email_title.clone()),
            first_content_section: Some(template.first_content_section.clone()),
            second_content_section: Some(template.second_content_section.clone()),
            third_content_section: Some(template.third_content_section.clone()),
        },
    )
}

pub fn reset(admin: &AdminView<'_>) -> OpResult<EmailTemplate> {
    admin.change_template(|_| Ok(EmailTemplate::default()))
}
