//! `exact GAME [rule options]`: every distinct deal played once, for rule sets whose play after
//! the deal uses no randomness, so every count, share and statistic is exact. The same engine,
//! tallies and output files as `simulate`: game i is deal number i of the game's enumeration
//! ([`Game::deal_count`], [`Game::play_deal_number`]).

use anyhow::Result;
use serde_json::{json, Map, Value};

use crate::config::setup::WithGame;
use crate::config::RunConfig;
use crate::games::{ChainSolution, Game};
use crate::model::report::{RunInfo, Timing};
use crate::session::Session;
use crate::sim::engine;
use crate::sim::shard::Shard;
use crate::stats::summary::{grouped, percent};
use crate::store::{Kind, OutputSet};
use crate::term::progress::Progress;
use crate::value::{Answer, Run, Solved};
use crate::{run, usage};
use warsim_core::error::setting_alone;
use warsim_core::usage_of;

/// Deals an exact run may play: about half an hour on two cores at a microsecond a deal.
pub const MAX_DEALS: u128 = 2_000_000_000;

/// `exact GAME`: the game, on the enumerating engine.
pub struct Exact<'a> {
    /// The run options.
    pub run: &'a RunConfig,
    /// Who the call works for.
    pub session: &'a Session,
}

/// The run options `exact` refuses: it plays every deal once (or solves the chain), so the
/// games, a precision, a shard, a seed and a bound on the time say nothing to it.
pub const REFUSED: &[&str] = &[
    "games",
    "precision",
    "shard",
    "seed",
    "max_games",
    "max_hours",
];

/// What `exact` found, and the output set begun in the run's `out` (when it has one) before
/// the work, for its caller to write.
pub type Found = (Answer, Option<OutputSet>);

impl WithGame for Exact<'_> {
    type Output = Result<Found>;

    fn with<G: Game>(self, game: G) -> Result<Found> {
        let (opts, session) = (self.run, self.session);
        opts.check_values()?;
        // The command line's `exact` has none of these options (only --threads, --out and
        // --svg of the run options, [`crate::cli::run_options`]); a library caller's RunConfig
        // may still hold them, and would otherwise have them ignored without a word (a seed
        // the command line refuses was taken).
        let (asked, defaults) = (
            serde_json::to_value(opts)?,
            serde_json::to_value(RunConfig::default())?,
        );
        for &name in REFUSED {
            if asked[name] != defaults[name] {
                return Err(usage_of![
                    format!("exact {}: ", G::NAME),
                    setting_alone(name),
                    " does not apply; exact plays every deal once",
                ]
                .into());
            }
        }
        let out = opts
            .out
            .as_deref()
            .map(|o| session.begin(o, Kind::Exact, &[]))
            .transpose()?;
        let deals = match game.deal_count() {
            Ok(n) => n,
            Err(e) => match game.solve_chain(session.cancel()) {
                Some(solution) => return Ok((chain(&game, &solution?, session)?, out)),
                None => return Err(e.into()),
            },
        };
        if deals > MAX_DEALS {
            return Err(usage!(
                "exact {}: {} has {deals} distinct deals, more than the {} exact plays (about \
                 half an hour); use simulate for an estimate",
                G::NAME,
                game.describe(),
                grouped(MAX_DEALS as u64)
            )
            .into());
        }
        let n = deals as u64;
        let mut info = RunInfo::new(&game, 0, n, Shard::WHOLE)?;
        info.description.push_str(", every deal");
        info.exhaustive = true;
        info.engine = game.exact_engine();
        let threads = run::threads(opts);
        let bar = Progress::new(n, &session.show(opts.progress));
        let start = std::time::Instant::now();
        let cancel = session.cancel();
        let tally = engine::enumerate(&game, 0..n, threads, &|k| bar.inc(k), cancel)?;
        bar.finish();
        let timing = Timing {
            elapsed_s: start.elapsed().as_secs_f64(),
            threads: Some(threads),
            note: None,
        };
        info.exact = Some(crate::model::summary::every_deal(&tally));
        let run = Run::new(info, tally, timing, session.provenance())?;
        Ok((Answer::Run(run), out))
    }
}

