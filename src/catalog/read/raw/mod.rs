//! The YAML shapes of catalog files, and the keys each one knows (the
//! reader, in `reader.rs`, reports every other key).
//!
//! The same types are what `catalog import` writes (`crate::import::emit`
//! builds them from the model): each serializes in field order, leaving out
//! what is absent, empty or the default, so that a written file holds only
//! what it declares. A new key is a new field here, read and written alike.

use serde::{Deserialize, Serialize};
use serde_yaml::Value;

pub(crate) mod key_parts;
mod reader;
pub(crate) use reader::indent_hint;
pub(super) use reader::{read, FileKind};

/// The keys serde reads for `T`, a struct deriving `Deserialize`: the
/// field list its derive hands to `deserialize_struct` (renames applied,
/// in declaration order), caught by a deserializer that reads nothing. So
/// the keys the reader reports as known are the struct's, never a second
/// list kept by hand. Empty for a type that is not a plain struct.
pub(crate) fn fields<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::{Error as _, Visitor};
    struct Probe<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Probe<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(Self::Error::custom("field probe"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(Self::Error::custom("field probe"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut out: &'static [&'static str] = &[];
    let _ = T::deserialize(Probe(&mut out));
    out
}

/// Keys of `catalog.yaml`.
pub(super) fn catalog_keys() -> &'static [&'static str] {
    fields::<RawCatalogFile>()
}
/// Keys of `catalog.yaml` `defaults`.
pub(super) fn defaults_keys() -> &'static [&'static str] {
    fields::<RawDefaults>()
}
/// Keys of `catalog.yaml` `lint`.
pub(super) fn lint_keys() -> &'static [&'static str] {
    fields::<RawLint>()
}
/// Keys of `catalog.yaml` `lint: naming`.
pub(super) fn naming_keys() -> &'static [&'static str] {
    fields::<RawNaming>()
}
/// Keys of `catalog.yaml` `tidb`.
pub(super) fn tidb_settings_keys() -> &'static [&'static str] {
    fields::<RawTidbSettings>()
}
/// Keys of `catalog.yaml` `limits`.
pub(super) fn limits_keys() -> &'static [&'static str] {
    fields::<RawLimits>()
}
/// Keys of a table file.
pub(super) fn table_keys() -> &'static [&'static str] {
    fields::<RawTable>()
}
/// Keys of the mapping form of `primary_key`.
pub(super) fn primary_key_keys() -> &'static [&'static str] {
    fields::<RawPrimaryKeyMap>()
}
/// Keys of `ttl`.
pub(super) fn ttl_keys() -> &'static [&'static str] {
    fields::<RawTtl>()
}
/// Keys of the mapping form of a column's `auto_random`.
pub(super) fn auto_random_keys() -> &'static [&'static str] {
    fields::<RawAutoRandomMap>()
}
/// Keys of one entry of `checks`.
pub(super) fn check_keys() -> &'static [&'static str] {
    fields::<RawCheck>()
}
/// Keys of one entry of `foreign_keys`.
pub(super) fn foreign_key_keys() -> &'static [&'static str] {
    fields::<RawForeignKey>()
}
/// Keys of a foreign key's `references`.
pub(super) fn reference_keys() -> &'static [&'static str] {
    fields::<RawReference>()
}
/// Keys of one entry of `columns`.
pub(super) fn column_keys() -> &'static [&'static str] {
    fields::<RawColumn>()
}
/// Keys of one entry of `indexes`.
pub(super) fn index_keys() -> &'static [&'static str] {
    fields::<RawIndex>()
}
/// Keys of one entry of `queries`.
pub(super) fn query_keys() -> &'static [&'static str] {
    fields::<super::queries::RawQuery>()
}

/// `catalog.yaml`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `flavors`, `defaults`, `limits`, `lint` and `tidb`")]
pub(crate) struct RawCatalogFile {
    /// The flavors the catalog targets (`tidb`, `mysql`, `mariadb`); absent = all three.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavors: Option<Vec<String>>,
    /// Tables of the schema the catalog does not manage that its foreign
    /// keys may reference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_tables: Vec<String>,
    #[serde(default)]
    pub defaults: RawDefaults,
    #[serde(default, skip_serializing_if = "RawLimits::is_unset")]
    pub limits: RawLimits,
    /// `required`: apply and plan refuse before any DDL when the primary
    /// lists connected replicas that are not named (docs/replicas.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<String>,
    /// Lint settings: naming patterns, rule levels, rule options.
    #[serde(default, skip_serializing_if = "RawLint::is_unset")]
    pub lint: RawLint,
    /// What the catalog declares about its TiDB servers.
    #[serde(default, skip_serializing_if = "RawTidbSettings::is_unset")]
    pub tidb: RawTidbSettings,
}

