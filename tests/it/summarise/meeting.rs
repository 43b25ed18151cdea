//! A deterministic, generated 90-minute client meeting (about 13,500 words
//! at a speaking pace of 150 a minute): small talk, eight agenda topics of
//! varied discussion, and a few commitments embedded along the way.

/// A commitment said in the meeting and the words a next step for it must
/// keep (who, what, when).
pub struct Commitment {
    topic: &'static str,
    pub sentence: &'static str,
    pub key_words: &'static [&'static str],
}

pub const COMMITMENTS: &[Commitment] = &[
    Commitment {
        topic: "budget",
        sentence: "Sarah will send the revised budget forecast to the board by Friday.",
        key_words: &["sarah", "budget forecast", "friday"],
    },
    Commitment {
        topic: "hiring",
        sentence: "I'll set up interviews for the two backend engineer roles next week.",
        key_words: &["interviews", "backend", "next week"],
    },
    Commitment {
        topic: "product",
        sentence: "Tom is going to draft the new onboarding flow before the end of October.",
        key_words: &["tom", "onboarding flow", "october"],
    },
    Commitment {
        topic: "marketing",
        sentence: "Action item for Priya: book the trade show stand for the spring campaign.",
        key_words: &["priya", "trade show stand"],
    },
    Commitment {
        topic: "infrastructure",
        sentence: "We will run a full test of the backup system on Monday morning.",
        key_words: &["test", "backup system", "monday"],
    },
    Commitment {
        topic: "contract",
        sentence: "Let's schedule a call with the legal team about the liability cap on Thursday.",
        key_words: &["call", "legal team", "thursday"],
    },
];

const WORDS: usize = 13_500;

const SMALL_TALK: &[&str] = &[
    "Morning everyone, thanks for coming in so early.",
    "How was the trip over here?",
    "The traffic on the ring road was terrible this morning, it took me almost an hour.",
    "Did anyone see the match on Saturday?",
    "Coffee anyone? The machine on this floor is finally fixed.",
    "We went hiking up in the hills at the weekend and the weather was lovely.",
    "Right, I think everyone is here now, shall we get going?",
];

