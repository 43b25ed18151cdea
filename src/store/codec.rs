//! Records are stored as one version byte followed by JSON, so a later
//! release can tell old records from new ones field by field.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{StoreError, StoreResult};

const RECORD_VERSION: u8 = 1;

pub(super) fn encode<T: Serialize>(value: &T) -> StoreResult<Vec<u8>> {
    let mut bytes = vec![RECORD_VERSION];
    serde_json::to_writer(&mut bytes, value).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(bytes)
}

pub(super) fn decode<T: DeserializeOwned>(bytes: &[u8]) -> StoreResult<T> {
    match bytes.split_first() {
        Some((&RECORD_VERSION, json)) => serde_json::from_slice(json).map_err(|e| StoreError::Corrupt(e.to_string())),
        Some((version, _)) => Err(StoreError::Corrupt(format!("record version {version} is unknown"))),
        None => Err(StoreError::Corrupt("empty record".into())),
    }
}
