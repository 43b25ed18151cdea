//! The cases the browser runs too, so the two sides cannot drift.
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::client::ClientInput;
use super::user::*;

const VECTORS: &str = include_str!("../../tests/vectors/validation.json");

fn errors_of(form: &str, input: Value) -> BTreeMap<String, String> {
    let found = match form {
        "signup" => serde_json::from_value::<SignupInput>(input).unwrap().parse().err(),
        "login" => serde_json::from_value::<LoginInput>(input).unwrap().parse().err(),
        "profile" => serde_json::from_value::<ProfileInput>(input).unwrap().parse().err(),
        "resetRequest" => serde_json::from_value::<ResetRequestInput>(input).unwrap().parse().err(),
        "newPassword" => serde_json::from_value::<NewPasswordInput>(input).unwrap().parse().err(),
        "client" => serde_json::from_value::<ClientInput>(input).unwrap().parse().err(),
        other => return BTreeMap::from([("unknown form".to_owned(), other.to_owned())]),
    };
    found.unwrap_or_default().into_iter().map(|e| (e.field, e.message)).collect()
}

#[test]
fn every_form_case_gives_the_expected_messages() {
    let all: Map<String, Value> = serde_json::from_str(VECTORS).unwrap();
    let mut checked = 0;
    for form in ["signup", "login", "profile", "resetRequest", "newPassword", "client"] {
        let table = &all[form];
        for case in table["cases"].as_array().unwrap() {
            let mut input = table["base"].as_object().unwrap().clone();
            for (k, v) in case["set"].as_object().unwrap() {
                input.insert(k.clone(), v.clone());
            }
            let expected: BTreeMap<String, String> = serde_json::from_value(case["errors"].clone()).unwrap();
            assert_eq!(errors_of(form, Value::Object(input)), expected, "{form}: {}", case["case"]);
            checked += 1;
        }
    }
    assert!(checked > 55, "only {checked} cases");
}
