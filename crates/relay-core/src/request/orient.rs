//! orient's request (§8.3): the window, how many recent packages, a snapshot time, and the
//! budget the bundle must fit (characters, or tokens at four characters each, else the
//! store's `[orient] max_chars`), the same on every door.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{check_exclusive, check_window, default_window_days};
use relay_wire::error::Result;

/// What orient is asked for. The field docs are what an agent reads in MCP's tool schema;
/// the defaults are [`super::DEFAULT_WINDOW_DAYS`] and [`DEFAULT_RECENT_LIMIT`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrientRequest {
    /// How many days back to look
    #[serde(
        default = "default_window_days",
        deserialize_with = "super::number::whole"
    )]
    #[schemars(range(max = super::MAX_WINDOW_DAYS))]
    pub window_days: u32,
    /// At most this many recent packages, the newest; open questions come from these
    #[serde(default = "default_limit", deserialize_with = "super::number::whole")]
    pub limit: usize,
    /// The briefing as it would have been at this time: the same bytes however often it is
    /// asked for
    pub as_of: Option<String>,
    /// Fit the bundle in this many characters of compact JSON: lists keep what fits (the
    /// latest handoff, lessons, open questions, checkpoints, facts most recently changed
    /// first, significant packages, then the rest), and x-omitted counts what was left out
    /// with the commands that show it. Default: [orient] max_chars in .relay/config.toml,
    /// else no budget
    #[serde(default, deserialize_with = "super::number::whole_opt")]
    pub max_chars: Option<usize>,
    /// max_chars given in tokens, estimated as 4 characters each (not with max_chars)
    #[serde(default, deserialize_with = "super::number::whole_opt")]
    pub max_tokens: Option<usize>,
}

fn default_limit() -> usize {
    DEFAULT_RECENT_LIMIT
}

impl Default for OrientRequest {
    fn default() -> Self {
        OrientRequest {
            window_days: default_window_days(),
            limit: DEFAULT_RECENT_LIMIT,
            as_of: None,
            max_chars: None,
            max_tokens: None,
        }
    }
}

impl OrientRequest {
    /// Refuses a window over the maximum, and both budgets at once.
    pub fn validate(&self) -> Result<()> {
        check_window("window_days", self.window_days)?;
        check_exclusive(
            ("max_chars", self.max_chars.is_some()),
            ("max_tokens", self.max_tokens.is_some()),
        )
    }

    /// The budget in characters: the one asked for, else the store's configured one
    /// (`[orient] max_chars`), else none.
    pub fn budget(&self, configured: Option<usize>) -> Option<usize> {
        (self.max_chars)
            .or(self.max_tokens.map(chars_for_tokens))
            .or(configured)
    }
}

/// How many recent packages a bundle carries unless asked otherwise (§8.3: "up to N").
pub const DEFAULT_RECENT_LIMIT: usize = 50;

/// Characters per token when a budget is given in tokens (`--max-tokens`): a common estimate
/// for English text and code.
pub const CHARS_PER_TOKEN: usize = 4;

/// A budget in characters from one in tokens.
pub fn chars_for_tokens(tokens: usize) -> usize {
    tokens.saturating_mul(CHARS_PER_TOKEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: serde_json::Value) -> OrientRequest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_defaults_are_the_named_constants() {
        let r = parse(serde_json::json!({}));
        assert_eq!(r, OrientRequest::default());
        assert_eq!(r.window_days, super::super::DEFAULT_WINDOW_DAYS);
        assert_eq!(r.limit, DEFAULT_RECENT_LIMIT);
    }

    #[test]
    fn the_budget_asked_for_wins_over_the_configured_one() {
        let chars = parse(serde_json::json!({"max_chars": 100}));
        assert_eq!(chars.budget(Some(9000)), Some(100));
        let tokens = parse(serde_json::json!({"max_tokens": 100}));
        assert_eq!(tokens.budget(Some(9000)), Some(400));
        assert_eq!(OrientRequest::default().budget(Some(9000)), Some(9000));
        assert_eq!(OrientRequest::default().budget(None), None);
    }

    #[test]
    fn validation_refuses_two_budgets_and_a_long_window() {
        let both = parse(serde_json::json!({"max_chars": 1, "max_tokens": 1}));
        assert!(
            both.validate()
                .unwrap_err()
                .to_string()
                .contains("cannot be used together")
        );
        let long = parse(serde_json::json!({"window_days": 36_501}));
        assert!(
            long.validate()
                .unwrap_err()
                .to_string()
                .contains("is over 36500")
        );
        assert!(serde_json::from_value::<OrientRequest>(serde_json::json!({"x": 1})).is_err());
    }
}
