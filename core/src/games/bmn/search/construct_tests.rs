//! The construction's tests: a cycle's own shapes close into it, and the block exchanges of
//! Casella's cycle close into exactly the known cycles of its family.

use std::collections::BTreeSet;

use super::*;
use crate::games::bmn::search::loops::{canonical, CASELLA, MAX_TRICKS};
use crate::games::bmn::{Bmn, BmnRules};

fn standard() -> Bmn {
    Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
}

fn on_cycle(game: &Bmn, deal: &str) -> (Position, u64) {
    let [a, b] = game.parse_deal(deal).unwrap();
    match fate(&Position::dealt(&a, &b).unwrap(), MAX_TRICKS) {
        Fate::Cycle(on, t) => (on, t),
        _ => panic!("{deal} loops"),
    }
}

fn sorted_deck(game: &Bmn) -> Vec<u8> {
    let mut d = game.deck().to_vec();
    d.sort_unstable();
    d
}

/// Casella's cycle, as its 62 shapes: they chain, and the construction finds the cycle's own
/// position among its solutions (and every solution is a cycle of those shapes).
#[test]
fn a_cycles_own_shapes_close_into_it() {
    let game = standard();
    let (on, t) = on_cycle(&game, CASELLA);
    let s = shapes(&on, t);
    let seq: Vec<&Shape> = s.iter().collect();
    assert!(coherent(&seq));
    let found = close(&seq, &sorted_deck(&game));
    let name = canonical(&game, &on, t).id;
    assert!(found.iter().any(|p| canonical(&game, p, t).id == name));
    for p in &found {
        assert_eq!(shapes(p, t), s, "a solution plays the shapes it solves");
    }
}

/// Every exchange of two blocks of up to 31 tricks of Casella's whole period (not half by
/// half), decided exactly: the exchanges that close (blocks of identical tricks) give Casella's
/// cycle again, never another: the other three need the same exchange in both halves.
#[test]
fn single_block_exchanges_of_casellas_cycle_close_only_into_it() {
    let game = standard();
    let (on, t) = on_cycle(&game, CASELLA);
    let v = rearrangements(&shapes(&on, t), &sorted_deck(&game), 31, &mut || false);
    let names: BTreeSet<String> = v
        .cycles
        .iter()
        .map(|(p, t)| canonical(&game, p, *t).id)
        .collect();
    assert!(
        v.coherent > 0 && v.closed > 0,
        "{} {}",
        v.coherent,
        v.closed
    );
    assert_eq!(
        names,
        ["cbfece7bda400120".to_string()].into_iter().collect()
    );
}

/// Every order of issue 51's pieces in each half of Casella's cycle (the first piece kept
/// first), the same in both halves or mixed: exactly the four known cycles close, each with the
/// same order in both halves; every other order is rejected.
#[test]
fn the_orders_of_the_pieces_close_into_the_four_known_cycles() {
    let game = standard();
    let (on, t) = on_cycle(&game, CASELLA);
    let v = family_verdict(&game, &on, t).expect("Casella's cycle is of the family");
    assert_eq!(v.orders_per_half, 40_320);
    assert!(v.periods > 1000, "{v:?}");
    let names: BTreeSet<&str> = v.closed.iter().map(|(c, _)| c.id.as_str()).collect();
    let known = [
        "0757ac41250925e4",
        "4530df04ac9bd9e4",
        "6e7ba7ae405e28e0",
        "cbfece7bda400120",
    ];
    assert_eq!(names, known.into_iter().collect());
    assert_eq!(v.closed.len(), 4);
    for (c, [o1, o2]) in &v.closed {
        assert_eq!(o1, o2, "{}", c.id);
        // Each closing period is a cycle: its canonical position loops from its start.
        let (_, tricks) = on_cycle(&game, &c.position);
        assert_eq!(tricks, 62);
    }
}
