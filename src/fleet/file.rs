//! `fleet.yaml`: which servers and schemas one catalog goes onto, in which
//! stages, how many at once, and what a failure does (docs/fleet.md).
//!
//! Read and linted like the catalog: every finding names the file, a line
//! and the object (`server `NAME``, `stage `NAME``). Passwords come from an
//! environment variable or a file the YAML names, never from the YAML text,
//! and never appear in a finding.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::catalog::{Problem, Severity};
use crate::db::Target;
use crate::error::{Error, Result};

/// Most servers one fleet file may name.
pub(crate) const MAX_SERVERS: usize = 256;
/// Most targets a server lane or a stage may run at once.
pub(crate) const MAX_PARALLEL: usize = 64;

/// The schemas of one server: named, or every schema whose name is `LIKE`
/// the pattern (expanded by one bounded read of `information_schema.SCHEMATA`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaSet {
    /// These schemas, in this order.
    List(Vec<String>),
    /// Every schema `LIKE` this pattern (SQL `%` and `_`, `\` escapes).
    Like(String),
}

/// One server of the fleet.
#[derive(Debug, Clone)]
pub struct ServerSpec {
    /// The name stages match on and reports show (`name:`, else `host:port`).
    pub name: String,
    /// Optional group label.
    pub group: Option<String>,
    /// The server's connection (password from the environment or a file;
    /// no schema: each target names its own). Its `Debug` hides the options.
    pub target: Target,
    /// Its schemas.
    pub schemas: SchemaSet,
    /// Its replicas (`replicas:`, URLs without a password: each takes the
    /// server's), guarded by apply on every target of the server
    /// (docs/replicas.md).
    pub replicas: Vec<Target>,
    /// The line of the server's `url:` in the file.
    pub line: usize,
}

/// A stage: the targets it takes, in order, before the next stage starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageSpec {
    /// Its name (`name:`, else `stage N`).
    pub name: String,
    /// Only targets of servers in this group.
    pub group: Option<String>,
    /// Only targets on the server of this name.
    pub server: Option<String>,
    /// Only schemas whose name is `LIKE` this pattern.
    pub schema: Option<String>,
    /// At most this many of the matching targets.
    pub limit: Option<usize>,
}

/// How many targets run at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// Server lanes at once (default 4).
    pub servers: usize,
    /// Targets at once on one server (default 1: DDL on a server is serialised).
    pub per_server: usize,
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel {
            servers: 4,
            per_server: 1,
        }
    }
}

/// What a refusal, deferral or failure does to the rest of its stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    /// Start no new target; those in flight finish their current step.
    #[default]
    Stop,
    /// Go on with the other targets of the stage (the next stage still
    /// does not start).
    Continue,
}

/// A loaded, valid fleet file.
#[derive(Debug, Clone)]
pub struct FleetFile {
    /// The file.
    pub path: PathBuf,
    /// Its servers, in file order.
    pub servers: Vec<ServerSpec>,
    /// Its stages, in order (empty: one stage of every target).
    pub stages: Vec<StageSpec>,
    /// Parallelism.
    pub parallel: Parallel,
    /// Failure policy.
    pub on_error: OnError,
}

mod raw;
use raw::*;

/// Collects findings for the fleet file.
struct Findings<'a> {
    file: &'a Path,
    text: &'a str,
    problems: Vec<Problem>,
    /// The servers that read without an error (`name (host:port)`), and
    /// how many server entries did not.
    read: Vec<String>,
    unreadable: usize,
}

/// The rule of a fleet-file finding, by the object it is about: the
/// file's YAML shape, a server entry, a stage, or the run settings
/// (`parallel`, `on_error`). docs/fleet.md lists them.
fn fleet_rule(object: &str) -> &'static str {
    if object.starts_with("server") {
        "fleet-server"
    } else if object.starts_with("stage") {
        "fleet-stage"
    } else if object == "fleet file" {
        "fleet-yaml"
    } else {
        "fleet-settings"
    }
}

