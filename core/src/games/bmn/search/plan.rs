//! What a search of Beggar-my-neighbour is asked ([`Settings`]), checked into the [`Plan`] one
//! of its modes runs: the record climb, the loop search, the census of cycles, or sampling
//! and backward joining. Every refusal names the settings it is about as settings
//! ([`setting`]): the command line says them as flags (`--walkers 0`), Python as keywords.

use serde::{Deserialize, Serialize};

use super::loops::{standard, CASELLA, MAX_TRICKS};
use crate::error::{setting, setting_alone, Op, Piece, UsageError};
use crate::games::bmn::backward::{fate, Fate};
use crate::games::bmn::{Bmn, Played, Position, DEFAULT_MAX_ROUNDS};
use crate::games::{Game, Outcome};
use crate::stats::summary::grouped;
use crate::usage_of;

/// Tries per walker per round: about 5 ms of play, so a round of 16 walkers on 2 cores is
/// some 40 ms and a census for a time stops within that of it.
pub const ROUND_TRIES: u64 = 4096;

/// Deals a search without `deals` or `minutes` plays.
pub const DEFAULT_DEALS: u64 = 10_000_000;

/// Bases joined by default: about 10 s of joining on two cores (joins of 2,000-card games
/// take about 8 ms each on one core).
pub const DEFAULT_BASES: usize = 4096;

/// The most walkers a search takes.
pub const MAX_WALKERS: u32 = 65536;
/// The most deals a search keeps.
pub const MAX_KEEP: u32 = 10_000;
/// The most bases a join starts from.
pub const MAX_BASES: u32 = 1_000_000;

/// How `search bmn` looks for long games. The default is [`Method::Record`], the method that
/// finds the longest games for the same deals or the same time (docs/bmn.md compares them).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Method {
    /// Walkers that swap two cards at a time (the climb), then backward play from the deals kept.
    Climb,
    /// Plain sampling: game i of the seed, as `simulate bmn` deals it, the longest kept.
    Sample,
    /// Sampling, then backward joining from the longest games sampled (`--bases` of them):
    /// every balanced position whose game joins one of them later.
    #[default]
    Record,
}

impl Method {
    /// Its name, as search.json writes it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Climb => "climb",
            Method::Sample => "sample",
            Method::Record => "record",
        }
    }
}

/// What a search is asked: every mode's settings, each mode reading those it needs.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Deals (tries) played in all, split evenly among the walkers; `None`: [`DEFAULT_DEALS`],
    /// or with `minutes` as many as the time allows.
    pub deals: Option<u64>,
    /// Play for this many minutes.
    pub minutes: Option<f64>,
    /// Independent walkers: walker w draws from (seed, w).
    pub walkers: u32,
    /// Base seed.
    pub seed: u64,
    /// The longest deals kept.
    pub keep: usize,
    /// The deal to search around: every climb starts from it, a join joins from it, or the
    /// cycle it enters seeds the loop search and the census.
    pub from: Option<String>,
    /// How to look for long games.
    pub method: Method,
    /// With [`Method::Record`]: the longest games sampled that are joined from.
    pub bases: usize,
    /// Search for cycles instead of long games.
    pub loops: bool,
    /// The census of cycles instead.
    pub census: bool,
}

/// A search checked ([`Plan::of`]: the only way to one), ready to run ([`Plan::run`]).
#[derive(Clone, Debug)]
pub struct Plan {
    /// What was asked.
    pub(super) settings: Settings,
    /// The deal the search starts from as given, or Casella's, whose cycle seeds a loop
    /// search or a census of the standard deck.
    pub(super) from: Option<String>,
    /// What the mode runs.
    pub(super) mode: Mode,
}

