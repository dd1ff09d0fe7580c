//! `sweep.png`: every rule set's survival curve. Up to 12 share one plot, each line a colour
//! of its own and the dashes a second cue ([`LineStyle::sweep`]); more are small multiples, a
//! panel per value of one setting ([`charts::panel_axis`]), each panel's lines styled alike.

use anyhow::Result;

use super::render::Target;
use crate::charts::{self, Line, LineStyle, Panel};
use crate::games::Unit;
use crate::model::report::Curve;
use crate::model::sweep::RuleSet;

/// Draws sweep.png of `sets` (their curves `curves`, in order), from axes of `lens` values,
/// into `target`.
pub fn sweep(
    title: &str,
    unit: Unit,
    lens: &[usize],
    sets: &[RuleSet],
    curves: &[&Curve],
    target: impl Target,
) -> Result<()> {
    let what = format!(
        "share of games still going after t {} (a game that never ends never stops)",
        unit.many
    );
    let Some(a) = charts::panel_axis(lens) else {
        let lines: Vec<Line> = (sets.iter().zip(curves))
            .zip(LineStyle::sweep(lens))
            .map(|((set, curve), style)| Line {
                label: set.label(),
                curve,
                style,
            })
            .collect();
        return charts::survival(title, &what, unit, &lines, false, target);
    };
    let mut rest = lens.to_vec();
    rest.remove(a);
    let styles = LineStyle::sweep(&rest);
    let mut panels: Vec<Panel> = (0..lens[a])
        .map(|_| Panel {
            heading: String::new(),
            lines: Vec::new(),
        })
        .collect();
    for (i, (set, curve)) in sets.iter().zip(curves).enumerate() {
        let (p, within) = charts::place(i, lens, a);
        let (long, value) = &set.settings[a];
        panels[p].heading = format!("{long} {value}");
        let others: Vec<String> = (set.settings.iter().enumerate())
            .filter(|&(k, _)| k != a)
            .map(|(_, (k, v))| format!("{k} {v}"))
            .collect();
        panels[p].lines.push(Line {
            label: others.join(", "),
            curve,
            style: styles[within],
        });
    }
    let what = format!("{what}; a panel per {}", sets[0].settings[a].0);
    charts::panels(title, &what, unit, &panels, target)
}
