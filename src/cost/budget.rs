//! Budgets: a step whose estimate exceeds `--max-step-duration` or
//! `--max-replica-stall` (or `budgets:` in catalog.yaml) is not started;
//! apply stops before the first DDL of the run (exit 4) naming the step,
//! its estimate and the budget, unless `--allow-long-steps` names the step
//! (`table.object`).
//!
//! A duration is seconds with fractions (`0.5`, `90`) or a number with a
//! unit (`500ms`, `30s`, `10m`, `2h`). `0` is a budget of zero seconds
//! (every step that reads rows exceeds it), never "no limit": leave the
//! budget out for no limit.

use std::time::Duration;

pub use crate::duration::parse_duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::StepCost;

/// The budgets of a run (each `None`: no limit).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budgets {
    /// The longest estimated build a step may have.
    pub max_step_duration: Option<Duration>,
    /// The longest estimated replica stall a step may cause.
    pub max_replica_stall: Option<Duration>,
    /// Steps allowed past the budgets, as `table.object` (compared
    /// case-insensitively).
    pub allow: Vec<String>,
}

impl Budgets {
    /// Sets [`Budgets::max_step_duration`].
    pub fn max_step_duration(mut self, d: impl Into<Option<Duration>>) -> Self {
        self.max_step_duration = d.into();
        self
    }

    /// Sets [`Budgets::max_replica_stall`].
    pub fn max_replica_stall(mut self, d: impl Into<Option<Duration>>) -> Self {
        self.max_replica_stall = d.into();
        self
    }

    /// Sets [`Budgets::allow`]: steps allowed past the budgets.
    pub fn allow(mut self, steps: Vec<String>) -> Self {
        self.allow = steps;
        self
    }

    /// Whether any budget is set.
    pub fn any(&self) -> bool {
        self.max_step_duration.is_some() || self.max_replica_stall.is_some()
    }

    /// The first budget `cost` exceeds for the step named `step`
    /// (`table.object`), unless the step is allowed. An estimate that is
    /// unknown (no size) exceeds a budget only if the step reads rows: an
    /// unknown is never taken as short.
    pub fn check(&self, step: &str, cost: &StepCost) -> Option<OverBudget> {
        if self.allow.iter().any(|a| a.eq_ignore_ascii_case(step)) {
            return None;
        }
        let over = |what: &'static str, estimate: Option<u64>, budget: Option<Duration>| {
            let budget = budget?;
            let exceeded = match estimate {
                Some(e) => u128::from(e) > budget.as_millis(),
                None => true,
            };
            exceeded.then(|| OverBudget {
                step: step.to_string(),
                budget: what,
                estimate_ms: estimate,
                budget_ms: u64::try_from(budget.as_millis()).unwrap_or(u64::MAX),
            })
        };
        over(
            "max_step_duration",
            cost.duration_ms,
            self.max_step_duration,
        )
        .or_else(|| {
            over(
                "max_replica_stall",
                cost.replica_stall_ms,
                self.max_replica_stall,
            )
        })
    }
}

impl Budgets {
    /// Every budget `cost` exceeds for the step named `step` (both, when
    /// both are), unless the step is allowed.
    pub fn check_all(&self, step: &str, cost: &StepCost) -> Vec<OverBudget> {
        let one = |b: Budgets| b.check(step, cost);
        [
            one(Budgets {
                max_replica_stall: None,
                ..self.clone()
            }),
            one(Budgets {
                max_step_duration: None,
                ..self.clone()
            }),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// A step an estimate puts over a budget.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OverBudget {
    /// The step, `table.object`.
    pub step: String,
    /// `max_step_duration` or `max_replica_stall`.
    pub budget: &'static str,
    /// The estimate in milliseconds (`None`: unknown, the table's size
    /// could not be read).
    pub estimate_ms: Option<u64>,
    /// The budget in milliseconds.
    pub budget_ms: u64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.budget {
            "max_replica_stall" => "replica stall",
            _ => "build",
        };
        match self.estimate_ms {
            Some(e) => write!(
                f,
                "step {} has an estimated {what} of {} over the {} budget of {}",
                self.step,
                millis_text(e),
                self.budget,
                millis_text(self.budget_ms)
            ),
            None => write!(
                f,
                "step {} has an unknown {what} time (no size for its table) and a {} budget of {} is set",
                self.step,
                self.budget,
                millis_text(self.budget_ms)
            ),
        }
    }
}

/// `0.4 s`, `12 s`, `3 min 20 s`, `1 h 5 min`.
pub fn millis_text(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 60.0 {
        format!("{s:.0} s")
    } else if s < 3600.0 {
        let m = (s / 60.0).floor();
        format!("{m:.0} min {:.0} s", s - m * 60.0)
    } else {
        let h = (s / 3600.0).floor();
        format!("{h:.0} h {:.0} min", (s - h * 3600.0) / 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::StepClass;

    fn cost(d: Option<u64>) -> StepCost {
        StepCost {
            class: StepClass::Inplace,
            rows: None,
            table_bytes: None,
            key_bytes: None,
            index_bytes: None,
            duration_ms: d,
            replica_stall_ms: d,
            temp_bytes: None,
        }
    }

    #[test]
    fn budgets_refuse_over_and_unknown_and_allow_by_name() {
        let b = Budgets {
            max_step_duration: Some(Duration::from_secs(10)),
            ..Budgets::default()
        };
        assert_eq!(b.check("t.i", &cost(Some(5_000))), None);
        let over = b.check("t.i", &cost(Some(20_000))).unwrap();
        assert_eq!(over.budget, "max_step_duration");
        assert!(over.to_string().contains("t.i"), "{over}");
        assert!(b.check("t.i", &cost(None)).is_some());
        let allowed = Budgets {
            allow: vec!["T.I".into()],
            ..b.clone()
        };
        assert_eq!(allowed.check("t.i", &cost(Some(20_000))), None);
        let zero = Budgets {
            max_replica_stall: Some(Duration::ZERO),
            ..Budgets::default()
        };
        assert_eq!(zero.check("t.c", &cost(Some(0))), None);
        assert!(zero.check("t.i", &cost(Some(100))).is_some());
    }
}
