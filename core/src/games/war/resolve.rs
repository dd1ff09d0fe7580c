//! How War's settings become its rule set and back: the settings asked over the preset's, the
//! rules resolved from them and checked, and the rule set read by name, so that a setting the
//! rules keep as given (`war_down`, `short_war`, ...) is declared in [`WarSettings`] and
//! [`WarRules`] and copied by no line.

use serde::Serialize;

use super::rules::{
    parse_deal_setting, DealOrder, DetectLoops, Pickup, Preset, Ranks, ShortWar, WarRules,
    WarSettings, WonPile, BRYER_MAX_ROUNDS, CLASSIC_MAX_ROUNDS, DETECTING_MAX_ROUNDS, MAX_DECK,
    MAX_PLAYERS,
};
use crate::error::{setting, setting_alone, UsageError};
use crate::games::cards::Card;
use crate::games::check_max_rounds;
use crate::settings::{by_name, fields_of, set_fields_of, setting_name};
use crate::{usage, usage_of};

/// The rules resolved from the settings and checked, rather than kept as given: laid over the
/// settings given when [`WarRules::try_from`] reads the rule set by name.
#[derive(Serialize)]
struct Resolved {
    preset: Preset,
    ranks: u32,
    suits: u32,
    deal: DealOrder,
    detect_loops: bool,
    max_rounds: u64,
    p1_cards: Option<Vec<Card>>,
    players: u32,
}

impl TryFrom<&WarSettings> for WarRules {
    type Error = UsageError;

    /// The settings asked over the preset's ([`Preset::settings`]); the rules resolved from
    /// them (the deck, the deal, the cap and loop detection, player 1's cards, the players) and
    /// checked, over those; the rule set read from both by name ([`by_name`]), so each setting
    /// the rules keep as given (`war_down`, `short_war`, the pickup, ...) is copied by no line.
    fn try_from(o: &WarSettings) -> Result<Self, UsageError> {
        let preset = o.preset.unwrap_or(Preset::Classic);
        let fixed = preset.settings();
        let (ranks, suits) = deck_of(o)?;
        let pickup = o
            .pickup
            .or(fixed.pickup)
            .expect("a preset fixes the pickup");
        let deal = deal_of(o, &fixed, suits)?;
        let p1_cards = o
            .p1_cards
            .as_ref()
            .map(|cards| check_p1_cards(&cards.0, ranks, suits, deal))
            .transpose()?;
        let players = players_of(o, ranks, suits, p1_cards.is_some())?;
        check_honor_and_won_pile(o, pickup)?;
        let (detect_loops, max_rounds) = cap_of(o, preset, pickup)?;
        let resolved = Resolved {
            preset,
            ranks,
            suits,
            deal,
            detect_loops,
            max_rounds,
            p1_cards,
            players,
        };
        resolved.over(o, &fixed)
    }
}

impl Resolved {
    /// The rule set: the settings `asked` over the preset's (`fixed`), these resolved rules
    /// over both, read by name.
    fn over(&self, asked: &WarSettings, fixed: &WarSettings) -> Result<WarRules, UsageError> {
        let layers = || {
            let mut asked = set_fields_of(asked)?;
            // The preset asked is the rules' `preset`, resolved.
            asked.remove("rules");
            Ok([set_fields_of(fixed)?, asked, set_fields_of(self)?])
        };
        layers()
            .and_then(by_name)
            .map_err(|e: serde_json::Error| usage!("{e}"))
    }
}

/// The players asked (2 unless given), if War takes them with this deck of `ranks` × `suits`
/// (`p1_fixed`: player 1's cards are given, so a deck of odd size may be dealt).
fn players_of(o: &WarSettings, ranks: u32, suits: u32, p1_fixed: bool) -> Result<u32, UsageError> {
    let deck = u64::from(ranks) * u64::from(suits);
    let players = o.players.unwrap_or(2);
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(usage_of![
            setting("players", players),
            format!(": War takes 2 to {MAX_PLAYERS} players"),
        ]);
    }
    if players > 2 {
        check_multi(o, players, deck)?;
    } else if deck > MAX_DECK as u64 || (deck % 2 == 1 && !p1_fixed) {
        return Err(usage_of![
            setting("ranks", ranks),
            " ",
            setting("suits", suits),
            format!(
                ": a deck of {deck} cards cannot be dealt into two equal hands of at most {} \
                 cards",
                MAX_DECK / 2
            ),
        ]);
    }
    Ok(players)
}

/// Refuses an honor of 0 ranks, and a won pile (`won_pile`) with a `pickup` that draws at
/// random.
fn check_honor_and_won_pile(o: &WarSettings, pickup: Pickup) -> Result<(), UsageError> {
    if o.honor == Some(0) {
        return Err(usage_of![
            setting("honor", 0),
            ": a card can only lose by 1 rank or more; use ",
            setting("honor", "1"),
            " or more",
        ]);
    }
    if let Some(won) = o.won_pile.filter(|_| !pickup.is_deterministic()) {
        return Err(usage_of![
            setting("won_pile", won),
            format!(
                ": a won pile orders the cards of a deterministic pickup; pickup {pickup} \
                 draws at random ("
            ),
            setting("pickup", Pickup::WonPile),
            " is the shuffled won pile)",
        ]);
    }
    Ok(())
}