/// The solution of a game's Markov chain, as chain.json states it.
fn chain<G: Game>(game: &G, c: &ChainSolution, session: &Session) -> Result<Answer> {
    let outcomes: Map<String, Value> = c
        .outcomes
        .iter()
        .map(|(o, p)| (o.name(), json!(p)))
        .collect();
    // The chain answers the game without a cap: the description says so instead of the
    // rules' cap, which no game met.
    let cap = format!("cap {}", grouped(game.max_rounds()));
    let description = game.describe().replace(&cap, "no round cap");
    // So do the rules: `max_rounds` null, not the cap the rule set would give a played game.
    let mut rules = serde_json::to_value(game.rules())?;
    if let Some(cap) = rules.get_mut("max_rounds") {
        *cap = Value::Null;
    }
    let doc = json!({
        "game": G::NAME,
        "description": format!("{description}, every deal, solved as a Markov chain"),
        "rules": rules,
        "deals": u64::try_from(c.deals).unwrap_or(u64::MAX),
        "states": c.states,
        "outcomes": outcomes,
        "mean_rounds": c.mean_rounds,
        "method": format!(
            "absorbing Markov chain over every position reachable from every deal; the winner's \
             new bottom cards in each distinct order, equally likely; Gauss-Seidel until no \
             value moved by more than {:e} of itself ({} sweeps); no round cap",
            c.tolerance, c.sweeps
        ),
        "provenance": session.provenance(),
    });
    let mut rows = vec![
        ("deals, equally likely".to_string(), grouped(c.deals as u64)),
        (
            "positions of the chain".to_string(),
            grouped(c.states as u64),
        ),
        (
            "expected rounds (no round cap)".to_string(),
            format!("{:.12}", c.mean_rounds),
        ),
    ];
    rows.extend(c.outcomes.iter().map(|(o, p)| {
        (
            format!("chance of outcome {}", o.name()),
            format!("{p:.12} ({})", percent(*p, 6)),
        )
    }));
    let parts: Vec<String> = (c.outcomes.iter())
        .map(|(o, p)| format!("{} {p:.12}", o.name()))
        .collect();
    let lines = vec![
        format!(
            "{} deals, {} positions; expected rounds {:.12}",
            grouped(c.deals as u64),
            grouped(c.states as u64),
            c.mean_rounds
        ),
        format!("outcomes  {}", parts.join("  ")),
    ];
    Ok(Answer::Solved(Solved {
        doc,
        file: "chain.json",
        rows,
        lines,
    }))
}

/// `exact war --flawless`: the probability of the flawless game ([`Flawless`]), computed, not
/// played.
pub struct FlawlessGame<'a> {
    /// The run options.
    pub run: &'a RunConfig,
    /// Who the call works for.
    pub session: &'a Session,
}

impl WithGame for FlawlessGame<'_> {
    type Output = Result<Found>;

    fn with<G: Game>(self, game: G) -> Result<Found> {
        let (opts, session) = (self.run, self.session);
        // War alone defines the flawless game: the game is War, or there is none.
        let any: &dyn std::any::Any = &game;
        let Some(war) = any.downcast_ref::<crate::games::war::War>() else {
            return Err(usage_of![
                format!("exact {}: ", G::NAME),
                setting_alone("flawless"),
                format!(
                    " is War's (one player wins every battle); {} has none",
                    G::NAME
                ),
            ]
            .into());
        };
        // The folder is checked before the computation, which takes seconds for large decks.
        let out = opts
            .out
            .as_deref()
            .map(|o| session.begin(o, Kind::Exact, &[]))
            .transpose()?;
        let f = war.flawless(session.cancel())?;
        let doc = json!({
            "game": G::NAME,
            "description": format!(
                "{}×{} cards, shuffled deal: one player wins each of the {} battles without a tie",
                f.ranks, f.suits, f.battles()
            ),
            "ranks": f.ranks,
            "suits": f.suits,
            "battles": f.battles(),
            "matchings": f.matchings.to_string(),
            "probability": f.fraction(),
            "probability_decimal": f.probability(),
            "one_in": f.one_in(),
            "log10_probability": f.log10(),
            "method": format!(
                "2·M·{}!/{}!, M the perfect matchings of the deck's cards with no pair inside one \
                 rank, counted by a dynamic program over the ranks; exact big integers",
                f.battles(),
                f.cards()
            ),
            "provenance": session.provenance(),
        });
        let mut rows = vec![(
            "battles won by one player, no tie".to_string(),
            grouped(f.battles()),
        )];
        if f.fraction().len() <= 120 {
            rows.push(("probability".into(), f.fraction()));
        }
        rows.push((
            "probability, decimal".into(),
            format!("{:e}", f.probability()),
        ));
        rows.push(("one game in".into(), one_in(f.one_in())));
        let mut lines = Vec::new();
        let fraction = f.fraction();
        if fraction.len() <= 120 {
            lines.push(format!("probability  {fraction}"));
        }
        lines.push(format!(
            "             {:e}, 1 in {}",
            f.probability(),
            one_in(f.one_in())
        ));
        let solved = Solved {
            doc,
            file: "flawless.json",
            rows,
            lines,
        };
        Ok((Answer::Solved(solved), out))
    }
}

/// "1 in X" for the terminal: whole numbers grouped with one decimal, huge ones in e notation.
fn one_in(x: f64) -> String {
    if x < 1e15 {
        let whole = x.trunc() as u64;
        format!(
            "{}.{}",
            grouped(whole),
            ((x - x.trunc()) * 10.0).floor() as u64
        )
    } else {
        format!("{x:.6e}")
    }
}
