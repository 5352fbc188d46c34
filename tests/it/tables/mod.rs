//! Representative tables for the DDL rendering, dump-parsing and MariaDB
//! round-trip tests: every SPEC type, defaults of every kind, unique and
//! non-unique indexes, quotes in comments and hostile names.

use schema_catalog::{Column, ColumnType, DefaultValue, Index, IndexPart, Table};

/// Every SPEC column type, as catalog text.
pub const SPEC_TYPES: &[&str] = &[
    "tinyint",
    "tinyint unsigned",
    "smallint",
    "smallint unsigned",
    "mediumint",
    "mediumint unsigned",
    "int",
    "int unsigned",
    "bigint",
    "bigint unsigned",
    "decimal(12,4)",
    "float",
    "double",
    "char(3)",
    "varchar(255)",
    "binary(16)",
    "varbinary(64)",
    "text",
    "mediumtext",
    "longtext",
    "blob",
    "mediumblob",
    "longblob",
    "json",
    "date",
    "datetime(6)",
    "datetime",
    "timestamp(3)",
    "boolean",
];

/// A column of catalog type `ty`; textual columns get `utf8mb4_bin`.
pub fn col(name: &str, ty: &str) -> Column {
    let mut c = Column::new(name, ColumnType::parse(ty).unwrap());
    if c.ty.is_textual() {
        c.charset = Some("utf8mb4".into());
        c.collation = Some("utf8mb4_bin".into());
    }
    c
}

/// The same column, NOT NULL.
pub fn not_null(mut c: Column) -> Column {
    c.nullable = false;
    c
}

/// The same column with a default.
pub fn with_default(mut c: Column, d: DefaultValue) -> Column {
    c.default = Some(d);
    c
}

/// An empty utf8mb4_bin InnoDB table.
pub fn table(name: &str, comment: Option<&str>) -> Table {
    Table {
        name: name.into(),
        kind: schema_catalog::TableKind::Base,
        comment: comment.map(str::to_string),
        engine: Some("InnoDB".into()),
        row_format: None,
        charset: "utf8mb4".into(),
        collation: "utf8mb4_bin".into(),
        columns: vec![],
        primary_key: vec![],
        indexes: vec![],
        checks: Vec::new(),
        foreign_keys: Vec::new(),
        tidb: None,
    }
}

fn id_column() -> Column {
    let mut id = not_null(col("Id", "bigint unsigned"));
    id.auto_increment = true;
    id
}

/// The SPEC's upload journal: unique and non-unique indexes, a NOT NULL
/// timestamp default, an index column required by one consumer.
pub fn file_upload() -> Table {
    let mut t = table(
        "_System_FileUploadOperation",
        Some("Durable journal of uploads across the database and object storage."),
    );
    t.columns = vec![
        id_column(),
        not_null(col("IdempotencyKey", "varchar(128)")),
        not_null(col("State", "varchar(32)")),
        col("ExpiresAt", "datetime(6)"),
        with_default(
            not_null(col("CreatedAt", "datetime(6)")),
            DefaultValue::CurrentTimestamp(6),
        ),
    ];
    t.primary_key = vec![IndexPart::column("Id")];
    let lifecycle = Index::new(
        "idx_file_upload_lifecycle",
        false,
        &["State", "ExpiresAt", "Id"],
    );
    t.indexes = vec![
        Index::new("uq_file_upload_idempotency", true, &["IdempotencyKey"]),
        Index::new("idx_file_upload_expires", false, &["ExpiresAt"]),
        lifecycle,
    ];
    t
}

/// One nullable column of every SPEC type, plus an indexed composite key.
pub fn every_type() -> Table {
    let mut t = table("every_type", None);
    t.columns = std::iter::once(id_column())
        .chain(
            SPEC_TYPES
                .iter()
                .enumerate()
                .map(|(n, ty)| col(&format!("c{n:02}"), ty)),
        )
        .collect();
    t.primary_key = vec![IndexPart::column("Id")];
    t.indexes = vec![
        Index::new("uq_bin", true, &["c15", "c16"]),
        Index::new("idx_mix", false, &["c13", "c10", "c25", "c28"]),
    ];
    t
}

