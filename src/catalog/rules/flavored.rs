//! What a targeted flavor lacks: each catalog feature that some flavor
//! cannot hold, the flavors without it, and why. `catalog check` refuses
//! such a feature when `catalog.yaml` `flavors` lists one of them; `catalog
//! import` writes a `flavors` line without them.

use crate::model::{DefaultValue, FullTextParser, IndexKind, IndexPart, Table};
use crate::server::{Feature, Flavor};
use crate::ColumnType;

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

use crate::catalog::rules::need::Need;

/// Every use in `table` of a feature some flavor lacks.
fn needs(table: &Table) -> Vec<Need> {
    let mut out = Vec::new();
    for c in &table.columns {
        let object = format!("column `{}`", c.name);
        let mut need = |feature, message: &str| {
            out.push(Need {
                object: object.clone(),
                feature,
                message: message.to_string(),
            })
        };
        if c.invisible {
            need(Feature::InvisibleColumn, "`invisible: true` on a catalog that targets TiDB, which has no invisible columns: \
                 list only `flavors: [mysql, mariadb]` in catalog.yaml or remove `invisible`");
        }
        if let ColumnType::Spatial { srid, .. } = &c.ty {
            need(
                Feature::SpatialType,
                "a spatial type on a catalog that targets TiDB, which has no spatial types: \
                 list only `flavors: [mysql, mariadb]` in catalog.yaml or use another type",
            );
            if srid.is_some() {
                need(Feature::ColumnSrid, "`srid` on a catalog that targets MariaDB or TiDB: only MySQL 8.0.3+ restricts a \
                     column to one SRID (MariaDB 10.11's REF_SYSTEM_ID is neither enforced nor shown by SHOW CREATE TABLE, \
                     so no dump keeps it): list only `flavors: [mysql]` in catalog.yaml or remove `srid`");
            }
        }
        if matches!(c.ty, ColumnType::Vector(_)) {
            need(Feature::VectorType, "a vector type on a catalog that targets MariaDB, which has none in 10.11 (MariaDB 11.7+ does): \
                 list only `flavors: [mysql, tidb]` in catalog.yaml or use another type");
        }
        if c.ty.is_large_object()
            && !matches!(c.ty, ColumnType::Spatial { .. } | ColumnType::Vector(_))
            && matches!(c.default, Some(DefaultValue::Literal(_)))
        {
            need(Feature::LiteralDefaultOnLargeObject, "a literal default on a text, blob or json column, which MySQL and TiDB refuse \
                 (error 1101): write it as an expression default (e.g. `default: \"(json_array())\"`), or list only \
                 `flavors: [mariadb]` in catalog.yaml");
        }
        if let ColumnType::Enum(m) | ColumnType::Set(m) = &c.ty {
            if m.iter().any(|m| m.chars().count() > 255) {
                need(Feature::LongEnumMember, "an enum or set member over 255 characters, which MySQL and TiDB refuse (error 3505): \
                     shorten it, or list only `flavors: [mariadb]` in catalog.yaml");
            }
        }
        if let Some(DefaultValue::Literal(v)) = &c.default {
            let dated = matches!(
                c.ty,
                ColumnType::Date | ColumnType::DateTime(_) | ColumnType::Timestamp(_)
            );
            if dated && has_zero_date_part(v) {
                need(Feature::ZeroDateDefault, "a zero date default (a `00` month or day, as in '0000-00-00'), which MySQL and TiDB \
                     refuse under their default sql_mode (NO_ZERO_DATE, NO_ZERO_IN_DATE; error 1067): default to a real date \
                     or NULL, or list only `flavors: [mariadb]` in catalog.yaml");
            }
        }
        if c.generated.is_some() && !c.nullable {
            need(Feature::NotNullGeneratedColumn, "`nullable: false` on a generated column of a catalog that targets MariaDB, which refuses \
                 NULL / NOT NULL on generated columns: remove `nullable`, or list only `flavors: [mysql, tidb]` in catalog.yaml");
        }
    }
    for i in &table.indexes {
        if let Some(parser) = i.kind.parser() {
            match parser {
                // TiDB: the FULLTEXT index itself is refused below.
                FullTextParser::Ngram => out.push(Need {
                    object: format!("index `{}`", i.name),
                    feature: Feature::NgramParser,
                    message: "`parser: ngram` on a catalog that targets MariaDB: only MySQL has the ngram \
                         FULLTEXT parser (MariaDB 10.11 answers WITH PARSER ngram with error 1128): list only \
                         `flavors: [mysql]` in catalog.yaml or remove `parser`"
                        .to_string(),
                }),
            }
        }
        if i.kind.is_fulltext() {
            out.push(Need {
                object: format!("index `{}`", i.name),
                feature: Feature::FullTextIndex,
                message: "a FULLTEXT index on a catalog that targets TiDB, which parses FULLTEXT and drops it \
                     (warning 1214; self-managed TiDB has no full-text indexes): list only \
                     `flavors: [mysql, mariadb]` in catalog.yaml or remove the index"
                    .to_string(),
            });
        }
        let multi_valued = i.parts.iter().any(
            |p| matches!(p, IndexPart::Expression(e) if crate::sqltext::is_multi_valued_key(e)),
        );
        if multi_valued {
            out.push(Need {
                object: format!("index `{}`", i.name),
                feature: Feature::MultiValuedIndex,
                message: "a multi-valued index (a `CAST(... AS type ARRAY)` key part, MySQL 8.0.17+) on a catalog \
                     that targets MariaDB, which has no multi-valued indexes: list only `flavors: [mysql]` \
                     (or `[mysql, tidb]`) in catalog.yaml, or remove the index"
                    .to_string(),
            });
        } else if i
            .parts
            .iter()
            .any(|p| matches!(p, IndexPart::Expression(_)))
        {
            out.push(Need {
                object: format!("index `{}`", i.name),
                feature: Feature::FunctionalKeyPart,
                message: "an expression key part on a catalog that targets MariaDB, which has no functional key parts \
                     (MariaDB 10.11 indexes columns only): index a generated column instead, or list only \
                     `flavors: [mysql, tidb]` in catalog.yaml"
                    .to_string(),
            });
        }
    }
    for c in table.checks.iter().filter(|c| !c.enforced) {
        out.push(Need {
            object: format!("check `{}`", c.name),
            feature: Feature::NotEnforcedCheck,
            message: "`enforced: false` on a catalog that targets MariaDB, which has no NOT ENFORCED CHECK \
                 constraints (error 1064): remove `enforced`, or list only `flavors: [mysql, tidb]` in catalog.yaml"
                .to_string(),
        });
    }
    out.extend(crate::catalog::rules::refused::needs(table));
    out.extend(crate::catalog::rules::engines::needs(table));
    out
}

