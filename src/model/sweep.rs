//! A sweep's rule set: one value of every listed option, as sweep.json, the sweep's charts and
//! its folders name it.

/// One rule set: a value of every axis.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// (option, value) per axis.
    pub settings: Vec<(String, String)>,
}

impl RuleSet {
    /// `war-down 1, pickup shuffled`; `as given` when nothing varies.
    pub fn label(&self) -> String {
        if self.settings.is_empty() {
            return "as given".into();
        }
        self.settings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `war-down-1_pickup-shuffled`: a directory name (characters other than letters, digits,
    /// `.` and `-` become `-`).
    pub fn dir_name(&self) -> String {
        if self.settings.is_empty() {
            return "run".into();
        }
        self.settings
            .iter()
            .map(|(k, v)| {
                let v: String = v
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                            c
                        } else {
                            '-'
                        }
                    })
                    .collect();
                format!("{k}-{v}")
            })
            .collect::<Vec<_>>()
            .join("_")
    }
}
