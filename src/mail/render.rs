//! The follow-up email, rendered from the template, the client, the user and
//! the summary: pure functions, so every case can be tested without a server.
//!
//! Every value that comes from a user or from the model is HTML-escaped; the
//! text part carries the same content unescaped.

use crate::domain::template::{CLIENT_NAME, EmailTemplate, USER_NAME};

/// What goes into one follow-up email.
pub struct FollowUp<'a> {
    pub template: &'a EmailTemplate,
    pub client_name: &'a str,
    pub user_name: &'a str,
    pub summary: &'a str,
    /// One step per line; blank lines are skipped.
    pub next_steps: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

impl FollowUp<'_> {
    fn fill(&self, text: &str) -> String {
        text.replace(CLIENT_NAME, self.client_name).replace(USER_NAME, self.user_name)
    }

    fn steps(&self) -> Vec<String> {
        self.next_steps
            .lines()
            .map(|l| l.trim().trim_start_matches(['-', '*', '•']).trim().to_owned())
            .filter(|l| !l.is_empty())
            .collect()
    }

    pub fn render(&self) -> Rendered {
        let t = self.template;
        let (first, second, third) =
            (self.fill(&t.first_content_section), self.fill(&t.second_content_section), self.fill(&t.third_content_section));
        let steps = self.steps();
        let subject = self.fill(&t.email_title).replace(['\r', '\n'], " ");

        let mut text = format!("{first}\n\nMeeting Summary\n\n{}\n\nNext Steps\n\n", self.summary.trim());
        for step in &steps {
            text.push_str(&format!("- {step}\n"));
        }
        text.push_str(&format!("\n{second}\n\n{third}\n"));

        Rendered { html: self.html(&subject, &first, &second, &third, &steps), subject, text }
    }

    fn html(&self, subject: &str, first: &str, second: &str, third: &str, steps: &[String]) -> String {
        // Table-free, inline-styled and narrow: what Gmail, Outlook and
        // Apple Mail render alike, on a phone too.
        const P: &str = "margin:0 0 16px 0;font-size:16px;line-height:1.5;color:#1f2933";
        const H: &str = "margin:24px 0 8px 0;font-size:18px;line-height:1.3;color:#102a43";
        let paragraphs = |text: &str| {
            text.split("\n\n")
                .filter(|p| !p.trim().is_empty())
                .map(|p| format!("<p style=\"{P}\">{}</p>", escape_html(p.trim()).replace('\n', "<br>")))
                .collect::<String>()
        };
        let list: String = steps.iter().map(|s| format!("<li style=\"margin:0 0 8px 0\">{}</li>", escape_html(s))).collect();
        format!(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{title}</title></head>\
             <body style=\"margin:0;padding:0;background:#f5f7fa\">\
             <div style=\"max-width:600px;margin:0 auto;padding:24px 16px;background:#ffffff;font-family:Arial,Helvetica,sans-serif\">\
             {first}<h2 style=\"{H}\">Meeting Summary</h2>{summary}\
             <h2 style=\"{H}\">Next Steps</h2><ul style=\"{P};padding-left:20px\">{list}</ul>\
             {second}{third}</div></body></html>",
            title = escape_html(subject),
            first = paragraphs(first),
            summary = paragraphs(self.summary.trim()),
            second = paragraphs(second),
            third = paragraphs(third),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn follow_up<'a>(template: &'a EmailTemplate, client: &'a str, summary: &'a str, steps: &'a str) -> FollowUp<'a> {
        FollowUp { template, client_name: client, user_name: "Ana Lopez", summary, next_steps: steps }
    }

    #[test]
    fn placeholders_are_filled_in_the_subject_and_both_parts() {
        let t = EmailTemplate::default();
        let r = follow_up(&t, "Jane Doe", "We discussed the roadmap.", "Send the quote\nBook a demo").render();
        assert_eq!(r.subject, "Meeting Summary - Jane Doe");
        for part in [&r.text, &r.html] {
            assert!(part.contains("Dear Jane Doe"), "{part}");
            assert!(part.contains("meet with Ana Lopez"), "{part}");
            assert!(!part.contains('['), "no placeholder left: {part}");
            assert!(part.contains("Meeting Summary") && part.contains("Next Steps"));
            assert!(part.contains("We discussed the roadmap."));
            assert!(part.contains("Send the quote") && part.contains("Book a demo"));
        }
        assert!(r.text.contains("- Send the quote\n- Book a demo\n"));
        assert!(r.html.contains("<li style=\"margin:0 0 8px 0\">Book a demo</li>"));
    }

    #[test]
    fn markup_from_users_and_the_model_is_escaped_in_html_and_intact_in_text() {
        let t = EmailTemplate::default();
        let name = "Jane \"><img src=x onerror=alert(1)>";
        let r = follow_up(&t, name, "<script>alert('s')</script>", "- <b>bold</b> step").render();
        assert!(!r.html.contains("<script>") && !r.html.contains("<img") && !r.html.contains("<b>"), "{}", r.html);
        assert!(r.html.contains("&lt;script&gt;alert(&#39;s&#39;)&lt;/script&gt;"));
        assert!(r.html.contains("Jane &quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
        assert!(r.text.contains("<script>alert('s')</script>"));
        assert!(r.text.contains(name));
        assert!(r.text.contains("- <b>bold</b> step"));
    }

    #[test]
    fn the_sections_come_in_order_around_the_summary() {
        let t = EmailTemplate::default();
        let r = follow_up(&t, "Jane", "SUMMARY", "STEP").render();
        let at = |needle: &str| r.text.find(needle).unwrap();
        assert!(at("Dear Jane") < at("Meeting Summary"));
        assert!(at("SUMMARY") < at("Next Steps"));
        assert!(at("STEP") < at("If you have any questions"));
        assert!(at("If you have any questions") < at("free Debrief account"));
    }

    #[test]
    fn a_line_break_in_a_placeholder_value_never_reaches_the_subject() {
        let t = EmailTemplate::default();
        let r = follow_up(&t, "Jane\r\nBcc: eve@example.com", "s", "x").render();
        assert!(!r.subject.contains('\n') && !r.subject.contains('\r'));
    }
}
