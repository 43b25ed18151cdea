use clap::Subcommand;

use super::remote::{self, default_context};
use crate::control::{Request, Response};
use crate::datadir::DataDir;
use crate::domain::template::EmailTemplate;

#[derive(Debug, Subcommand)]
pub enum TemplateCommand {
    /// Print the follow-up email template.
    Show,
    /// Set one field: fromName, emailTitle, firstContentSection,
    /// secondContentSection or thirdContentSection.
    Set { field: String, value: String },
    /// Edit the template in $EDITOR; it is checked before it is saved.
    Edit,
    /// Go back to the default template.
    Reset,
}

pub fn run(data_dir: &DataDir, command: TemplateCommand) -> anyhow::Result<i32> {
    let request = match command {
        TemplateCommand::Show => Request::TemplateShow,
        TemplateCommand::Set { field, value } => Request::TemplateSet { field, value },
        TemplateCommand::Reset => Request::TemplateReset,
        TemplateCommand::Edit => {
            let Response::Template { template } = remote::run(data_dir, Request::TemplateShow, default_context)? else {
                anyhow::bail!("unexpected answer while reading the template");
            };
            Request::TemplatePut { template: edit(&template)? }
        }
    };
    remote::print(&remote::run(data_dir, request, default_context)?);
    Ok(0)
}

fn edit(template: &EmailTemplate) -> anyhow::Result<EmailTemplate> {
    let editor = std::env::var("VISUAL").or_else(|_| std::env::var("EDITOR")).unwrap_or_else(|_| "vi".into());
    let file = tempfile::Builder::new().prefix("debrief-template-").suffix(".json").tempfile()?;
    std::fs::write(file.path(), serde_json::to_string_pretty(template)?)?;
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file.path())
        .status()?;
    if !status.success() {
        anyhow::bail!("{editor} exited with {status}; the template is unchanged");
    }
    let text = std::fs::read_to_string(file.path())?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("the edited template is not valid JSON ({e}); the template is unchanged"))
}
