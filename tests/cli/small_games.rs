//! `play` and `simulate` for shotgun and rps.

use crate::util::{fails, json, ok};

#[test]
fn play_shotgun_prints_the_first_death() {
    for (moves, want) in [
        ("rg fr", "1"),
        ("rr ff", "0"),
        ("rr fg rf", "2"),
        ("rg gr", "none"),
    ] {
        assert_eq!(ok(&["play", "shotgun", moves]).trim(), want, "{moves}");
    }
    // Several arguments are joined.
    assert_eq!(ok(&["play", "shotgun", "r", "g", "f", "r"]).trim(), "1");
    let v = json(&ok(&["play", "shotgun", "rf gg rr fg rr fr", "--json"]));
    assert_eq!(
        (v["outcome"].as_str(), v["rounds"].as_u64()),
        (Some("p1"), Some(6))
    );
    let none = json(&ok(&["play", "shotgun", "rg gr", "--json"]));
    assert_eq!(
        (none["outcome"].as_str(), none["rounds"].as_u64()),
        (Some("none"), Some(2))
    );
}

#[test]
fn play_shotgun_bad_moves_name_the_position() {
    assert!(fails(2, &["play", "shotgun", "rg fx"]).contains("position 5"));
    assert!(fails(2, &["play", "shotgun", "rgf"]).contains("odd"));
}

#[test]
fn play_rps_prints_winners_or_tie() {
    assert_eq!(ok(&["play", "rps", "r", "r", "s"]).trim(), "1 2");
    assert_eq!(ok(&["play", "rps", "r", "p", "s"]).trim(), "tie");
    assert_eq!(ok(&["play", "rps", "p", "r"]).trim(), "1");
    let v = json(&ok(&["play", "rps", "s", "p", "p", "--json"]));
    assert_eq!(
        (v["outcome"].as_str(), v["players"].clone()),
        (Some("p1"), serde_json::json!([1]))
    );
    let w = json(&ok(&["play", "rps", "r", "r", "s", "--json"]));
    assert_eq!(w["outcome"], "winners");
    assert!(fails(2, &["play", "rps", "r", "x"]).contains("player 2"));
}

#[test]
fn simulate_reports_the_exact_answer_beside_the_estimate() {
    let v = json(&ok(&[
        "simulate",
        "rps",
        "--players",
        "5",
        "--games",
        "20000",
        "--json",
    ]));
    let exact = v["exact"]["mean_rounds"].as_f64().unwrap();
    assert!((exact - 4.485714285714286).abs() < 1e-12);
    let v = json(&ok(&["simulate", "shotgun", "--games", "20000", "--json"]));
    assert!((v["exact"]["draw"].as_f64().unwrap() - 0.156626506).abs() < 1e-6);
    assert!(fails(2, &["simulate", "shotgun", "--mix", "0,1,1"]).contains("--mix"));
    assert!(fails(2, &["simulate", "rps", "--players", "1"]).contains("--players"));
}