/// `catalog.yaml` `lint` (docs/lint.md).
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `naming`, `rules` and rule options")]
pub(crate) struct RawLint {
    /// Name patterns per object kind.
    #[serde(default, skip_serializing_if = "RawNaming::is_unset")]
    pub naming: RawNaming,
    /// Rule id -> `error`, `warning` or `off`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub rules: std::collections::BTreeMap<String, String>,
    /// `pk-type`: the narrowest auto_increment primary key (`bigint`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_pk_type: Option<String>,
    /// `allowed-charset`: the charsets allowed (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_charsets: Vec<String>,
    /// `allowed-collation`: the collations allowed (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_collations: Vec<String>,
    /// `auto-increment-capacity`: the share of the range, in percent (80).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_increment_max_share: Option<u8>,
}

impl RawLint {
    fn is_unset(&self) -> bool {
        self.naming.is_unset()
            && self.rules.is_empty()
            && self.min_pk_type.is_none()
            && self.allowed_charsets.is_empty()
            && self.allowed_collations.is_empty()
            && self.auto_increment_max_share.is_none()
    }
}

/// `catalog.yaml` `lint: naming` (regexes).
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `table`, `column`, `index`, `foreign_key`, `check`")]
pub(crate) struct RawNaming {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foreign_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

impl RawNaming {
    fn is_unset(&self) -> bool {
        self.table.is_none()
            && self.column.is_none()
            && self.index.is_none()
            && self.foreign_key.is_none()
            && self.check.is_none()
    }
}

/// `catalog.yaml` `tidb`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `check_constraints`")]
pub(crate) struct RawTidbSettings {
    /// `enforced`: the TiDB servers run with tidb_enable_check_constraint ON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_constraints: Option<String>,
}

impl RawTidbSettings {
    fn is_unset(&self) -> bool {
        self.check_constraints.is_none()
    }
}

/// `catalog.yaml` `defaults`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `engine`, `charset` and `collation`")]
pub(crate) struct RawDefaults {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    /// Online widenings for every column (types only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub widen: Option<bool>,
}

/// `catalog.yaml` `limits`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a mapping with `max_index_bytes`, `max_step_duration` and `max_replica_stall`"
)]
pub(crate) struct RawLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_index_bytes: Option<u32>,
    /// apply's budget on a step's estimated build (docs/cost.md): seconds
    /// or a number with a unit, as text or a number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_step_duration: Option<serde_yaml::Value>,
    /// apply's budget on a step's estimated replica stall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_replica_stall: Option<serde_yaml::Value>,
}

impl RawLimits {
    /// No limit declared (the key is then left out when written).
    fn is_unset(&self) -> bool {
        self.max_index_bytes.is_none()
            && self.max_step_duration.is_none()
            && self.max_replica_stall.is_none()
    }
}

/// One table file.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a table: a mapping with `table`, `columns` and optionally `primary_key`, `indexes`"
)]
pub(crate) struct RawTable {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<Vec<RawColumn>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary_key: Option<RawPrimaryKey>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<RawIndex>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<RawCheck>,
    /// TiDB `SHARD_ROW_ID_BITS` (linted in `catalog::read::tidb`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard_row_id_bits: Option<u8>,
    /// TiDB `PRE_SPLIT_REGIONS`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre_split_regions: Option<u8>,
    /// TiDB row TTL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<RawTtl>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<RawForeignKey>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
    /// `queries:`, linted in [`super::queries`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<super::queries::RawQuery>,
}

/// `primary_key`: a list of columns, or `{columns: [...], clustered: bool}`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "`primary_key`: a list of column names, or a mapping with `columns` and `clustered`"
)]
pub(crate) enum RawPrimaryKey {
    /// `[Id]`.
    Columns(Vec<String>),
    /// `{columns: [Id], clustered: true}`.
    Mapping(RawPrimaryKeyMap),
}

/// The mapping form of `primary_key`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPrimaryKeyMap {
    #[serde(default)]
    pub columns: Vec<String>,
    /// TiDB CLUSTERED / NONCLUSTERED.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clustered: Option<bool>,
}