/// How the deck is dealt: as asked by name, else as the preset deals (`fixed`: given hands,
/// which `play` plays, deal as the preset does too); an even deal needs an even number of
/// suits.
fn deal_of(o: &WarSettings, fixed: &WarSettings, suits: u32) -> Result<DealOrder, UsageError> {
    let named = |s: &WarSettings| match s.deal.as_deref() {
        Some("shuffled") => Some(DealOrder::Shuffled),
        Some("even") => Some(DealOrder::Even),
        Some("bryer") => Some(DealOrder::Bryer),
        _ => None,
    };
    // The command line's parser refuses any other text; settings read as JSON (the typed API,
    // Python) are checked here, or a typo would deal as the preset does, silently.
    if let Some(other) = o
        .deal
        .as_deref()
        .filter(|d| !d.contains('/') && named(o).is_none())
    {
        let mut pieces = vec![setting("deal", format!("{other:?}")), ": ".into()];
        if let Err(e) = parse_deal_setting(other) {
            pieces.extend(e.pieces().iter().cloned());
        }
        return Err(UsageError::of(pieces));
    }
    let deal = named(o)
        .or_else(|| named(fixed))
        .unwrap_or(DealOrder::Shuffled);
    if deal == DealOrder::Even && suits % 2 == 1 {
        return Err(usage_of![
            setting("deal", "even"),
            " ",
            setting("suits", suits),
            ": an even deal gives each player one copy of every rank per two suits, so the \
             suits must be even",
        ]);
    }
    Ok(deal)
}

/// The deck's ranks and suits asked (13 × 4 unless given), if a deck can have them.
fn deck_of(o: &WarSettings) -> Result<(u32, u32), UsageError> {
    let ranks = o.ranks.unwrap_or(13);
    let suits = o.suits.unwrap_or(4);
    if !(1..=255).contains(&ranks) {
        return Err(usage_of![
            setting("ranks", ranks),
            ": ranks must be between 1 and 255"
        ]);
    }
    if suits == 0 {
        return Err(usage_of![
            setting("suits", 0),
            ": a deck needs at least one suit"
        ]);
    }
    Ok((ranks, suits))
}

/// Whether loops are detected and the round cap, from the settings or the preset's defaults;
/// loop detection is refused for a pickup that draws at random.
fn cap_of(o: &WarSettings, preset: Preset, pickup: Pickup) -> Result<(bool, u64), UsageError> {
    let detect_loops = match (o.detect_loops.unwrap_or(DetectLoops::Auto), preset) {
        (DetectLoops::On, _) if !pickup.is_deterministic() => {
            return Err(usage_of![
                setting("detect_loops", "on"),
                format!(
                    ": pickup {:?} uses randomness, so a repeated state need not repeat \
                     forever; use a deterministic pickup or ",
                    pickup.to_string()
                ),
                setting("detect_loops", "off"),
            ]);
        }
        (DetectLoops::On, _) => true,
        (DetectLoops::Off, _) | (DetectLoops::Auto, Preset::Bryer) => false,
        (DetectLoops::Auto, Preset::Classic) => pickup.is_deterministic(),
    };
    let max_rounds = match (o.max_rounds, preset) {
        (Some(m), _) => check_max_rounds(m, "round")?,
        (None, Preset::Bryer) => BRYER_MAX_ROUNDS,
        (None, Preset::Classic) if detect_loops => DETECTING_MAX_ROUNDS,
        (None, Preset::Classic) => CLASSIC_MAX_ROUNDS,
    };
    Ok((detect_loops, max_rounds))
}