/// Whether a `YYYY-MM-DD[ ...]` literal has a zero month or day.
pub(in crate::catalog) fn has_zero_date_part(v: &str) -> bool {
    let mut parts = v.get(..10).unwrap_or_default().split('-').skip(1);
    parts.any(|p| p == "00")
}

/// Reports each feature of `table` that a targeted flavor lacks, and warns
/// about a SPATIAL index MySQL would not use.
pub(in crate::catalog) fn lint(table: &Table, flavors: &[Flavor], sink: &mut Sink) {
    for need in needs(table) {
        if need.feature.lacked_by_any(flavors) {
            sink.report(&rule_ids::FLAVOR, Some(need.object), need.message);
        }
    }
    if !flavors
        .iter()
        .any(|f| f.uses_spatial_index_only_with_srid())
    {
        return;
    }
    for i in table
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Spatial)
    {
        let without_srid = i.parts.iter().filter_map(IndexPart::column_name).find(|n| {
            table
                .column(n)
                .is_some_and(|c| matches!(c.ty, ColumnType::Spatial { srid: None, .. }))
        });
        if let Some(name) = without_srid {
            sink.report(&rule_ids::SPATIAL_SRID,
                Some(format!("index `{}`", i.name)),
                format!("MySQL's optimizer never uses a SPATIAL index on a column without an SRID: declare `srid` on `{name}` (e.g. `srid: 4326`) for a catalog that targets MySQL only"),
            );
        }
    }
}

/// The flavors (in [`Flavor::ALL`] order) that can hold every table: all
/// three unless some table uses a feature a flavor lacks. A use no flavor
/// can hold narrows nothing (`catalog check` refuses it whatever the
/// catalog targets, naming why).
pub fn flavors_for(tables: &[Table]) -> Vec<Flavor> {
    let references = tables.iter().flat_map(|t| {
        t.foreign_keys.iter().filter_map(|fk| {
            let parent = tables.iter().find(|p| p.name == fk.referenced_table)?;
            crate::catalog::rules::refused::references_virtual(fk, parent)
        })
    });
    let lacking: Vec<Flavor> = tables
        .iter()
        .flat_map(needs)
        .chain(references)
        .filter(|n| !n.feature.held_nowhere())
        .flat_map(|n| n.feature.lacking().iter().copied())
        .collect();
    Flavor::ALL
        .into_iter()
        .filter(|f| !lacking.contains(f))
        .collect()
}