impl RawPrimaryKey {
    /// The key columns as written.
    pub fn columns(&self) -> &[String] {
        match self {
            RawPrimaryKey::Columns(c) => c,
            RawPrimaryKey::Mapping(m) => &m.columns,
        }
    }

    /// `clustered`, when declared.
    pub fn clustered(&self) -> Option<bool> {
        match self {
            RawPrimaryKey::Columns(_) => None,
            RawPrimaryKey::Mapping(m) => m.clustered,
        }
    }
}

/// `ttl`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "`ttl`: a mapping with `column`, `interval` and optionally `enabled`, `job_interval`"
)]
pub(crate) struct RawTtl {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// `30 DAY`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `1h`, `30m`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_interval: Option<String>,
}

/// A column's `auto_random`: shard bits, or `{shard_bits, range}`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "`auto_random`: the shard bits (e.g. 5), or a mapping with `shard_bits` and `range`"
)]
pub(crate) enum RawAutoRandom {
    /// `auto_random: 5`.
    Bits(u8),
    /// `auto_random: {shard_bits: 5, range: 54}`.
    Mapping(RawAutoRandomMap),
}

/// The mapping form of `auto_random`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAutoRandomMap {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard_bits: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
}

/// One entry of `checks`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a check: a mapping with `name` and `expression`")]
pub(crate) struct RawCheck {
    #[serde(default)]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// `false`: `NOT ENFORCED` (MySQL only); absent: enforced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enforced: Option<bool>,
    /// `column`: declared in the definition of the column of its name;
    /// `table` or absent: a table constraint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

/// One entry of `foreign_keys`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a foreign key: a mapping with `name`, `columns`, `references` and optionally `on_delete`, `on_update`"
)]
pub(crate) struct RawForeignKey {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub columns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references: Option<RawReference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_delete: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_update: Option<String>,
}

/// A foreign key's `references`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "the referenced table: a mapping with `table` and `columns`")]
pub(crate) struct RawReference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(default)]
    pub columns: Vec<String>,
}

/// One entry of `columns`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a column: a mapping with `name`, `type` and optionally `nullable`, `default`, ..."
)]
pub(crate) struct RawColumn {
    #[serde(default)]
    pub name: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// The SRID a spatial column is restricted to (MySQL 8.0.3+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub srid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub auto_increment: bool,
    /// Raw SQL default; a YAML number or bool is accepted too. `default:
    /// null` (or `NULL`, `~`) is kept as `Some(Value::Null)`, apart from absent.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<Value>,
    /// `CURRENT_TIMESTAMP(p)`: the value written on every UPDATE of the row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_update: Option<String>,
    /// `INVISIBLE` (MySQL 8.0.23+, MariaDB 10.3+): left out of `SELECT *`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub invisible: bool,
    /// `{expression, stored}`: a generated column (linted in `catalog::read::generated`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<RawGenerated>,
    /// TiDB `AUTO_RANDOM` (linted in `catalog::read::tidb`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_random: Option<RawAutoRandom>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
    /// Online widenings of this column (types and default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub widen: Option<bool>,
}

/// A column's `generated`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a generated column: a mapping with `expression` and optionally `stored`")]
pub(crate) struct RawGenerated {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// STORED (MariaDB PERSISTENT) rather than VIRTUAL.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stored: bool,
}

/// One entry of `indexes`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "an index: a mapping with `name`, `columns` and optionally `unique`")]
pub(crate) struct RawIndex {
    #[serde(default)]
    pub name: String,
    /// Key parts: a column name, or a mapping `{column, order, length}` /
    /// `{expression, order}` (read by `catalog::read::keys`, which names any
    /// unknown key of a part; written from [`RawKeyPart`]).
    #[serde(default)]
    pub columns: Vec<Value>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique: bool,
    /// `btree` (the default), `fulltext` or `spatial`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A FULLTEXT index's parser plugin (`ngram`); only with `kind: fulltext`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parser: Option<String>,
    /// `false` declares the index invisible (MySQL, TiDB) / IGNORED (MariaDB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
}

/// The mapping form of one key part, as `catalog::read::keys` reads it (its
/// `PART_KEYS`); a plain ascending whole column is written as its name.
#[derive(Debug, Default, Serialize)]
pub(crate) struct RawKeyPart {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// `desc`; ascending is the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<&'static str>,
    /// A prefix length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
}

/// For `skip_serializing_if`: a `false` flag is the default, left out.
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// Deserializes a present key as `Some`, even when its value is YAML null.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}