/// What each mode runs.
#[derive(Clone, Debug)]
pub(super) enum Mode {
    /// The record climb: deals each walker plays, and the deal every climb starts from.
    Climb {
        /// Deals each walker plays.
        steps: u64,
        /// The deal of [`Settings::from`] as a deck, hands equal.
        from: Option<Vec<u8>>,
    },
    /// The loop search: tries each walker plays, from the cycles through `seeds`.
    Loops {
        /// Tries each walker plays.
        steps: u64,
        /// Positions on the seed cycles, with their lengths in tricks.
        seeds: Seeds,
    },
    /// The census: rounds to play at most, from the cycles through `seeds`.
    Census {
        /// Rounds to play at most.
        rounds: u64,
        /// Positions on the seed cycles, with their lengths in tricks.
        seeds: Seeds,
    },
    /// Sampling (`bases` 0), or sampling then joining; or joining from one deal.
    Record {
        /// Deals sampled at most (0 when joining from `from`).
        deals: u64,
        /// The longest games sampled that are joined from.
        bases: usize,
        /// The deal of [`Settings::from`] as a deck: joined from instead of sampled games.
        from: Option<Vec<u8>>,
    },
}

impl Plan {
    /// `settings` checked for `game`: the mode they ask for, or what is wrong with them.
    pub fn of(game: &Bmn, settings: &Settings) -> Result<Plan, UsageError> {
        let s = settings;
        check_bounds(s)?;
        check_modes(s)?;
        let (from, mode) = if s.census {
            census(game, s)?
        } else if s.loops {
            loops(game, s)?
        } else if s.method != Method::Climb {
            (s.from.clone(), record(game, s)?)
        } else {
            let from = s.from.as_deref().map(|d| climb_from(game, d)).transpose()?;
            let steps = walk_steps(game, s)?;
            (s.from.clone(), Mode::Climb { steps, from })
        };
        Ok(Plan {
            settings: s.clone(),
            from,
            mode,
        })
    }

    /// The steps (deals or tries) it plays in all, as its progress counts them.
    pub fn total(&self) -> u64 {
        let walkers = u64::from(self.settings.walkers);
        match &self.mode {
            Mode::Climb { steps, .. } | Mode::Loops { steps, .. } => steps * walkers,
            Mode::Census { rounds, .. } => rounds.saturating_mul(walkers * ROUND_TRIES),
            Mode::Record { deals, .. } => *deals,
        }
    }

    /// What a step is: a deal played, or a try (a changed position played).
    pub fn unit(&self) -> &'static str {
        match self.mode {
            Mode::Loops { .. } | Mode::Census { .. } => "tries",
            _ => "deals",
        }
    }

    /// Whether its walkers play a number of deals foreseen from a pilot of random deals (the
    /// climb and the loop search).
    pub fn walks(&self) -> bool {
        matches!(self.mode, Mode::Climb { .. } | Mode::Loops { .. })
    }

    /// The threads of `threads` its steps keep busy: no more than its walkers (the climb, the
    /// loop search and the census play walker by walker), or all of them (sampling).
    pub fn busy(&self, threads: usize) -> usize {
        let walkers = usize::try_from(self.settings.walkers).unwrap_or(usize::MAX);
        match self.mode {
            Mode::Record { .. } => threads.max(1),
            _ => threads.min(walkers).max(1),
        }
    }
}

/// Refuses walkers, deals kept or bases past their bounds, whichever face asked: the command
/// line's flags and the JSON readers take no more, and a typed caller's `keep: usize::MAX`
/// would be held as asked. (Zero is each mode's to refuse, with what it needs.)
fn check_bounds(s: &Settings) -> Result<(), UsageError> {
    let counts = [
        ("walkers", u64::from(s.walkers), MAX_WALKERS),
        ("keep", u64::try_from(s.keep).unwrap_or(u64::MAX), MAX_KEEP),
        (
            "bases",
            u64::try_from(s.bases).unwrap_or(u64::MAX),
            MAX_BASES,
        ),
    ];
    match counts.into_iter().find(|&(_, n, max)| n > u64::from(max)) {
        Some((name, n, max)) => Err(usage_of![
            Op::Search,
            ": ",
            setting(name, n),
            format!(
                ": expected a whole number from 1 to {}",
                grouped(max.into())
            )
        ]),
        None => Ok(()),
    }
}

