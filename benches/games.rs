//! Criterion benches of the rules cores: one game at a time on one thread. Each benchmark
//! (`GROUP/RULES/game`) runs once: its time is that of one whole game, and its throughput counts
//! the rule set's mean rounds per game as elements, so "elem/s" is rounds/s (ns per round =
//! 1e9 / that).
//!
//! Run: `cargo bench --bench games`. Whole-run throughput on all cores: `scripts/bench.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::cell::RefCell;

use warsim::games::kind::{self, WithGameType};
use warsim::games::war::{DetectLoops, Path, Pickup, Preset, War, WarOptions, WarRules};
use warsim::games::Game;
use warsim::list::game_from_args;
use warsim::sim::rng::game_rng;

fn war(options: WarOptions) -> War {
    War::new(WarRules::try_from(&options).expect("valid rules"))
}

/// Mean rounds per game over the first `n` games of seed 0, for per-round throughput.
fn mean_rounds<G: Game>(game: &G, n: u64) -> f64 {
    let mut s = game.scratch();
    (0..n)
        .map(|i| game.play(&mut game_rng(0, i), &mut s).rounds)
        .sum::<u64>() as f64
        / n as f64
}

/// Times one game per iteration. The rounds go in as the throughput of that same measurement:
/// a second benchmark per round would time the same games again (every benchmark ran twice
/// when it had one) and, named `.../round`, still report a whole game's time.
fn bench_game<G: Game>(c: &mut Criterion, group: &str, name: &str, game: &G) {
    let rounds = mean_rounds(game, 10_000).round().max(1.0) as u64;
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(rounds));
    let mut s = game.scratch();
    let mut i = 0u64;
    g.bench_function(BenchmarkId::new(name, "game"), |b| {
        b.iter(|| {
            i += 1;
            game.play(&mut game_rng(0, i), &mut s)
        })
    });
    g.finish();
}

/// The War presets and the rule sets users benchmark, on the scalar reference and on the
/// block path detected for this CPU (once where they are the same).
fn presets(c: &mut Criterion) {
    let rule_sets: [(&str, WarOptions); 4] = [
        ("classic", WarOptions::default()),
        (
            "bryer",
            WarOptions {
                preset: Some(Preset::Bryer),
                ..Default::default()
            },
        ),
        (
            "won-pile",
            WarOptions {
                pickup: Some(Pickup::WonPile),
                ..Default::default()
            },
        ),
        (
            "p1-first-loops",
            WarOptions {
                pickup: Some(Pickup::P1First),
                ..Default::default()
            },
        ),
    ];
    let detected = Path::detect();
    for (name, options) in rule_sets {
        let mut paths = vec![Path::Scalar];
        if detected != Path::Scalar {
            paths.push(detected);
        }
        for path in paths {
            let game = war(options.clone()).on_path(path);
            bench_game(c, "war", &format!("{name}/{}", path.name()), &game);
        }
    }
}

/// The cost of exact loop detection: the same deterministic rule set with and without it.
fn loop_detection(c: &mut Criterion) {
    for detect in [DetectLoops::Off, DetectLoops::On] {
        let game = war(WarOptions {
            pickup: Some(Pickup::WinnerFirst),
            detect_loops: Some(detect),
            max_rounds: Some(100_000),
            ..Default::default()
        });
        bench_game(
            c,
            "war-winner-first",
            &format!("detect-{detect:?}").to_lowercase(),
            &game,
        );
    }
}

/// Every game `warsim games` lists, on its example rule set ([`Game::EXAMPLE`]): a new game
/// is benched with no line here.
fn every_game(c: &mut Criterion) {
    #[derive(Clone)]
    struct Bench<'a>(&'a RefCell<&'a mut Criterion>);
    impl WithGameType for Bench<'_> {
        type Output = ();
        fn with<G: Game>(self) {
            let game = game_from_args::<G, _>(G::EXAMPLE).expect("a valid example");
            bench_game(&mut self.0.borrow_mut(), G::NAME, "example", &game);
        }
    }
    let c = RefCell::new(c);
    kind::for_each(Bench(&c));
}

criterion_group!(benches, presets, loop_detection, every_game);
criterion_main!(benches);