/// The fix hint of a fleet-file rule (docs/fleet.md).
fn fleet_fix(rule: &str) -> &'static str {
    match rule {
        "fleet-server" => "correct the server entry as the message says (docs/fleet.md lists a server's keys; passwords come from the environment or a file)",
        "fleet-stage" => "correct the stage as the message says: name it once and list only servers and targets the file declares",
        "fleet-yaml" => "fix the fleet file's YAML at the line shown (docs/fleet.md shows the shape)",
        _ => "correct `parallel` or `on_error` as the message says (docs/fleet.md lists their values)",
    }
}

impl Findings<'_> {
    fn error(&mut self, line: Option<usize>, object: impl Into<String>, message: String) {
        let object = object.into();
        self.problems.push(Problem {
            severity: Severity::Error,
            rule: fleet_rule(&object),
            fix: fleet_fix(fleet_rule(&object)),
            file: self.file.to_path_buf(),
            line,
            column: line.and_then(|l| self.key_column(l)),
            table: None,
            object: Some(object),
            message,
        });
    }

    /// The 1-based column of the key on `line` (after any `- `), the node
    /// a finding found by [`Self::key_line`] is about.
    fn key_column(&self, line: usize) -> Option<usize> {
        let text = self.text.lines().nth(line.checked_sub(1)?)?;
        let mut rest = text.trim_start();
        while let Some(after) = rest.strip_prefix("- ") {
            rest = after.trim_start();
        }
        (!rest.is_empty()).then(|| text.len() - rest.len() + 1)
    }

    /// The line of the `nth` `key:` in the file (1-based).
    fn key_line(&self, key: &str, nth: usize) -> Option<usize> {
        self.text
            .lines()
            .enumerate()
            .filter(|(_, l)| is_key(l, key))
            .map(|(i, _)| i + 1)
            .nth(nth)
    }

    /// The first line at or after `from` (before `until`) holding `key:`.
    fn key_line_in(&self, key: &str, from: Option<usize>, until: Option<usize>) -> Option<usize> {
        let from = from?;
        self.text
            .lines()
            .enumerate()
            .skip(from.saturating_sub(1))
            .take_while(|(i, _)| until.is_none_or(|u| i + 1 < u))
            .find(|(_, l)| is_key(l, key))
            .map(|(i, _)| i + 1)
            .or(Some(from))
    }
}

/// Whether `line` is `key: ...` (possibly as a list item `- key: ...`).
fn is_key(line: &str, key: &str) -> bool {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("- ").map_or(rest, str::trim_start);
    rest.strip_prefix(key)
        .is_some_and(|after| after.trim_start().starts_with(':'))
}

/// Loads and lints `path`: the fleet when valid, else
/// [`Error::InvalidFleet`] with every finding.
pub fn load(path: &Path) -> Result<FleetFile> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse(path, &text, base, &|name| std::env::var(name).ok())
}

/// Parses fleet `text` (as read from `path`; password files relative to
/// `base`), reading environment variables through `env`.
pub fn parse(
    path: &Path,
    text: &str,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<FleetFile> {
    let mut f = Findings {
        file: path,
        text,
        problems: Vec::new(),
        read: Vec::new(),
        unreadable: 0,
    };
    let fleet = match serde_yaml::from_str::<RawFile>(text) {
        Ok(raw) => build(&mut f, raw, base, env),
        Err(e) => {
            let line = e.location().map(|l| l.line());
            let message = strip_position(&e.to_string());
            let message =
                if message.contains("did not match any variant of untagged enum RawSchemas") {
                    "`schemas` must be a list of schema names or `{like: 'pattern'}`".to_string()
                } else {
                    message
                };
            let hint = crate::catalog::indent_hint(&message);
            f.error(
                line,
                "fleet file",
                format!("{message}; {hint}see docs/fleet.md for the expected shape"),
            );
            // serde_yaml's own column: the token it stopped at.
            if let (Some(p), Some(l)) = (f.problems.last_mut(), e.location()) {
                p.column = Some(l.column());
            }
            None
        }
    };
    match fleet {
        Some(fleet) if f.problems.is_empty() => Ok(fleet),
        _ => {
            let errors = f.problems.len();
            // An error in one server entry does not hide which servers the
            // file does name (a note after the errors, not one of them).
            if f.unreadable > 0 && !f.read.is_empty() {
                let line = f.key_line("servers", 0);
                f.problems.push(Problem {
                    severity: Severity::Warning,
                    rule: fleet_rule("servers"),
                    fix: fleet_fix(fleet_rule("servers")),
                    file: path.to_path_buf(),
                    line,
                    column: None,
                    table: None,
                    object: Some("servers".into()),
                    message: format!(
                        "besides the entries above, the file names {} server(s) that read fine: {}",
                        f.read.len(),
                        f.read.join(", ")
                    ),
                });
            }
            Err(Error::InvalidFleet {
                file: path.to_path_buf(),
                errors,
                problems: f.problems,
            })
        }
    }
}

/// serde_yaml's message without its ` at line L column C` (reported apart).
fn strip_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => {
            let rest = &message[i + " at line ".len()..];
            let tail = rest
                .find(|c: char| !(c.is_ascii_digit() || c == ' ' || c.is_ascii_alphabetic()))
                .map_or("", |j| &rest[j..]);
            format!("{}{tail}", &message[..i])
        }
        None => message.to_string(),
    }
}