/// Refuses settings of one mode asked with another that would ignore them, naming both: a
/// census and the loop search look for cycles, not long games, so they take no `method`
/// (other than the default, which they cannot tell from none); `bases` (given other than its
/// default) counts the joins of `method record` alone. Ignored, either would be missing from
/// the replay line of a search that was run as if it had not been asked.
fn check_modes(s: &Settings) -> Result<(), UsageError> {
    let cycles = match (s.census, s.loops) {
        (true, _) => Some(("census", " counts the cycles its own walk finds; ")),
        (false, true) => Some(("loops", " searches for cycles by its own walk; ")),
        (false, false) => None,
    };
    if let Some((mode, does)) = cycles.filter(|_| s.method != Method::default()) {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting_alone(mode),
            does,
            setting("method", s.method.name()),
            " searches for long games (drop one of them)"
        ]);
    }
    if s.bases != DEFAULT_BASES && (s.census || s.loops || s.method != Method::Record) {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting("bases", s.bases),
            " counts the longest games ",
            setting("method", "record"),
            " joins from; this search does not join (add ",
            setting("method", "record"),
            " or drop ",
            setting_alone("bases"),
            ")"
        ]);
    }
    Ok(())
}

/// Refuses a `minutes` that is no time: every search is bounded by it.
pub fn check_minutes(minutes: Option<f64>) -> Result<(), UsageError> {
    match minutes.filter(|m| !(m.is_finite() && *m > 0.0)) {
        Some(m) => Err(usage_of![
            Op::Search,
            ": ",
            setting("minutes", m),
            ": expected minutes above 0, such as 10"
        ]),
        None => Ok(()),
    }
}

/// The steps each walker of a climb or loop search plays, after refusing what it cannot
/// play: no walker, fewer deals than walkers, no deal kept, no time, a deck whose cards all
/// demand the same (a climb swaps two cards of different demands and would look for them
/// forever, and every game ends in its first trick).
fn walk_steps(game: &Bmn, s: &Settings) -> Result<u64, UsageError> {
    let asked = match (s.deals, s.minutes) {
        (Some(d), _) => d,
        (None, Some(_)) => u64::MAX,
        (None, None) => DEFAULT_DEALS,
    };
    if s.walkers == 0 || asked < u64::from(s.walkers) || s.keep == 0 {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting("deals", asked),
            " ",
            setting("walkers", s.walkers),
            " ",
            setting("keep", s.keep),
            ": need at least one walker, one deal per walker and one deal kept"
        ]);
    }
    check_minutes(s.minutes)?;
    let deck = game.deck();
    if deck.iter().all(|&d| d == deck[0]) {
        let r = game.rules();
        return Err(usage_of![
            Op::Search,
            format!(": every card of this deck ({} ranks, ", r.ranks),
            setting("penalties", r.penalties),
            format!(
                ") demands {}, so every deal is the same game; give ",
                deck[0]
            ),
            setting_alone("penalties"),
            " with two different demands, or ",
            setting_alone("ranks"),
            " above 4 with a penalty above 0"
        ]);
    }
    Ok(asked / u64::from(s.walkers))
}

/// `pieces`, then the message `e`.
fn before(mut pieces: Vec<Piece>, e: UsageError) -> UsageError {
    pieces.extend(e.pieces().iter().cloned());
    UsageError::of(pieces)
}

/// `search --loops: `, as the loop search's and the census's refusals begin.
fn loops_said() -> Vec<Piece> {
    vec![
        Op::Search.into(),
        " ".into(),
        setting_alone("loops"),
        ": ".into(),
    ]
}

/// The hands of the deal `from`, or the deal reader's message said of `from`.
fn parse_from(game: &Bmn, deal: &str, said: Vec<Piece>) -> Result<[Vec<u8>; 2], UsageError> {
    game.parse_deal(deal)
        .map_err(|e| before(said, e.renamed("deal", "from")))
}

