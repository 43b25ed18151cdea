//! The follow-up email, rendered from the template, the client, the user and
//! the summary: pure functions, so every case can be tested without a server.
//!
//! Every value that comes from a user or from the model is HTML-escaped; the
//! text part carries the same content unescaped.

use super::steps::{StepGroup, grouped};
use crate::domain::action_item::ActionItem;
use crate::domain::template::{CLIENT_NAME, EmailTemplate, USER_NAME};

/// What goes into one follow-up email.
pub struct FollowUp<'a> {
    pub template: &'a EmailTemplate,
    pub client_name: &'a str,
    pub user_name: &'a str,
    pub summary: &'a str,
    /// One step per line; blank lines are skipped.
    pub next_steps: &'a str,
    /// The same steps as items, when the client has them: listed by owner
    /// where the meeting names owners (see [`super::steps`]).
    pub items: &'a [ActionItem],
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
    /// The placeholders of `text` filled in one pass: a value is never
    /// read again for placeholders (a client named "[user name]" keeps
    /// that name).
    fn fill(&self, text: &str) -> String {
        text.split(CLIENT_NAME)
            .map(|piece| piece.replace(USER_NAME, self.user_name))
            .collect::<Vec<_>>()
            .join(self.client_name)
    }

    fn steps(&self) -> Vec<StepGroup> {
        grouped(self.items).unwrap_or_else(|| {
            let lines = self
                .next_steps
                .lines()
                .map(|l| l.trim().trim_start_matches(['-', '*', '•']).trim().to_owned())
                .filter(|l| !l.is_empty())
                .collect();
            vec![StepGroup { heading: None, lines }]
        })
    }

    pub fn render(&self) -> Rendered {
        let t = self.template;
        let (first, second, third) = (
            self.fill(&t.first_content_section),
            self.fill(&t.second_content_section),
            self.fill(&t.third_content_section),
        );
        let steps = self.steps();
        let subject = self.fill(&t.email_title).replace(['\r', '\n'], " ");

        let mut text = format!("{first}\n\nMeeting Summary\n\n{}\n\nNext Steps\n", self.summary.trim());
        for group in &steps {
            text.push('\n');
            if let Some(heading) = group.heading {
                text.push_str(&format!("{heading}\n"));
            }
            for line in &group.lines {
                text.push_str(&format!("- {line}\n"));
            }
        }
        text.push_str(&format!("\n{second}\n\n{third}\n"));

        Rendered { html: self.html(&subject, &first, &second, &third, &steps), subject, text }
    }

    fn html(&self, subject: &str, first: &str, second: &str, third: &str, steps: &[StepGroup]) -> String {
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
        const H3: &str = "margin:16px 0 8px 0;font-size:16px;line-height:1.3;color:#102a43";
        let list: String = steps
            .iter()
            .map(|group| {
                let heading = group.heading.map(|h| format!("<h3 style=\"{H3}\">{h}</h3>")).unwrap_or_default();
                let items: String = group
                    .lines
                    .iter()
                    .map(|s| format!("<li style=\"margin:0 0 8px 0\">{}</li>", escape_html(s)))
                    .collect();
                format!("{heading}<ul style=\"{P};padding-left:20px\">{items}</ul>")
            })
            .collect();
        format!(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{title}</title></head>\
             <body style=\"margin:0;padding:0;background:#f5f7fa\">\
             <div style=\"max-width:600px;margin:0 auto;padding:24px 16px;background:#ffffff;font-family:Arial,Helvetica,sans-serif\">\
             {first}<h2 style=\"{H}\">Meeting Summary</h2>{summary}\
             <h2 style=\"{H}\">Next Steps</h2>{list}\
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
        FollowUp { template, client_name: client, user_name: "Ana Lopez", summary, next_steps: steps, items: &[] }
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
    fn steps_with_owners_are_listed_under_who_does_them_in_both_parts() {
        use crate::domain::action_item::Who;
        let t = EmailTemplate::default();
        let items = [
            ActionItem {
                who: Who::Client,
                action: "Send the <b>floor plan</b>".into(),
                due_text: None,
                due_date: None,
            },
            ActionItem {
                who: Who::Me,
                action: "Send the quote".into(),
                due_text: Some("by Friday".into()),
                due_date: Some(time::macros::date!(2026 - 03 - 06)),
            },
        ];
        let r = FollowUp { items: &items, ..follow_up(&t, "Jane", "s", "You will send the floor plan.") }.render();
        assert!(
            r.text.contains("Next Steps\n\nFrom us\n- Send the quote — by Friday 6 March\n\nFrom you\n- Send the <b>floor plan</b>\n"),
            "{}",
            r.text
        );
        assert!(r.html.contains(">From us</h3><ul"), "{}", r.html);
        assert!(r.html.contains("Send the &lt;b&gt;floor plan&lt;/b&gt;"), "{}", r.html);
        assert!(!r.html.contains("<b>"));
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

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// Markup that must never reach the HTML part as markup.
    const PROBE: &str = "<x-probe>";
    /// The only tags of the HTML part: the layout's own.
    const TAGS: &[&str] = &[
        "<!DOCTYPE html>",
        "<html ",
        "</html>",
        "<head>",
        "</head>",
        "<meta ",
        "<title>",
        "</title>",
        "<body ",
        "</body>",
        "<div ",
        "</div>",
        "<h2 ",
        "</h2>",
        "<h3 ",
        "</h3>",
        "<p ",
        "</p>",
        "<ul ",
        "</ul>",
        "<li ",
        "</li>",
        "<br>",
    ];
    const ENTITIES: &[&str] = &["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"];

    /// Text a user, a client's record or the model could hold, with
    /// [`PROBE`] somewhere in it.
    fn probed() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            ".{0,12}",
            Just("\n".to_owned()),
            Just("\n\n".to_owned()),
            Just("\r\n".to_owned()),
            Just(CLIENT_NAME.to_owned()),
            Just(USER_NAME.to_owned()),
            Just("&amp;".to_owned()),
            Just("<b>".to_owned()),
            Just("- ".to_owned()),
            Just("\"'".to_owned()),
        ];
        (proptest::collection::vec(piece, 0..8), any::<prop::sample::Index>()).prop_map(|(pieces, at)| {
            let text: String = pieces.concat();
            let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            let at = boundaries[at.index(boundaries.len())];
            format!("{}{PROBE}{}", &text[..at], &text[at..])
        })
    }

    fn probes(text: &str) -> usize {
        text.matches(PROBE).count()
    }

    /// The probes a template text holds once its placeholders are filled.
    fn probes_filled(text: &str, client: &str, user: &str) -> usize {
        probes(text)
            + text.matches(CLIENT_NAME).count() * probes(client)
            + text.matches(USER_NAME).count() * probes(user)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn markup_in_any_value_is_escaped_in_the_html_and_intact_in_the_text(
            title in probed(), first in probed(), second in probed(), third in probed(),
            client in probed(), user in probed(), summary in probed(), next_steps in probed(),
        ) {
            let template = EmailTemplate {
                name: "t".into(),
                from_name: "f".into(),
                email_title: title,
                first_content_section: first,
                second_content_section: second,
                third_content_section: third,
            };
            let r = FollowUp { template: &template, client_name: &client, user_name: &user, summary: &summary, next_steps: &next_steps, items: &[] }.render();

            prop_assert!(!r.subject.contains(['\r', '\n']), "{:?}", r.subject);
            prop_assert!(!r.html.contains(PROBE));
            for (at, _) in r.html.match_indices('<') {
                prop_assert!(TAGS.iter().any(|tag| r.html[at..].starts_with(tag)), "markup not the layout's: {}", &r.html[at..]);
            }
            for (at, _) in r.html.match_indices('&') {
                prop_assert!(ENTITIES.iter().any(|e| r.html[at..].starts_with(e)), "a bare '&': {}", &r.html[at..]);
            }

            // Every value is in the text as given, each placeholder filled
            // once, and in the HTML escaped.
            let sections = [&template.first_content_section, &template.second_content_section, &template.third_content_section];
            let expected = probes(&summary) + probes(&next_steps) + sections.iter().map(|s| probes_filled(s, &client, &user)).sum::<usize>();
            prop_assert_eq!(probes(&r.text), expected);
            prop_assert_eq!(probes(&r.subject), probes_filled(&template.email_title, &client, &user));
            prop_assert_eq!(r.html.matches("&lt;x-probe&gt;").count(), expected + probes(&r.subject));
        }

        #[test]
        fn placeholders_are_filled_with_the_names_as_given(
            client in "([a-zA-Z ]{1,8}|\\[user name\\]|\\[client name\\]){1,3}",
            user in "([a-zA-Z ]{1,8}|\\[user name\\]|\\[client name\\]){1,3}",
        ) {
            let template = EmailTemplate::default();
            let r = FollowUp { template: &template, client_name: &client, user_name: &user, summary: "s", next_steps: "n", items: &[] }.render();
            prop_assert_eq!(r.subject, format!("Meeting Summary - {client}"));
            let dear = format!("Dear {client},");
            let meet = format!("meet with {user} today");
            prop_assert!(r.text.contains(&dear), "{}", r.text);
            prop_assert!(r.text.contains(&meet), "{}", r.text);
            prop_assert!(r.html.contains(&escape_html(&dear)) && r.html.contains(&escape_html(&meet)), "{}", r.html);
        }
    }
}
