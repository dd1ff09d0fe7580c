//! The record search: sampling against a scan of the same deals, on any number of threads;
//! backward joining against forward play, on a small deck exhaustively and on the records.

use super::*;
use crate::games::bmn::backward::Node;
use crate::games::bmn::tests::RECORDS;
use crate::games::bmn::BmnRules;
use crate::rng::game_rng;

fn standard() -> Bmn {
    Bmn::new(BmnRules::britannica(13, 4, [1, 2, 3, 4])).unwrap()
}

fn go(_: u64) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

fn deck_of(game: &Bmn, deal: &str) -> Vec<u8> {
    game.parse_deal(deal).unwrap().concat()
}

/// The reference engine's cards and tricks of a deal (card by card, not the phase engine
/// that the search replays with).
fn reference(game: &Bmn, deck: &[u8]) -> (u64, u64) {
    let half = deck.len() / 2;
    let hands = [deck[..half].to_vec(), deck[half..].to_vec()];
    let p = game
        .play_hands(&hands, &mut |_, _, _| ControlFlow::Continue(()))
        .unwrap();
    assert!(matches!(p.outcome, Outcome::Player(_)), "{p:?}");
    (p.cards, p.tricks)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Sampling keeps exactly the longest games of a scan of the same deals (game i from
/// `game_rng(seed, i)`, one at a time), ties to the lower index, on 1 thread and on 3.
#[test]
fn sampling_keeps_what_a_scan_of_the_same_deals_keeps_on_any_threads() {
    let game = standard();
    let (seed, deals, keep) = (11, 2 * CHUNK + 777, 25);
    let mut s = game.scratch();
    let mut scan: Vec<(u64, u64, u64)> = (0..deals)
        .filter_map(|i| {
            let r = game.play(&mut game_rng(seed, i), &mut s);
            matches!(r.outcome, Outcome::Player(_)).then_some((
                r.rounds,
                u64::from(r.stats.tricks),
                i,
            ))
        })
        .collect();
    scan.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(&b.2)));
    scan.truncate(keep);
    let cfg = SampleConfig { seed, deals, keep };
    for threads in [1, 3] {
        let got = pool(threads).install(|| sample(&game, &cfg, &Cancel::default(), &mut go));
        assert_eq!(got.deals, deals);
        assert!(!got.stopped);
        let kept: Vec<(u64, u64, u64)> = got
            .best
            .iter()
            .map(|l| match l.how {
                How::Sampled { index } => (l.cards, l.tricks, index),
                _ => panic!("sampled only"),
            })
            .collect();
        assert_eq!(kept, scan, "{threads} threads");
        for l in &got.best {
            let How::Sampled { index } = l.how else {
                unreachable!()
            };
            assert_eq!(l.deck, game.deal_of(seed, index));
            assert_eq!(reference(&game, &l.deck), (l.cards, l.tricks));
        }
    }
}

/// A stop asked by the progress callback ends sampling after a whole batch, and says so.
#[test]
fn sampling_stops_after_a_batch_when_asked() {
    let game = Bmn::new(BmnRules::britannica(7, 2, [1, 2, 3, 4])).unwrap();
    let cfg = SampleConfig {
        seed: 3,
        deals: u64::MAX,
        keep: 3,
    };
    let got = sample(&game, &cfg, &Cancel::default(), &mut |_| {
        ControlFlow::Break(())
    });
    assert!(got.stopped);
    assert_eq!(got.deals, BATCH_CHUNKS * CHUNK);
    let cancel = Cancel::default();
    cancel.set();
    let none = sample(&game, &cfg, &cancel, &mut go);
    assert!(none.stopped && none.deals == 0 && none.best.is_empty());
}

/// Every deal of a 12-card deck (8 plain cards, J Q K A) played forward: the deals whose game
/// reaches the position before a base game's last trick (or its mirror image, the seats
/// swapped) and is longer are exactly the deals joining finds from it, with their lengths.
#[test]
fn joining_finds_every_longer_deal_of_a_small_deck() {
    let game = Bmn::new(BmnRules::britannica(12, 1, [1, 2, 3, 4])).unwrap();
    let mut all = Vec::new();
    permutations(game.deck(), &mut Vec::new(), &mut all);
    assert_eq!(all.len(), 11_880);
    // Each deal that ends: its cards, and the position before its last trick.
    let mut ends: Vec<(Vec<u8>, u64, Node)> = Vec::new();
    for deck in all {
        let p = game.play_deck(&deck, &mut game.scratch());
        if !matches!(p.outcome, Outcome::Player(_)) {
            continue;
        }
        let mut pos = Position::dealt(&deck[..6], &deck[6..]).unwrap();
        for _ in 1..p.tricks {
            pos.trick(u64::MAX);
        }
        let a: Vec<u8> = pos.hands[0].cards().collect();
        let b: Vec<u8> = pos.hands[1].cards().collect();
        ends.push((deck, p.cards, Node::new(&a, &b, pos.leader).unwrap()));
    }
    let mirror = |n: &Node| Node::new(n.hand(1), n.hand(0), n.leader() ^ 1).unwrap();
    let mut longer_found = 0;
    for k in (0..ends.len()).step_by(97) {
        let (base, cards, root) = &ends[k];
        let mut want: Vec<(Vec<u8>, u64)> = ends
            .iter()
            .filter(|e| e.1 > *cards && (e.2 == *root || e.2 == mirror(root)))
            .map(|e| (e.0.clone(), e.1))
            .collect();
        want.sort();
        let j = join(
            &game,
            base,
            &JoinConfig {
                max_positions: u64::MAX,
                keep: usize::MAX,
            },
            &Cancel::default(),
            &mut go,
        )
        .unwrap();
        assert!(j.complete && !j.stopped && j.mismatched == 0);
        assert_eq!(j.base_cards, *cards);
        let mut got: Vec<(Vec<u8>, u64)> =
            j.longer.iter().map(|l| (l.deck.clone(), l.cards)).collect();
        got.sort();
        assert_eq!(got, want, "base {}", game.show_deal(base));
        longer_found += got.len();
    }
    assert!(longer_found > 50, "{longer_found}");
}