/// The hands of the deal `from`, which must be equal (`purpose` says why, after the sizes),
/// and the game they play: what a climb and a join start from.
fn played_from(
    game: &Bmn,
    deal: &str,
    purpose: Vec<Piece>,
) -> Result<([Vec<u8>; 2], Played), UsageError> {
    let [a, b] = parse_from(game, deal, vec![Op::Search.into(), ": ".into()])?;
    if a.len() != b.len() {
        let sizes = format!(": the hands hold {} and {} cards; ", a.len(), b.len());
        let said = vec![
            Op::Search.into(),
            ": ".into(),
            setting_alone("from"),
            sizes.into(),
        ];
        return Err(UsageError::of([said, purpose].concat()));
    }
    let hands = [a, b];
    let p = game.play_hands(&hands, &mut |_, _, _| std::ops::ControlFlow::Continue(()))?;
    Ok((hands, p))
}

/// The deal of `from` as a deck for a climb, which swaps two of its cards at a time, so the
/// hands must be equal; one that never ends would be listed again at every restart.
fn climb_from(game: &Bmn, deal: &str) -> Result<Vec<u8>, UsageError> {
    let purpose = vec![
        "a deal to climb from gives each player half the deck (".into(),
        setting_alone("loops"),
        " takes any position)".into(),
    ];
    let (hands, p) = played_from(game, deal, purpose)?;
    match (p.outcome, p.cycle) {
        (Outcome::Loop, Some((cards, tricks))) => Err(usage_of![
            Op::Search,
            ": ",
            setting_alone("from"),
            format!(
                ": this deal never ends (a {}-trick, {}-card cycle); search around it with ",
                tricks.cycle_len, cards.cycle_len
            ),
            setting_alone("loops"),
            " ",
            setting_alone("from"),
            ", or walk to it with ",
            setting_alone("reaching")
        ]),
        (Outcome::Capped, _) => Err(usage_of![
            Op::Search,
            ": ",
            setting_alone("from"),
            format!(
                ": this deal's game reaches the cap of {} cards without ending; raise ",
                grouped(game.max_rounds())
            ),
            setting_alone("max_rounds")
        ]),
        _ => Ok(hands.concat()),
    }
}

/// The cycle the position of `deal` enters, as a seed of the loop search or the census.
fn seed_of(game: &Bmn, deal: &str) -> Result<(Position, u64), UsageError> {
    let [a, b] = parse_from(game, deal, loops_said())?;
    let said = |words: String| {
        let from = setting("from", format!("{deal:?}"));
        UsageError::of([loops_said(), vec![from, words.into()]].concat())
    };
    match fate(&Position::fitted(&a, &b, 0), MAX_TRICKS) {
        Fate::Cycle(on, tricks) => Ok((on, tricks)),
        Fate::Ends(_) => Err(said(
            ": this deal's game ends; give a deal that never ends (its cycle seeds the search)"
                .into(),
        )),
        Fate::Undecided => Err(said(format!(
            ": no cycle within {} tricks",
            grouped(MAX_TRICKS)
        ))),
    }
}

/// Refuses a card cap for a loop search or a census: a try is played up to [`MAX_TRICKS`]
/// tricks, not to a number of cards, and a cycle is found exactly, so the cap could only make
/// the positions written replay as capped games.
fn check_cap(game: &Bmn) -> Result<(), UsageError> {
    if game.max_rounds() == DEFAULT_MAX_ROUNDS {
        return Ok(());
    }
    let words = format!(
        ": a try is played up to {} tricks, whatever the cards, and every cycle is found \
         exactly; leave ",
        grouped(MAX_TRICKS)
    );
    let rest = vec![
        setting("max_rounds", game.max_rounds()),
        words.into(),
        setting_alone("max_rounds"),
        " out".into(),
    ];
    Err(UsageError::of([loops_said(), rest].concat()))
}

/// The deal a loop search or a census starts from (given, or Casella's on the standard
/// deck), and the cycle it enters.
fn seeded(game: &Bmn, s: &Settings) -> Result<(Option<String>, Seeds), UsageError> {
    let from = s
        .from
        .clone()
        .or(standard(game).then(|| CASELLA.to_string()));
    let seeds = from.as_deref().map(|d| seed_of(game, d)).transpose()?;
    Ok((from, seeds.into_iter().collect()))
}

