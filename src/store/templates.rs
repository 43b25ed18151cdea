use super::codec::{decode, encode};
use super::tables::TEMPLATES;
use super::{Store, StoreResult};
use crate::domain::template::EmailTemplate;

const DEFAULT: &str = "default";

impl Store {
    /// The follow-up template: the stored one, or the product's defaults.
    pub fn template(&self) -> StoreResult<EmailTemplate> {
        let tx = self.read()?;
        let stored = tx.open_table(TEMPLATES)?.get(DEFAULT)?.map(|v| decode(v.value())).transpose()?;
        Ok(stored.unwrap_or_default())
    }

    pub fn put_template(&self, template: &EmailTemplate) -> StoreResult<()> {
        let tx = self.write()?;
        tx.open_table(TEMPLATES)?.insert(DEFAULT, encode(template)?.as_slice())?;
        tx.commit()?;
        Ok(())
    }
}