struct Topic {
    name: &'static str,
    items: [&'static str; 5],
}

const TOPICS: [Topic; 8] = [
    Topic {
        name: "budget",
        items: ["marketing budget", "travel costs", "software licences", "contractor spend", "office rent"],
    },
    Topic {
        name: "hiring",
        items: ["backend hiring", "data analyst role", "support lead position", "internship programme", "design team"],
    },
    Topic {
        name: "product",
        items: ["checkout page", "mobile app", "search feature", "onboarding flow", "reporting dashboard"],
    },
    Topic {
        name: "marketing",
        items: ["spring campaign", "newsletter", "trade show", "social media ads", "webinar series"],
    },
    Topic {
        name: "infrastructure",
        items: ["cloud migration", "backup system", "single sign-on", "laptop refresh", "VPN setup"],
    },
    Topic {
        name: "customers",
        items: ["support tickets", "survey results", "churn rate", "net promoter score", "response times"],
    },
    Topic {
        name: "contract",
        items: ["service agreement", "data processing terms", "renewal clause", "liability cap", "pricing schedule"],
    },
    Topic {
        name: "operations",
        items: ["warehouse move", "delivery times", "supplier contract", "inventory levels", "shipping costs"],
    },
];

const PEOPLE: &[&str] = &["Sarah", "Tom", "Priya", "Marcus", "Elena", "David", "Aisha", "Jonas"];
const MONTHS: &[&str] = &["January", "March", "May", "June", "September", "October", "November"];

/// Discussion: `{x}` and `{y}` are items of the topic, `{p}` a person, `{n}`
/// and `{k}` numbers, `{m}` a month.
const TEMPLATES: &[&str] = &[
    "So looking at the {x}, we are at about {n} percent of what we planned for this quarter.",
    "{p} mentioned that the {x} has been a bit of a challenge since {m}.",
    "I think the main issue with the {x} is that nobody really owns it right now.",
    "Honestly the numbers on the {x} look better than I expected.",
    "Do we know how the {x} compares with last year?",
    "Last year we had roughly {k} people working on the {x}, and this year it is closer to {n}.",
    "The feedback we got on the {x} was mostly positive, but a few people found it confusing.",
    "If we move the {x} to {m}, the {y} would have to wait as well.",
    "That is a fair point, and it ties back to what we said about the {y}.",
    "Right, and the cost of the {x} went up by around {k} percent after the price change.",
    "I am not sure the {x} is the priority, to be honest, given where the {y} is.",
    "We went through the {x} with {p} a while ago and there were some good ideas.",
    "From the client side, the {x} is what they keep asking about.",
    "The risk is that the {x} slips again and we lose another month.",
    "Yeah, I remember that, it took us ages to sort out the {x} the first time.",
    "Okay, so the short version is that the {x} is on track but the {y} is behind.",
    "Um, can I just add something on the {x}?",
    "It depends a lot on the timing of the {y}, really.",
    "We have spent about {k} thousand on the {x} so far this year.",
    "There were {k} open questions about the {x} at the end of the last session.",
    "I would say the {x} is about {n} percent done at this point.",
    "Mm, that makes sense.",
    "Yeah, exactly.",
    "And what about the {y}, where are we with that?",
    "The team has been really stretched because of the {x}.",
    "One option would be to split the {x} into two phases.",
    "The vendor told us the {x} could be ready by the end of {m}, but I would not count on it.",
    "I had a look at the {x} report and a couple of things stood out.",
    "Overall the {x} is costing more than we budgeted for.",
    "{p} thinks the {x} and the {y} should be handled by the same people.",
    "My worry is that we keep talking about the {x} without deciding anything.",
    "The good news is that the {x} came in under budget in {m}.",
    "When we compared the {x} with our competitors, we were somewhere in the middle.",
    "Sure, but the {y} has a hard deadline and the {x} does not.",
    "To be fair, the {x} was never properly scoped in the first place.",
    "I like the idea, as long as the {y} does not suffer because of it.",
];

/// A small linear congruential generator: the same meeting on every run
/// and every machine.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// The meeting as Whisper would write it: punctuated, one paragraph per
/// topic.
pub fn ninety_minutes() -> String {
    let mut rng = Lcg(42);
    let mut paragraphs = vec![SMALL_TALK.join(" ")];
    let per_topic = (WORDS - words(&paragraphs[0])) / TOPICS.len();
    for topic in &TOPICS {
        let mut sentences = vec![format!("Okay, let's move on to {}.", topic.name)];
        let mut count = 0;
        // The commitment of this topic, if any, is said two thirds in.
        let commitment = COMMITMENTS.iter().find(|c| c.topic == topic.name);
        let mut said = false;
        while count < per_topic {
            let sentence = if !said && count >= per_topic * 2 / 3 && commitment.is_some() {
                said = true;
                commitment.map(|c| c.sentence.to_string()).unwrap_or_default()
            } else {
                fill(rng.pick(TEMPLATES), topic, &mut rng)
            };
            count += words(&sentence);
            sentences.push(sentence);
        }
        paragraphs.push(sentences.join(" "));
    }
    paragraphs.push("Great, I think that covers everything. Thanks everyone, have a good afternoon.".into());
    paragraphs.join("\n")
}

fn fill(template: &str, topic: &Topic, rng: &mut Lcg) -> String {
    let x = rng.pick(&topic.items);
    let mut y = rng.pick(&topic.items);
    while y == x {
        y = rng.pick(&topic.items);
    }
    template
        .replace("{x}", x)
        .replace("{y}", y)
        .replace("{p}", rng.pick(PEOPLE))
        .replace("{m}", rng.pick(MONTHS))
        .replace("{n}", &(20 + rng.below(70)).to_string())
        .replace("{k}", &(2 + rng.below(15)).to_string())
}

/// What Vosk would write: lower case, no punctuation, one line.
pub fn unpunctuated(text: &str) -> String {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn words(text: &str) -> usize {
    text.split_whitespace().count()
}
