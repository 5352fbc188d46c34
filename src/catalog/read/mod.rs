//! Reading a catalog: the YAML files (`raw`), each table file built into
//! the model with the findings of its reading (`table`, `keys`, `checks`,
//! `generated`, `foreign_keys`, `tidb`), the declared queries, and the
//! loader that runs the reading and the rules over every file (`load`),
//! placing each finding on its YAML node (`locate`). May import
//! `catalog::rules` and the catalog's leaves; the rules never import it.

pub(in crate::catalog) mod allow;
pub(in crate::catalog) mod checks;
pub(in crate::catalog) mod declared;
pub(in crate::catalog) mod foreign_keys;
pub(in crate::catalog) mod generated;
pub(in crate::catalog) mod keys;
pub(in crate::catalog) mod lint;
pub(in crate::catalog) mod load;
pub(in crate::catalog) mod locate;
pub(in crate::catalog) mod queries;
pub(crate) mod raw;
pub(in crate::catalog) mod table;
pub(in crate::catalog) mod tidb;