fn build(
    f: &mut Findings,
    raw: RawFile,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<FleetFile> {
    if raw.servers.is_empty() {
        f.error(
            f.key_line("servers", 0),
            "servers",
            "the fleet names no server; list at least one under `servers`".into(),
        );
    }
    if raw.servers.len() > MAX_SERVERS {
        f.error(
            f.key_line("servers", 0),
            "servers",
            format!(
                "{} servers; a fleet file holds at most {MAX_SERVERS}",
                raw.servers.len()
            ),
        );
    }
    let url_lines: Vec<Option<usize>> = (0..raw.servers.len())
        .map(|i| f.key_line("url", i))
        .collect();
    let mut servers = Vec::new();
    let mut names = BTreeSet::new();
    for (i, s) in raw.servers.into_iter().enumerate() {
        let line = url_lines[i];
        let next = url_lines.get(i + 1).copied().flatten();
        let before = f.problems.len();
        let read = server(f, s, line, next, base, env);
        match &read {
            Some(server) if f.problems.len() == before => {
                let at = server.target.host_port();
                f.read.push(if server.name == at {
                    format!("`{at}`")
                } else {
                    format!("`{}` ({at})", server.name)
                })
            }
            _ => f.unreadable += 1,
        }
        if let Some(server) = read {
            if !names.insert(server.name.clone()) {
                f.error(
                    line,
                    format!("server `{}`", server.name),
                    "two servers have this name; give each a distinct `name`".into(),
                );
            }
            servers.push(server);
        }
    }
    let groups: BTreeSet<&str> = servers.iter().filter_map(|s| s.group.as_deref()).collect();
    let mut stages = Vec::new();
    let mut stage_names = BTreeSet::new();
    for (i, s) in raw.stages.into_iter().enumerate() {
        let name = s.name.clone().unwrap_or_else(|| format!("stage {}", i + 1));
        let line = match &s.name {
            Some(n) => f
                .text
                .lines()
                .position(|l| is_key(l, "name") && l.contains(n.as_str()))
                .map(|p| p + 1),
            None => f.key_line("stages", 0),
        };
        let object = format!("stage `{name}`");
        if !stage_names.insert(name.clone()) {
            f.error(
                line,
                &object,
                "two stages have this name; give each a distinct `name`".into(),
            );
        }
        let m = s.matches.unwrap_or_default();
        if let Some(g) = &m.group {
            if !groups.contains(g.as_str()) {
                f.error(
                    line,
                    &object,
                    format!("matches group `{g}`, which no server has"),
                );
            }
        }
        if let Some(n) = &m.server {
            if !names.contains(n) {
                f.error(
                    line,
                    &object,
                    format!(
                        "matches server `{n}`, which the fleet does not name (its servers: {})",
                        names.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        if m.schema.as_deref() == Some("") {
            f.error(line, &object, "`match.schema` is empty".into());
        }
        if s.limit == Some(0) {
            f.error(
                line,
                &object,
                "`limit: 0` takes no target; leave the stage out".into(),
            );
        }
        stages.push(StageSpec {
            name,
            group: m.group,
            server: m.server,
            schema: m.schema,
            limit: s.limit,
        });
    }
    let mut parallel = Parallel::default();
    if let Some(p) = raw.parallel {
        for (key, value, slot) in [
            ("servers", p.servers, &mut parallel.servers),
            ("per_server", p.per_server, &mut parallel.per_server),
        ] {
            match value {
                Some(v) if (1..=MAX_PARALLEL).contains(&v) => *slot = v,
                Some(v) => f.error(
                    f.key_line_in(key, f.key_line("parallel", 0), None),
                    format!("parallel.{key}"),
                    format!("{v} is out of range; use 1 to {MAX_PARALLEL}"),
                ),
                None => {}
            }
        }
    }
    Some(FleetFile {
        path: f.file.to_path_buf(),
        servers,
        stages,
        parallel,
        on_error: raw.on_error,
    })
}

fn server(
    f: &mut Findings,
    s: RawServer,
    line: Option<usize>,
    next: Option<usize>,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<ServerSpec> {
    let shown = crate::db::redact(&s.url);
    let parsed = crate::db::parse_server_url(&s.url);
    let name = s.name.clone().unwrap_or_else(|| match &parsed {
        Ok(t) => t.host_port(),
        Err(_) => shown.clone(),
    });
    let object = format!("server `{name}`");
    let mut target = match parsed {
        Ok(t) => t,
        Err(e) => {
            f.error(line, &object, e.to_string());
            return None;
        }
    };
    let mut ok = true;
    if target.url.pass().is_some() {
        f.error(
            line,
            &object,
            format!(
                "the URL {shown} holds a password; the fleet file never does: take it out \
                 and name `password_env` (an environment variable) or `password_file`"
            ),
        );
        ok = false;
    }
    if !target.schema.is_empty() {
        f.error(
            line,
            &object,
            format!(
                "the URL {shown} names database `{}`; a fleet server URL names none \
                 (list the schemas under `schemas`)",
                target.schema
            ),
        );
        ok = false;
    }
    let password = match (&s.password_env, &s.password_file) {
        (Some(_), Some(_)) => {
            f.error(
                f.key_line_in("password_file", line, next),
                &object,
                "both `password_env` and `password_file`; name one".into(),
            );
            ok = false;
            None
        }
        (Some(var), None) => match env(var) {
            Some(p) => Some(p),
            None => {
                f.error(
                    f.key_line_in("password_env", line, next),
                    &object,
                    format!("environment variable `{var}` (password_env) is not set"),
                );
                ok = false;
                None
            }
        },
        (None, Some(file)) => {
            let full = base.join(file);
            match std::fs::read_to_string(&full) {
                Ok(text) => Some(text.trim_end_matches(['\n', '\r']).to_string()),
                Err(e) => {
                    f.error(
                        f.key_line_in("password_file", line, next),
                        &object,
                        format!("cannot read password_file {}: {e}", full.display()),
                    );
                    ok = false;
                    None
                }
            }
        }
        (None, None) => None,
    };
    let schemas_line = f.key_line_in("schemas", line, next);
    let schemas = match s.schemas {
        RawSchemas::List(list) => {
            if list.is_empty() {
                f.error(
                    schemas_line,
                    &object,
                    "`schemas` is empty; list schemas or use `{like: 'pattern'}`".into(),
                );
                ok = false;
            }
            let mut seen = BTreeSet::new();
            for schema in &list {
                if let Some(why) = bad_schema_name(schema) {
                    f.error(schemas_line, &object, format!("schema `{schema}`: {why}"));
                    ok = false;
                } else if !seen.insert(schema.to_lowercase()) {
                    f.error(
                        schemas_line,
                        &object,
                        format!("schema `{schema}` is listed twice"),
                    );
                    ok = false;
                }
            }
            SchemaSet::List(list)
        }
        RawSchemas::Like(RawLike { like }) => {
            if like.is_empty() || like.len() > 64 {
                f.error(
                    schemas_line,
                    &object,
                    "`like` must be a pattern of 1 to 64 characters".into(),
                );
                ok = false;
            }
            SchemaSet::Like(like)
        }
    };
    if let Some(g) = &s.group {
        if g.is_empty() {
            f.error(line, &object, "`group` is empty".into());
            ok = false;
        }
    }
    let replicas = replicas(f, &s.replicas, &target, &object, line, next, &mut ok);
    if !ok {
        return None;
    }
    if let Some(p) = &password {
        target = with_password(target, p);
    }
    let replicas = match &password {
        Some(p) => replicas.into_iter().map(|r| with_password(r, p)).collect(),
        None => replicas,
    };
    Some(ServerSpec {
        name,
        group: s.group,
        target,
        schemas,
        replicas,
        line: line.unwrap_or(0),
    })
}

/// `target` with `password`.
fn with_password(target: Target, password: &str) -> Target {
    Target::from_opts(
        mysql_async::OptsBuilder::from_opts(target.url)
            .pass(Some(password.to_string()))
            .into(),
    )
}

/// A server's `replicas:`: URLs without a password (each connects with the
/// server's) or a database, none of them the server itself, each once.
/// A finding names the entry's line (and column, through the line's key).
fn replicas(
    f: &mut Findings,
    urls: &[String],
    server: &Target,
    object: &str,
    line: Option<usize>,
    next: Option<usize>,
    ok: &mut bool,
) -> Vec<Target> {
    let key = f.key_line_in("replicas", line, next);
    let mut out: Vec<Target> = Vec::new();
    for url in urls {
        let shown = crate::db::redact(url);
        // The entry's own line (a block list), else the key's (a flow list).
        let at = key.and_then(|k| {
            f.text
                .lines()
                .enumerate()
                .skip(k - 1)
                .take_while(|(i, _)| next.is_none_or(|n| i + 1 < n))
                .find(|(_, l)| l.contains(url.as_str()))
                .map(|(i, _)| i + 1)
        });
        let at = at.or(key);
        let mut bad = |f: &mut Findings, message: String| {
            f.error(at, object, message);
            *ok = false;
        };
        let target = match crate::db::parse_server_url(url) {
            Ok(t) => t,
            Err(e) => {
                bad(f, format!("replica {shown}: {e}"));
                continue;
            }
        };
        if target.url.pass().is_some() {
            bad(
                f,
                format!(
                    "replica {shown} holds a password; the fleet file never does: take it out \
                     (a replica connects with the server's `password_env` / `password_file`)"
                ),
            );
            continue;
        }
        if !target.schema.is_empty() {
            bad(
                f,
                format!(
                    "replica {shown} names database `{}`; a replica URL names none (the \
                     target's schema is read on it)",
                    target.schema
                ),
            );
            continue;
        }
        let at_port = target.host_port();
        if at_port == server.host_port() {
            bad(
                f,
                format!("replica {at_port} is the server itself; name its replicas"),
            );
            continue;
        }
        if out.iter().any(|t| t.host_port() == at_port) {
            bad(f, format!("replica {at_port} is listed twice"));
            continue;
        }
        out.push(target);
    }
    out
}

/// Why `name` cannot be a schema name, if it cannot.
fn bad_schema_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("a schema name is not empty")
    } else if name.chars().count() > 64 {
        Some("a schema name has at most 64 characters")
    } else if name.ends_with(' ') {
        Some("a schema name does not end with a space")
    } else {
        None
    }
}

/// SQL `LIKE` (`%` any run, `_` one character, `\` escapes), case-insensitive
/// as the servers compare schema names; for matching stages locally.
/// Linear in practice: the classic wildcard walk with one backtrack point.
pub fn like(pattern: &str, text: &str) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum Tok {
        Any,
        One,
        Lit(char),
    }
    let mut toks = Vec::new();
    let mut chars = pattern.chars().flat_map(char::to_lowercase);
    while let Some(c) = chars.next() {
        toks.push(match c {
            '%' => Tok::Any,
            '_' => Tok::One,
            '\\' => Tok::Lit(chars.next().unwrap_or('\\')),
            c => Tok::Lit(c),
        });
    }
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let (mut p, mut i) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while i < t.len() {
        match toks.get(p) {
            Some(Tok::Any) => {
                back = Some((p, i));
                p += 1;
            }
            Some(Tok::One) => {
                p += 1;
                i += 1;
            }
            Some(Tok::Lit(c)) if *c == t[i] => {
                p += 1;
                i += 1;
            }
            _ => match back {
                Some((bp, bi)) => {
                    p = bp + 1;
                    i = bi + 1;
                    back = Some((bp, bi + 1));
                }
                None => return false,
            },
        }
    }
    toks[p..].iter().all(|t| *t == Tok::Any)
}
