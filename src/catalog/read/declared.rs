//! What the readers of one table file share: the columns as declared so
//! far ([`Declared`]), how an entry is named in findings, and the name and
//! consumer checks every entry gets. A leaf of `catalog::read`: the table
//! reader and the key, check, generated-column and foreign-key readers all
//! import it, it imports none of them.

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;
use crate::ident::{invalid_ident_reason, Ident};
use crate::model::Column;

/// A declared column as the lint sees it: the model column when its type is known.
pub(in crate::catalog) struct Declared {
    pub(in crate::catalog) ident: Ident,
    pub(in crate::catalog) column: Option<Column>,
    pub(in crate::catalog) nullable_explicit: bool,
    /// Its policy (`required_by`, `widen`): the catalog's, not the model's.
    pub(in crate::catalog) policy: crate::catalog::ColumnPolicy,
}

/// `column \`Name\`` or, for an unnamed entry, `column #3`.
pub(in crate::catalog) fn object_name(what: &str, name: &str, pos: usize) -> String {
    if name.is_empty() {
        format!("{what} #{}", pos + 1)
    } else {
        format!("{what} `{name}`")
    }
}

/// Reports a name MySQL cannot use as an identifier.
pub(in crate::catalog) fn check_ident(
    sink: &mut Sink,
    object: Option<String>,
    what: &str,
    name: &str,
) {
    if let Some(reason) = invalid_ident_reason(name) {
        sink.report(
            &rule_ids::IDENTIFIER,
            object,
            format!(
                "invalid {what} name: {reason}; use 1 to 64 characters without backticks or NUL"
            ),
        );
    }
}

/// Reports `required_by` entries that are not consumer names.
pub(in crate::catalog) fn check_consumers(
    sink: &mut Sink,
    object: Option<String>,
    names: &[String],
) {
    for name in names {
        let valid_chars = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        let message = if name.trim().is_empty() {
            "`required_by` has an empty entry: name the consumer (e.g. `runtime-upload-lifecycle`) or remove the entry"
                .to_string()
        } else if !valid_chars || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            format!(
                "`required_by` entry `{name}` is not a consumer name: use letters, digits, `-`, `_` and `.`, starting with a letter or digit"
            )
        } else {
            continue;
        };
        sink.report(&rule_ids::REQUIRED_BY, object.clone(), message);
    }
}
