//! Findings, the bottom layer every report and error is made of: the
//! catalog's lint [`lint::Problem`] and the live schema's drift
//! [`drift::Problem`], whose sides are typed [`drift::Value`]s. They depend
//! on nothing above the model ([`crate::model`], `ident`), so
//! [`crate::Error`] can carry them without reaching up into the modules that
//! produce them.

pub mod drift;
pub mod lint;
mod value;
