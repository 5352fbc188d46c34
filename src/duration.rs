//! Durations as a user writes them in options and catalog.yaml: seconds
//! with fractions (`0.5`, `90`) or a number with a unit (`500ms`, `30s`,
//! `10m`, `2h`). A leaf: the catalog (`limits:`) and the cost budgets
//! both read them.

use std::time::Duration;

/// Parses a duration: seconds with fractions (`0.5`) or a number with a
/// unit (`500ms`, `30s`, `10m`, `2h`). Negative, non-finite and unitless
/// garbage are errors naming the text.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => {
            return Err(format!(
                "duration `{text}`: unknown unit `{other}` (use seconds like `0.5`, or ms, s, m, h: `500ms`, `10m`)"
            ))
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("duration `{text}` is not a number of seconds or a number with a unit (`0.5`, `500ms`, `10m`)")
    })?;
    let secs = value * scale;
    if !secs.is_finite() || secs > 1e9 {
        return Err(format!("duration `{text}` is out of range"));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        for bad in ["", "-1", "ten", "5d", "1e3", "m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