/// Refuses, for 3 or more players, the options that have no N-player reading (each named, so
/// the user knows what to drop) and a deck too small or too large to deal to everyone.
fn check_multi(o: &WarSettings, players: u32, deck: u64) -> Result<(), UsageError> {
    let refused = [
        (
            o.preset == Some(Preset::Bryer),
            setting("rules", "bryer"),
            " (the R program's two-player game)",
        ),
        (
            o.short_war == Some(ShortWar::Bryer),
            setting("short_war", "bryer"),
            "",
        ),
        (
            o.pickup == Some(Pickup::Bryer),
            setting("pickup", "bryer"),
            "",
        ),
        (
            o.pickup == Some(Pickup::Kbwar),
            setting("pickup", "kbwar"),
            "",
        ),
        (
            o.won_pile == Some(WonPile::Reversed),
            setting("won_pile", "reversed"),
            "",
        ),
        (
            matches!(o.deal.as_deref(), Some("even" | "bryer")),
            setting("deal", "even or bryer"),
            " (shuffled only)",
        ),
        (o.p1_cards.is_some(), setting_alone("p1_cards"), ""),
        (o.honor.is_some(), setting_alone("honor"), ""),
        (o.by.is_some(), setting_alone("by"), ""),
        (
            o.quit_stats,
            setting_alone("quit_stats"),
            " (player 1 against player 2)",
        ),
    ];
    if let Some((_, option, note)) = refused.into_iter().find(|(given, ..)| *given) {
        return Err(usage_of![
            setting("players", players),
            ": ",
            option,
            format!("{note} is a two-player rule; drop it or use "),
            setting("players", 2),
        ]);
    }
    if deck < u64::from(players) || deck > MAX_DECK as u64 {
        return Err(usage_of![
            setting("players", players),
            format!(
                ": a deck of {deck} cards cannot give each player at least one card within \
                 {MAX_DECK} cards"
            ),
        ]);
    }
    Ok(())
}

/// Checks `p1_cards` against the deck and returns the ranks ascending.
fn check_p1_cards(
    cards: &[Card],
    ranks: u32,
    suits: u32,
    deal: DealOrder,
) -> Result<Vec<Card>, UsageError> {
    if deal != DealOrder::Shuffled {
        return Err(usage_of![
            setting_alone("p1_cards"),
            " deals both hands itself; it cannot be combined with ",
            setting("deal", setting_name(deal)),
        ]);
    }
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    for (i, &c) in cards.iter().enumerate() {
        if c == 0 || u32::from(c) > ranks {
            return Err(usage_of![
                setting_alone("p1_cards"),
                format!(": card {} ({c}) is not a rank in 1..{ranks}", i + 1),
            ]);
        }
        let copies = sorted.iter().filter(|&&x| x == c).count();
        if copies as u32 > suits {
            return Err(usage_of![
                setting_alone("p1_cards"),
                format!(": rank {c} appears {copies} times, but the deck holds {suits} of it"),
            ]);
        }
    }
    if sorted.len() as u64 >= u64::from(ranks) * u64::from(suits) {
        return Err(usage_of![
            setting_alone("p1_cards"),
            format!(
                ": {} cards leave player 2 none of the {}-card deck",
                sorted.len(),
                ranks * suits
            ),
        ]);
    }
    Ok(sorted)
}
impl WarRules {
    /// The options that give these rules, every setting explicit: the rules kept as given read
    /// by name ([`by_name`]), so none is copied here, then the three a setting of another form
    /// gives (the preset, loop detection, player 1's cards).
    pub fn options(&self) -> WarSettings {
        let kept = || {
            let mut rules = set_fields_of(self)?;
            for other_form in ["preset", "detect_loops", "p1_cards"] {
                rules.remove(other_form);
            }
            // Every setting, the unset ones as null, first.
            by_name([fields_of(&WarSettings::default())?, rules])
        };
        // Never unread; if it were, the settings would give other rules, which `checked`
        // refuses.
        let kept: Result<WarSettings, serde_json::Error> = kept();
        WarSettings {
            preset: Some(self.preset),
            detect_loops: Some(match self.detect_loops {
                true => DetectLoops::On,
                false => DetectLoops::Off,
            }),
            p1_cards: self.p1_cards.clone().map(Ranks),
            ..kept.unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings kept as given pass into the rules and back by name: each one asked comes
    /// back as asked, and each one left out as its preset's.
    #[test]
    fn settings_pass_by_name_into_the_rules_and_back() {
        let asked = WarSettings {
            preset: Some(Preset::Bryer),
            war_down: Some(2),
            pickup: Some(Pickup::WinnerFirst),
            won_pile: Some(WonPile::Reversed),
            honor: Some(1),
            max_rounds: Some(700),
            ..WarSettings::default()
        };
        let rules = WarRules::try_from(&asked).unwrap();
        assert_eq!(
            (
                rules.war_down,
                rules.short_war,
                rules.pickup,
                rules.won_pile
            ),
            (
                2,
                ShortWar::Bryer,
                Pickup::WinnerFirst,
                Some(WonPile::Reversed)
            )
        );
        assert_eq!(
            (rules.deal, rules.honor, rules.max_rounds),
            (DealOrder::Bryer, Some(1), 700)
        );
        let back = rules.options();
        assert_eq!(
            (back.war_down, back.short_war, back.pickup, back.won_pile),
            (
                Some(2),
                Some(ShortWar::Bryer),
                Some(Pickup::WinnerFirst),
                Some(WonPile::Reversed)
            )
        );
        assert_eq!(back.deal.as_deref(), Some("bryer"));
        assert_eq!(WarRules::try_from(&back).unwrap(), rules);
        let classic = WarRules::try_from(&WarSettings::default()).unwrap();
        assert_eq!(
            (classic.war_down, classic.short_war),
            (3, ShortWar::LastCard)
        );
    }
}
