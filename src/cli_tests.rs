//! The command line's definition against the run configuration's defaults and clap's own
//! checks.

use super::*;
use crate::search::SearchConfig;
use clap::CommandFactory;

/// The run options' defaults are stated once, in `RunConfig::default` and
/// `SearchConfig::default`: a command line that gives no option asks for exactly those.
#[test]
fn the_flags_defaults_are_the_configs() {
    let Cli { command } = Cli::try_parse_from(["warsim", "simulate", "war"]).unwrap();
    let Command::Simulate { run, .. } = command else {
        panic!("not simulate")
    };
    let json = |c: RunConfig| serde_json::to_value(c).unwrap();
    assert_eq!(json(RunConfig::from(&run)), json(RunConfig::default()));
    let argv = ["warsim", "search", "bmn"];
    let Cli { command } = Cli::try_parse_from(argv).unwrap();
    let Command::Search { search, .. } = command else {
        panic!("not search")
    };
    let d = SearchConfig::default();
    assert_eq!(
        (search.walkers, search.keep, search.bases, search.seed.seed),
        (d.walkers, d.keep, d.bases, d.seed)
    );
    assert_eq!(search.max_hours.max_hours, d.max_hours);
}

/// A separator stands between groups of three digits only: `1,5` is no number of games.
#[test]
fn games_take_separators_in_groups_of_three_only() {
    let read_games = |t: &str| t.parse::<Games>().map(Games::get);
    for (text, n) in [
        ("1000000", 1_000_000),
        ("1,000,000", 1_000_000),
        ("1_000", 1000),
    ] {
        assert_eq!(read_games(text), Ok(n), "{text}");
    }
    assert_eq!(read_games("12,345"), Ok(12_345));
    assert_eq!(read_games("1e6"), Ok(1_000_000));
    for bad in [
        "1,5",
        "1,5e3",
        "1,0000",
        ",100",
        "100,",
        "1__000",
        "1_5",
        "1,000_000x",
        "0",
        "0,001",
        "10.000",
        "1.0",
    ] {
        assert!(
            read_games(bad).is_err(),
            "{bad} was read as {:?}",
            read_games(bad)
        );
    }
    assert!(read_games("1,5").unwrap_err().contains("groups of three"));
}

#[test]
fn cli_definition_is_valid() {
    Cli::command().debug_assert();
}

/// The module docs name every command the command line has.
#[test]
fn the_module_docs_name_every_command() {
    let docs: String = include_str!("cli.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect();
    let cmd = Cli::command();
    let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        assert!(
            docs.contains(&format!("`{name}`")),
            "src/cli.rs's docs lack `{name}`"
        );
    }
}

/// Each run option's schema is its field type's: what the type stubs make a Python type of.
/// A shard is `"K/N"` or `[K, N]`, as its schema says, and both read as the same slice.
#[test]
fn run_options_carry_their_fields_schemas() {
    let options = run_options("simulate").unwrap();
    let schema = |name: &str| &options.iter().find(|o| o.name == name).unwrap().schema;
    assert_eq!(
        schema("games")["type"],
        serde_json::json!(["integer", "null"])
    );
    assert_eq!(schema("max_hours")["type"], "number");
    assert_eq!(schema("out")["format"], "path");
    assert_eq!(schema("svg")["type"], "boolean");
    let shard = serde_json::to_string(&schema("shard")["anyOf"]).unwrap();
    assert!(
        shard.contains("prefixItems") && shard.contains("pattern"),
        "{shard}"
    );
    let read = |v: serde_json::Value| serde_json::from_value::<RunConfig>(v).unwrap().shard;
    let pair = read(serde_json::json!({"shard": [1, 4]}));
    assert_eq!(pair, read(serde_json::json!({"shard": "1/4"})));
    assert!(pair.is_some());
    assert!(serde_json::from_value::<RunConfig>(serde_json::json!({"shard": [1]})).is_err());
}

/// A command's run options are `RunConfig`'s fields but those it refuses, in their order.
#[test]
fn run_options_are_the_configs_fields_but_the_refused() {
    let names = |command| -> Vec<String> {
        (run_options(command).unwrap().into_iter())
            .map(|o| o.name)
            .collect()
    };
    assert_eq!(names("exact"), ["threads", "out", "svg"]);
    let mut simulate = names("simulate");
    assert_eq!(simulate.len(), 9);
    simulate.retain(|n| !crate::sweep::REFUSED.contains(&n.as_str()));
    assert_eq!(names("sweep"), simulate);
}
