//! What a newcomer reads: help with the options a command takes (and only those), grouped;
//! the manual pages; the text of `exact`, `play` and `compare`.

use crate::util::{fails, ok, warsim};

#[test]
fn bare_warsim_shows_the_usage_and_the_commands() {
    for (args, listed) in [
        (
            &[][..],
            &["Usage: warsim", "simulate", "exact", "manpage"][..],
        ),
        (
            &["simulate"][..],
            &["Usage: warsim simulate", "war", "jitsu"][..],
        ),
    ] {
        let out = warsim(args);
        assert_eq!(out.status.code(), Some(2), "warsim {args:?}");
        assert!(out.stdout.is_empty(), "warsim {args:?}: nothing on stdout");
        let err = String::from_utf8_lossy(&out.stderr);
        for word in listed {
            assert!(err.contains(word), "warsim {args:?} lacks {word:?}: {err}");
        }
    }
}

#[test]
fn sweep_game_help_lists_the_games_rule_options() {
    for args in [
        &["sweep", "war", "--help"][..],
        &["sweep", "war", "-h"],
        &["sweep", "--help", "war"],
    ] {
        let help = ok(args);
        for option in ["--war-down", "--pickup", "--games", "comma list"] {
            assert!(help.contains(option), "{args:?} lacks {option}: {help}");
        }
    }
    let help = ok(&["sweep", "rps", "--help"]);
    assert!(
        help.contains("--players") && !help.contains("--war-down"),
        "{help}"
    );
    let own = ok(&["sweep", "--help"]);
    assert!(
        own.contains("Usage: warsim sweep <GAME>") && !own.contains("Face-down cards"),
        "{own}"
    );
    assert!(fails(2, &["sweep"]).contains("<GAME>"));
}
