//! How much of an auto_increment column's range is used: the computation
//! behind the `auto-increment-capacity` rule (`catalog verify`), kept here
//! so any reader of a table's next AUTO_INCREMENT value (`catalog stats`)
//! gives the same answer.

use super::ColumnType;

/// The use of an auto_increment column's range.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct AutoIncrementUse {
    /// The next value the server will hand out (`AUTO_INCREMENT`).
    pub next: u64,
    /// The largest value the column holds.
    pub max: u64,
    /// Values handed out so far (`next - 1`) as a percentage of `max`.
    pub percent: f64,
}

// `percent` is a finite number (`max` is never 0), so equality is total.
impl Eq for AutoIncrementUse {}

impl AutoIncrementUse {
    /// Whether more than `share` percent of the range is used.
    pub fn over(&self, share: u8) -> bool {
        self.percent > f64::from(share)
    }

    /// What a finding over `share` says of a column of type `ty`, before
    /// its fix (one wording for `catalog verify` and `catalog stats`).
    pub fn describe(&self, ty: &ColumnType, share: u8) -> String {
        format!(
            "the next AUTO_INCREMENT value is {} of {} ({:.1}% of the {ty} range used, over the catalog's {share}%)",
            self.next, self.max, self.percent
        )
    }
}

/// The use of the range of an auto_increment column of type `ty` whose
/// next value is `next`; `None` for a type that is not an integer (the
/// catalog allows auto_increment on integers only).
pub fn auto_increment_use(ty: &ColumnType, next: u64) -> Option<AutoIncrementUse> {
    let ColumnType::Int { kind, unsigned } = ty else {
        return None;
    };
    let (_, max) = kind.range(*unsigned);
    let max = u64::try_from(max).ok()?;
    let used = next.saturating_sub(1);
    Some(AutoIncrementUse {
        next,
        max,
        percent: used as f64 * 100.0 / max as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(text: &str) -> ColumnType {
        ColumnType::parse(text).unwrap()
    }

    #[test]
    fn share_of_the_range_by_type() {
        let u = auto_increment_use(&ty("int unsigned"), 3_500_000_001).unwrap();
        assert_eq!(u.max, 4_294_967_295);
        assert!((u.percent - 81.49).abs() < 0.01, "{}", u.percent);
        assert!(u.over(80) && !u.over(90));
        // Signed: only the positive half counts.
        let s = auto_increment_use(&ty("int"), 2_000_000_000).unwrap();
        assert_eq!(s.max, 2_147_483_647);
        assert!(s.over(80));
        let t = auto_increment_use(&ty("tinyint unsigned"), 1).unwrap();
        assert_eq!((t.max, t.percent), (255, 0.0));
        let b = auto_increment_use(&ty("bigint unsigned"), 3_500_000_001).unwrap();
        assert!(!b.over(1));
        assert_eq!(auto_increment_use(&ty("varchar(8)"), 5), None);
    }
}