fn permutations(left: &[u8], cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if left.is_empty() {
        out.push(cur.clone());
        return;
    }
    for i in 0..left.len() {
        if left[..i].contains(&left[i]) {
            continue;
        }
        let mut rest = left.to_vec();
        let c = rest.remove(i);
        cur.push(c);
        permutations(&rest, cur, out);
        cur.pop();
    }
}

/// The two claims: joining from Collins 2006's deal (6,913 cards) finds a deal of 7,544
/// cards, from Kleber 1999's (5,790) one of 5,914; each replays on the reference engine to the
/// cards stated, and joins the base game where it says.
#[test]
fn joining_from_collins_finds_7544_cards_and_from_kleber_5914() {
    let game = standard();
    for (who, want, deal, at, before) in [
        (
            "Collins 2006",
            7544,
            "--J--Q--A---KQ-A-----AQJQ-/--K---------------JJAK--K-",
            2,
            642,
        ),
        (
            "Kleber 1999",
            5914,
            "--J--------A--KA--KK------/--Q-J-----QJJK-A------Q-AQ",
            2,
            132,
        ),
    ] {
        let (_, base, cards, _) = RECORDS.iter().find(|r| r.0 == who).unwrap();
        let j = join(
            &game,
            &deck_of(&game, base),
            &JoinConfig {
                max_positions: u64::MAX,
                keep: 3,
            },
            &Cancel::default(),
            &mut go,
        )
        .unwrap();
        assert!(j.complete && j.mismatched == 0);
        assert_eq!(j.base_cards, *cards);
        let best = &j.longer[0];
        assert_eq!(
            (best.cards, game.show_deal(&best.deck).as_str()),
            (want, deal),
            "{who}"
        );
        assert_eq!(reference(&game, &best.deck).0, want);
        let How::Joined {
            at_trick,
            before: b,
            base_cards,
            ..
        } = best.how
        else {
            panic!("joined")
        };
        assert_eq!((at_trick, b, base_cards), (at, before, *cards));
        // Its game after `before` cards stands where the base game stands before that trick.
        let (mut p, mut q) = (position(&best.deck), position(&deck_of(&game, base)));
        let mut laid = 0;
        while laid < b {
            laid += p.trick(u64::MAX).laid;
        }
        for _ in 0..at {
            q.trick(u64::MAX);
        }
        assert_eq!(laid, b);
        assert!(p.same(&q) || mirrored(&p, &q), "{who}");
        // The deal found ends as the base game does, so its tree is the base's: joining from
        // it finds nothing longer than itself.
        let again = join(
            &game,
            &best.deck,
            &JoinConfig {
                max_positions: u64::MAX,
                keep: 3,
            },
            &Cancel::default(),
            &mut go,
        )
        .unwrap();
        assert!(again.complete && again.longer.is_empty(), "{who}");
        assert_eq!(again.positions, j.positions);
    }
}

fn position(deck: &[u8]) -> Position {
    Position::dealt(&deck[..deck.len() / 2], &deck[deck.len() / 2..]).unwrap()
}

/// The same position with the seats swapped (a deal found with player 2 to lead is written
/// seats swapped, so its game is the base game's mirror image).
fn mirrored(p: &Position, q: &Position) -> bool {
    p.leader != q.leader
        && p.hands[0].cards().eq(q.hands[1].cards())
        && p.hands[1].cards().eq(q.hands[0].cards())
}

/// A 24-card deck (J Q K A demanding 1 to 4, two plain ranks): the record search samples,
/// joins from the longest games, and every deal it reports replays on the reference engine to
/// the cards and tricks stated; the same on 1 thread and on 3.
#[test]
fn the_record_search_is_checked_and_the_same_on_any_threads() {
    let game = Bmn::new(BmnRules::britannica(6, 4, [1, 2, 3, 4])).unwrap();
    let cfg = RecordConfig {
        seed: 5,
        deals: 3 * CHUNK,
        bases: 40,
        max_positions: 1 << 20,
        keep: 12,
    };
    let run = |threads| {
        pool(threads).install(|| {
            record(&game, &cfg, &Cancel::default(), &mut |_| {
                ControlFlow::Continue(())
            })
        })
    };
    let (one, three) = (run(1), run(3));
    assert_eq!(one.best, three.best);
    assert_eq!(
        (one.joined, one.positions, one.replayed),
        (three.joined, three.positions, three.replayed)
    );
    assert_eq!((one.joined, one.mismatched, one.stopped), (40, 0, false));
    assert!(
        one.best[0].cards > one.sampled.best[0].cards,
        "joining gains"
    );
    for l in &one.best {
        assert_eq!(reference(&game, &l.deck), (l.cards, l.tricks));
    }
}
