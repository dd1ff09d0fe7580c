//! The sweep's plan: lists, `all`, shared flags and refusals.

use super::*;

fn plan(game: &str, args: &[&str]) -> Result<Sweep, UsageError> {
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.extend(["--out".to_string(), "unused".to_string()]);
    from_args(game, &args)
}

fn labels(s: &Sweep) -> Vec<String> {
    s.rule_sets.iter().map(|r| r.0.label()).collect()
}

#[test]
fn lists_and_all_expand_in_the_order_given() {
    let p = plan(
        "war",
        &["--war-down", "1,3", "--games", "1000", "--short-war=all"],
    )
    .unwrap();
    assert_eq!(p.run.games.map(crate::config::Games::get), Some(1000));
    assert_eq!(
        labels(&p),
        [
            "war-down 1, short-war lose",
            "war-down 1, short-war last-card",
            "war-down 1, short-war bryer",
            "war-down 3, short-war lose",
            "war-down 3, short-war last-card",
            "war-down 3, short-war bryer"
        ]
    );
    assert_eq!(
        p.rule_sets[1].0.dir_name(),
        "war-down-1_short-war-last-card"
    );
    // The axes are the settings' names; the outputs spell them as the flags.
    let names: Vec<&str> = p.axes.iter().map(|a| a.0.as_str()).collect();
    assert_eq!(names, ["war_down", "short_war"]);
}

/// A rule set's values are set on the shared settings through serde: the values the flags'
/// own readers take (`1e3`, `1,000`, a choice) reach the game as the flag gives them.
#[test]
fn a_rule_sets_values_are_its_settings_values() {
    let p = plan(
        "war",
        &["--max-rounds", "1e3;2,000", "--pickup", "p1-first"],
    )
    .unwrap();
    let caps: Vec<serde_json::Value> = (p.rule_sets.iter())
        .map(|(_, g)| g.settings_json().unwrap())
        .map(|s| serde_json::json!([s["max_rounds"], s["pickup"]]))
        .collect();
    assert_eq!(
        caps,
        [
            serde_json::json!([1000, "p1-first"]),
            serde_json::json!([2000, "p1-first"])
        ]
    );
}

/// A rule set is the shared flags with its values set: a flag given once stays, defaults
/// of flags not listed stay, and the listed flag takes each value.
#[test]
fn a_rule_set_sets_its_values_on_the_shared_flags() {
    let p = plan(
        "snap",
        &["--players", "3", "--faces", "2,4", "--copies", "3"],
    )
    .unwrap();
    let flags: Vec<(usize, usize, usize, u64)> = (p.rule_sets.iter())
        .map(|set| match &set.1 {
            Setup::Snap(f) => (f.players, f.faces, f.copies, f.max_rounds),
            g => panic!("not snap: {g:?}"),
        })
        .collect();
    let cap = crate::games::snap::DEFAULT_MAX_ROUNDS;
    assert_eq!(flags, [(3, 2, 3, cap), (3, 4, 3, cap)]);
}

#[test]
fn a_value_the_option_takes_whole_is_not_split() {
    let p = plan("shotgun", &["--mix", "2,1,1"]).unwrap();
    assert_eq!(p.rule_sets.len(), 1);
    assert_eq!(p.rule_sets[0].0.settings, [("mix".into(), "2,1,1".into())]);
    let p = plan("shotgun", &["--mix", "2,1,1;1,1,1"]).unwrap();
    assert_eq!(p.rule_sets.len(), 2);
    assert_eq!(p.rule_sets[1].0.dir_name(), "mix-1-1-1");
}

#[test]
fn bad_values_and_shards_are_refused_by_name() {
    let say = |e: UsageError| crate::error::with_flags(&e);
    let e = say(plan("war", &["--pickup", "shuffled,sorted"]).unwrap_err());
    assert!(e.contains("--pickup") && e.contains("sorted"), "{e}");
    let e = say(plan("war", &["--war-down", "all"]).unwrap_err());
    assert!(e.contains("no fixed list"), "{e}");
    let e = say(plan("war", &["--shard", "0/2"]).unwrap_err());
    assert!(e.contains("--shard"), "{e}");
    let e = say(plan("chess", &[]).unwrap_err());
    assert!(e.contains("chess") && e.contains("war"), "{e}");
    let e = say(plan("war", &["--war-down", "1", "--war-down", "2,3"]).unwrap_err());
    assert!(e.contains("twice"), "{e}");
    let e = say(plan("war", &["--war-down", "1,2,3", "--max-rule-sets", "2"]).unwrap_err());
    assert!(
        e.contains("3 rule sets") && e.contains("--max-rule-sets N"),
        "{e}"
    );
    let e = say(from_args("war", &["--war-down".into(), "1,2".into()]).unwrap_err());
    assert!(e.contains("--out DIR is missing"), "{e}");
}

#[test]
fn nothing_listed_is_one_rule_set() {
    let p = plan("rps", &["--players", "4"]).unwrap();
    assert_eq!(labels(&p), ["players 4"]);
    let p = plan("jitsu", &[]).unwrap();
    assert_eq!(labels(&p), ["as given"]);
}

/// An axis of no values, which only a caller of the API can give, is refused: its sweep of
/// no rule set hung drawing charts of no point (found by an attack).
#[test]
fn an_axis_of_no_values_is_refused() {
    let run = RunConfig {
        out: Some("unused".into()),
        ..RunConfig::default()
    };
    let axes = vec![("faces".to_string(), Vec::new())];
    let e = Sweep::new("snap", axes, run, 10, |_, _| unreachable!()).unwrap_err();
    assert!(e.to_string().contains("faces lists no values"), "{e}");
}

#[test]
fn a_sweeps_progress_weighs_each_rule_set_by_its_estimated_cost() {
    // 20,000 games each: a rule set estimated at 0.2 s and one at 2 s (its games never end
    // soon): 10 µs and 100 µs a game, so the second is ten times the first's share of the bar.
    assert_eq!(cost_weights(&[0.2, 2.0], 20_000), [10_000, 100_000]);
    // A game estimated at under a nanosecond still moves the bar.
    assert_eq!(cost_weights(&[1e-9], 1_000_000), [1]);
}

/// A sweep's rule sets are games of the sweep's game: a typed caller cannot label snap's runs
/// as War's.
#[test]
fn a_sweep_of_another_games_rule_sets_is_refused() {
    let snap = Setup::from_json(
        "snap",
        &serde_json::to_value(crate::games::snap::SnapSettings::default()).unwrap(),
    )
    .unwrap();
    let run = RunConfig {
        out: Some("unused".into()),
        ..RunConfig::default()
    };
    let e = Sweep::new("war", Vec::new(), run, 10, |_, _| Ok(snap.clone())).unwrap_err();
    assert!(e.to_string().contains("no rule set of war"), "{e}");
}