/// Positions on cycles, with their lengths in tricks: where a loop search or a census starts.
pub(super) type Seeds = Vec<(Position, u64)>;

/// The loop search's plan.
fn loops(game: &Bmn, s: &Settings) -> Result<(Option<String>, Mode), UsageError> {
    check_cap(game)?;
    let (from, seeds) = seeded(game, s)?;
    let steps = walk_steps(game, s)?;
    Ok((from, Mode::Loops { steps, seeds }))
}

/// The census's plan: rounds of `walkers` × [`ROUND_TRIES`] tries, as many as the deals asked
/// (at least one), or as the time allows.
fn census(game: &Bmn, s: &Settings) -> Result<(Option<String>, Mode), UsageError> {
    if s.walkers == 0 {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting("walkers", 0),
            ": need at least one walker"
        ]);
    }
    check_cap(game)?;
    check_minutes(s.minutes)?;
    let (from, seeds) = seeded(game, s)?;
    let per_round = u64::from(s.walkers) * ROUND_TRIES;
    // `deals` bounds the tries: a census plays whole rounds, so fewer than one is refused,
    // not rounded up to a round.
    if let Some(d) = s.deals.filter(|&d| d < per_round) {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting("deals", d),
            " is less than one round of the census (",
            setting("walkers", s.walkers),
            format!(
                " × {ROUND_TRIES} tries = {}); ask for at least that many, or fewer walkers",
                grouped(per_round)
            )
        ]);
    }
    let rounds = match (s.deals, s.minutes) {
        (Some(d), _) => d / per_round,
        (None, Some(_)) => u64::MAX,
        (None, None) => (DEFAULT_DEALS / per_round).max(1),
    };
    Ok((from, Mode::Census { rounds, seeds }))
}

/// The plan of sampling or of sampling then joining, after refusing what they do not take.
fn record(game: &Bmn, s: &Settings) -> Result<Mode, UsageError> {
    check_minutes(s.minutes)?;
    if s.from.is_some() && s.method == Method::Sample {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting("method", "sample"),
            " plays random deals, not a given one; ",
            setting("from", "DEAL"),
            " joins from a deal with ",
            setting("method", "record")
        ]);
    }
    if s.deals == Some(0) || s.keep == 0 {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting_alone("deals"),
            " and ",
            setting_alone("keep"),
            format!(
                " need at least 1 (they are {} and {})",
                s.deals.unwrap_or(1),
                s.keep
            )
        ]);
    }
    let deck = game.deck();
    if deck.iter().all(|&d| d == deck[0]) {
        return Err(usage_of![
            Op::Search,
            format!(
                ": every card of this deck demands {}, so every deal is the same game; give ",
                deck[0]
            ),
            setting_alone("penalties"),
            " with two different demands"
        ]);
    }
    let from = s.from.as_deref().map(|d| joinable(game, d)).transpose()?;
    let deals = match (from.is_some(), s.deals, s.minutes) {
        (true, _, _) => 0,
        (false, Some(d), _) => d,
        (false, None, Some(_)) => u64::MAX,
        (false, None, None) => DEFAULT_DEALS,
    };
    let bases = if s.method == Method::Sample {
        0
    } else {
        s.bases
    };
    Ok(Mode::Record { deals, bases, from })
}

/// The deal of `from` as a deck to join from, refused unless its hands are equal and its
/// game ends (a join walks back from the position before its last trick).
fn joinable(game: &Bmn, deal: &str) -> Result<Vec<u8>, UsageError> {
    let purpose = vec!["a deal to join from gives each player half the deck".into()];
    let (hands, p) = played_from(game, deal, purpose)?;
    if !matches!(p.outcome, Outcome::Player(_)) {
        return Err(usage_of![
            Op::Search,
            ": ",
            setting_alone("from"),
            ": this deal's game does not end (it loops or reaches the card cap), so it has no \
             last trick to join; search around it with ",
            setting_alone("loops"),
            " ",
            setting_alone("from")
        ]);
    }
    Ok(hands.concat())
}
