//! The fleet file as serde reads it, before `build` checks and resolves it.

use std::path::PathBuf;

use serde::Deserialize;

use super::OnError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) servers: Vec<RawServer>,
    #[serde(default)]
    pub(super) stages: Vec<RawStage>,
    #[serde(default)]
    pub(super) parallel: Option<RawParallel>,
    #[serde(default)]
    pub(super) on_error: OnError,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    pub(super) url: String,
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) password_env: Option<String>,
    #[serde(default)]
    pub(super) password_file: Option<PathBuf>,
    pub(super) schemas: RawSchemas,
    #[serde(default)]
    pub(super) replicas: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawSchemas {
    List(Vec<String>),
    Like(RawLike),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLike {
    pub(super) like: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStage {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default, rename = "match")]
    pub(super) matches: Option<RawMatch>,
    #[serde(default)]
    pub(super) limit: Option<usize>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMatch {
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) server: Option<String>,
    #[serde(default)]
    pub(super) schema: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawParallel {
    #[serde(default)]
    pub(super) servers: Option<usize>,
    #[serde(default)]
    pub(super) per_server: Option<usize>,
}
