use redb::{ReadableTable, WriteTransaction};

use super::codec::{decode, encode};
use super::tables::TEMPLATES;
use super::views::{AdminView, OwnerView};
use super::{Store, StoreError, StoreResult};
use crate::domain::template::EmailTemplate;

const DEFAULT: &str = "default";

impl Store {
    /// The follow-up template: the stored one, or the product's defaults.
    fn template(&self) -> StoreResult<EmailTemplate> {
        let tx = self.read()?;
        let stored = tx.open_table(TEMPLATES)?.get(DEFAULT)?.map(|v| decode(v.value())).transpose()?;
        Ok(stored.unwrap_or_default())
    }
}

impl OwnerView<'_> {
    /// The template the user's follow-ups are written with: everybody's.
    pub fn template(&self) -> StoreResult<EmailTemplate> {
        self.store.template()
    }
}

impl AdminView<'_> {
    pub fn template(&self) -> StoreResult<EmailTemplate> {
        self.store.template()
    }

    /// Stores what `change` makes of the current template, read and written
    /// in one transaction: two editors changing different fields at once
    /// both keep their change.
    pub fn change_template<E: From<StoreError>>(
        &self,
        change: impl FnOnce(&EmailTemplate) -> Result<EmailTemplate, E>,
    ) -> Result<EmailTemplate, E> {
        let tx = self.store.write()?;
        let current = stored(&tx)?;
        let next = change(&current)?;
        put(&tx, &next)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(next)
    }
}

fn stored(tx: &WriteTransaction) -> StoreResult<EmailTemplate> {
    let table = tx.open_table(TEMPLATES)?;
    let stored = table.get(DEFAULT)?.map(|v| decode(v.value())).transpose()?;
    Ok(stored.unwrap_or_default())
}

fn put(tx: &WriteTransaction, template: &EmailTemplate) -> StoreResult<()> {
    tx.open_table(TEMPLATES)?.insert(DEFAULT, encode(template)?.as_slice())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Admin;

    #[test]
    fn editors_changing_different_fields_at_once_all_keep_their_change() {
        let scratch = super::super::Scratch::new("template-editors");
        fn field(t: &mut EmailTemplate, i: usize) -> &mut String {
            match i {
                0 => &mut t.from_name,
                1 => &mut t.email_title,
                2 => &mut t.first_content_section,
                3 => &mut t.second_content_section,
                _ => &mut t.third_content_section,
            }
        }
        std::thread::scope(|threads| {
            for i in 0..5 {
                let store = &scratch.store;
                threads.spawn(move || {
                    for round in 0..40 {
                        store
                            .as_admin(&Admin::at_the_console())
                            .change_template(|current| {
                                let mut next = current.clone();
                                *field(&mut next, i) = format!("editor {i}, round {round}");
                                Ok::<_, StoreError>(next)
                            })
                            .unwrap();
                    }
                });
            }
        });
        let mut template = scratch.store.template().unwrap();
        for i in 0..5 {
            assert_eq!(*field(&mut template, i), format!("editor {i}, round 39"));
        }
    }
}