/// Defaults of every kind, NOT NULL with and without defaults, a non-default
/// collation and a composite primary key.
pub fn defaults() -> Table {
    let lit = |s: &str| DefaultValue::Literal(s.into());
    let mut ascii = not_null(col("Code", "char(2)"));
    ascii.charset = Some("ascii".into());
    ascii.collation = Some("ascii_bin".into());
    let mut t = table("defaults", Some("defaults of each kind"));
    t.columns = vec![
        not_null(col("Tenant", "int unsigned")),
        ascii,
        with_default(not_null(col("State", "varchar(32)")), lit("pending")),
        with_default(col("Note", "varchar(64)"), lit("it's a \"note\" \\ here")),
        with_default(not_null(col("Attempts", "int")), lit("0")),
        with_default(not_null(col("Delta", "bigint")), lit("-5")),
        with_default(not_null(col("Price", "decimal(10,2)")), lit("1.5")),
        with_default(not_null(col("Enabled", "boolean")), lit("1")),
        with_default(
            not_null(col("CreatedAt", "datetime(6)")),
            DefaultValue::CurrentTimestamp(6),
        ),
        with_default(
            not_null(col("SeenAt", "timestamp")),
            DefaultValue::CurrentTimestamp(0),
        ),
        with_default(col("Day", "date"), lit("2024-01-31")),
        with_default(
            not_null(col("Token", "varchar(36)")),
            DefaultValue::Expression("uuid()".into()),
        ),
    ];
    t.primary_key = vec![IndexPart::column("Tenant"), IndexPart::column("Code")];
    t.indexes = vec![Index::new("idx_state", false, &["State", "CreatedAt"])];
    t
}

/// Backticks in table, column and index names; quotes and backslashes in comments.
pub fn hostile() -> Table {
    let mut t = table("we`ird table", Some("it's \"quoted\" \\ and `ticked`"));
    let mut a = not_null(col("a`b", "varchar(40)"));
    a.comment = Some("O'Brien's \\n column".into());
    let mut i = Index::new("uq`a", true, &["a`b"]);
    i.comment = Some("index 'comment'".into());
    t.columns = vec![a, col("plain", "int")];
    t.primary_key = vec![IndexPart::column("a`b")];
    t.indexes = vec![i, Index::new("idx `x`", false, &["plain", "a`b"])];
    t
}

/// Catalog format v2 column types and attributes: enum/set members with
/// quotes and a non-default collation, year, bit, time, tinytext/tinyblob,
/// and ON UPDATE CURRENT_TIMESTAMP(p).
pub fn v2_columns() -> Table {
    let lit = |s: &str| DefaultValue::Literal(s.into());
    let mut state = not_null(col("State", "enum('Pending','it''s done')"));
    state.default = Some(lit("Pending"));
    let mut tags = col("Tags", "set('red','Green')");
    tags.collation = Some("utf8mb4_general_ci".into());
    tags.default = Some(lit("red,Green"));
    let mut updated = with_default(
        not_null(col("UpdatedAt", "datetime(6)")),
        DefaultValue::CurrentTimestamp(6),
    );
    updated.on_update = Some(DefaultValue::CurrentTimestamp(6));
    let mut touched = col("Touched", "timestamp");
    touched.on_update = Some(DefaultValue::CurrentTimestamp(0));
    let mut t = table("v2_columns", Some("v2 column types"));
    t.columns = vec![
        not_null(col("Id", "bigint unsigned")),
        state,
        tags,
        with_default(col("Born", "year"), lit("2020")),
        col("Bits", "bit(5)"),
        with_default(col("Took", "time(3)"), lit("01:02:03.500")),
        col("Note", "tinytext"),
        col("Raw", "tinyblob"),
        updated,
        touched,
    ];
    t.primary_key = vec![IndexPart::column("Id")];
    t.indexes = vec![Index::new(
        "idx_v2_state",
        false,
        &["State", "Born", "Took"],
    )];
    t
}

/// All representative tables, in a fixed order.
pub fn all() -> Vec<Table> {
    vec![
        file_upload(),
        every_type(),
        defaults(),
        hostile(),
        v2_columns(),
    ]
}

/// A nullable column to add later, and an index to add later, for ALTER tests.
pub fn added_column() -> Column {
    let mut c = col("DigestKey", "varbinary(64)");
    c.comment = Some("sha-256 of the key's parts".into());
    c
}

/// An index over the added column.
pub fn added_index() -> Index {
    Index::new("idx_digest", false, &["DigestKey", "Id"])
}
