//! Criterion benches of the rules cores: one game at a time on one thread. Each benchmark
//! (`GROUP/RULES/game`) runs once: its time is that of one whole game, and its throughput counts
//! the rule set's mean rounds per game as elements, so "elem/s" is rounds/s (ns per round =
//! 1e9 / that). War's `bryer` rules are also timed a chunk of 4,096 games at a time
//! (`war-chunk/bryer/PATH/4096-games`, "elem/s" = games/s) as the engine plays them, on every
//! path, the lanes included (they play many games at once, never one).
//!
//! Run: `cargo bench -p warsim-bench`. Whole-run throughput on all cores: `scripts/bench.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::cell::RefCell;

use warsim::face::{self, GameCli, WithFace};
use warsim::games::war::{DetectLoops, Path, Pickup, Preset, War, WarRules, WarSettings};
use warsim::games::Game;
use warsim::list::game_from_args;
use warsim::rng::game_rng;

fn war(options: WarSettings) -> War {
    War::new(WarRules::try_from(&options).expect("valid rules")).unwrap()
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

/// Times a chunk of [`CHUNK_GAMES`] games per iteration through [`Game::play_range`], as the
/// engine plays a chunk: elem/s is games/s.
fn bench_chunk<G: Game>(c: &mut Criterion, group: &str, name: &str, game: &G) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(CHUNK_GAMES));
    let mut s = game.scratch();
    let mut first = 0u64;
    g.bench_function(BenchmarkId::new(name, "4096-games"), |b| {
        b.iter(|| {
            let mut rounds = 0u64;
            game.play_range(0, first..first + CHUNK_GAMES, &mut s, &mut |_, r| {
                rounds += r.rounds
            });
            first += CHUNK_GAMES;
            rounds
        })
    });
    g.finish();
}

/// Games per iteration of [`bench_chunk`]: the engine's chunk.
const CHUNK_GAMES: u64 = warsim::sim::engine::CHUNK;

/// The War presets and the rule sets users benchmark, one game at a time on the scalar
/// reference and on the block path detected for this CPU (once where they are the same); and
/// the rule sets the lanes play (classic, `bryer`, won-pile) a chunk at a time on every path
/// this CPU runs, the lanes included.
fn presets(c: &mut Criterion) {
    let rule_sets: [(&str, WarSettings); 4] = [
        ("classic", WarSettings::default()),
        (
            "bryer",
            WarSettings {
                preset: Some(Preset::Bryer),
                ..Default::default()
            },
        ),
        (
            "won-pile",
            WarSettings {
                pickup: Some(Pickup::WonPile),
                ..Default::default()
            },
        ),
        (
            "p1-first-loops",
            WarSettings {
                pickup: Some(Pickup::P1First),
                ..Default::default()
            },
        ),
    ];
    // One game at a time is played by the block path even where the lanes are chosen.
    let block = Path::Avx512.or_available();
    let mut paths = vec![Path::Scalar];
    if block != Path::Scalar {
        paths.push(block);
    }
    for (name, options) in &rule_sets {
        for &path in &paths {
            let game = war(options.clone()).on_path(path);
            bench_game(c, "war", &format!("{name}/{}", path.name()), &game);
        }
    }
    // The rule sets the lanes play, a chunk at a time on every path this CPU runs.
    for (name, options) in rule_sets.iter().take(3) {
        let mut timed = Vec::new();
        for path in [Path::Scalar, Path::Avx512, Path::LanesAvx2, Path::Lanes] {
            let game = war(options.clone()).on_path(path);
            if !timed.contains(&game.path()) {
                timed.push(game.path());
                bench_chunk(
                    c,
                    "war-chunk",
                    &format!("{name}/{}", game.path().name()),
                    &game,
                );
            }
        }
    }
}

/// The cost of exact loop detection: the same deterministic rule set with and without it.
fn loop_detection(c: &mut Criterion) {
    for detect in [DetectLoops::Off, DetectLoops::On] {
        let game = war(WarSettings {
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
    impl WithFace for Bench<'_> {
        type Output = ();
        fn with<G: GameCli>(self) {
            let game = game_from_args::<G, _>(G::EXAMPLE).expect("a valid example");
            bench_game(&mut self.0.borrow_mut(), G::NAME, "example", &game);
        }
    }
    let c = RefCell::new(c);
    face::for_each(Bench(&c));
}

criterion_group!(benches, presets, loop_detection, every_game);
criterion_main!(benches);
